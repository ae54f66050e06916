package ladder

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"ttytanks/internal/rating"
	"ttytanks/internal/redistest"
)

// TestRedisBoard holds RedisBoard to Board's behaviour, each subtest on
// a redis-server of its own.
func TestRedisBoard(t *testing.T) {
	testBoard(t, func(t *testing.T) Board { return openRedis(t) })
}

// openRedis starts a redis-server for t and returns a board on it.
func openRedis(t testing.TB) *RedisBoard {
	t.Helper()
	return redisBoardOn(t, redistest.Start(t), DefaultRedisPrefix)
}

// redisBoardOn returns a board under prefix on r, with a client of its
// own, as each server of a fleet has; both closed when t ends.
func redisBoardOn(t testing.TB, r *redistest.Redis, prefix string) *RedisBoard {
	t.Helper()
	rdb := redisClient(t, r)
	b := NewRedisBoard(rdb, prefix, rating.Config{Tau: rating.DefaultTau}, nil)
	t.Cleanup(func() { b.Close() })
	return b
}

// redisClient returns a client of r, closed when t ends.
func redisClient(t testing.TB, r *redistest.Redis) *redis.Client {
	rdb := redis.NewClient(&redis.Options{
		Addr:                     r.Addr(),
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// TestRedisFleet runs two boards, each with its own client, on one
// Redis, as two servers of a fleet: each sees the other's names,
// ratings and forgetting, and their concurrent matches of the same
// players lose no update.
func TestRedisFleet(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	one, two := redisBoardOn(t, r, DefaultRedisPrefix), redisBoardOn(t, r, DefaultRedisPrefix)
	a, b, c := testKey(1), testKey(2), testKey(3)
	if err := one.ClaimName(ctx, a, "Émile"); err != nil {
		t.Fatal(err)
	}
	if err := two.ClaimName(ctx, c, "émile"); !errors.As(err, new(ErrNameTaken)) {
		t.Errorf("ClaimName(émile) on the second server = %v, want ErrNameTaken: the first gave it to a", err)
	}
	out, err := two.RecordMatch(ctx, duel(testEpoch, a, b, "Émile", "bob", 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	p, ok, err := one.Player(ctx, a)
	if err != nil || !ok || p.Rating != out.Players[0].After || p.Rank != 1 || p.Matches != 1 {
		t.Errorf("the first server's Player(Émile) = %+v, %v, %v; want the rating the second gave, rank 1", p, ok, err)
	}

	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for w := range 2 * writers {
		board := []*RedisBoard{one, two}[w%2]
		wg.Go(func() {
			for i := range each {
				if _, err := board.RecordMatch(ctx, duel(testEpoch, a, b, "Émile", "bob", i%2, 1)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, k := range []Key{a, b} {
		p1, _, _ := one.Player(ctx, k)
		p2, _, _ := two.Player(ctx, k)
		if p1 != p2 || p1.Matches != 1+2*writers*each {
			t.Errorf("the servers' records of %s: %d and %d matches, want both %d and equal", p1.Name, p1.Matches, p2.Matches, 1+2*writers*each)
		}
	}
	if err := one.Forget(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := two.ClaimName(ctx, c, "émile"); err != nil {
		t.Errorf("ClaimName(émile) on the second server after the first forgot its holder: %v", err)
	}
	if top, err := two.Top(ctx, 10, 0); err != nil || len(top) != 1 || top[0].Key != b {
		t.Errorf("the second server's Top = %+v, %v; want bob alone", top, err)
	}
}

// TestRedisLayout checks that a board keeps to its prefix, that boards
// under two prefixes of one Redis are apart, and that Forget leaves no
// key or value holding the forgotten player's name or key.
func TestRedisLayout(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	const other = "elsewhere:"
	s, o := redisBoardOn(t, r, DefaultRedisPrefix), redisBoardOn(t, r, other)
	a, b, c := testKey(1), testKey(2), testKey(3)
	const gone = "Zanzibar"
	for _, m := range []Match{
		duel(testEpoch, a, b, gone, "bob", 3, 1),
		duel(testEpoch.Add(time.Minute), c, a, "cat", "ZANZIBAR", 0, 3),
		{PlayedAt: testEpoch, Room: "solo", Players: []MatchPlayer{{Key: a, Name: gone}, {Name: "bot", Slot: 1}}},
	} {
		if _, err := s.RecordMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.ClaimName(ctx, c, gone); err != nil {
		t.Errorf("ClaimName(%s) under another prefix: %v", gone, err)
	}
	if n, _ := o.Ranked(ctx); n != 0 {
		t.Errorf("Ranked under another prefix = %d, want 0", n)
	}
	rdb := redisClient(t, r)
	hex := keyHex(a)
	before := dump(t, rdb)
	if !strings.Contains(before, hex) || !strings.Contains(before, "ZANZIBAR") {
		t.Fatalf("the dump holds neither a's key nor her name: the check below would prove nothing\n%s", before)
	}
	if err := s.Forget(ctx, a); err != nil {
		t.Fatal(err)
	}
	after := dump(t, rdb)
	for _, line := range strings.Split(after, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, DefaultRedisPrefix) && !strings.HasPrefix(line, other) {
			t.Errorf("a key outside both prefixes: %q", line)
		}
		if strings.HasPrefix(line, other) {
			continue // o's own claim of the name
		}
		if strings.Contains(line, hex) || strings.Contains(strings.ToUpper(line), strings.ToUpper(gone)) {
			t.Errorf("after Forget, still there: %q", line)
		}
	}
}

// TestRedisForgetRaces forgets players while others write the records
// Forget rewrites: unrated matches joining a history, and the Forget of
// another player of the same matches. Whatever the order, no record
// keeps a forgotten key.
func TestRedisForgetRaces(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	s := redisBoardOn(t, r, DefaultRedisPrefix)
	rdb := redisClient(t, r)
	a, b := testKey(1), testKey(2)
	for round := range 10 {
		// Unrated matches of a, who has a record, join her history as
		// she is forgotten.
		if err := s.ClaimName(ctx, a, "alice"); err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := range 10 {
					solo := Match{PlayedAt: testEpoch, Room: "solo", Players: []MatchPlayer{{Key: a, Name: "alice"}, {Name: "bot", Slot: 1}}}
					if _, err := s.RecordMatch(ctx, solo); err != nil {
						t.Error(err)
					}
					if w == 0 && i == 0 {
						close(started)
					}
				}
			})
		}
		<-started
		if err := s.Forget(ctx, a); err != nil {
			t.Error(err)
		}
		wg.Wait()

		// Two players of the same matches forgotten at once.
		for i := range 5 {
			if _, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Duration(i)*time.Second), a, b, "alice", "bob", 1, 0)); err != nil {
				t.Fatal(err)
			}
		}
		wg.Go(func() {
			if err := s.Forget(ctx, a); err != nil {
				t.Error(err)
			}
		})
		if err := s.Forget(ctx, b); err != nil {
			t.Error(err)
		}
		wg.Wait()
		d := dump(t, rdb)
		for _, k := range []Key{a, b} {
			if strings.Contains(d, keyHex(k)) {
				t.Fatalf("round %d: a forgotten key is still there:\n%s", round, d)
			}
		}
	}
}

// dump returns every key of rdb's database and its content, a line each:
// the test's own redis-server, small enough to list whole.
func dump(t *testing.T, rdb *redis.Client) string {
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, k := range keys {
		var v any
		switch typ := rdb.Type(ctx, k).Val(); typ {
		case "string":
			v = rdb.Get(ctx, k).Val()
		case "hash":
			v = rdb.HGetAll(ctx, k).Val()
		case "zset":
			v = rdb.ZRangeWithScores(ctx, k, 0, -1).Val()
		default:
			t.Fatalf("%s is a %s", k, typ)
		}
		fmt.Fprintf(&b, "%s %v\n", k, v)
	}
	return b.String()
}

// TestRedisBounds checks that Top and History return at most MaxTop and
// MaxHistory, and what lies past them through paging.
func TestRedisBounds(t *testing.T) {
	ctx := context.Background()
	s := openRedis(t)
	seedRedis(t, s, MaxTop+10)
	top, err := s.Top(ctx, 1000, 0)
	if err != nil || len(top) != MaxTop {
		t.Fatalf("Top(1000) = %d players, %v; want MaxTop (%d)", len(top), err, MaxTop)
	}
	if rest, err := s.Top(ctx, 1000, MaxTop); err != nil || len(rest) != 10 || rest[0].Rank < top[MaxTop-1].Rank {
		t.Errorf("Top(1000, MaxTop) = %d players, %v; want the last 10", len(rest), err)
	}
	a, b := testKey(1), testKey(2)
	for i := range MaxHistory + 5 {
		if _, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Duration(i)*time.Second), a, b, "alice", "bob", 1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.History(ctx, a, MaxHistory+5)
	if err != nil || len(h) != MaxHistory || !h[0].PlayedAt.Equal(testEpoch.Add((MaxHistory+4)*time.Second)) {
		t.Errorf("History(MaxHistory+5) = %d matches, %v; want the last MaxHistory (%d)", len(h), err, MaxHistory)
	}
}

// TestRedisClosed checks that a closed board refuses every call, and
// leaves its client open.
func TestRedisClosed(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	rdb := redisClient(t, r)
	s := NewRedisBoard(rdb, "", rating.Config{Tau: rating.DefaultTau}, nil)
	if err := s.ClaimName(ctx, testKey(1), "alice"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, _, errPlayer := s.Player(ctx, testKey(1))
	_, errTop := s.Top(ctx, 1, 0)
	_, errRanked := s.Ranked(ctx)
	_, errHistory := s.History(ctx, testKey(1), 1)
	_, errMatch := s.RecordMatch(ctx, duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 1, 0))
	for i, err := range []error{s.ClaimName(ctx, testKey(2), "bob"), errPlayer, errTop, errRanked, errHistory, errMatch, s.Forget(ctx, testKey(1))} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("call %d after Close: %v, want ErrClosed", i, err)
		}
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Errorf("the client after the board's Close: %v", err)
	}
}

// TestRedisDown checks that a board whose Redis has gone returns errors,
// and works again once Redis is back.
func TestRedisDown(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	// The client tries once: its retries would only make the test slow.
	rdb := redis.NewClient(&redis.Options{
		Addr:                     r.Addr(),
		MaxRetries:               -1,
		DialerRetries:            1,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	})
	t.Cleanup(func() { rdb.Close() })
	s := NewRedisBoard(rdb, "", rating.Config{Tau: rating.DefaultTau}, nil)
	r.Stop()
	if err := s.ClaimName(ctx, testKey(1), "alice"); err == nil {
		t.Error("ClaimName with Redis down succeeded")
	}
	if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 1, 0)); err == nil {
		t.Error("RecordMatch with Redis down succeeded")
	}
	if _, _, err := s.Player(ctx, testKey(1)); err == nil {
		t.Error("Player with Redis down succeeded")
	}
	r.Restart()
	if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(1), testKey(2), "alice", "bob", 1, 0)); err != nil {
		t.Errorf("RecordMatch with Redis back: %v", err)
	}
}

