package netcode

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// wire is a hand-driven connection between one server core and client
// cores with no network in between: the test decides what is delivered.
type wire struct {
	t    *testing.T
	now  time.Time
	srv  *Server
	addr map[*Client]netip.AddrPort
}

func newWire(t *testing.T, cfg ServerConfig) *wire {
	cfg.Seed, cfg.Secret = 5, []byte("0123456789abcdef0123456789abcdef")
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = 1 // one match, as these tests study: a full room refuses, it does not open another
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &wire{t: t, now: simEpoch, srv: s, addr: map[*Client]netip.AddrPort{}}
}

// join runs the handshake for a new client and returns it (seated).
func (w *wire) join(cfg ClientConfig) *Client {
	w.t.Helper()
	cfg.Server = srvAddr
	cfg.Session = uint64(900 + len(w.addr))
	c := NewClient(cfg)
	a := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(30000+len(w.addr)))
	w.addr[c] = a
	for _, d := range c.Advance(w.now, game.Input{}) { // Hello
		for _, r := range w.srv.Receive(w.now, a, d.Data) { // Challenge
			for _, j := range c.Receive(w.now, srvAddr, r.Data) { // Join
				for _, acc := range w.srv.Receive(w.now, a, j.Data) { // Accept
					for _, q := range c.Receive(w.now, srvAddr, acc.Data) { // Request
						w.toClients(w.srv.Receive(w.now, a, q.Data)) // Start
					}
				}
			}
		}
	}
	if c.Status() != StatusWaiting && c.Status() != StatusPlaying {
		w.t.Fatalf("handshake failed: client %v", c.Status())
	}
	// Run the server through the countdown of a match that just started,
	// so the stories begin at its first step.
	for m := &w.srv.room0().match; m.phase == phaseCountdown && w.srv.clk.now().Before(m.world.Tick()); {
		w.now = w.now.Add(TickDuration)
		w.toClients(w.srv.Tick(w.now))
	}
	return c
}

// pastCountdown runs the server and the clients cs in step, with neutral
// inputs, through the countdown of the game's round, so a story starts at
// the round's first tick of play.
func (w *wire) pastCountdown(cs ...*Client) {
	w.t.Helper()
	for w.srv.World().State().Round.Phase == game.PhaseCountdown {
		for _, c := range cs {
			w.srv.Receive(w.now, w.addr[c], w.stepClient(c, game.Input{}))
		}
		w.now = w.now.Add(TickDuration)
		w.toClients(w.srv.Tick(w.now))
		for _, c := range cs {
			// Lockstep inputs arrive with no margin: clock sync would
			// skip ticks, but the story sets the pace.
			c.sync.margins.reset()
			c.sync.dirty = true
		}
	}
	for _, c := range cs {
		if c.World().Tick() != w.srv.World().Tick() {
			w.t.Fatalf("after the countdown: client at tick %d, server at %d", c.World().Tick(), w.srv.World().Tick())
		}
	}
}

// toClients delivers server datagrams to every client they are for.
func (w *wire) toClients(out []transport.Datagram) {
	for _, d := range out {
		for c, a := range w.addr {
			if a == d.Addr {
				c.Receive(w.now, srvAddr, d.Data)
			}
		}
	}
}

// stepClient advances c by exactly one tick with input in and returns the
// Input datagram it sent.
func (w *wire) stepClient(c *Client, in game.Input) []byte {
	w.t.Helper()
	before := c.World().Tick()
	c.sync.clock.Reset()
	c.sync.skip, c.sync.ahead = 0, 0 // the story sets the pace, not the start countdown
	c.sync.every = 1                 // and reads an Input datagram of every tick
	c.Advance(w.now, in)             // starts the clock
	out := c.Advance(w.now.Add(TickDuration), in)
	if c.World().Tick() != before+1 || len(out) != 1 {
		w.t.Fatalf("client did not step exactly one tick (%d -> %d, %d datagrams)", before, c.World().Tick(), len(out))
	}
	return append([]byte(nil), out[0].Data...)
}

// tick runs one server tick and returns copies of its datagrams per
// client.
func (w *wire) tick() map[*Client][][]byte {
	w.now = w.now.Add(TickDuration)
	got := map[*Client][][]byte{}
	for _, d := range w.srv.Tick(w.now) {
		for c, a := range w.addr {
			if a == d.Addr {
				got[c] = append(got[c], append([]byte(nil), d.Data...))
			}
		}
	}
	return got
}

var right = game.Input{MoveX: 1}

