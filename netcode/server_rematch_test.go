package netcode

import (
	"errors"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// botPolicy is a server bot from game/bot: it plays, and votes for a
// rematch once the match is over.
func botPolicy(slot int, seed uint64) InputSource { return bot.NewLevel(seed, bot.Normal) }

// botClient returns a ClientConfig whose player is a game/bot bot.
func botClient(name string, seed uint64) ClientConfig {
	b := bot.NewLevel(seed, bot.Normal)
	return ClientConfig{Name: name, LocalInput: func(w *game.World, slot int) game.Input { return b.Input(w.State(), w.Maze(), slot) }}
}

// TestRematchInTheSameRoom: a match to one round win ends with a winner
// in the simulation on both sides; the bots (the server's and the
// client's) vote, so the rematch starts at once as a new match in the
// same room, and the client plays it.
func TestRematchInTheSameRoom(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: botPolicy, Rounds: 1, Seed: 7})
	p := n.addClient(botClient("p", 3), transport.Impairment{Latency: 20 * time.Millisecond}, transport.Impairment{Latency: 20 * time.Millisecond}, 1)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatalf("no match: %v", errText(p.c))
	}
	first := n.server.Match()
	r := n.server.room0()
	var winner int8 = -1
	ended := n.runUntil(5*time.Minute, func() bool {
		if w := r.match.current(); w != nil && w.State().Round.Phase == game.PhaseMatchOver {
			winner = w.State().Round.Winner
			return true
		}
		return false
	})
	if !ended {
		t.Fatal("the match to one round win did not end in 5 minutes of play")
	}
	t.Logf("match over after %v of virtual time, round %d, winner %d", n.now.Sub(simEpoch), r.match.current().State().Round.Number, winner)
	if winner < 0 || r.match.current().State().Tanks[winner].Score != 1 {
		t.Fatalf("match over with winner %d", winner)
	}
	if !n.runUntil(10*time.Second, func() bool {
		return n.server.Match() != first && p.c.Status() == StatusPlaying && p.c.sess.matchID() == n.server.Match()
	}) {
		t.Fatalf("no rematch: server match %08x (was %08x), client %v in %08x", n.server.Match(), first, p.c.Status(), p.c.sess.matchID())
	}
	if name, _, rounds := p.c.Room(); name != "a" || rounds != 1 || n.server.rooms.count() != 1 {
		t.Errorf("rematch in room %q (rounds %d), %d rooms; want room a, 1, 1", name, rounds, n.server.rooms.count())
	}
	if w := r.match.current(); w == nil || w.State().Round.Number != 1 || w.State().Tanks[0].Score+w.State().Tanks[1].Score != 0 {
		t.Errorf("the rematch does not start from round 1 at 0-0")
	}
	// The first match's id still routes to the room (a delayed spectator
	// may show it), but an Input of it, from the player's own place, is
	// dropped: not taken as this match's input, nor as a sign of life.
	slot := p.c.Slot()
	st := r.seats.at(slot)
	clock := r.h.clock().now()
	old := proto.Input{Header: proto.Header{Type: proto.TypeInput, Seq: 1 << 30, Match: first, Player: uint8(slot)},
		N: 1, HasBase: true, Base: clock.Add(-2)}
	old.Inputs[0] = game.Input{Tick: clock.Add(2), MoveX: 1}
	before := n.server.Stats().Drops[DropWrongMatch]
	r.input(n.now, st.addr, st.conn, &old)
	if got := n.server.Stats().Drops[DropWrongMatch] - before; got != 1 || st.in.seen(old.Seq) {
		t.Errorf("an Input of the match before the rematch: %d dropped as of the wrong match, seen %v; want 1, false", got, st.in.seen(old.Seq))
	}
}

