package netcode

import (
	"encoding/binary"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// These tests replay and forge datagrams as an attacker on the path would
// (knowing the session, but not the connection's keys): each forgery is
// dropped and counted, and the real peer plays on. Where the subject is a
// check of the client's own, the forged State is sealed with the
// connection's server key, as a buggy server would send it.

// TestReplayedSpectatorKeepAliveIsNoSignOfLife: a spectator's keep-alive
// delivered again (a copy or a replay of the sealed datagram) is dropped
// as a replay, and the same keep-alive forged in the clear as clear, so a
// dead spectator's place is freed after FreeAfter however often they
// come (and then its connection is forgotten: the replays after that are
// of no connection).
func TestReplayedSpectatorKeepAliveIsNoSignOfLife(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, Bots: 2, NewBot: func(int, uint64) InputSource { return walker{} }})
	sp := w.join(ClientConfig{Spectate: true})
	ka := proto.Input{Header: sp.sess.header(), N: 1}
	ka.Inputs[0] = game.Neutral(w.srv.World().Tick())
	b := sealUp(t, sp, ka.Append(nil)) // the spectator's last word
	ka.Session = uint64(sp.hs.conn.id) // as the server knows it
	forged := ka.Append(nil)
	w.srv.Receive(w.now, w.addr[sp], b)
	replays := 0
	for k := 0; k*5 < int(FreeAfter/time.Second)+5; k++ {
		for i := 0; i < 5*60; i++ {
			w.tick()
		}
		w.srv.Receive(w.now, w.addr[sp], b) // the replay
		w.srv.Receive(w.now, w.addr[sp], forged)
		replays++
	}
	st := w.srv.Stats()
	if st.Spectators != 0 || st.Drops[DropReplay] == 0 || st.Drops[DropReplay]+st.Drops[DropUnknownConn] != uint64(replays) ||
		st.Drops[DropClear] != uint64(replays) {
		t.Fatalf("after %v of %d replays: %d spectators; dropped %d replays, %d of no connection, %d clear forgeries",
			FreeAfter+5*time.Second, replays, st.Spectators, st.Drops[DropReplay], st.Drops[DropUnknownConn], st.Drops[DropClear])
	}
}

// TestForgedSequenceJumpLocksNoOneOut: a forged Input with a packet number
// far ahead (the last there is) does not authenticate, so it is dropped
// and does not move the replay window; the same jump in the clear is
// dropped as clear. Neither makes the player's real Inputs look like
// replays or too old.
func TestForgedSequenceJumpLocksNoOneOut(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	for k := 0; k < 10; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{MoveX: 1}))
		w.tick()
	}
	genuine := w.stepClient(c, game.Input{MoveX: 1})
	jump := append([]byte(nil), genuine...)
	binary.BigEndian.PutUint32(jump[8:], ^uint32(0))
	_, clear, ok := peekUp(w.srv, c, genuine)
	if !ok {
		t.Fatal("setup: the genuine Input does not open")
	}
	p, err := proto.ParseInput(clear)
	if err != nil {
		t.Fatal(err)
	}
	p.Seq += 0x7ffffffe
	w.srv.Receive(w.now, addr, jump) // the forgeries first
	w.srv.Receive(w.now, addr, p.Append(nil))
	w.srv.Receive(w.now, addr, genuine)
	w.tick()
	before := w.srv.Stats().RealTicks
	for k := 0; k < 60; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{MoveX: 1}))
		w.tick()
	}
	st := w.srv.Stats()
	if got := st.RealTicks - before; got != 60 || st.Drops[DropBadSeal] != 1 || st.Drops[DropClear] != 1 {
		t.Fatalf("after a forged packet number jump the server used %d of the player's 60 inputs (drops %v)", got, st.Drops)
	}
}

// TestStaleCopiesAreNotReceived: a late Input is dropped as stale and
// does not count as received, and copies of it are dropped as replays
// before that: none of them can hide upstream loss.
func TestStaleCopiesAreNotReceived(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	late := w.stepClient(c, game.Input{})
	for k := 0; k < 5; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{}))
		w.tick()
	}
	received := func() (uint16, bool) {
		var got uint16
		seen := false
		for _, b := range w.tick()[c] {
			if st := stateDown(t, c, b); st != nil {
				got, seen = st.AckInfo.Received, true
			}
		}
		return got, seen
	}
	r0, ok := received()
	if !ok {
		t.Fatal("setup: no State")
	}
	drops0 := w.srv.Stats().Drops
	for k := 0; k < 11; k++ {
		w.srv.Receive(w.now, addr, late)
	}
	r, _ := received()
	drops := w.srv.Stats().Drops
	stale, replays := drops[DropStale]-drops0[DropStale], drops[DropReplay]-drops0[DropReplay]
	if r != r0 || stale != 1 || replays != 10 {
		t.Fatalf("received %d → %d, stale drops +%d, replays +%d after 11 copies of a late Input", r0, r, stale, replays)
	}
}

// TestForgedFutureStateIgnored: a State far beyond the server's clock,
// with a valid hash, is dropped: the client keeps its timeline. In the
// clear, and sealed with a tag that does not verify, it is dropped
// unopened; sealed with the connection's server key (a buggy server's
// State) it is dropped by the client's own check of the server's clock.
func TestForgedFutureStateIgnored(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	addr := w.addr[c]
	var good []byte
	for k := 0; k < 10; k++ {
		w.srv.Receive(w.now, addr, w.stepClient(c, game.Input{}))
		for _, b := range w.tick()[c] {
			if typeOf(b) == proto.TypeState {
				good = b
			}
		}
	}
	st := stateDown(t, c, good)
	if st == nil {
		t.Fatal("setup: no State")
	}
	c.Receive(w.now, srvAddr, good) // the client now knows the server's clock
	st.Snapshot.Tick = st.Snapshot.Tick.Add(100000)
	st.ServerTick = st.Snapshot.Tick
	st.Hash = game.Hash(&st.Snapshot)
	sealed := sealDown(t, w.srv, c, st.Append(nil))
	badTag := append([]byte(nil), sealed...)
	badTag[len(badTag)-1] ^= 1
	tick, dropped, unopened := c.World().Tick(), c.Metrics().Dropped, c.m.unopened
	c.Receive(w.now, srvAddr, st.Append(nil))
	c.Receive(w.now, srvAddr, badTag)
	if c.World().Tick() != tick || c.Metrics().Dropped != dropped+2 || c.m.unopened != unopened+1 {
		t.Fatalf("a State 100,000 ticks ahead, in the clear and with a bad tag, moved the client from %d to %d (dropped %d → %d, unopened %d → %d)",
			tick, c.World().Tick(), dropped, c.Metrics().Dropped, unopened, c.m.unopened)
	}
	c.Receive(w.now, srvAddr, sealed)
	if c.World().Tick() != tick || c.Metrics().Dropped != dropped+3 || c.m.unopened != unopened+1 {
		t.Fatalf("a State 100,000 ticks ahead, sealed, moved the client from %d to %d (dropped %d → %d, unopened %d → %d)",
			tick, c.World().Tick(), dropped, c.Metrics().Dropped, unopened, c.m.unopened)
	}
}
