package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeLadderUsage: the ladder's flags refuse what would do nothing
// or the wrong thing: a --db on a server without a ladder, a --tau out of
// range, and a --db-backup of a database that is not there (opening it
// would make an empty one, and the copy would be of nothing).
func TestServeLadderUsage(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--ladder=false", "--db", missing}, "--db needs the ladder"},
		{[]string{"--ladder", "--tau", "5"}, "--tau 5: must be"},
		{[]string{"--ladder", "--db", missing, "--db-backup", filepath.Join(dir, "copy.db")}, "no database to back up"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := Serve("test", append([]string{"--addr", "127.0.0.1:0", "--key", filepath.Join(dir, "key")}, tt.args...), io.Discard, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("serve %q: exit %d, %q; want a failure saying %q", tt.args, code, stderr.String(), tt.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a refused --db-backup made the database it backs up")
	}
}

// TestServeTrustHelpSaysItRates: serve --help's --trust says it does more
// than lift the limits: the players of a trusted range are rated against
// each other (PROTOCOL.md §4.15), which a host whose players share an
// address looks for when their ranked matches go unrated.
func TestServeTrustHelpSaysItRates(t *testing.T) {
	var help bytes.Buffer
	Serve("test", []string{"--help"}, &help, io.Discard)
	for _, line := range strings.Split(help.String(), "\n") {
		if strings.Contains(line, "--trust") {
			if !strings.Contains(line, "rated against each other") {
				t.Errorf("serve --help's --trust: %q; want it to say its players are rated against each other", line)
			}
			return
		}
	}
	t.Errorf("serve --help has no --trust:\n%s", help.String())
}