// BenchmarkRedisRecordMatch records a rated match of four keyed players,
// as BenchmarkRecordMatch does on SQLite.
func BenchmarkRedisRecordMatch(b *testing.B) { benchRecordMatch(b, openRedis(b)) }

// BenchmarkRedisTop20Of100000 reads the leaderboard's first page out of
// 100,000 rated players.
func BenchmarkRedisTop20Of100000(b *testing.B) {
	s := openRedis(b)
	seedRedis(b, s, 100_000)
	benchTop20(b, s)
}

// seedRedis adds n players of one rated match each to s, of ratings
// spread as seedPlayers spreads them, written as the layout has them in
// pipelines of a thousand.
func seedRedis(t testing.TB, s *RedisBoard, n int) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	pipe := s.rdb.Pipeline()
	for i := range n {
		var key Key
		for j := 0; j < len(key); j += 8 {
			v := rng.Uint64()
			for k := range 8 {
				key[j+k] = byte(v >> (8 * k))
			}
		}
		name := fmt.Sprintf("player%06d", i)
		p := PlayerRecord{Key: key, Name: name, CreatedAt: testEpoch, Matches: 1, Wins: i % 2, RoundWins: i % 4, Shots: 10, Hits: 3,
			Rating: rating.Rating{R: 1500 + rng.NormFloat64()*300, RD: 50 + rng.Float64()*250, Sigma: 0.06}}
		fold := foldName(name)
		pipe.HSet(ctx, s.playerKey(key), playerValues(p, fold)...)
		pipe.Set(ctx, s.nameKey(fold), keyHex(key), 0)
		pipe.ZAdd(ctx, s.rankedKey(), redis.Z{Score: -p.Rating.R, Member: rankedMember(fold, key)})
		if pipe.Len() >= 3000 || i == n-1 {
			if _, err := pipe.Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
}
