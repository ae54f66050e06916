package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go

	"ttytanks/internal/rating"
)

// BusyTimeout is how long a statement waits for another connection's or
// process's write lock before it fails with SQLITE_BUSY.
const BusyTimeout = 5 * time.Second

// Store is the ladder's database. It is safe for concurrent use, and
// several processes may open one file: writes take the database's write
// lock at BEGIN (BEGIN IMMEDIATE) and wait up to BusyTimeout for it.
type Store struct {
	db  *sql.DB
	cfg rating.Config
	now func() time.Time // ClaimName's created_at, migrations' applied_at

	mu    sync.Mutex           // guards stmts
	stmts map[string]*sql.Stmt // by query: see stmt
}

// Open opens the ladder database at path, creating the file (mode 0600)
// and its directory (0700) if they do not exist, and brings its schema up
// to date. An existing file keeps its mode.
//
// Every connection runs in WAL journal mode with synchronous=NORMAL,
// foreign_keys=ON, secure_delete=ON and a busy timeout of BusyTimeout.
// NORMAL, not FULL: in WAL mode a commit is in the WAL once its write()
// returns, so it survives the process being killed (kill -9) at any point;
// FULL's fsync of every commit buys survival of a power loss or kernel
// crash too, which here may roll back the last matches but never corrupts
// the file.
//
// Open returns an error wrapping ErrSchemaNewer for a database written by
// a newer program, and ErrNotWAL if SQLite would not use WAL mode.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	dsn, err := dataSource(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	s := &Store{db: db, cfg: rating.Config{Tau: rating.DefaultTau}, now: time.Now, stmts: map[string]*sql.Stmt{}}
	ctx := context.Background()
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		db.Close()
		return nil, fmt.Errorf("ladder: open %s: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		db.Close()
		return nil, fmt.Errorf("%w: %s is in %s mode", ErrNotWAL, path, mode)
	}
	if err := migrate(ctx, db, migrations, s.now); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// SetRating makes the store rate matches by cfg (Open's: τ 0.5, the
// paper's); call it before the store is used.
func (s *Store) SetRating(cfg rating.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	s.cfg = cfg
	return nil
}

// dataSource returns the driver's data source name for the file at path:
// a file: URI, so that a path holding '?', '#' or '%' names that file,
// with the pragmas every connection runs as it opens.
func dataSource(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("ladder: %w", err)
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/…
	}
	q := url.Values{}
	for _, pragma := range []string{
		fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		"foreign_keys(ON)",
		"secure_delete(ON)",
	} {
		q.Add("_pragma", pragma)
	}
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String(), nil
}

// Close closes the database. Calls on s after Close return errors.
func (s *Store) Close() error {
	s.mu.Lock()
	for q, st := range s.stmts {
		st.Close()
		delete(s.stmts, q)
	}
	s.mu.Unlock()
	return s.db.Close()
}

// Backup writes a consistent copy of the database to path, a new file of
// mode 0600 (VACUUM INTO). It fails if path exists; on failure it leaves
// no file there. Recording continues meanwhile.
func (s *Store) Backup(ctx context.Context, path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("ladder: backup: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("ladder: backup: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("ladder: backup: %w", err)
	}
	return nil
}

// IntegrityCheck runs PRAGMA integrity_check and returns an error listing
// what it found unless it says "ok".
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("ladder: integrity check: %w", err)
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("ladder: integrity check: %w", err)
		}
		found = append(found, line)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("ladder: integrity check: %w", err)
	}
	if len(found) == 1 && found[0] == "ok" {
		return nil
	}
	return errors.New("ladder: integrity check: " + strings.Join(found, "; "))
}
