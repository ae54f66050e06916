package ladder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ttytanks/internal/rating"
)

// TestStoreBoard holds Store to Board's behaviour.
func TestStoreBoard(t *testing.T) {
	testBoard(t, func(t *testing.T) Board { return openTest(t) })
}

// testBoard checks the behaviour every Board has, whatever holds it, on
// boards from open: each subtest opens its own, and open closes them when
// the subtest ends.
func testBoard(t *testing.T, open func(t *testing.T) Board) {
	for _, c := range []struct {
		name string
		test func(*testing.T, func(*testing.T) Board)
	}{
		{"RecordThreeMatches", boardRecordThreeMatches},
		{"KeylessPlayer", boardKeylessPlayer},
		{"OrderIndependence", boardOrderIndependence},
		{"RecordMatchInvalid", boardRecordMatchInvalid},
		{"History", boardHistory},
		{"ClaimName", boardClaimName},
		{"Rename", boardRename},
		{"TopPages", boardTopPages},
		{"Forget", boardForget},
		{"ConcurrentTwoKeys", boardConcurrentTwoKeys},
		{"ConcurrentOverlapping", boardConcurrentOverlapping},
		{"ConcurrentClaims", boardConcurrentClaims},
		{"Holder", boardHolder},
		{"Forfeit", boardForfeit},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, open) })
	}
}

