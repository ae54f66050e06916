package netcode

import (
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// These tests replay and forge datagrams as an attacker on the path would
// (knowing the session): each forgery is dropped and counted, and the real
// peer plays on.

// TestReplayedSpectatorKeepAliveIsNoSignOfLife: a spectator's keep-alive
// sent again (a copy or a replay) is dropped as a duplicate, so a dead
// spectator's place is freed after FreeAfter however often it is replayed.
func TestReplayedSpectatorKeepAliveIsNoSignOfLife(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, Bots: 2, NewBot: func(int, uint64) InputSource { return walker{} }})
	sp := w.join(ClientConfig{Spectate: true})
	ka := proto.Input{Header: proto.Header{Session: sp.Session(), Match: w.srv.Match(), Player: proto.SpectatorSlot, Seq: 50}, N: 1}
	b := ka.Append(nil)
	w.srv.Receive(w.now, w.addr[sp], b)
	for k := 0; k*5 < int(FreeAfter/time.Second)+5; k++ {
		for i := 0; i < 5*60; i++ {
			w.tick()
		}
		w.srv.Receive(w.now, w.addr[sp], b) // the replay
	}
	st := w.srv.Stats()
	if st.Spectators != 0 || st.Drops[DropDuplicate] == 0 {
		t.Fatalf("after %v of replays: %d spectators, %d duplicates dropped", FreeAfter+5*time.Second, st.Spectators, st.Drops[DropDuplicate])
	}
}

// TestForgedSequenceJumpLocksNoOneOut: one forged Input with a sequence
// number far ahead does not make the player's real Inputs look like
// replays.
func TestForgedSequenceJumpLocksNoOneOut(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	for k := 0; k < 10; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{MoveX: 1}))
		w.tick()
	}
	genuine := w.stepClient(c, game.Input{MoveX: 1})
	p, err := proto.ParseInput(genuine)
	if err != nil {
		t.Fatal(err)
	}
	p.Seq += 0x7ffffffe                       // as far ahead as a signed difference reaches
	w.srv.Receive(w.now, addr, p.Append(nil)) // the forgery first
	w.srv.Receive(w.now, addr, genuine)
	w.tick()
	before := w.srv.Stats().RealTicks
	for k := 0; k < 60; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{MoveX: 1}))
		w.tick()
	}
	if got := w.srv.Stats().RealTicks - before; got != 60 {
		t.Fatalf("after a forged sequence jump the server used %d of the player's 60 inputs (drops %v)", got, w.srv.Stats().Drops)
	}
}

// TestStaleCopiesAreNotReceived: copies of a late Input are dropped as
// stale and do not count as received, so they cannot hide upstream loss.
func TestStaleCopiesAreNotReceived(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	late := w.stepClient(c, game.Input{})
	for k := 0; k < 5; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{}))
		w.tick()
	}
	received := func() uint16 {
		var got uint16
		for _, b := range w.tick()[c] {
			var st proto.State
			if h := mustHeader(t, b); h.Type == proto.TypeState && proto.ParseStateBody(h, b, &st) == nil {
				got = st.AckInfo.Received
			}
		}
		return got
	}
	r0 := received()
	stale0 := w.srv.Stats().Drops[DropStale]
	for k := 0; k < 11; k++ {
		w.srv.Receive(w.now, addr, late)
	}
	if r := received(); r != r0 || w.srv.Stats().Drops[DropStale]-stale0 != 11 {
		t.Fatalf("received %d → %d, stale drops +%d after 11 copies of a late Input", r0, r, w.srv.Stats().Drops[DropStale]-stale0)
	}
}

// TestForgedFutureStateIgnored: a State far beyond the server's clock,
// with a valid hash, is dropped: the client keeps its timeline.
func TestForgedFutureStateIgnored(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	var good []byte
	for k := 0; k < 10; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{}))
		for _, b := range w.tick()[c] {
			good = b
		}
	}
	c.Receive(w.now, srvAddr, good) // the client now knows the server's clock
	st := mustState(t, good)
	st.Snapshot.Tick = st.Snapshot.Tick.Add(100000)
	st.ServerTick = st.Snapshot.Tick
	st.Hash = game.Hash(&st.Snapshot)
	st.Seq += 1000
	tick, dropped := c.World().Tick(), c.Metrics().Dropped
	c.Receive(w.now, srvAddr, st.Append(nil))
	if c.World().Tick() != tick || c.Metrics().Dropped != dropped+1 {
		t.Fatalf("a State 100,000 ticks ahead moved the client from %d to %d (dropped %d → %d)",
			tick, c.World().Tick(), dropped, c.Metrics().Dropped)
	}
}

func mustHeader(t *testing.T, b []byte) proto.Header {
	t.Helper()
	h, err := proto.ParseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
