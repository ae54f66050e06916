package ladder

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"ttytanks/internal/rating"
)

// DefaultRedisPrefix starts every key of a RedisBoard unless its owner
// gives another: under the fleet's own "ttytanks:".
const DefaultRedisPrefix = "ttytanks:ladder:"

// Bounds of a RedisBoard's reads and retries.
const (
	// MaxTop is the most players one RedisBoard.Top returns: a larger n
	// is taken as MaxTop (a page of the leaderboard is one script, which
	// holds Redis while it runs).
	MaxTop = 100
	// MaxHistory is the most matches one RedisBoard.History returns: a
	// larger n is taken as MaxHistory.
	MaxHistory = 100
	// MaxAttempts is how many times a RedisBoard write is tried when
	// other writers change what it read before it commits; then it fails
	// with ErrContended.
	MaxAttempts = 100
)

// RedisBoard is the ladder in Redis, shared by the servers of a fleet: the
// same Board as Store, method by method, with ratings and names one across
// every server that opens a RedisBoard on the same Redis and prefix. It is
// safe for concurrent use, by any number of processes.
//
// The layout, under the prefix P (DefaultRedisPrefix), where HEX is a
// key's 64 hex digits and FOLD a name as foldName folds it:
//
//	P player:HEX   hash: name, fold, created (Unix ms), r, rd, sigma,
//	               matches, wins, round_wins, kills, deaths, shots, hits,
//	               seconds
//	P name:FOLD    string: the HEX of the key holding the name
//	P ranked       sorted set of the players of a rated match: member
//	               FOLD "\x00" HEX, score -r, so that ascending order is
//	               by rating, highest first, then by folded name, as
//	               Store orders its leaderboard
//	P matchid      the last match id given (INCR)
//	P match:ID     string: the match and all its rows (JSON, redisMatch)
//	P history:HEX  sorted set of the matches whose rows carry the key:
//	               member ID zero-padded to 19 digits, score its played
//	               time (Unix ms), so that descending order is History's
//
// Each name is a key of its own, not a field of one hash, because WATCH
// watches whole keys: a shared hash of names would make every claim
// anywhere in the fleet abort every match being recorded. A history
// lists all of a player's matches, not the last MaxHistory, so that
// Forget reaches every row that names them.
//
// Writes are optimistic transactions: WATCH the records a write reads,
// compute the ratings in Go, then MULTI/EXEC the writes, which Redis
// applies all or not at all, and not at all if another client changed a
// watched record meanwhile; then the write is tried again (MaxAttempts).
// Reads are Lua scripts, which Redis runs atomically. Nothing scans the
// database: every command names its keys. Transactions and scripts span
// keys of many hash slots, and the scripts of Top and History read keys
// they find rather than keys declared to them: the board wants one Redis
// (with replicas if need be), not a Redis Cluster.
//
// Redis keeps the data as its persistence is configured (RDB snapshots,
// AOF); a forgotten player stays in those files until they are
// rewritten.
type RedisBoard struct {
	rdb    *redis.Client
	prefix string
	cfg    rating.Config
	now    func() time.Time
	closed atomic.Bool
}

var _ Board = (*RedisBoard)(nil)

// NewRedisBoard returns the board in rdb's database under prefix (""
// for DefaultRedisPrefix), rating by cfg (a Store rates by
// rating.Config{Tau: rating.DefaultTau}) and telling the time by now
// (nil for time.Now). The board does not own rdb: Close leaves it open.
func NewRedisBoard(rdb *redis.Client, prefix string, cfg rating.Config, now func() time.Time) *RedisBoard {
	if prefix == "" {
		prefix = DefaultRedisPrefix
	}
	if now == nil {
		now = time.Now
	}
	return &RedisBoard{rdb: rdb, prefix: prefix, cfg: cfg, now: now}
}

// Close closes the board: later calls return ErrClosed. The Redis client
// stays open for its owner to close.
func (b *RedisBoard) Close() error {
	b.closed.Store(true)
	return nil
}

// open returns ErrClosed after Close.
func (b *RedisBoard) open() error {
	if b.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Ranked returns how many players have played at least one rated match.
func (b *RedisBoard) Ranked(ctx context.Context) (int, error) {
	if err := b.open(); err != nil {
		return 0, err
	}
	n, err := b.rdb.ZCard(ctx, b.rankedKey()).Result()
	if err != nil {
		return 0, fmt.Errorf("ladder: ranked: %w", err)
	}
	return int(n), nil
}

// The keys and members of the layout.

func (b *RedisBoard) playerKey(k Key) string     { return b.playerPrefix() + keyHex(k) }
func (b *RedisBoard) playerPrefix() string       { return b.prefix + "player:" }
func (b *RedisBoard) nameKey(fold string) string { return b.prefix + "name:" + fold }
func (b *RedisBoard) rankedKey() string          { return b.prefix + "ranked" }
func (b *RedisBoard) matchIDKey() string         { return b.prefix + "matchid" }
func (b *RedisBoard) matchKey(id int64) string   { return b.matchPrefix() + strconv.FormatInt(id, 10) }
func (b *RedisBoard) matchPrefix() string        { return b.prefix + "match:" }
func (b *RedisBoard) historyKey(k Key) string    { return b.prefix + "history:" + keyHex(k) }

// rankedMember is the member of P ranked of the player of k, whose name
// folds to fold.
func rankedMember(fold string, k Key) string { return fold + "\x00" + keyHex(k) }

// historyMember is the member of a P history:HEX of match id.
func historyMember(id int64) string { return fmt.Sprintf("%019d", id) }

// keyHex is k in the layout: 64 lower-case hex digits.
func keyHex(k Key) string { return hex.EncodeToString(k[:]) }

// parseKeyHex returns the Key whose keyHex is s.
func parseKeyHex(s string) (Key, error) {
	var k Key
	if len(s) != hex.EncodedLen(len(k)) {
		return k, fmt.Errorf("a player key of %d hex digits", len(s))
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return k, err
	}
	return k, nil
}

// watch runs fn as an optimistic transaction over keys: fn reads under
// WATCH and ends in TxPipelined. If a watched key changed before EXEC,
// watch backs off and tries again, MaxAttempts times in all, then
// returns an error wrapping ErrContended. fn wraps its own errors; an
// error of fn's other than redis.TxFailedErr ends the write at once.
func (b *RedisBoard) watch(ctx context.Context, op string, fn func(*redis.Tx) error, keys ...string) error {
	for attempt := range MaxAttempts {
		err := b.rdb.Watch(ctx, func(tx *redis.Tx) error {
			if len(keys) > 0 { // none for a match of bots and guests alone
				if err := tx.Watch(ctx, keys...).Err(); err != nil {
					return fmt.Errorf("ladder: %s: %w", op, err)
				}
			}
			return fn(tx)
		})
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		if err := backoff(ctx, attempt); err != nil {
			return fmt.Errorf("ladder: %s: %w", op, err)
		}
	}
	return fmt.Errorf("ladder: %s: %w", op, ErrContended)
}

// backoff waits a random time of up to 100 µs doubled attempt times, at
// most 25.6 ms, so that writers that keep colliding spread apart; an
// error if ctx ends first.
func backoff(ctx context.Context, attempt int) error {
	limit := 100 * time.Microsecond << min(attempt, 8)
	t := time.NewTimer(rand.N(limit) + 1)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
