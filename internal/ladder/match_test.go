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

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
