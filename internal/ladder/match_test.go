package ladder

import (
	"context"
	"errors"
	"testing"
	"time"

	"ttytanks/internal/rating"
)

// TestRecordThreeMatches records three rated matches between two keys
// and checks the ratings' moves, the stats' sums, the leaderboard, and
// that a third key can take neither of their names.
func TestRecordThreeMatches(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a, b, c := testKey(1), testKey(2), testKey(3)
	matches := []Match{
		duel(testEpoch, a, b, "alice", "bob", 3, 1),
		duel(testEpoch.Add(time.Minute), a, b, "alice", "bob", 3, 0),
		duel(testEpoch.Add(2*time.Minute), a, b, "alice", "bob", 2, 3),
	}
	prev := map[Key]rating.Rating{a: rating.New(), b: rating.New()}
	for n, m := range matches {
		out, err := s.RecordMatch(ctx, m)
		if err != nil {
			t.Fatalf("match %d: %v", n, err)
		}
		if !out.Rated || out.Match != int64(n+1) || len(out.Players) != 2 {
			t.Fatalf("match %d: Outcome %+v, want rated match %d of 2 players", n, out, n+1)
		}
		for i, o := range out.Players {
			p := m.Players[i]
			if !o.Rated || o.Before != prev[p.Key] {
				t.Errorf("match %d, %s: rated %v, before %+v; want rated, before %+v (the last match's after)", n, p.Name, o.Rated, o.Before, prev[p.Key])
			}
			won := p.RoundWins > m.Players[1-i].RoundWins
			if won != (o.After.R > o.Before.R) || o.After.R == o.Before.R {
				t.Errorf("match %d, %s (%d round wins to %d): R %.2f → %.2f, want it to move the winner's way",
					n, p.Name, p.RoundWins, m.Players[1-i].RoundWins, o.Before.R, o.After.R)
			}
			if o.After.RD >= o.Before.RD {
				t.Errorf("match %d, %s: RD %.2f → %.2f, want it to shrink", n, p.Name, o.Before.RD, o.After.RD)
			}
			if want := 2 - btoi(won); o.Standing != want {
				t.Errorf("match %d, %s: standing %d, want %d", n, p.Name, o.Standing, want)
			}
			prev[p.Key] = o.After
		}
	}

	for i, key := range []Key{a, b} {
		var want PlayerRecord
		for _, m := range matches {
			p, o := m.Players[i], m.Players[1-i]
			want.Matches++
			want.Wins += btoi(p.RoundWins > o.RoundWins)
			want.RoundWins += p.RoundWins
			want.Kills += p.Kills
			want.Deaths += p.Deaths
			want.Shots += p.Shots
			want.Hits += p.Hits
			want.SecondsPlayed += p.Seconds
		}
		want.Key, want.Name, want.CreatedAt, want.Rating = key, matches[0].Players[i].Name, testEpoch, prev[key]
		// Bob's upset of the favourite in the last match outweighs alice's
		// two wins while RDs are still wide: ranks follow the ratings.
		want.Rank = 1 + btoi(prev[[]Key{b, a}[i]].R > prev[key].R)
		got, ok, err := s.Player(ctx, key)
		if err != nil || !ok || got != want {
			t.Errorf("Player(%s) = %+v, %v, %v;\nwant %+v", want.Name, got, ok, err, want)
		}
		if acc := float64(want.Hits) / float64(want.Shots); got.Accuracy() != acc {
			t.Errorf("%s: accuracy %v, want %v", want.Name, got.Accuracy(), acc)
		}
	}

	top, err := s.Top(ctx, 10, 0)
	if err != nil || len(top) != 2 {
		t.Fatalf("Top = %+v, %v; want 2 players", top, err)
	}
	order := []string{"alice", "bob"}
	if prev[b].R > prev[a].R {
		order[0], order[1] = order[1], order[0]
	}
	for i, want := range order {
		if top[i].Name != want || top[i].Matches != 3 || top[i].Rank != i+1 {
			t.Errorf("Top[%d] = %s, %d matches, rank %d; want %s, 3 matches, rank %d", i, top[i].Name, top[i].Matches, top[i].Rank, want, i+1)
		}
	}
	if top[0].Rating.R <= top[1].Rating.R {
		t.Errorf("Top: %.2f before %.2f, want the higher first", top[0].Rating.R, top[1].Rating.R)
	}

	// A third key, under alice's name in another case: refused at join
	// and in a rated match, which then records nothing.
	var taken ErrNameTaken
	if err := s.ClaimName(ctx, c, "ALICE"); !errors.As(err, &taken) || taken.Name != "ALICE" {
		t.Errorf("ClaimName(c, ALICE) = %v, want ErrNameTaken{ALICE}", err)
	}
	_, err = s.RecordMatch(ctx, duel(testEpoch.Add(3*time.Minute), c, b, "Alice", "bob", 3, 0))
	if !errors.As(err, &taken) || taken.Name != "Alice" {
		t.Errorf("RecordMatch under Alice by c = %v, want ErrNameTaken{Alice}", err)
	}
	if n := count(t, s, `SELECT count(*) FROM matches`); n != 3 {
		t.Errorf("%d matches after the refused one, want 3", n)
	}
	if p, _, _ := s.Player(ctx, b); p.Matches != 3 || p.Rating != prev[b] {
		t.Errorf("bob after the refused match: %d matches, %+v; want 3, %+v", p.Matches, p.Rating, prev[b])
	}
	if _, ok, err := s.Player(ctx, c); ok || err != nil {
		t.Errorf("Player(c) = %v, %v after the refused match; want no record", ok, err)
	}
}