// boardRecordThreeMatches records three rated matches between two keys
// and checks the ratings' moves, the stats' sums, the leaderboard, and
// that a third key can take neither of their names.
func boardRecordThreeMatches(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
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
			if !o.Rated || o.Before != prev[p.Key] || o.Name != p.Name {
				t.Errorf("match %d, %s: %+v; want rated under its name, before %+v (the last match's after)", n, p.Name, o, prev[p.Key])
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
		want.Rank = 1 + btoi(prev[[]Key{b, a}[i]].R > prev[key].R)
		got, ok, err := s.Player(ctx, key)
		if err != nil || !ok || got != want {
			t.Errorf("Player(%s) = %+v, %v, %v;\nwant %+v", want.Name, got, ok, err, want)
		}
	}
	if n, err := s.Ranked(ctx); err != nil || n != 2 {
		t.Errorf("Ranked = %d, %v; want 2", n, err)
	}

	top, err := s.Top(ctx, 10, 0)
	if err != nil || len(top) != 2 {
		t.Fatalf("Top = %+v, %v; want 2 players", top, err)
	}
	order := []Key{a, b}
	if prev[b].R > prev[a].R {
		order[0], order[1] = order[1], order[0]
	}
	for i, key := range order {
		want, _, _ := s.Player(ctx, key)
		if top[i] != want || top[i].Rank != i+1 {
			t.Errorf("Top[%d] = %+v;\nwant %+v, rank %d", i, top[i], want, i+1)
		}
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
	if h, err := s.History(ctx, b, 10); err != nil || len(h) != 3 {
		t.Errorf("History(bob) after the refused match: %d matches, %v; want 3", len(h), err)
	}
	if p, _, _ := s.Player(ctx, b); p.Matches != 3 || p.Rating != prev[b] {
		t.Errorf("bob after the refused match: %d matches, %+v; want 3, %+v", p.Matches, p.Rating, prev[b])
	}
	if _, ok, err := s.Player(ctx, c); ok || err != nil {
		t.Errorf("Player(c) = %v, %v after the refused match; want no record", ok, err)
	}
	out, err := s.RecordMatch(ctx, duel(testEpoch.Add(4*time.Minute), a, b, "alice", "bob", 1, 0))
	if err != nil || out.Match != 4 {
		t.Errorf("the match after the refused one: %+v, %v; want match 4: the refused one took no id", out, err)
	}
}

// boardKeylessPlayer records a rated match of two keys and a guest
// without one, a match of one key against a bot, and one of a key
// without a record against a bot: the guest and the bots are recorded,
// unrated, the lone keys' matches are unrated, and the key without a
// record is not on its row.
func boardKeylessPlayer(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a, b, c := testKey(1), testKey(2), testKey(3)
	m := duel(testEpoch, a, b, "alice", "bob", 1, 2)
	m.Players = append(m.Players, MatchPlayer{Name: "~guest", Slot: 2, RoundWins: 3, Kills: 4, Shots: 9, Hits: 4, Seconds: 60})
	out, err := s.RecordMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if g := out.Players[2]; !out.Rated || g.Rated || g.Before != (rating.Rating{}) || g.After != (rating.Rating{}) || g.Standing != 1 || g.Name != "~guest" {
		t.Errorf("Outcome: rated %v, guest %+v; want a rated match, the guest unrated in first place", out.Rated, g)
	}
	if n, _ := s.Ranked(ctx); n != 2 {
		t.Errorf("Ranked = %d, want 2: the guest has no record", n)
	}
	h, err := s.History(ctx, b, 1)
	if err != nil || len(h) != 1 || len(h[0].Players) != 3 {
		t.Fatalf("History(bob) = %+v, %v; want the match of 3", h, err)
	}
	if g := h[0].Players[2]; g.Key != (Key{}) || g.Name != "~guest" || g.Rated || g.RatingAfter != 0 || g.RoundWins != 3 || g.Standing != 1 {
		t.Errorf("the guest's row: %+v; want no key, unrated, 3 round wins in first place", g)
	}
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
	h, err = s.History(ctx, a, 1)
	if err != nil || len(h) != 1 || h[0].ID != out.Match || h[0].Rated || h[0].Players[0].Key != a || h[0].Players[1].Key != (Key{}) {
		t.Errorf("History(alice, 1) = %+v, %v; want the unrated match, alice's row with her key, the bot's without", h, err)
	}

	// c has no record: the unrated match makes none and leaves her key
	// off her row, so that her history stays empty.
	solo.Players[0].Key, solo.Players[0].Name = c, "cat"
	if _, err := s.RecordMatch(ctx, solo); err != nil {
		t.Fatal(err)
	}
	if p, ok, err := s.Player(ctx, c); ok || err != nil {
		t.Errorf("Player(cat) after an unrated match = %+v, %v, %v; want no record", p, ok, err)
	}
	if h, err := s.History(ctx, c, 10); err != nil || len(h) != 0 {
		t.Errorf("History(cat) = %+v, %v; want none: her row has no key", h, err)
	}

	// A match of a guest and a bot, nobody keyed: recorded all the same.
	last := out.Match
	out, err = s.RecordMatch(ctx, Match{PlayedAt: testEpoch, Room: "open", Players: []MatchPlayer{{Name: "guest"}, {Name: "bot", Slot: 1, RoundWins: 1}}})
	if err != nil || out.Rated || out.Match != last+2 || out.Players[1].Standing != 1 || out.Players[0].Standing != 2 {
		t.Errorf("a match of a guest and a bot: %+v, %v; want unrated match %d, the bot first", out, err, last+2)
	}
}

// boardOrderIndependence records the same matches on two boards, the
// last one with its players listed in another order, and wants the same
// ratings to the bit.
func boardOrderIndependence(t *testing.T, open func(*testing.T) Board) {
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
		s := open(t)
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
				t.Fatalf("board %d, %s: record %+v, %v; Outcome says %+v", n, o.Name, p.Rating, err, o.After)
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

// boardRecordMatchInvalid checks that matches that cannot be recorded
// are refused with their error, and record nothing.
func boardRecordMatchInvalid(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
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
		if _, err := s.RecordMatch(ctx, c.m); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	for _, k := range []Key{a, b} {
		if p, ok, err := s.Player(ctx, k); ok || err != nil {
			t.Errorf("Player(%x…) = %+v, %v, %v; want no record", k[:2], p, ok, err)
		}
		if h, err := s.History(ctx, k, 10); len(h) != 0 || err != nil {
			t.Errorf("History(%x…) = %+v, %v; want none", k[:2], h, err)
		}
	}
	if n, err := s.Ranked(ctx); n != 0 || err != nil {
		t.Errorf("Ranked = %d, %v; want 0", n, err)
	}
	if out, err := s.RecordMatch(ctx, with(func(*Match) {})); err != nil || out.Match != 1 {
		t.Errorf("the first valid match: %+v, %v; want match 1", out, err)
	}
}

// boardHistory records five matches out of time order and checks that
// History returns the latest three, latest first, with all their
// players; matches of one time come latest recorded first.
func boardHistory(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a, b, c := testKey(1), testKey(2), testKey(3)
	for _, n := range []int{0, 3, 1, 4, 2} {
		m := duel(testEpoch.Add(time.Duration(n)*time.Minute), a, b, "alice", "bob", n, 5-n)
		m.Recording = "m" + string(rune('0'+n)) + ".ttyrec"
		if _, err := s.RecordMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.History(ctx, a, 3)
	if err != nil || len(h) != 3 {
		t.Fatalf("History(alice, 3) = %+v, %v; want 3 matches", h, err)
	}
	for i, m := range h {
		n := 4 - i
		at := testEpoch.Add(time.Duration(n) * time.Minute)
		if !m.PlayedAt.Equal(at) || m.Recording != "m"+string(rune('0'+n))+".ttyrec" || !m.Rated || m.Rounds != 5 || m.Room != "arena" || len(m.Players) != 2 {
			t.Errorf("History[%d] = %+v, want the match of %v, rated, 5 rounds, 2 players", i, m, at)
			continue
		}
		if p := m.Players[0]; p.Key != a || p.RoundWins != n || !p.Rated || p.RatingBefore == p.RatingAfter || p.RDAfter == 0 {
			t.Errorf("History[%d] alice's row: %+v, want her key, %d round wins, rated", i, p, n)
		}
		if p := m.Players[1]; p.Key != b || p.Name != "bob" || p.Slot != 1 || p.Kills != 5-n || p.Shots != 20+5-n {
			t.Errorf("History[%d] second row: %+v, want bob's", i, p)
		}
	}

	// Two matches of one time, slots listed out of order: the later
	// recorded comes first, and rows come by slot.
	var ids []int64
	for range 2 {
		m := duel(testEpoch.Add(time.Hour), c, b, "cat", "bob", 1, 0)
		m.Players[0].Slot, m.Players[1].Slot = 5, 2
		out, err := s.RecordMatch(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, out.Match)
	}
	h, err = s.History(ctx, c, 10)
	if err != nil || len(h) != 2 || h[0].ID != ids[1] || h[1].ID != ids[0] {
		t.Fatalf("History(cat) = %+v, %v; want matches %v, the later first", h, err, ids)
	}
	if p := h[0].Players; p[0].Slot != 2 || p[0].Name != "bob" || p[1].Slot != 5 || p[1].Name != "cat" {
		t.Errorf("rows %+v, want bob's (slot 2) then cat's (slot 5)", p)
	}
	if h, err := s.History(ctx, b, 2); err != nil || len(h) != 2 || h[0].ID != ids[1] {
		t.Errorf("History(bob, 2) = %+v, %v; want the two of cat", h, err)
	}
	if h, err := s.History(ctx, a, 0); err != nil || h != nil {
		t.Errorf("History(alice, 0) = %+v, %v; want nil", h, err)
	}
}

// boardClaimName checks taking, renaming and refusing names.
func boardClaimName(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a, b := testKey(1), testKey(2)
	start := time.Now().Truncate(time.Millisecond)
	for _, c := range []struct {
		key  Key
		name string
		want error
	}{
		{a, "émile", nil},
		{b, "ÉMILE", ErrNameTaken{Name: "ÉMILE"}},
		{b, "Émile", ErrNameTaken{Name: "Émile"}},
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
	end := time.Now()
	for key, want := range map[Key]string{a: "K", b: "émile"} {
		p, ok, err := s.Player(ctx, key)
		if err != nil || !ok || p.Name != want || p.Key != key || p.Matches != 0 || p.Rank != 0 || p.Rating != rating.New() {
			t.Errorf("Player(%x…) = %+v, %v, %v; want %q, a new rating, unranked", key[:2], p, ok, err, want)
		}
		if p.CreatedAt.Before(start) || p.CreatedAt.After(end) || p.CreatedAt.Location() != time.UTC {
			t.Errorf("Player(%x…).CreatedAt = %v, want a UTC time of the first claim, in [%v, %v]", key[:2], p.CreatedAt, start, end)
		}
	}
	if err := s.ClaimName(ctx, testKey(3), "bob"); err != nil {
		t.Errorf("ClaimName of bob, freed by a's rename: %v", err)
	}
	if top, err := s.Top(ctx, 10, 0); err != nil || len(top) != 0 {
		t.Errorf("Top = %+v, %v; want nobody: nobody has played a rated match", top, err)
	}
}

// boardRename renames a ranked player, at join and by playing under
// another name: the record keeps its rating and stats, the leaderboard
// orders it by its new name, its old name is free, and the rows of its
// past matches keep the name played under.
func boardRename(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a, b, c, d := testKey(1), testKey(2), testKey(3), testKey(4)
	// Two winners of equal rating, "bea" and "dot", ordered by name.
	if _, err := s.RecordMatch(ctx, duel(testEpoch, a, b, "bea", "x1", 3, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordMatch(ctx, duel(testEpoch, c, d, "dot", "x2", 3, 0)); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		top, err := s.Top(ctx, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ns []string
		for _, p := range top {
			ns = append(ns, fmt.Sprintf("%s/%d", p.Name, p.Rank))
		}
		return ns
	}
	if got, want := names(), []string{"bea/1", "dot/1"}; !slices.Equal(got, want) {
		t.Errorf("Top = %v, want %v", got, want)
	}
	before, _, _ := s.Player(ctx, a)
	if err := s.ClaimName(ctx, a, "Zed"); err != nil {
		t.Fatal(err)
	}
	after, _, _ := s.Player(ctx, a)
	before.Name = "Zed"
	if after != before {
		t.Errorf("after the rename: %+v, want %+v", after, before)
	}
	if got, want := names(), []string{"dot/1", "Zed/1"}; !slices.Equal(got, want) {
		t.Errorf("Top after bea became Zed = %v, want %v", got, want)
	}
	if err := s.ClaimName(ctx, testKey(9), "BEA"); err != nil {
		t.Errorf("ClaimName(BEA) after bea's rename: %v", err)
	}
	// c plays under "Al": renamed by the match, rated as before.
	out, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Minute), c, b, "Al", "x1", 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := s.Player(ctx, c)
	if p.Name != "Al" || p.Matches != 2 || p.Rating != out.Players[0].After {
		t.Errorf("dot after playing as Al: %+v, want Al of 2 matches rated %+v", p, out.Players[0].After)
	}
	if err := s.ClaimName(ctx, testKey(10), "dot"); err != nil {
		t.Errorf("ClaimName(dot) after dot played as Al: %v", err)
	}
	h, err := s.History(ctx, c, 10)
	if err != nil || len(h) != 2 || h[0].Players[0].Name != "Al" || h[1].Players[0].Name != "dot" {
		t.Errorf("History(Al) = %+v, %v; want the matches under Al and dot", h, err)
	}
}

// boardTopPages checks Top's pages, order and shared ranks.
func boardTopPages(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	// Pairs of a winner and a loser, all new: the winners tie, and so do
	// the losers; one of ClaimName alone stays out.
	names := []string{"dee", "Ada", "cy", "bo", "eve", "fay"}
	for i := 0; i < len(names); i += 2 {
		if _, err := s.RecordMatch(ctx, duel(testEpoch, testKey(i), testKey(i+1), names[i], names[i+1], 3, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ClaimName(ctx, testKey(10), "aaron"); err != nil {
		t.Fatal(err)
	}
	// Winners by name: cy, dee, eve; losers: Ada, bo, fay.
	want := []struct {
		name string
		rank int
	}{{"cy", 1}, {"dee", 1}, {"eve", 1}, {"Ada", 4}, {"bo", 4}, {"fay", 4}}
	for _, page := range []struct{ n, offset int }{{6, 0}, {2, 0}, {2, 2}, {2, 4}, {4, 5}, {3, 6}, {1, 3}, {0, 0}} {
		got, err := s.Top(ctx, page.n, page.offset)
		if err != nil {
			t.Fatal(err)
		}
		end := min(page.offset+page.n, len(want))
		w := want[min(page.offset, end):end]
		if len(got) != len(w) {
			t.Errorf("Top(%d, %d): %d players, want %d", page.n, page.offset, len(got), len(w))
			continue
		}
		for i := range got {
			if got[i].Name != w[i].name || got[i].Rank != w[i].rank || got[i].Matches != 1 {
				t.Errorf("Top(%d, %d)[%d] = %s rank %d, want %s rank %d", page.n, page.offset, i, got[i].Name, got[i].Rank, w[i].name, w[i].rank)
			}
		}
	}
	if p, _, _ := s.Player(ctx, testKey(3)); p.Rank != 4 {
		t.Errorf("Player(bo).Rank = %d, want 4", p.Rank)
	}
	if p, _, _ := s.Player(ctx, testKey(2)); p.Rank != 1 {
		t.Errorf("Player(cy).Rank = %d, want 1", p.Rank)
	}
	if p, _, _ := s.Player(ctx, testKey(10)); p.Rank != 0 {
		t.Errorf("Player(aaron).Rank = %d, want 0: no rated match", p.Rank)
	}
	if n, _ := s.Ranked(ctx); n != 6 {
		t.Errorf("Ranked = %d, want 6", n)
	}
	if _, err := s.Top(ctx, 1, -1); err == nil {
		t.Error("Top at offset -1 succeeded")
	}
}

// boardForget forgets one of three players: gone from Player and Top,
// their rows of past matches anonymised, the other players' rows kept,
// their name free.
func boardForget(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
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
	if n, _ := s.Ranked(ctx); n != 2 {
		t.Errorf("Ranked = %d after the forgetting, want 2", n)
	}
	if bob, _, _ := s.Player(ctx, b); bob != bobBefore {
		t.Errorf("bob after the forgetting: %+v, want %+v unchanged", bob, bobBefore)
	}
	if h, err := s.History(ctx, a, 10); err != nil || len(h) != 0 {
		t.Errorf("History(forgotten) = %+v, %v; want none", h, err)
	}
	h, err := s.History(ctx, b, 10)
	if err != nil || len(h) != 2 {
		t.Fatalf("History(bob) = %+v, %v; want 2 matches", h, err)
	}
	first := h[1] // the earlier, with the forgotten player
	if len(first.Players) != 2 {
		t.Fatalf("the first match has %d players, want 2", len(first.Players))
	}
	if p := first.Players[0]; p.Key != (Key{}) || p.Name != ForgottenName || p.RoundWins != 3 || !p.Rated || p.RatingAfter == 0 {
		t.Errorf("the forgotten player's row: %+v; want no key, %q, the round wins and rating kept", p, ForgottenName)
	}
	if p := first.Players[1]; p.Key != b || p.Name != "bob" || p.RoundWins != 1 {
		t.Errorf("bob's row beside the forgotten one: %+v", p)
	}
	if h, _ := s.History(ctx, c, 10); len(h) != 2 || h[1].Players[0].Name != ForgottenName || h[0].Players[0].Name != "bob" {
		t.Errorf("History(cat) = %+v; want the forgotten player's row anonymised there too", h)
	}
	if err := s.Forget(ctx, a); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("Forget a second time: %v, want ErrNoPlayer", err)
	}
	if err := s.Forget(ctx, testKey(99)); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("Forget of a key never seen: %v, want ErrNoPlayer", err)
	}
	if err := s.ClaimName(ctx, testKey(4), "zanzibar"); err != nil {
		t.Errorf("ClaimName of the forgotten name: %v", err)
	}
	// The key may come back: a new player.
	if _, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Hour), a, b, "again", "bob", 1, 0)); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := s.Player(ctx, a); p.Matches != 1 || p.Name != "again" {
		t.Errorf("the forgotten key back: %+v, want a new record of one match", p)
	}
	if h, _ := s.History(ctx, a, 10); len(h) != 1 {
		t.Errorf("History of the key back: %d matches, want only the new one", len(h))
	}
}

// boardConcurrentTwoKeys records matches of the same two keys from 8
// goroutines at once: no write is lost, so the counts come out exact,
// and each match has an id of its own, 1 to their number.
func boardConcurrentTwoKeys(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	const writers, each = 8, 25
	a, b := testKey(1), testKey(2)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		ids []int64
	)
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				out, err := s.RecordMatch(ctx, duel(testEpoch.Add(time.Duration(w*each+i)*time.Second), a, b, "alice", "bob", (w+i)%3, 1))
				if err != nil {
					errs <- err
					continue
				}
				mu.Lock()
				ids = append(ids, out.Match)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	slices.Sort(ids)
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("match ids %v…, want 1 to %d each once", ids[:i+1], writers*each)
		}
	}
	var wantA, wantB PlayerRecord
	for w := range writers {
		for i := range each {
			m := duel(testEpoch, a, b, "alice", "bob", (w+i)%3, 1)
			for j, want := range []*PlayerRecord{&wantA, &wantB} {
				want.addMatch(m.Players, j, rating.Rating{})
			}
		}
	}
	for j, want := range []PlayerRecord{wantA, wantB} {
		got, _, _ := s.Player(ctx, []Key{a, b}[j])
		got.Key, got.Name, got.CreatedAt, got.Rating, got.Rank = Key{}, "", time.Time{}, rating.Rating{}, 0
		if got != want {
			t.Errorf("sums after %d concurrent matches: %+v, want %+v", writers*each, got, want)
		}
	}
}

