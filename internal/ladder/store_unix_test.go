//go:build unix

package ladder

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenFileModes checks that Open makes its directory 0700 and the
// database 0600, and that SQLite gives the WAL and its index the
// database's mode.
func TestOpenFileModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "ladder")
	path := filepath.Join(dir, "ladder.db")
	s := openAt(t, path)
	if _, err := s.RecordMatch(context.Background(), duel(time.Now(), testKey(1), testKey(2), "alice", "bob", 1, 0)); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]os.FileMode{
		dir:           0o700 | os.ModeDir,
		path:          0o600,
		path + "-wal": 0o600,
		path + "-shm": 0o600,
	} {
		fi, err := os.Stat(file)
		if err != nil {
			t.Error(err)
			continue
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", file, fi.Mode(), want)
		}
	}
	backup := filepath.Join(t.TempDir(), "b.db")
	if err := s.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(backup); err != nil || fi.Mode() != 0o600 {
		t.Errorf("backup: %v, %v; want mode 0600", fi.Mode(), err)
	}
}
