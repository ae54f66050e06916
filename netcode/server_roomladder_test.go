package netcode

import (
	"context"
	"crypto/ed25519"
	"errors"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/internal/ladder"
	"ttytanks/proto"
)

// TestALoserCannotVoidTheMatch: a player losing a ranked match cannot
// make it unrated by seating a second place of their own in it (another
// key of their address, their own key again, their key from another
// address): the one who took their place first is rated, and loses; the
// late place plays unrated.
func TestALoserCannotVoidTheMatch(t *testing.T) {
	for _, tc := range []struct {
		name, addr string
		seed       byte // the late place's key: 2 is the loser's own
	}{
		{"another key of the loser's address", "127.0.0.3:4001", 3},
		{"the loser's key again", "127.0.0.3:4001", 2},
		{"the loser's key from another address", "127.0.0.4:4000", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, st := newLadderNet(t, ServerConfig{Players: 4, Rounds: 2, Seed: 7, StartWait: time.Second, ResultsFor: -1, Idle: -1,
				Trusted: []netip.Prefix{}})
			w := n.addClientAt(keyed(botClient("winner", 3), playerKey(1)), "127.0.0.2:4000", 1)
			l := n.addClientAt(keyed(ClientConfig{Name: "loser"}, playerKey(2)), "127.0.0.3:4000", 2)
			if !n.runUntil(20*time.Second, n.playing) {
				t.Fatalf("no match: %v / %v", errText(w.c), errText(l.c))
			}
			r := n.server.room0()
			var v View
			if !n.runUntil(5*time.Minute, func() bool {
				w.c.View(&v)
				return v.Slot >= 0 && r.match.current().State().Tanks[v.Slot].Score == 1
			}) {
				t.Fatal("the winner did not win a round")
			}
			late := n.addClientAt(keyed(ClientConfig{Name: "late"}, playerKey(tc.seed)), tc.addr, 3)
			if !n.runUntil(5*time.Minute, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
				t.Fatalf("the match was not played out and recorded: %v", errText(late.c))
			}
			if got := n.server.Stats().Ladder.Rated; got != 1 {
				t.Fatalf("the match was not rated (%d rated): the loser voided it", got)
			}
			ctx := context.Background()
			if p, _, _ := st.Player(ctx, keyOf(playerKey(1))); p.Matches != 1 || p.Wins != 1 || p.Rating.R <= 1500 {
				t.Errorf("the winner's record: %+v", p)
			}
			if p, _, _ := st.Player(ctx, keyOf(playerKey(2))); p.Matches != 1 || p.Wins != 0 || p.Rating.R >= 1500 {
				t.Errorf("the loser's record: %+v", p)
			}
			if p, ok, _ := st.Player(ctx, keyOf(playerKey(3))); ok {
				t.Errorf("the late key of the loser's address was rated: %+v", p)
			}
		})
	}
}

// TestAnEmptiedMatchIsNotRated: both players of a ranked duel fall
// silent at once (the server's network, say, is down for longer than a
// place is held) and time out in one sweep: the room empties, and a match
// that does not end is not rated (PROTOCOL.md §4.15), as a draw or
// otherwise. The next match of the room is its new players' alone.
func TestAnEmptiedMatchIsNotRated(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 2, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1})
	a := n.addClient(keyed(botClient("ann", 3), playerKey(1)), lan, lan, 1)
	b := n.addClient(keyed(ClientConfig{Name: "bob"}, playerKey(2)), lan, lan, 2)
	r := n.server.room0()
	if !n.runUntil(20*time.Second, func() bool {
		return n.playing() && !r.match.counting() && r.match.current().State().Round.Phase == game.PhasePlaying
	}) {
		t.Fatal("no match")
	}
	n.run(time.Second)
	n.drop(a)
	n.drop(b)
	if !n.runUntil(time.Minute, func() bool { return r.seats.humans() == 0 }) {
		t.Fatal("the silent players kept their seats")
	}
	n.run(time.Second)
	if l := n.server.Stats().Ladder; l.Recorded != 0 {
		t.Errorf("the emptied match was recorded: %+v", l)
	}
	ctx := context.Background()
	for _, k := range []ed25519.PrivateKey{playerKey(1), playerKey(2)} {
		if p, ok, _ := st.Player(ctx, keyOf(k)); ok {
			t.Errorf("%s was rated in a match that did not end: %+v", p.Name, p)
		}
	}
	n.addClient(keyed(botClient("cy", 5), playerKey(3)), lan, lan, 3)
	n.addClient(keyed(botClient("dee", 6), playerKey(4)), lan, lan, 4)
	if !n.runUntil(5*time.Minute, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatal("the next match was not recorded")
	}
	for _, k := range []ed25519.PrivateKey{playerKey(1), playerKey(2)} {
		if p, ok, _ := st.Player(ctx, keyOf(k)); ok {
			t.Errorf("%s, gone, was rated in the next match: %+v", p.Name, p)
		}
	}
	for _, k := range []ed25519.PrivateKey{playerKey(3), playerKey(4)} {
		if p, _, _ := st.Player(ctx, keyOf(k)); p.Matches != 1 {
			t.Errorf("%s: %d matches, want 1", p.Name, p.Matches)
		}
	}
}

