package sshterm

import "testing"

func TestLocaleUTF8(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{[]string{}, true}, // nothing sent: assume UTF-8, as tcell does
		{[]string{"LANG=en_GB.UTF-8"}, true},
		{[]string{"LANG=de_DE.utf8@euro"}, true},
		{[]string{"LANG=C"}, false},
		{[]string{"LANG=POSIX"}, false},
		{[]string{"LANG=en_US.ISO-8859-1"}, false},
		{[]string{"LANG=en_US.UTF-8", "LC_ALL=C"}, false},
		{[]string{"LANG=C", "LC_CTYPE=C.UTF-8"}, true},
		{[]string{"LANG=en_US"}, true},
	} {
		if got := localeUTF8(tc.env); got != tc.want {
			t.Errorf("localeUTF8(%q) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestLookupTerm(t *testing.T) {
	for _, tc := range []struct{ term, want string }{
		{"xterm-256color", "xterm-256color"},
		{"screen", "screen"},
		{"tmux-256color", "tmux-256color"},
		{"", FallbackTerm},
		{"no-such-terminal", FallbackTerm},
		{"../../etc/passwd", FallbackTerm},
	} {
		got, ti := lookupTerm(tc.term)
		if got != tc.want || ti == nil {
			t.Errorf("lookupTerm(%q) = %q, %v; want %q", tc.term, got, ti != nil, tc.want)
		}
	}
}
