package cli

import "testing"

func TestPlayerNameStripsControls(t *testing.T) {
	cases := []struct{ in, want string }{
		{"bob", "bob"},
		{"b\x07o\x1b[31mb", "bob"},
		{"  ann  ", "ann"},
		{"a-very-long-name-that-goes-on", "a-very-long-name"},
	}
	for _, c := range cases {
		got, err := playerName(c.in)
		if err != nil || got != c.want {
			t.Errorf("playerName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestDemoNamesDiffer: in the two-terminal demo (serve --play here, join
// there, both without --name) the two players get different names.
func TestDemoNamesDiffer(t *testing.T) {
	t.Setenv("USER", "ann")
	if h, j := hostName(), defaultName(); h == j {
		t.Errorf("serve --play and join both default to %q", h)
	}
}
