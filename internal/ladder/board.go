package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

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
	// Holder returns the key whose record holds name (names compare as
	// strings.EqualFold does); false if none does.
	Holder(ctx context.Context, name string) (Key, bool, error)
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

var (
	_ Board = (*Store)(nil)
	_ Board = (*RedisBoard)(nil)
)

// ValidName reports whether a player of the ladder may hold name: not
// empty, as proto.SanitizeName leaves it, and not ForgottenName.
func ValidName(name string) bool { return validName(name) }

// Holder returns the key whose record holds name; false if none does.
func (s *Store) Holder(ctx context.Context, name string) (Key, bool, error) {
	var k []byte
	err := s.db.QueryRowContext(ctx, `SELECT key FROM players WHERE name_fold = ?`, foldName(name)).Scan(&k)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Key{}, false, nil
	case err != nil:
		return Key{}, false, fmt.Errorf("ladder: holder: %w", err)
	case len(k) != len(Key{}):
		return Key{}, false, fmt.Errorf("ladder: a player key of %d bytes", len(k))
	}
	return Key(k), true, nil
}

// Holder returns the key whose record holds name; false if none does.
func (b *RedisBoard) Holder(ctx context.Context, name string) (Key, bool, error) {
	if err := b.open(); err != nil {
		return Key{}, false, err
	}
	h, err := b.rdb.Get(ctx, b.nameKey(foldName(name))).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return Key{}, false, nil
	case err != nil:
		return Key{}, false, fmt.Errorf("ladder: holder: %w", err)
	}
	k, err := parseKeyHex(h)
	if err != nil {
		return Key{}, false, fmt.Errorf("ladder: holder: %w", err)
	}
	return k, true, nil
}

// Ranked returns how many players have played at least one rated match:
// the length of the leaderboard.
func (s *Store) Ranked(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM players WHERE matches > 0`).Scan(&n); err != nil {
		return 0, err
	}
	return n, nil
}