// TestStoryLostInput is seed 000 §3 on our world: the client predicts 5
// ticks; the server never receives the tick-2 input (it holds tick 1's);
// the State for tick 3 arrives when the client is at tick 5; the client
// restores and replays, and its world then equals the server's once the
// server has stepped the same ticks.
func TestStoryLostInput(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{Redundancy: 1})
	w.pastCountdown(c)
	t0 := c.World().Tick()
	inputs := []game.Input{{}, {}, right, right, right}
	var state3 []byte
	for k, in := range inputs {
		d := w.stepClient(c, in)
		if k != 2 {
			w.srv.Receive(w.now, w.addr[c], d)
		}
		if k <= 2 {
			for _, b := range w.tick()[c] {
				if st := stateDown(t, c, b); st != nil && st.Snapshot.Tick == t0+3 {
					state3 = b
				}
			}
		}
	}
	predicted := c.World().Hash()
	if state3 == nil || c.World().Tick() != t0+5 {
		t.Fatal("setup: no State for tick 3, or client not at tick 5")
	}
	c.Receive(w.now, srvAddr, state3)
	w.tick()
	w.tick() // the server steps ticks 3 and 4 with the inputs it has
	sw := w.srv.World()
	if sw.Tick() != t0+5 {
		t.Fatalf("server at %d, want %d", sw.Tick(), t0+5)
	}
	if c.World().Hash() != sw.Hash() {
		t.Fatalf("after restore+replay the client's tick-5 world %x differs from the server's %x", c.World().Hash(), sw.Hash())
	}
	if predicted == sw.Hash() {
		t.Fatal("the prediction was already right: the story tests nothing")
	}
	m := c.Metrics()
	if m.ReplayLast != 2 {
		t.Fatalf("replayed %d ticks, want 2 (ticks 3 and 4)", m.ReplayLast)
	}
}

// mustState returns the State in b, a datagram the server sealed for c,
// as c would decode it.
func mustState(t *testing.T, c *Client, b []byte) *proto.State {
	t.Helper()
	st := stateDown(t, c, b)
	if st == nil {
		t.Fatal("not a State of the client's connection")
	}
	return st
}

// collectStates steps a 1-player match for n ticks with the client moving
// right but the server getting none of its inputs, and returns the States
// the server sent, oldest first.
func diverge(t *testing.T, w *wire, c *Client, n int) [][]byte {
	var states [][]byte
	for k := 0; k < n; k++ {
		w.stepClient(c, right) // lost on the way
		for _, b := range w.tick()[c] {
			if typeOf(b) == proto.TypeState {
				states = append(states, b)
			}
		}
	}
	return states
}

// TestStoryStaleStateRejected is seed 001 §3: a fresh State is applied; an
// older one delivered afterwards is rejected and changes nothing; one
// rollback is counted.
func TestStoryStaleStateRejected(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	w.pastCountdown(c)
	states := diverge(t, w, c, 20)
	older, fresh := states[len(states)-3], states[len(states)-1]
	c.Receive(w.now, srvAddr, fresh)
	if c.World().Hash() != w.srv.World().Hash() {
		t.Fatal("fresh State not applied: client world differs from the server's")
	}
	if m := c.Metrics(); m.Rollbacks != 1 {
		t.Fatalf("rollbacks = %d, want 1", m.Rollbacks)
	}
	before := c.World().Hash()
	var v1, v2 View
	c.View(&v1)
	c.Receive(w.now, srvAddr, older)
	c.View(&v2)
	if c.World().Hash() != before || v1.World != v2.World || v2.Metrics.Rollbacks != 1 || c.m.staleStates != 1 {
		t.Fatalf("stale State changed something: hash %x→%x, rollbacks %d, stale %d",
			before, c.World().Hash(), v2.Metrics.Rollbacks, c.m.staleStates)
	}
}

