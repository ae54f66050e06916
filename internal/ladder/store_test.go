package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenTwice opens a database a second time: no migration runs again
// and the data is kept.
func TestOpenTwice(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ladder.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 2, 1)); err != nil {
		t.Fatal(err)
	}
	applied := count(t, s, `SELECT applied_at FROM schema_migrations WHERE version = 1`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	if n := count(t, s, `SELECT count(*) FROM schema_migrations`); n != len(migrations) {
		t.Errorf("%d rows of schema_migrations, want %d", n, len(migrations))
	}
	if at := count(t, s, `SELECT applied_at FROM schema_migrations WHERE version = 1`); at != applied {
		t.Errorf("migration 1 applied at %d, then %d: it ran again", applied, at)
	}
	if p, ok, err := s.Player(ctx, testKey(1)); err != nil || !ok || p.Matches != 1 {
		t.Errorf("Player(alice) after reopening = %+v, %v, %v; want her one match", p, ok, err)
	}
}

// TestOpenNewerSchema refuses a database a newer program has migrated.
func TestOpenNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	newer := len(migrations) + 1
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`, newer); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open of a newer database succeeded")
	}
	if !errors.Is(err, ErrSchemaNewer) || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("Open: %v, want ErrSchemaNewer naming version 2", err)
	}
}

// TestMigrationFailsWhole runs a migration whose second statement fails:
// its first statement is undone with it and the version stays, and the
// migrations after a fixed one run in order.
func TestMigrationFailsWhole(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	bad := append(migrations[:len(migrations):len(migrations)],
		`CREATE TABLE extra (x INTEGER); INSERT INTO nowhere VALUES (1);`)
	if err := migrate(ctx, s.db, bad, s.now); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("migrate with a bad migration: %v, want its error", err)
	}
	if n := count(t, s, `SELECT count(*) FROM sqlite_schema WHERE name = 'extra'`); n != 0 {
		t.Error("the failed migration's table is there")
	}
	if v := count(t, s, `SELECT max(version) FROM schema_migrations`); v != len(migrations) {
		t.Errorf("version %d after a failed migration, want %d", v, len(migrations))
	}
	good := append(migrations[:len(migrations):len(migrations)],
		`CREATE TABLE extra (x INTEGER) STRICT;`,
		`INSERT INTO extra VALUES (7);`) // needs the one before
	if err := migrate(ctx, s.db, good, s.now); err != nil {
		t.Fatal(err)
	}
	if v := count(t, s, `SELECT max(version) FROM schema_migrations`); v != len(good) {
		t.Errorf("version %d, want %d", v, len(good))
	}
	if x := count(t, s, `SELECT x FROM extra`); x != 7 {
		t.Errorf("extra holds %d, want 7", x)
	}
}

// TestOpenPragmas checks the settings of two connections at once: each
// connection of the pool gets them, not only the first.
func TestOpenPragmas(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	want := map[string]string{
		"journal_mode":  "wal",
		"synchronous":   "1", // NORMAL
		"foreign_keys":  "1",
		"secure_delete": "1",
		"busy_timeout":  "5000",
	}
	var conns []*sql.Conn
	for range 2 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		for name, v := range want {
			var got string
			if err := c.QueryRowContext(ctx, `PRAGMA `+name).Scan(&got); err != nil || got != v {
				t.Errorf("connection %d: PRAGMA %s = %q, %v; want %q", i, name, got, err, v)
			}
		}
	}
}

// TestOpenOddPath opens a file whose name holds the characters of a URI's
// query, fragment and escapes.
func TestOpenOddPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new dir", "a?b#c%41 d.db")
	s := openAt(t, path)
	if _, err := s.RecordMatch(context.Background(), duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 2, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at its path: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "a?b#c%41 d.db") {
			t.Errorf("a stray file %q beside the database", e.Name())
		}
	}
}

// TestBackup copies the database and opens the copy.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 2, 1)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, path); err == nil {
		t.Error("a second Backup over the first succeeded")
	}
	if _, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Minute), testKey(1), testKey(2), "alice", "bob", 2, 1)); err != nil {
		t.Fatal(err)
	}
	b := openAt(t, path)
	if err := b.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	want, _, _ := s.Player(ctx, testKey(1))
	got, ok, err := b.Player(ctx, testKey(1))
	if err != nil || !ok || got.Matches != 1 || want.Matches != 2 {
		t.Errorf("alice in the backup: %+v, %v, %v; want the one match before it (the store has %d)", got, ok, err, want.Matches)
	}
	if err := s.Backup(ctx, filepath.Join(t.TempDir(), "no", "such", "dir.db")); err == nil {
		t.Error("Backup into a missing directory succeeded")
	}
}

// TestIntegrityCheck checks a good database, then one whose index has
// been struck from the schema (its pages now belong to nothing), then one
// with a page of an index overwritten.
func TestIntegrityCheck(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ladder.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(2*i), testKey(2*i+1), fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), 2, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`PRAGMA writable_schema = ON`,
		`DELETE FROM sqlite_schema WHERE name = 'match_players_by_player'`,
		`PRAGMA writable_schema = OFF`,
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	c.Close()
	s.Close() // a connection keeps the schema it read: open the file afresh
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(ctx); err == nil || !strings.Contains(err.Error(), "never used") {
		t.Errorf("IntegrityCheck with an index's pages orphaned: %v, want pages never used", err)
	}

	var page int
	if err := s.db.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = 'players_by_rating'`).Scan(&page); err != nil {
		t.Fatal(err)
	}
	s.Close() // the last connection's close checkpoints the WAL into the file
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096
	junk := []byte(strings.Repeat("\x0d\x00\x07\xff", 16)) // a leaf header whose cells point past the page
	if _, err := f.WriteAt(junk, int64(page-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s = openAt(t, path)
	if err := s.IntegrityCheck(ctx); err == nil {
		t.Error("IntegrityCheck of a database with a page overwritten: ok")
	}
}
