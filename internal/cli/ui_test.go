package cli

import (
	"io"
	"testing"
)

// TestBellFlag: join's --bell reaches the screen's options (tui.Options.Bell);
// without it the bell is off.
func TestBellFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--bell"}, true}, {[]string{"--bell=false"}, false}} {
		fs := newFlagSet("join", "join", io.Discard)
		var f joinFlags
		f.register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got := f.ui.options("").Bell; got != tt.want {
			t.Errorf("join %q: Bell %v, want %v", tt.args, got, tt.want)
		}
	}
}
