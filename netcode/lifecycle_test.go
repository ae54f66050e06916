package netcode

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestLobbyWaitKeepsTheSeat: a player waiting in the lobby longer than
// FreeAfter keeps its seat (its keep-alives say it is there) and plays when
// the second player comes.
func TestLobbyWaitKeepsTheSeat(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2})
	path := transport.Impairment{Latency: 20 * time.Millisecond}
	host := n.addClient(ClientConfig{Name: "host"}, path, path, 1)
	n.run(FreeAfter + 5*time.Second)
	if host.c.Status() != StatusWaiting || n.server.Stats().Timeouts != 0 || n.server.Stats().Need != 1 {
		t.Fatalf("after %v in the lobby: host %v, server %+v", FreeAfter+5*time.Second, host.c.Status(), n.server.Stats())
	}
	if !playerConnected(n, 0) {
		t.Fatal("the waiting host shows as connection lost")
	}
	n.addClient(ClientConfig{Name: "guest"}, path, path, 2)
	if !n.runUntil(3*time.Second, n.playing) {
		t.Fatal("the match did not start when the guest came")
	}
}

// TestLateJoinUnderLossSettles: a client joining (as a spectator would, or
// into a freed seat) a match that has run for 30 s, over a lossy link,
// settles a few ticks ahead of the server instead of leaping far ahead,
// and its inputs are used. Repeated over seeds.
func TestLateJoinUnderLossSettles(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		n := newSimnet(t, ServerConfig{Players: 2, Seed: seed})
		path := transport.Impairment{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05}
		a := n.addClient(ClientConfig{}, path, path, seed)
		b := n.addClient(ClientConfig{}, path, path, seed+100)
		if !n.runUntil(5*time.Second, n.playing) {
			t.Fatal("match did not start")
		}
		n.run(30 * time.Second)
		// b leaves; a newcomer takes the seat of a match 30 s old.
		n.route(b.addr, b.up, b.c.Close())
		if !n.runUntil(2*time.Second, func() bool { return !b.c.Leaving() }) {
			t.Fatalf("seed %d: b's Leave was never acknowledged", seed)
		}
		n.clients = n.clients[:1]
		c := n.addClient(ClientConfig{Name: "late"}, path, path, seed+200)
		if !n.runUntil(3*time.Second, func() bool { return c.c.Status() == StatusPlaying && c.c.World() != nil }) {
			t.Fatalf("seed %d: late joiner status %v", seed, c.c.Status())
		}
		n.run(5 * time.Second)
		lead := c.c.World().Tick().Diff(n.server.World().Tick())
		p := &n.server.room0().seats.at(c.c.Slot()).in
		if lead < 0 || lead > 10 || p.real == 0 || n.server.Stats().Drops[DropFuture] > 0 {
			t.Fatalf("seed %d: late joiner lead %d ticks, real inputs %d, future drops %d",
				seed, lead, p.real, n.server.Stats().Drops[DropFuture])
		}
		_ = a
	}
}

// TestDelayedLobbyStartIgnored: a Start from the lobby (Need > 0) that
// arrives after the match has begun does not send a playing client back
// to the waiting screen or rebuild its timeline.
func TestDelayedLobbyStartIgnored(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	a := w.join(ClientConfig{})
	// Capture a's lobby Start before the match fills.
	var lobby []byte
	for _, d := range w.srv.Tick(w.now.Add(startResendTicks * TickDuration)) {
		if typeOf(d.Data) == proto.TypeStart && d.Addr == w.addr[a] {
			lobby = append([]byte(nil), d.Data...)
		}
	}
	for k := 0; k < startResendTicks && lobby == nil; k++ {
		for _, d := range w.tick()[a] {
			if typeOf(d) == proto.TypeStart {
				lobby = d
			}
		}
	}
	if h, clear, ok := peekDown(a, lobby); !ok {
		t.Fatal("setup: no lobby Start")
	} else if st, err := proto.ParseStart(clear); err != nil || st.Need == 0 || st.Header != h {
		t.Fatalf("setup: the Start is no lobby's (need %d, %v)", st.Need, err)
	}
	w.join(ClientConfig{})
	if a.Status() != StatusPlaying {
		t.Fatalf("setup: a is %v", a.Status())
	}
	for k := 0; k < 10; k++ {
		w.stepClient(a, game.Input{MoveX: 1})
	}
	tick, dropped := a.World().Tick(), a.Metrics().Dropped
	a.Receive(w.now, srvAddr, lobby)
	if a.Metrics().Dropped != dropped {
		t.Fatal("setup: the delayed Start was dropped unopened: the test tests nothing")
	}
	if a.Status() != StatusPlaying || a.World() == nil || a.World().Tick() != tick {
		t.Fatalf("a delayed lobby Start changed a playing client: %v at %v", a.Status(), a.World())
	}
}

