package cli

import "testing"

func TestSplitServer(t *testing.T) {
	cases := []struct {
		in   string
		host string
		port uint16
		ok   bool
	}{
		{"localhost:7777", "localhost", 7777, true},
		{"example.org", "example.org", 7777, true},
		{"[::1]:9000", "::1", 9000, true},
		{"[::1]", "::1", 7777, true},
		{"127.0.0.1:0", "", 0, false},
		{":7777", "", 0, false},
		{"a b:1", "", 0, false},
	}
	for _, c := range cases {
		h, p, err := splitServer(c.in)
		if (err == nil) != c.ok || h != c.host || p != c.port {
			t.Errorf("splitServer(%q) = %q, %d, %v", c.in, h, p, err)
		}
	}
}

func TestSSHShare(t *testing.T) {
	cases := []struct {
		listen string
		port   int
		want   string
	}{
		{"127.0.0.1:2222", 2222, "ssh -p 2222 127.0.0.1"},
		{"127.0.0.1:0", 40001, "ssh -p 40001 127.0.0.1"},
		{"10.0.0.5:22", 22, "ssh 10.0.0.5"},
		{"[::1]:2222", 2222, "ssh -p 2222 ::1"},
	}
	for _, c := range cases {
		if got := sshShare(c.listen, c.port); got != c.want {
			t.Errorf("sshShare(%q, %d) = %q, want %q", c.listen, c.port, got, c.want)
		}
	}
}