// TestLadderQueriesLeaveTheQueueToClaimsAndRecords: a leaderboard page
// of a large ladder is slow (its count and its offset walk the players),
// so viewers asking as often as they may keep the store busy. However
// many ask, their queries take a bounded share of the ladder's queue: a
// keyed player's claim still queues (they are seated once it is
// answered), and so does a finished match's record; and the places at
// the queue's end are the records' alone, however many claims wait.
func TestLadderQueriesLeaveTheQueueToClaimsAndRecords(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, Ladder: true, Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	s := w.srv
	var viewers []*rawPeer
	for i := range lobbyPlaces {
		from := netip.AddrPortFrom(netip.MustParseAddr("127.0.1.1"), uint16(10000+i))
		p := rawHandshake(t, s, w.now, from, uint64(0x5000+i))
		if st, why := p.request(t, s, w.now, proto.Request{Kind: proto.RoomLobby, Spectate: true, Name: "viewer"}); st == nil {
			t.Fatalf("viewer %d refused: %v", i, why)
		}
		viewers = append(viewers, p)
	}
	// The store never answers: every query stays queued or out.
	for range 10 {
		w.now = w.now.Add(ladderQueryGap)
		for _, p := range viewers {
			p.send(s, w.now, &proto.LadderQuery{Offset: 1 << 31, Count: proto.MaxLadderPage})
		}
	}
	if got := s.Stats().Ladder.Pending; got > maxLadderQueries {
		t.Errorf("%d jobs pending after the queries, want at most %d", got, maxLadderQueries)
	}
	claims := 0
	for i := range maxLadderJobs {
		from := netip.AddrPortFrom(netip.MustParseAddr("127.0.2.1"), uint16(10000+i))
		p := rawHandshake(t, s, w.now, from, uint64(0x9000+i))
		key := playerKey(byte(i))
		q := proto.Request{Name: "keyed", Identity: proto.SignIdentity(key, p.transcript)}
		before := s.Stats().Ladder.Pending
		p.send(s, w.now, &q)
		if s.Stats().Ladder.Pending == before {
			break
		}
		claims++
	}
	if claims == 0 {
		t.Fatal("no keyed player's claim was queued behind the queries")
	}
	if !s.ladder.queue(LadderJob{Kind: LadderRecord}) {
		t.Errorf("a match's record was refused with %d jobs pending (%d claims)", s.Stats().Ladder.Pending, claims)
	}
}

// flakyBoard is a ladder whose first fails RecordMatch calls fail, as a
// store another process holds locked does.
type flakyBoard struct {
	ladder.Board
	fails int
}

func (b *flakyBoard) RecordMatch(ctx context.Context, m ladder.Match) (ladder.Outcome, error) {
	if b.fails > 0 {
		b.fails--
		return ladder.Outcome{}, errors.New("database is locked")
	}
	return b.Board.RecordMatch(ctx, m)
}

// TestARecordThatFailsIsTriedAgain: the store refuses a finished match's
// record for a while (another process holds the database locked longer
// than its busy timeout): the record is tried again, and the match is
// rated once the store takes it, not lost.
func TestARecordThatFailsIsTriedAgain(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 2, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1})
	n.board = &flakyBoard{Board: st, fails: 3}
	stayer := n.addClient(keyed(botClient("stayer", 3), playerKey(1)), lan, lan, 1)
	q := n.addClient(keyed(ClientConfig{Name: "quitter"}, playerKey(2)), lan, lan, 2)
	r := n.server.room0()
	if !n.runUntil(20*time.Second, func() bool {
		return n.playing() && !r.match.counting() && r.match.current().State().Round.Phase == game.PhasePlaying
	}) {
		t.Fatal("no match")
	}
	n.run(time.Second)
	q.c.Close()
	if !n.runUntil(10*time.Second, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatalf("the match was lost to the store's failures: %+v", n.server.Stats().Ladder)
	}
	if l := n.server.Stats().Ladder; l.Rated != 1 || l.Failed != 3 {
		t.Errorf("ladder figures %+v, want 1 rated after 3 failures", l)
	}
	if p, _, _ := st.Player(context.Background(), keyOf(playerKey(1))); p.Wins != 1 {
		t.Errorf("the stayer's record: %+v", p)
	}
	var v View
	if !n.runUntil(5*time.Second, func() bool { stayer.c.View(&v); return len(v.Rated) == 1 }) {
		t.Errorf("the stayer was not told its rating: %+v", v.Rated)
	}
}

