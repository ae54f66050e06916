package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"ttytanks/internal/fleet"
	"ttytanks/internal/ladder"
	"ttytanks/internal/rating"
	"ttytanks/known"
)

// ladderFlags are serve's flags of the ranked ladder (PROTOCOL.md
// §4.15): whether there is one, its database, a backup of it, and τ.
type ladderFlags struct {
	on     bool
	db     string
	backup string
	tau    float64
}

// ladderFile is the ladder database's file name under the state
// directory.
const ladderFile = "ladder.db"

func (f *ladderFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.on, "ladder", true, "keep a ranked ladder: players' names held by their key, a Glicko-2 rating after each match of a room without bots, a leaderboard (--ladder=false: every room casual)")
	fs.StringVar(&f.db, "db", "", "the ladder's SQLite database (default $XDG_STATE_HOME/ttytanks/ladder.db); with --fleet, the ladder is the fleet's, in its Redis, and this file is not used")
	fs.StringVar(&f.backup, "db-backup", "", "write a consistent copy of the ladder's database (--db) to this new file, while servers may use it, and exit")
	fs.Float64Var(&f.tau, "tau", rating.DefaultTau, fmt.Sprintf("Glicko-2's τ: how fast a player's volatility may change (%v to %v; Glickman suggests 0.3 to 1.2)", rating.MinTau, rating.MaxTau))
}

func (f *ladderFlags) check() error {
	if err := (rating.Config{Tau: f.tau}).Validate(); err != nil {
		return fmt.Errorf("--tau %v: must be %v to %v", f.tau, rating.MinTau, rating.MaxTau)
	}
	if f.backup != "" && !f.on {
		return fmt.Errorf("--db-backup needs the ladder (not --ladder=false)")
	}
	if f.db != "" && !f.on {
		return fmt.Errorf("--db needs the ladder (not --ladder=false): a server without one keeps no database")
	}
	return nil
}

// path returns the database's file.
func (f *ladderFlags) path() (string, error) {
	if f.db != "" {
		return f.db, nil
	}
	dir, err := known.DefaultPlayerKeyPath() // the state directory's
	if err != nil {
		return "", fmt.Errorf("no place for the ladder's database (set --db): %w", err)
	}
	return filepath.Join(filepath.Dir(dir), ladderFile), nil
}

// openSQLite opens the ladder's SQLite database.
func (f *ladderFlags) openSQLite(logger *slog.Logger) (*ladder.Store, string, error) {
	path, err := f.path()
	if err != nil {
		return nil, "", err
	}
	st, err := ladder.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("--db: %w", err)
	}
	if err := st.SetRating(rating.Config{Tau: f.tau}); err != nil {
		st.Close()
		return nil, "", err
	}
	return st, path, nil
}

// open opens the server's ladder: nil without one; with a fleet
// (fleetURL, password), the fleet's, in its Redis.
func (f *ladderFlags) open(fleetURL, password string, logger *slog.Logger) (ladder.Board, func(), error) {
	if !f.on {
		return nil, func() {}, nil
	}
	if fleetURL != "" {
		rdb, err := fleet.NewClient(fleetURL, password)
		if err != nil {
			return nil, nil, err
		}
		b := ladder.NewRedisBoard(rdb, ladder.DefaultRedisPrefix, rating.Config{Tau: f.tau}, nil)
		logger.Info("ladder", "store", "the fleet's Redis", "tau", f.tau)
		return b, func() { b.Close(); rdb.Close() }, nil
	}
	b, err := f.openFile(logger)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { b.Close() }, nil
}

// openFile opens the ladder's SQLite database and logs it.
func (f *ladderFlags) openFile(logger *slog.Logger) (ladder.Board, error) {
	st, path, err := f.openSQLite(logger)
	if err != nil {
		return nil, err
	}
	n, err := st.Ranked(context.Background())
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("--db %s: %w", path, err)
	}
	logger.Info("ladder", "db", path, "ranked", n, "tau", f.tau)
	return st, nil
}

// writeBackup writes --db-backup's copy and reports it.
func (f *ladderFlags) writeBackup(stdout interface{ Write([]byte) (int, error) }) error {
	path, err := f.path()
	if err != nil {
		return err
	}
	// Opening makes a database where there is none: a backup of nothing
	// is a mistake (a wrong --db), not an empty copy.
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("--db-backup: no database to back up at %s (give its file with --db): %w", path, err)
	}
	st, path, err := f.openSQLite(slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	if err := st.Backup(ctx, f.backup); err != nil {
		return fmt.Errorf("--db-backup: %w", err)
	}
	back, err := ladder.Open(f.backup)
	if err != nil {
		return fmt.Errorf("--db-backup: the copy does not open: %w", err)
	}
	defer back.Close()
	if err := back.IntegrityCheck(ctx); err != nil {
		return fmt.Errorf("--db-backup: the copy: %w", err)
	}
	n, err := back.Ranked(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s: %d ranked players, integrity ok\n", path, f.backup, n)
	return nil
}
