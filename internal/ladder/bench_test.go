package ladder

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRecordMatch records a rated match of four keyed players, each
// match in its own transaction.
func BenchmarkRecordMatch(b *testing.B) { benchRecordMatch(b, openTest(b)) }

// benchRecordMatch records a rated match of four keyed players on s, the
// winner changing each time so that the ratings do.
func benchRecordMatch(b *testing.B, s Board) {
	ctx := context.Background()
	m := Match{PlayedAt: testEpoch, Room: "bench", Rounds: 5}
	for i := range 4 {
		m.Players = append(m.Players, MatchPlayer{Key: testKey(i), Name: fmt.Sprintf("p%d", i), Slot: i, Kills: i, Deaths: 1, Shots: 12, Hits: i, Seconds: 90})
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for i := range m.Players {
			m.Players[i].RoundWins = (n + i) % 4
		}
		if _, err := s.RecordMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkTop20Of100000 reads the leaderboard's first page out of
// 100,000 rated players.
func BenchmarkTop20Of100000(b *testing.B) {
	s := openTest(b)
	seedPlayers(b, s, 100_000)
	benchTop20(b, s)
}

// benchTop20 reads the first page of 20 of s's leaderboard.
func benchTop20(b *testing.B, s Board) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		top, err := s.Top(ctx, 20, 0)
		if err != nil || len(top) != 20 {
			b.Fatal(len(top), err)
		}
	}
}

// seedPlayers adds n players of one rated match each, of ratings spread
// as a ladder's might be, in one transaction.
func seedPlayers(b *testing.B, s *Store, n int) {
	b.Helper()
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	ins, err := tx.Prepare(`INSERT INTO players (key, name, name_fold, created_at, rating, rd, sigma, matches, wins, round_wins, shots, hits)
VALUES (?, ?, ?, 0, ?, ?, 0.06, 1, ?, ?, 10, 3)`)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		var key Key
		for j := 0; j < len(key); j += 8 {
			v := rng.Uint64()
			for k := range 8 {
				key[j+k] = byte(v >> (8 * k))
			}
		}
		name := fmt.Sprintf("player%06d", i)
		if _, err := ins.Exec(key[:], name, foldName(name), 1500+rng.NormFloat64()*300, 50+rng.Float64()*250, i%2, i%4); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
