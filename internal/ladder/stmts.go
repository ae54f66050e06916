package ladder

import (
	"context"
	"database/sql"
)

// stmt returns query prepared for tx. Each query is prepared once for the
// Store and then once on each connection that runs it (database/sql keeps
// a statement's per-connection copies): parsing the SQL of every
// statement of every match costs more than running it.
func (s *Store) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stmts[query]
	if !ok {
		var err error
		if st, err = s.db.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		s.stmts[query] = st
	}
	return tx.StmtContext(ctx, st), nil // closed with tx
}

// exec runs query in tx, prepared.
func (s *Store) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.stmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// scanRow runs query in tx, prepared, and scans its first row into dest;
// sql.ErrNoRows if there is none.
func (s *Store) scanRow(ctx context.Context, tx *sql.Tx, query string, args []any, dest ...any) error {
	st, err := s.stmt(ctx, tx, query)
	if err != nil {
		return err
	}
	return st.QueryRowContext(ctx, args...).Scan(dest...)
}

// query runs query in tx, prepared.
func (s *Store) query(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}
