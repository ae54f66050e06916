package ladder

import "context"

// Board is what a server asks of a ladder: the names keys hold, the
// matches it records and rates, the leaderboard and each player's record.
// Store (SQLite, one server) is one; a fleet shares one in Redis
// (RedisBoard), so that a rating earned on one server shows on all.
//
// Every method is safe for concurrent use, and each write is atomic: it
// happens all or not at all.
type Board interface {
	// ClaimName gives name to the player of key (see Store.ClaimName);
	// ErrNameTaken if another key holds it.
	ClaimName(ctx context.Context, key Key, name string) error
	// RecordMatch records and rates a finished match (see
	// Store.RecordMatch).
	RecordMatch(ctx context.Context, m Match) (Outcome, error)
	// Player returns the record of key, with its Rank; false if none.
	Player(ctx context.Context, key Key) (PlayerRecord, bool, error)
	// Top returns at most n ranked players from the offset-th best.
	Top(ctx context.Context, n, offset int) ([]PlayerRecord, error)
	// Ranked returns how many players have played a rated match.
	Ranked(ctx context.Context) (int, error)
	// History returns the last n matches of key, newest first.
	History(ctx context.Context, key Key, n int) ([]MatchRecord, error)
	// Forget deletes key's record (see Store.Forget); ErrNoPlayer if none.
	Forget(ctx context.Context, key Key) error
	// Close releases the board.
	Close() error
}

var _ Board = (*Store)(nil)

// Ranked returns how many players have played at least one rated match:
// the length of the leaderboard.
func (s *Store) Ranked(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM players WHERE matches > 0`).Scan(&n); err != nil {
		return 0, err
	}
	return n, nil
}
