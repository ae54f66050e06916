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
