package ladder

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestForget forgets one of three players: gone from Player and Top, their
// rows of past matches anonymised, the other players' rows kept, and
// neither the database file nor its WAL holding their name or key.
func TestForget(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ladder.db")
	s := openAt(t, path)
	a, b, c := testKey(1), testKey(2), testKey(3)
	const gone = "Zanzibar"
	for i, m := range []Match{
		duel(testEpoch, a, b, gone, "bob", 3, 1),
		duel(testEpoch.Add(time.Minute), a, c, gone, "cat", 0, 3),
		duel(testEpoch.Add(2*time.Minute), b, c, "bob", "cat", 3, 2),
	} {
		if _, err := s.RecordMatch(ctx, m); err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
	}
	bobBefore, _, _ := s.Player(ctx, b)
	if err := s.Forget(ctx, a); err != nil {
		t.Fatal(err)
	}
	if p, ok, err := s.Player(ctx, a); ok || err != nil {
		t.Errorf("Player(forgotten) = %+v, %v, %v; want no record", p, ok, err)
	}
	top, err := s.Top(ctx, 10, 0)
	if err != nil || len(top) != 2 {
		t.Fatalf("Top = %+v, %v; want bob and cat", top, err)
	}
	for _, p := range top {
		if p.Key == a || p.Name == gone {
			t.Errorf("Top lists the forgotten player: %+v", p)
		}
	}
	if bob, _, _ := s.Player(ctx, b); bob != bobBefore {
		t.Errorf("bob after the forgetting: %+v, want %+v unchanged", bob, bobBefore)
	}
	h, err := s.History(ctx, b, 10)
	if err != nil || len(h) != 2 {
		t.Fatalf("History(bob) = %+v, %v; want 2 matches", h, err)
	}
	first := h[1] // the earlier, with the forgotten player
	if len(first.Players) != 2 {
		t.Fatalf("the first match has %d players, want 2", len(first.Players))
	}
	if p := first.Players[0]; p.Key != (Key{}) || p.Name != ForgottenName || p.RoundWins != 3 || !p.Rated {
		t.Errorf("the forgotten player's row: %+v; want no key, %q, the round wins and rating kept", p, ForgottenName)
	}
	if p := first.Players[1]; p.Key != b || p.Name != "bob" || p.RoundWins != 1 {
		t.Errorf("bob's row beside the forgotten one: %+v", p)
	}
	if n := count(t, s, `SELECT count(*) FROM matches`); n != 3 {
		t.Errorf("%d matches after the forgetting, want 3", n)
	}
	if err := s.Forget(ctx, a); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("Forget a second time: %v, want ErrNoPlayer", err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	// The name can be taken again, by anyone.
	if err := s.ClaimName(ctx, testKey(4), strings.ToLower(gone)); err != nil {
		t.Errorf("ClaimName of the forgotten name: %v", err)
	}
	if err := s.Forget(ctx, testKey(4)); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{path, path + "-wal"} {
		data, err := os.ReadFile(file)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, secret := range [][]byte{[]byte(gone), []byte(strings.ToUpper(gone)), []byte(strings.ToLower(gone)), a[:]} {
			if bytes.Contains(data, secret) {
				t.Errorf("%s still holds %q", filepath.Base(file), secret)
			}
		}
	}
}

// TestQueryPlans checks that the leaderboard, a rank and a player's
// history are read through their indexes, never by scanning a table, and
// that the leaderboard is read in the index's order, not sorted.
func TestQueryPlans(t *testing.T) {
	s := openTest(t)
	key := testKey(1)
	for _, c := range []struct {
		query string
		args  []any
		index string
		sorts bool // a sort of the rows found is expected
	}{
		{`SELECT key FROM players WHERE matches > 0 ORDER BY rating DESC, name_fold LIMIT 20 OFFSET 0`, nil, "players_by_rating", false},
		{`SELECT count(*) FROM players WHERE matches > 0 AND rating > 1500`, nil, "players_by_rating", false},
		{`SELECT m.id FROM match_players AS mp JOIN matches AS m ON m.id = mp.match_id
WHERE mp.player_key = ? ORDER BY m.played_at DESC, m.id DESC LIMIT 10`, []any{key[:]}, "match_players_by_player", true},
	} {
		rows, err := s.db.Query(`EXPLAIN QUERY PLAN `+c.query, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		bad := false
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
			bad = bad || strings.HasPrefix(detail, "SCAN") && !strings.Contains(detail, " USING ") ||
				!c.sorts && strings.Contains(detail, "TEMP B-TREE")
		}
		rows.Close()
		joined := strings.Join(plan, "; ")
		if bad || !strings.Contains(joined, c.index) {
			t.Errorf("%s\nplan: %s; want it through %s", c.query, joined, c.index)
		}
	}
}