// TestKeylessPlayer records a rated match of two keys and a guest without
// one, and a match of one key against a bot: the guest and the bot are
// recorded, unrated, and the lone key's match is unrated.
func TestKeylessPlayer(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a, b := testKey(1), testKey(2)
	m := duel(testEpoch, a, b, "alice", "bob", 1, 2)
	m.Players = append(m.Players, MatchPlayer{Name: "guest", Slot: 2, RoundWins: 3, Kills: 4, Shots: 9, Hits: 4, Seconds: 60})
	out, err := s.RecordMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if g := out.Players[2]; !out.Rated || g.Rated || g.Before != (rating.Rating{}) || g.Standing != 1 {
		t.Errorf("Outcome: rated %v, guest %+v; want a rated match, the guest unrated in first place", out.Rated, g)
	}
	if n := count(t, s, `SELECT count(*) FROM players`); n != 2 {
		t.Errorf("%d players, want 2: the guest has no record", n)
	}
	if n := count(t, s, `SELECT count(*) FROM match_players WHERE player_key IS NULL AND name = 'guest' AND rating_after IS NULL`); n != 1 {
		t.Errorf("%d unrated guest rows, want 1", n)
	}
	// bob, second to the guest, still beat alice and gains; nobody won outright.
	for _, key := range []Key{a, b} {
		if p, _, _ := s.Player(ctx, key); p.Wins != 0 {
			t.Errorf("%s: %d wins, want 0: the guest had the most round wins", p.Name, p.Wins)
		}
	}
	if o := out.Players[1]; o.After.R <= o.Before.R {
		t.Errorf("bob: R %.2f → %.2f, want a gain over alice", o.Before.R, o.After.R)
	}

	before, _, _ := s.Player(ctx, a)
	solo := Match{PlayedAt: testEpoch.Add(time.Minute), Room: "practice", Rounds: 3, Players: []MatchPlayer{
		{Key: a, Name: "alice", Slot: 0, RoundWins: 3, Shots: 5, Hits: 5},
		{Name: "bot1", Slot: 1},
	}}
	out, err = s.RecordMatch(ctx, solo)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rated || out.Players[0].Rated {
		t.Errorf("a match of one key and a bot: %+v, want it unrated", out)
	}
	if after, _, _ := s.Player(ctx, a); after != before {
		t.Errorf("alice after the unrated match: %+v, want %+v unchanged", after, before)
	}
	h, err := s.History(ctx, a, 1)
	if err != nil || len(h) != 1 || h[0].ID != out.Match || h[0].Rated || h[0].Players[0].Key != a || h[0].Players[1].Key != (Key{}) {
		t.Errorf("History(alice, 1) = %+v, %v; want the unrated match, alice's row with her key, the bot's without", h, err)
	}
}