// TestNoVoteBackToLobby: a player who does not vote for the rematch is
// sent back to the lobby (a "match over" Leave) once ResultsFor has
// passed, and the room returns to its lobby.
func TestNoVoteBackToLobby(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: botPolicy, Rounds: 1, Seed: 7, ResultsFor: 3 * time.Second,
		RematchWait: time.Second})
	inner := bot.NewLevel(3, bot.Normal)
	cfg := ClientConfig{Name: "p", LocalInput: func(w *game.World, slot int) game.Input {
		in := inner.Input(w.State(), w.Maze(), slot)
		in.Buttons &^= game.ButtonRematch // this player never votes
		return in
	}}
	p := n.addClient(cfg, transport.Impairment{Latency: 20 * time.Millisecond}, transport.Impairment{Latency: 20 * time.Millisecond}, 1)
	r := n.server.room0()
	var overAt time.Time
	if !n.runUntil(5*time.Minute, func() bool {
		if w := r.match.current(); w != nil && w.State().Round.Phase == game.PhaseMatchOver {
			overAt = n.now
			return true
		}
		return false
	}) {
		t.Fatal("the match did not end")
	}
	if !n.runUntil(10*time.Second, func() bool { return p.c.Status() == StatusClosed }) {
		t.Fatalf("the player who did not vote is still %v", p.c.Status())
	}
	var ended *EndedError
	if took := n.now.Sub(overAt); !errors.As(p.c.Err(), &ended) || ended.Reason != proto.LeaveMatchOver || took < 3*time.Second {
		t.Fatalf("ended with %v after %v; want a match-over Leave after ResultsFor (3 s)", p.c.Err(), took)
	}
	if r.seats.humans() != 0 || r.match.live() {
		t.Errorf("the room kept %d players, live %v", r.seats.humans(), r.match.live())
	}
}

// TestResultsWaitForTheVoteWhenAsked: with a negative ResultsFor (ttytanks
// play), the results of a match whose bot voted at once stay up for as
// long as the player takes (ten minutes here), the player is not sent
// away, and the player's vote then starts the rematch.
func TestResultsWaitForTheVoteWhenAsked(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: botPolicy, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1})
	inner := bot.NewLevel(3, bot.Normal)
	voting := false
	cfg := ClientConfig{Name: "p", LocalInput: func(w *game.World, slot int) game.Input {
		in := inner.Input(w.State(), w.Maze(), slot)
		if !voting {
			in.Buttons &^= game.ButtonRematch
		}
		return in
	}}
	link := transport.Impairment{Latency: 20 * time.Millisecond}
	p := n.addClient(cfg, link, link, 1)
	r := n.server.room0()
	if !n.runUntil(5*time.Minute, func() bool {
		w := r.match.current()
		return w != nil && w.State().Round.Phase == game.PhaseMatchOver
	}) {
		t.Fatal("the match did not end")
	}
	first := n.server.Match()
	n.run(10 * time.Minute)
	if p.c.Status() != StatusPlaying || n.server.Match() != first || r.match.current().State().Round.Phase != game.PhaseMatchOver {
		t.Fatalf("ten minutes on the results: the player is %v (%v), match %08x (was %08x)", p.c.Status(), errText(p.c), n.server.Match(), first)
	}
	voting = true
	if !n.runUntil(5*time.Second, func() bool { return n.server.Match() != first && p.c.sess.matchID() == n.server.Match() }) {
		t.Fatal("the player's vote did not start the rematch")
	}
}