// boardConcurrentOverlapping records matches of 6 players, two at a
// time, from 8 goroutines, reading the leaderboard between: the sums
// come out whole.
func boardConcurrentOverlapping(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	const writers, each, players = 8, 25, 6
	for k := range players {
		if err := s.ClaimName(ctx, testKey(k), fmt.Sprintf("p%d", k)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				a, b := (w+i)%players, (w+i+1+i%(players-1))%players
				if a == b {
					b = (b + 1) % players
				}
				m := duel(testEpoch, testKey(a), testKey(b), fmt.Sprintf("p%d", a), fmt.Sprintf("p%d", b), i%3, (i+1)%3)
				if _, err := s.RecordMatch(ctx, m); err != nil {
					errs <- err
				}
				if _, err := s.Top(ctx, 3, 0); err != nil {
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
	top, err := s.Top(ctx, players+1, 0)
	if err != nil || len(top) != players {
		t.Fatalf("Top = %d players, %v; want %d", len(top), err, players)
	}
	sum := 0
	for _, p := range top {
		sum += p.Matches
	}
	if sum != 2*writers*each {
		t.Errorf("players have %d matches between them, want %d", sum, 2*writers*each)
	}
}

// boardConcurrentClaims has 8 new keys claim one free name at once, each
// in one of its cases, and then a key that holds it rename itself away
// from it as 8 more try for it: the name has one holder at a time.
func boardConcurrentClaims(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	for round := range 5 {
		name := fmt.Sprintf("Émile%d", round)
		race := func(first int, also func()) []Key {
			var wg sync.WaitGroup
			won := make(chan Key, 8)
			if also != nil {
				wg.Go(also)
			}
			for i := range 8 {
				k := testKey(first + i)
				wg.Go(func() {
					variant := []string{name, strings.ToLower(name), strings.ToUpper(name)}[i%3]
					switch err := s.ClaimName(ctx, k, variant); {
					case err == nil:
						won <- k
					case !errors.As(err, new(ErrNameTaken)):
						t.Error(err)
					}
				})
			}
			wg.Wait()
			close(won)
			var winners []Key
			for k := range won {
				winners = append(winners, k)
			}
			return winners
		}
		winners := race(100*round, nil)
		if len(winners) != 1 {
			t.Fatalf("round %d: %d keys took the free %s at once, want 1", round, len(winners), name)
		}
		holder := winners[0]
		if p, _, _ := s.Player(ctx, holder); !strings.EqualFold(p.Name, name) {
			t.Errorf("round %d: the winner's name is %q, want %s", round, p.Name, name)
		}
		winners = race(100*round+50, func() {
			if err := s.ClaimName(ctx, holder, "was"+name); err != nil {
				t.Error(err)
			}
		})
		if len(winners) > 1 {
			t.Fatalf("round %d: %d keys took %s as its holder let it go, want 1 at most", round, len(winners), name)
		}
		// Whoever holds it now, no other key can take it, and if nobody
		// does, anyone can.
		err := s.ClaimName(ctx, testKey(100*round+99), name)
		if taken := errors.As(err, new(ErrNameTaken)); taken != (len(winners) == 1) || !taken && err != nil {
			t.Errorf("round %d: ClaimName after the race = %v, with %d winners", round, err, len(winners))
		}
	}
}

// boardHolder: Holder finds the key of a name in any case, nobody for a
// free name, and nobody once its holder renamed or was forgotten.
func boardHolder(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a := testKey(1)
	if _, ok, err := s.Holder(ctx, "émile"); ok || err != nil {
		t.Fatalf("a free name is held: %v %v", ok, err)
	}
	if err := s.ClaimName(ctx, a, "émile"); err != nil {
		t.Fatal(err)
	}
	if k, ok, err := s.Holder(ctx, "ÉMILE"); !ok || err != nil || k != a {
		t.Errorf("Holder(ÉMILE) = %x %v %v, want a", k, ok, err)
	}
	if err := s.ClaimName(ctx, a, "zed"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Holder(ctx, "émile"); ok {
		t.Error("a renamed player still holds the old name")
	}
	if err := s.Forget(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Holder(ctx, "zed"); ok {
		t.Error("a forgotten player still holds their name")
	}
}

// boardForfeit: a player who left before the end stands below everyone
// who stayed, even with more round wins, and loses rating to them.
func boardForfeit(t *testing.T, open func(*testing.T) Board) {
	ctx := context.Background()
	s := open(t)
	a, b := testKey(1), testKey(2)
	out, err := s.RecordMatch(ctx, Match{Room: "r", Rounds: 3, Players: []MatchPlayer{
		{Key: a, Name: "quitter", Slot: 8, RoundWins: 2, Forfeit: true},
		{Key: b, Name: "stayer", Slot: 0, RoundWins: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	q, st := out.Players[0], out.Players[1]
	if q.Standing != 2 || st.Standing != 1 || q.After.R >= q.Before.R || st.After.R <= st.Before.R {
		t.Errorf("quitter #%d %.0f→%.0f, stayer #%d %.0f→%.0f; want the quitter last and down",
			q.Standing, q.Before.R, q.After.R, st.Standing, st.Before.R, st.After.R)
	}
	if p, _, _ := s.Player(ctx, a); p.Wins != 0 {
		t.Errorf("the quitter won: %+v", p)
	}
}
