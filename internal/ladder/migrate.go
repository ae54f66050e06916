package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// migrate brings db up to len(list), applying each missing migration in
// its own transaction together with its row in schema_migrations, so a
// failed migration leaves the database at the version before it. It
// returns an error wrapping ErrSchemaNewer, and changes nothing, if the
// database is already past len(list).
func migrate(ctx context.Context, db *sql.DB, list []string, now func() time.Time) error {
	for {
		done, err := migrateOne(ctx, db, list, now)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration the database lacks, and reports
// whether it was up to date.
func migrateOne(ctx context.Context, db *sql.DB, list []string, now func() time.Time) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: two processes opening at once take turns
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER NOT NULL PRIMARY KEY,
	applied_at INTEGER NOT NULL
) STRICT`); err != nil {
		return false, fmt.Errorf("ladder: schema_migrations: %w", err)
	}
	var v int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return false, fmt.Errorf("ladder: schema version: %w", err)
	}
	switch {
	case v > len(list):
		return false, fmt.Errorf("%w: the database is at version %d, this program knows versions up to %d; open it with a newer ttytanks", ErrSchemaNewer, v, len(list))
	case v == len(list):
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, list[v]); err != nil {
		return false, fmt.Errorf("ladder: migration %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, v+1, now().UnixMilli()); err != nil {
		return false, fmt.Errorf("ladder: migration %d: %w", v+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("ladder: migration %d: %w", v+1, err)
	}
	return false, nil
}