// TestOrderIndependence records the same matches into two stores, the last
// one with its players listed in another order, and wants the same
// ratings to the bit.
func TestOrderIndependence(t *testing.T) {
	ctx := context.Background()
	keys := []Key{testKey(1), testKey(2), testKey(3), testKey(4)}
	names := []string{"ann", "ben", "cat", "dan"}
	four := Match{PlayedAt: testEpoch.Add(time.Hour), Room: "four", Rounds: 6}
	for i, k := range keys {
		four.Players = append(four.Players, MatchPlayer{Key: k, Name: names[i], Slot: i, RoundWins: []int{2, 3, 0, 1}[i], Kills: i, Shots: 9, Hits: i})
	}
	reversed := four
	reversed.Players = []MatchPlayer{four.Players[3], four.Players[1], four.Players[0], four.Players[2]}

	var got [2]map[Key]rating.Rating
	for n, last := range []Match{four, reversed} {
		s := openTest(t)
		// Earlier matches, so that the four come to the last with ratings of their own.
		for _, m := range []Match{
			duel(testEpoch, keys[0], keys[1], names[0], names[1], 3, 1),
			duel(testEpoch.Add(time.Minute), keys[2], keys[3], names[2], names[3], 3, 2),
			duel(testEpoch.Add(2*time.Minute), keys[0], keys[2], names[0], names[2], 0, 3),
		} {
			if _, err := s.RecordMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		out, err := s.RecordMatch(ctx, last)
		if err != nil {
			t.Fatal(err)
		}
		got[n] = map[Key]rating.Rating{}
		for i, o := range out.Players {
			p, _, err := s.Player(ctx, last.Players[i].Key)
			if err != nil || p.Rating != o.After {
				t.Fatalf("store %d, %s: record %+v, %v; Outcome says %+v", n, o.Name, p.Rating, err, o.After)
			}
			got[n][last.Players[i].Key] = o.After
		}
	}
	for i, k := range keys {
		if got[0][k] != got[1][k] {
			t.Errorf("%s: %+v listed in order, %+v reordered; want them equal", names[i], got[0][k], got[1][k])
		}
	}
}

// TestRecordMatchInvalid checks that matches that cannot be recorded are
// refused with their error, and record nothing.
func TestRecordMatchInvalid(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a, b := testKey(1), testKey(2)
	with := func(f func(m *Match)) Match {
		m := duel(testEpoch, a, b, "alice", "bob", 1, 0)
		f(&m)
		return m
	}
	for _, c := range []struct {
		name string
		m    Match
		want error
	}{
		{"no players", Match{Room: "x"}, ErrMatch},
		{"negative rounds", with(func(m *Match) { m.Rounds = -1 }), ErrMatch},
		{"negative kills", with(func(m *Match) { m.Players[1].Kills = -1 }), ErrMatch},
		{"hits over shots", with(func(m *Match) { m.Players[0].Hits = m.Players[0].Shots + 1 }), ErrMatch},
		{"slot twice", with(func(m *Match) { m.Players[1].Slot = 0 }), ErrMatch},
		{"key twice", with(func(m *Match) { m.Players[1].Key = a }), ErrMatch},
		{"empty name", with(func(m *Match) { m.Players[0].Name = "" }), ErrName},
		{"escape in name", with(func(m *Match) { m.Players[0].Name = "a\x1b[2Jb" }), ErrName},
		{"forgotten name", with(func(m *Match) { m.Players[1].Name = ForgottenName }), ErrName},
		{"one name, two keys", with(func(m *Match) { m.Players[1].Name = "Alice" }), ErrNameTaken{Name: "Alice"}},
	} {
		_, err := s.RecordMatch(ctx, c.m)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	for _, table := range []string{"matches", "match_players", "players"} {
		if n := count(t, s, `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%d rows in %s, want none", n, table)
		}
	}
}

// TestHistory records five matches out of time order and checks that
// History returns the latest three, latest first, with all their players.
func TestHistory(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a, b, c := testKey(1), testKey(2), testKey(3)
	for _, n := range []int{0, 3, 1, 4, 2} {
		m := duel(testEpoch.Add(time.Duration(n)*time.Minute), a, b, "alice", "bob", n, 5-n)
		m.Recording = "m" + string(rune('0'+n)) + ".ttyrec"
		if _, err := s.RecordMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Hour), b, c, "bob", "cat", 1, 0)); err != nil {
		t.Fatal(err)
	}
	h, err := s.History(ctx, a, 3)
	if err != nil || len(h) != 3 {
		t.Fatalf("History(alice, 3) = %+v, %v; want 3 matches", h, err)
	}
	for i, m := range h {
		n := 4 - i
		at := testEpoch.Add(time.Duration(n) * time.Minute)
		if !m.PlayedAt.Equal(at) || m.Recording != "m"+string(rune('0'+n))+".ttyrec" || !m.Rated || m.Rounds != 5 || len(m.Players) != 2 {
			t.Errorf("History[%d] = %+v, want the match of %v, rated, 5 rounds, 2 players", i, m, at)
			continue
		}
		if p := m.Players[0]; p.Key != a || p.RoundWins != n || !p.Rated || p.RatingBefore == p.RatingAfter || p.RDAfter == 0 {
			t.Errorf("History[%d] alice's row: %+v, want her key, %d round wins, rated", i, p, n)
		}
		if p := m.Players[1]; p.Key != b || p.Name != "bob" {
			t.Errorf("History[%d] second row: %+v, want bob's", i, p)
		}
	}
	if h, err := s.History(ctx, c, 10); err != nil || len(h) != 1 || h[0].Players[1].Name != "cat" {
		t.Errorf("History(cat, 10) = %+v, %v; want cat's one match", h, err)
	}
}

// TestClaimName checks taking, renaming and refusing names.
func TestClaimName(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a, b := testKey(1), testKey(2)
	for _, c := range []struct {
		key  Key
		name string
		want error
	}{
		{a, "émile", nil},
		{b, "ÉMILE", ErrNameTaken{Name: "ÉMILE"}}, // NOCASE alone would let this through
		{b, "Émile2", nil},
		{a, "Émile", nil}, // a renames itself to its own name in another case
		{b, "émile2", nil},
		{a, "bob", nil},
		{b, "émile", nil}, // freed by a's rename
		{a, "K", nil},
		{b, "\u212a", ErrNameTaken{Name: "\u212a"}}, // the Kelvin sign folds to k
		{b, "", ErrName},
		{b, ForgottenName, ErrName},
		{b, "a\tb", ErrName},
		{Key{}, "zero", ErrKey},
	} {
		if err := s.ClaimName(ctx, c.key, c.name); !errors.Is(err, c.want) {
			t.Errorf("ClaimName(%x…, %q) = %v, want %v", c.key[:2], c.name, err, c.want)
		}
	}
	for key, want := range map[Key]string{a: "K", b: "émile"} {
		if p, ok, err := s.Player(ctx, key); err != nil || !ok || p.Name != want || p.Matches != 0 || p.Rank != 0 || p.Rating != rating.New() {
			t.Errorf("Player(%x…) = %+v, %v, %v; want %q, a new rating, unranked", key[:2], p, ok, err, want)
		}
	}
	if top, err := s.Top(ctx, 10, 0); err != nil || len(top) != 0 {
		t.Errorf("Top = %+v, %v; want nobody: nobody has played a rated match", top, err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