// TestBotsOnlyServer: a server whose seats are all bots plays at once, and
// a spectator can watch.
func TestBotsOnlyServer(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 2, NewBot: func(int, uint64) InputSource { return walker{} }})
	if !n.server.Running() {
		t.Fatal("a bots-only server did not start its match")
	}
	sp := n.addClient(ClientConfig{Spectate: true}, transport.Impairment{}, transport.Impairment{}, 1)
	if !n.runUntil(2*time.Second, func() bool { return sp.c.Status() == StatusPlaying && sp.c.World() != nil }) {
		t.Fatalf("spectator status %v", sp.c.Status())
	}
	// The round's countdown first: nobody moves.
	if !n.runUntil(5*time.Second, func() bool { return sp.c.World().State().Round.Phase == game.PhasePlaying }) {
		t.Fatalf("the round never started: %v", sp.c.World().State().Round)
	}
	before := sp.c.World().State().Tanks[0].X
	n.run(time.Second)
	if sp.c.World().State().Tanks[0].X == before {
		t.Fatal("the spectator does not see the bots move")
	}
}

// walker is a bot that drives right, then left.
type walker struct{}

func (walker) Input(s *game.Snapshot, m *game.Maze, slot int) game.Input {
	dir := int8(1)
	if s.Tick/60%2 == 1 {
		dir = -1
	}
	return game.Input{MoveX: dir}
}

// TestClientErrorsAreClear: an unreachable server, a full one and one of
// another protocol version each end the session with a message that says
// so.
func TestClientErrorsAreClear(t *testing.T) {
	// Unreachable: nothing answers.
	c := NewClient(ClientConfig{Server: srvAddr, Session: 5, ConnectTimeout: 2 * time.Second})
	now := simEpoch
	for i := 0; i < 300 && c.Status() != StatusClosed; i++ {
		c.Advance(now, game.Input{})
		now = now.Add(10 * time.Millisecond)
	}
	var na *NoAnswerError
	if c.Status() != StatusClosed || !errors.As(c.Err(), &na) || !strings.Contains(errText(c), "no answer from 127.0.0.1:7777") {
		t.Fatalf("unreachable: %v %q", c.Status(), errText(c))
	}

	// Another version: the server's reply carries its own version byte.
	c = NewClient(ClientConfig{Server: srvAddr, Session: 6})
	c.Advance(simEpoch, game.Input{})
	r := (&proto.Reject{Header: proto.Header{Session: 6}, Reason: proto.RejectVersion}).Append(nil)
	r[2] = proto.Version + 1
	c.Receive(simEpoch, srvAddr, r)
	want := fmt.Sprintf("server speaks protocol v%d, this client v%d", proto.Version+1, proto.Version)
	var ve *VersionError
	if c.Status() != StatusClosed || !errors.As(c.Err(), &ve) || !errors.Is(c.Err(), proto.ErrVersion) || !strings.Contains(errText(c), want) {
		t.Fatalf("version mismatch: %v %q", c.Status(), errText(c))
	}

	// Full: two seats taken, a third player is told.
	w := newWire(t, ServerConfig{Players: 2})
	w.join(ClientConfig{})
	w.join(ClientConfig{})
	third := NewClient(ClientConfig{Server: srvAddr, Session: 77})
	a := netip.MustParseAddrPort("127.0.0.1:30999")
	for _, d := range third.Advance(w.now, game.Input{}) { // Hello
		for _, r := range w.srv.Receive(w.now, a, d.Data) { // Challenge
			for _, j := range third.Receive(w.now, srvAddr, r.Data) { // Join
				for _, acc := range w.srv.Receive(w.now, a, j.Data) { // Accept
					for _, q := range third.Receive(w.now, srvAddr, acc.Data) { // Request
						for _, rej := range w.srv.Receive(w.now, a, q.Data) { // Reject, sealed
							third.Receive(w.now, srvAddr, rej.Data)
						}
					}
				}
			}
		}
	}
	if third.Status() != StatusClosed || !errors.Is(third.Err(), ErrServerFull) || errText(third) != "the server is full" {
		t.Fatalf("full: %v %q", third.Status(), errText(third))
	}
}