// TestStartWaitStartsWithFreeSeats: with StartWait, a 3-seat room starts
// once two players have waited that long; the free seat is empty in the
// server's world and in both clients' (hashes equal), and a third player
// takes it in the running match.
func TestStartWaitStartsWithFreeSeats(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 3, StartWait: time.Second, Seed: 9})
	lat := transport.Impairment{Latency: 15 * time.Millisecond}
	a := n.addClient(ClientConfig{Name: "a"}, lat, lat, 1)
	b := n.addClient(ClientConfig{Name: "b"}, lat, lat, 2)
	if !n.runUntil(500*time.Millisecond, func() bool { return a.c.Status() == StatusWaiting && b.c.Status() == StatusWaiting }) {
		t.Fatalf("not waiting: %v %v", a.c.Status(), b.c.Status())
	}
	n.run(300 * time.Millisecond)
	if n.server.Running() {
		t.Fatal("the match started before StartWait")
	}
	if !n.runUntil(2*time.Second, n.playing) {
		t.Fatalf("no early start: %v %v", a.c.Status(), b.c.Status())
	}
	w := n.server.World()
	free := -1
	for i := 0; i < 3; i++ {
		if !w.State().Tanks[i].Seated {
			free = i
		}
	}
	if free < 0 {
		t.Fatal("every seat is seated in the server's world")
	}
	n.run(time.Second)
	for _, c := range []*simClient{a, b} {
		own := c.c.World()
		if own == nil || own.State().Tanks[free].Seated {
			t.Fatalf("%s's world seats the free slot %d", c.c.cfg.Name, free)
		}
		if c.c.Metrics().Resyncs != 0 || c.c.Metrics().HashMismatches != 0 {
			t.Errorf("%s: %d resyncs, %d hash mismatches", c.c.cfg.Name, c.c.Metrics().Resyncs, c.c.Metrics().HashMismatches)
		}
	}
	late := n.addClient(ClientConfig{Name: "late"}, lat, lat, 3)
	if !n.runUntil(2*time.Second, func() bool { return late.c.Status() == StatusPlaying && late.c.Slot() == free }) {
		t.Fatalf("the late player is %v in slot %d, want playing in %d", late.c.Status(), late.c.Slot(), free)
	}
	if !n.server.World().State().Tanks[free].Seated {
		t.Error("the late player's tank is not seated")
	}
}

// TestLoneHumanWaitsForAnOpponent: in a room of two humans and no bot,
// the one who stays is not left driving alone through rounds that time
// out: within 2 s of the other's Leave the stayer's world waits
// (game.PhaseWaiting) with its score kept, however long nobody comes; the
// next player who comes takes the free seat and a new round starts with
// both, the stayer's score as it was.
func TestLoneHumanWaitsForAnOpponent(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Rounds: 5, Seed: 7, Idle: -1})
	link := transport.Impairment{Latency: 30 * time.Millisecond}
	p := n.addClient(botClient("p", 3), link, link, 1)
	q := n.addClient(botClient("q", 4), link, link, 2)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatalf("no match: %v %v", errText(p.c), errText(q.c))
	}
	r := n.server.room0()
	// Play until someone has won a round, so there is a score to keep.
	if !n.runUntil(5*time.Minute, func() bool {
		w := r.match.current().State()
		return w.Tanks[0].Score+w.Tanks[1].Score > 0 && w.Round.Phase == game.PhasePlaying
	}) {
		t.Fatal("nobody won a round in 5 minutes")
	}
	if r.match.current().State().Tanks[p.c.Slot()].Score == 0 {
		p, q = q, p // the one who stays has a score to keep
	}
	score := r.match.current().State().Tanks[p.c.Slot()].Score
	n.leave(q)
	left := n.now
	var v View
	if !n.runUntil(2*time.Second, func() bool {
		p.c.View(&v)
		return v.World.Round.Phase == game.PhaseWaiting
	}) {
		t.Fatalf("2 s after the opponent left, the stayer's world is in phase %v", v.World.Round.Phase)
	}
	t.Logf("waiting on the stayer's screen %v after the Leave, score %d kept", n.now.Sub(left), score)
	// Twice a round's time limit alone: no round plays out, the score stays.
	n.run(2 * game.RoundTicks * TickDuration)
	p.c.View(&v)
	if v.World.Round.Phase != game.PhaseWaiting || v.World.Tanks[p.c.Slot()].Score != score || p.c.Status() != StatusPlaying {
		t.Fatalf("after 3 minutes alone: phase %v, score %d (was %d), status %v", v.World.Round.Phase,
			v.World.Tanks[p.c.Slot()].Score, score, p.c.Status())
	}
	c := n.addClient(botClient("c", 5), link, link, 3)
	if !n.runUntil(5*time.Second, func() bool {
		p.c.View(&v)
		return c.c.Status() == StatusPlaying && v.World.Round.Phase == game.PhaseCountdown
	}) {
		t.Fatalf("the newcomer did not start a round with the stayer: %v, phase %v", c.c.Status(), v.World.Round.Phase)
	}
	if got := v.World.Tanks[p.c.Slot()].Score; got != score || !v.World.Tanks[c.c.Slot()].Alive {
		t.Fatalf("the new round: the stayer's score %d (was %d), the newcomer alive %v", got, score, v.World.Tanks[c.c.Slot()].Alive)
	}
}