// TestThrowawayForfeitsDoNotHideALoser: keys that take a free seat of a
// running ranked match and quit at once fill the room's list of
// forfeits; the loser who then quits still forfeits, and loses rating:
// the forfeits of players who took their place last give way.
func TestThrowawayForfeitsDoNotHideALoser(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 3, Rounds: 3, Seed: 7, StartWait: time.Second, ResultsFor: -1, Idle: -1,
		MaxSeatsPerAddr: 64})
	w := n.addClient(keyed(botClient("winner", 3), playerKey(1)), lan, lan, 1)
	l := n.addClient(keyed(ClientConfig{Name: "loser"}, playerKey(2)), lan, lan, 2)
	r := n.server.room0()
	if !n.runUntil(20*time.Second, func() bool { return n.playing() && !r.match.counting() }) {
		t.Fatalf("no match: %v / %v", errText(w.c), errText(l.c))
	}
	for i := range 2 * game.MaxPlayers {
		tw := n.addClient(keyed(ClientConfig{Name: "throwaway"}, playerKey(byte(10+i))), lan, lan, uint64(10+i))
		if !n.runUntil(5*time.Second, func() bool { return tw.c.Status() == StatusPlaying }) {
			t.Fatalf("throwaway %d not seated: %v", i, errText(tw.c))
		}
		n.leave(tw)
		n.drop(tw)
		if !n.runUntil(5*time.Second, func() bool { return r.seats.free() == 1 }) {
			t.Fatalf("throwaway %d's seat not freed", i)
		}
	}
	n.leave(l)
	if !n.runUntil(10*time.Second, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatalf("the match the loser left was not recorded: %+v", n.server.Stats().Ladder)
	}
	if p, ok, _ := st.Player(context.Background(), keyOf(playerKey(2))); !ok || p.Matches != 1 || p.Rating.R >= 1500 {
		t.Errorf("the loser's record: %+v %v; want one match, rated down", p, ok)
	}
}

// TestAPlayerWhoPlayedNoRoundIsNotRated: a keyed player who takes a free
// seat of a ranked match during its last round waits for the next round
// ("joins next round"), which never comes: the match ends without them.
// They played no round of it, so they are not rated in it, as a loser
// or otherwise, whether they stay to its end or leave before (no
// forfeit); the two who played it are rated against each other.
func TestAPlayerWhoPlayedNoRoundIsNotRated(t *testing.T) {
	for _, leaves := range []bool{false, true} {
		name := "stays"
		if leaves {
			name = "leaves"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n, st := newLadderNet(t, ServerConfig{Players: 3, Rounds: 1, Seed: 7, StartWait: time.Second, ResultsFor: -1, Idle: -1, MaxSeatsPerAddr: 8})
			a := n.addClient(keyed(botClient("ann", 3), playerKey(1)), lan, lan, 1)
			b := n.addClient(keyed(botClient("bob", 4), playerKey(2)), lan, lan, 2)
			r := n.server.room0()
			if !n.runUntil(20*time.Second, func() bool {
				return n.playing() && !r.match.counting() && r.match.current().State().Round.Phase == game.PhaseCountdown
			}) {
				t.Fatalf("no match: %v / %v", errText(a.c), errText(b.c))
			}
			// Round 1 counts down, and it is the last: the first round win
			// wins the match.
			late := n.addClient(keyed(ClientConfig{Name: "late"}, playerKey(3)), lan, lan, 3)
			var v View
			if !n.runUntil(2*time.Second, func() bool { late.c.View(&v); return late.c.Status() == StatusPlaying && v.Slot >= 0 }) {
				t.Fatalf("late not seated during the countdown: %v", errText(late.c))
			}
			slot := v.Slot
			if tk := r.match.current().State().Tanks[slot]; !tk.Seated || tk.Spawned() {
				t.Fatalf("late's tank %+v: want seated, waiting for the next round", tk)
			}
			if leaves {
				n.run(time.Second)
				n.leave(late)
			}
			if !n.runUntil(5*time.Minute, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
				t.Fatal("the match was not played out and recorded")
			}
			if w := r.match.current().State(); w.Round.Number != 1 || (!leaves && w.Tanks[slot].Spawned()) {
				t.Fatalf("the match ended in round %d, late's tank %+v: want it over in the round late joined", w.Round.Number, w.Tanks[slot])
			}
			if got := n.server.Stats().Ladder.Rated; got != 1 {
				t.Fatalf("%d matches rated, want 1", got)
			}
			ctx := context.Background()
			if p, ok, _ := st.Player(ctx, keyOf(playerKey(3))); ok {
				t.Errorf("late, who played no round, was rated: %+v", p)
			}
			for _, k := range []ed25519.PrivateKey{playerKey(1), playerKey(2)} {
				if p, _, _ := st.Player(ctx, keyOf(k)); p.Matches != 1 || p.Rating.R == 1500 {
					t.Errorf("%s: %d matches, rating %.0f; want rated in 1", p.Name, p.Matches, p.Rating.R)
				}
			}
		})
	}
}
