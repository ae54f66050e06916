package ladder

import (
	"crypto/ed25519"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMain runs the crash test's child instead of the tests when
// crashChildEnv names a database (see crash_test.go).
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

// testKey returns the public key of the Ed25519 key pair seeded by i.
func testKey(i int) Key {
	var seed [ed25519.SeedSize]byte
	binary.BigEndian.PutUint64(seed[:], uint64(i)+1)
	k, err := KeyOf(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
	if err != nil {
		panic(err)
	}
	return k
}

// testEpoch is the first PlayedAt of the tests' matches.
var testEpoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// openTest opens a new store in a directory of t's own, closed when t ends.
func openTest(t testing.TB) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "ladder.db"))
}

// openAt opens the store at path, closed when t ends.
func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// count returns the single integer query returns.
func count(t testing.TB, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// duel returns a match of two keyed players, a with aWins round wins and b
// with bWins, each with stats of its own so that sums can be told apart.
func duel(at time.Time, a, b Key, aName, bName string, aWins, bWins int) Match {
	return Match{
		PlayedAt: at, Room: "arena", Rounds: aWins + bWins,
		Players: []MatchPlayer{
			{Key: a, Name: aName, Slot: 0, RoundWins: aWins, Kills: aWins + 1, Deaths: bWins, Shots: 10 + aWins, Hits: 3 + aWins, Seconds: 60},
			{Key: b, Name: bName, Slot: 1, RoundWins: bWins, Kills: bWins, Deaths: aWins + 2, Shots: 20 + bWins, Hits: 1 + bWins, Seconds: 61},
		},
	}
}