// TestStoryBadHashChangesNothing is seed 001 §10.6: a State with a valid
// identity but a bad hash changes nothing at all — world, metrics, remote
// prediction — and a good copy of it does.
func TestStoryBadHashChangesNothing(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, StateEvery: 1})
	a := w.join(ClientConfig{})
	b := w.join(ClientConfig{})
	w.pastCountdown(a, b)
	var good []byte
	for k := 0; k < 30; k++ {
		w.srv.Receive(w.now, w.addr[b], w.stepClient(b, right)) // b drives right
		w.stepClient(a, game.Input{})
		for _, d := range w.tick()[a] {
			if typeOf(d) == proto.TypeState {
				good = d
			}
		}
	}
	st := mustState(t, a, good)
	if st.Delta() { // the whole State of that tick, as the server held it
		st.Back = 0
		w.srv.World().Save(&st.Snapshot)
		good = sealDown(t, w.srv, a, st.Append(nil))
	}
	st.Hash ^= 1
	bad := sealDown(t, w.srv, a, st.Append(nil)) // as a buggy server would send it: the client's own check is the story
	remote := 1 - a.Slot()
	tNext := a.World().Tick()
	predBefore := a.tl.pred.Predict(remote, tNext)
	hashBefore, metricsBefore, marginsBefore := a.World().Hash(), a.Metrics(), a.sync.margins.n
	w.now = w.now.Add(50 * time.Millisecond) // any RTT sample taken now would differ
	a.Receive(w.now, srvAddr, bad)
	if a.World().Hash() != hashBefore || a.tl.pred.Predict(remote, tNext) != predBefore {
		t.Fatal("a State with a bad hash changed the world or the remote prediction")
	}
	m := a.Metrics()
	if m.HashMismatches != 1 {
		t.Fatalf("hash mismatches %d, want 1", m.HashMismatches)
	}
	m.HashMismatches = metricsBefore.HashMismatches
	m.BytesDown, m.BytesDownPerSec = metricsBefore.BytesDown, metricsBefore.BytesDownPerSec // the datagram did arrive
	m.InputLead = metricsBefore.InputLead                                                   // an estimate at the time of the datagram, which moved on 50 ms
	if m != metricsBefore || a.sync.margins.n != marginsBefore {
		t.Fatalf("a State with a bad hash changed the metrics:\nbefore %+v\nafter  %+v", metricsBefore, m)
	}
	a.Receive(w.now, srvAddr, good)
	if a.tl.pred.Predict(remote, tNext) == predBefore {
		t.Fatal("the good State did not update the remote prediction either; the test proves nothing")
	}
}

// TestStoryForeignStatesRejected: States that are not of this session's
// match and seat are rejected. In v4 a State names them by its sealing:
// the connection it is sealed for stands for the session, and its epoch
// for the match and the player. So: one in the clear (anyone's forgery),
// one sealed for another connection, and one sealed for ours whose epoch
// stands for no match and seat of ours (an earlier match's, or another
// player's: the server never told us of them).
func TestStoryForeignStatesRejected(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	other := rawHandshake(t, w.srv, w.now, netip.MustParseAddrPort("127.0.0.2:6000"), 0xbad)
	states := diverge(t, w, c, 10)
	genuine := mustState(t, c, states[len(states)-1])
	cases := []struct {
		name string
		make func(b []byte) []byte
	}{
		{"in the clear", func(b []byte) []byte { return b }},
		{"another connection", func(b []byte) []byte {
			_, sealed, ok := w.srv.conns.seal(other.conn, nil, handmadeOf(b))
			if !ok {
				t.Fatal("setup: cannot seal for the other connection")
			}
			return sealed
		}},
		{"an epoch of an earlier match", func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[12:16], genuine.Match^0x100)
			return sealDown(t, w.srv, c, b)
		}},
		{"an epoch of another player", func(b []byte) []byte {
			b[16] = 3
			return sealDown(t, w.srv, c, b)
		}},
	}
	for _, tc := range cases {
		before := c.World().Hash()
		c.Receive(w.now, srvAddr, tc.make(genuine.Append(nil)))
		if c.World().Hash() != before || c.tl.haveAuth {
			t.Errorf("%s: State was applied", tc.name)
		}
	}
	if got := c.Metrics().Dropped; got != uint64(len(cases)) {
		t.Fatalf("Dropped = %d, want %d", got, len(cases))
	}
	c.Receive(w.now, srvAddr, states[len(states)-1])
	if !c.tl.haveAuth {
		t.Fatal("the genuine State was not applied either")
	}
}

// TestResyncWhenReplayHistoryIsMissing: a State older than the client's
// input history cannot be replayed without inventing inputs; the client
// resynchronises from it instead, and counts it.
func TestResyncWhenReplayHistoryIsMissing(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{History: 8})
	states := diverge(t, w, c, 20) // the server got none of the inputs
	old := mustState(t, c, states[2])
	c.Receive(w.now, srvAddr, states[2])
	m := c.Metrics()
	if m.Resyncs != 1 {
		t.Fatalf("resyncs = %d, want 1", m.Resyncs)
	}
	if c.World().Tick() != old.Snapshot.Tick || c.World().Hash() != old.Hash {
		t.Fatalf("after the resync the world is at %d (hash %x), want the State's %d (%x)",
			c.World().Tick(), c.World().Hash(), old.Snapshot.Tick, old.Hash)
	}
	// A State that can be replayed is handled normally again.
	c.Receive(w.now, srvAddr, states[len(states)-1])
	if c.Metrics().Resyncs != 1 || c.World().Hash() != w.srv.World().Hash() {
		t.Fatal("the next State did not apply normally")
	}
}

// srvAddr is the server's address in wire tests.
var srvAddr = netip.MustParseAddrPort("127.0.0.1:7777")
