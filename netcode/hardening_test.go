package netcode

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// cut makes a client's network drop everything, or heals it.
func (sc *simClient) cut(on bool) {
	if on {
		sc.up.Impairment, sc.down.Impairment = transport.Impairment{Loss: 1}, transport.Impairment{Loss: 1}
		return
	}
	sc.up.Impairment, sc.down.Impairment = transport.Impairment{Latency: 20 * time.Millisecond}, transport.Impairment{Latency: 20 * time.Millisecond}
}

// hardeningMatch starts a 2-player match whose players play scripted
// inputs until neutral is set.
func hardeningMatch(t *testing.T) (*simnet, *bool) {
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 8})
	neutral := new(bool)
	for i := 0; i < 2; i++ {
		sc := n.addClient(ClientConfig{LocalInput: func(w *game.World, slot int) game.Input {
			if *neutral {
				return game.Input{}
			}
			return scripted(31, slot, w.Tick())
		}}, transport.Impairment{}, transport.Impairment{}, uint64(60+i))
		sc.cut(false)
	}
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(10 * time.Second)
	return n, neutral
}

// converged reports whether every client's snapshot at the server's tick
// equals the server's world.
func (n *simnet) converged() bool {
	w := n.server.World()
	for _, c := range n.clients {
		st, ok := c.c.SnapshotAt(w.Tick())
		if !ok || game.Hash(&st) != w.Hash() {
			return false
		}
	}
	return true
}

func playerConnected(n *simnet, slot int) bool {
	for _, p := range n.server.Stats().Players {
		if p.Slot == slot {
			return p.Connected
		}
	}
	return false
}

// TestNetworkCutAndResume: the network of one client is cut for 5 s mid
// match. Both sides notice (the server marks the player lost, and tells the
// other client; the client shows reconnecting); when the network returns
// the client resumes the same seat with the same score and, once everyone
// is neutral, its world converges with the server's.
func TestNetworkCutAndResume(t *testing.T) {
	n, neutral := hardeningMatch(t)
	a, b := n.clients[0], n.clients[1]
	slot := a.c.Slot()
	score := func() uint16 { return n.server.World().State().Tanks[slot].Score }
	a.cut(true)
	n.run(LostAfter + 500*time.Millisecond)
	if a.c.Status() != StatusReconnecting {
		t.Fatalf("cut client status %v, want reconnecting", a.c.Status())
	}
	if playerConnected(n, slot) {
		t.Fatal("the server still shows the cut player connected")
	}
	var v View
	b.c.View(&v)
	if v.Connected[slot] {
		t.Fatal("the other client is not told the player's connection is lost")
	}
	n.run(5*time.Second - LostAfter - 500*time.Millisecond)
	before := score()
	a.cut(false)
	if !n.runUntil(2*time.Second, func() bool { return a.c.Status() == StatusPlaying }) {
		t.Fatalf("client did not resume after the cut: %v %q", a.c.Status(), errText(a.c))
	}
	if a.c.Slot() != slot || score() < before || !playerConnected(n, slot) {
		t.Fatalf("resumed in slot %d (was %d), score %d (was %d), connected %v", a.c.Slot(), slot, score(), before, playerConnected(n, slot))
	}
	if n.server.Stats().Reconnects != 1 {
		t.Fatalf("server counted %d reconnects", n.server.Stats().Reconnects)
	}
	*neutral = true
	if !n.runUntil(3*time.Second, n.converged) {
		t.Fatal("clients did not converge after the reconnect")
	}
}

// TestReconnectFromNewAddress: within FreeAfter a client that comes back
// from a new address resumes its seat; after it, the seat is gone and the
// returning client gets a new seat in a new match or a clear refusal.
func TestReconnectFromNewAddress(t *testing.T) {
	n, _ := hardeningMatch(t)
	a := n.clients[0]
	slot := a.c.Slot()
	a.cut(true)
	n.run(8 * time.Second)
	a.addr = netip.MustParseAddrPort("127.0.0.9:41000") // a new route: NAT rebinding, Wi-Fi to LTE
	a.cut(false)
	if !n.runUntil(2*time.Second, func() bool { return a.c.Status() == StatusPlaying }) {
		t.Fatalf("no resume from the new address: %v %q", a.c.Status(), errText(a.c))
	}
	if a.c.Slot() != slot || n.server.room0().seats.at(slot).addr != a.addr {
		t.Fatal("the seat was not moved to the new address")
	}

	// Now stay away past FreeAfter.
	conn := serverConn(a.c) // the session as the server knows it: the connection's id
	if conn == 0 {
		t.Fatal("setup: the playing client has no connection")
	}
	a.cut(true)
	n.run(FreeAfter + time.Second)
	if st := n.server.room0().seats.at(slot); st.human() && st.conn == conn {
		t.Fatal("the seat was not freed after FreeAfter")
	}
	if a.c.Status() != StatusClosed {
		t.Fatalf("client status %v after %v of silence, want closed", a.c.Status(), FreeAfter+time.Second)
	}
	if errText(a.c) == "" {
		t.Fatal("closed without a message")
	}
}

// TestLateReconnectGetsNewSeatOrFull: a client that returns after its seat
// was freed either gets a fresh seat or a clear "server is full".
func TestLateReconnectGetsNewSeatOrFull(t *testing.T) {
	n, _ := hardeningMatch(t)
	a := n.clients[0]
	a.cut(true)
	n.run(FreeAfter + time.Second)
	// A newcomer takes the free seat first.
	c := n.addClient(ClientConfig{Name: "newcomer"}, transport.Impairment{}, transport.Impairment{}, 99)
	if !n.runUntil(3*time.Second, func() bool { return c.c.Status() == StatusPlaying || c.c.Status() == StatusWaiting }) {
		t.Fatalf("newcomer not seated: %v %q", c.c.Status(), errText(c.c))
	}
	// The old client starts over and is told the server is full.
	old := n.addClient(ClientConfig{Name: "late"}, transport.Impairment{}, transport.Impairment{}, 98)
	old.c.sess.token = a.c.sess.token
	if !n.runUntil(3*time.Second, func() bool { return old.c.Status() == StatusClosed }) {
		t.Fatalf("late client status %v", old.c.Status())
	}
	if !errors.Is(old.c.Err(), ErrServerFull) {
		t.Fatalf("late client told %q", errText(old.c))
	}
}

// TestStolenTokenWithoutProofGetsNothing: a reconnect token is worthless
// without the resume key of the session it was issued to: a thief with
// its own connection, the token and no proof, or a proof made with
// another key, is refused and the seat stays where it is.
func TestStolenTokenWithoutProofGetsNothing(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, StateEvery: 1})
	a := w.join(ClientConfig{})
	w.join(ClientConfig{})
	thief := rawHandshake(t, w.srv, w.now, netip.MustParseAddrPort("127.0.0.66:5555"), 777)
	seat := w.srv.room0().seats.at(a.Slot()).link
	wrongKey := a.sess.tokenKey
	wrongKey[0] ^= 1
	for _, proof := range []proto.Proof{{1}, proto.ResumeProof(wrongKey, thief.transcript), a.hs.conn.proof(a.sess.tokenKey)} {
		before := w.srv.drops[DropBadProof]
		st, why := thief.request(t, w.srv, w.now, proto.Request{Token: a.sess.token, Proof: proof, Name: "thief"})
		if st != nil || why != proto.RejectBadToken {
			t.Fatalf("thief got %v (start %v), want a bad-token Reject", why, st != nil)
		}
		if w.srv.drops[DropBadProof] != before+1 {
			t.Fatal("the bad proof was not counted")
		}
		if p := w.srv.room0().seats.at(a.Slot()); p.addr != seat.addr || p.conn != seat.conn {
			t.Fatal("the stolen token moved the seat")
		}
	}
	// No cookie, no connection: a Join with a zero cookie gets a clear
	// Reject and no Accept.
	j := proto.Join{Header: proto.Header{Session: 778}}
	out := w.srv.Receive(w.now, thief.from, j.Append(nil))
	if len(out) != 1 {
		t.Fatalf("%d replies to a Join without a cookie", len(out))
	}
	if r, err := proto.ParseReject(out[0].Data); err != nil || r.Reason != proto.RejectBadCookie {
		t.Fatalf("a Join without a cookie got %v (%v)", r.Reason, err)
	}
}

// TestNoAmplification: no unauthenticated request gets a reply larger than
// itself.
func TestNoAmplification(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	from := netip.MustParseAddrPort("127.0.0.7:1234")
	hello := (&proto.Hello{Header: proto.Header{Session: 1}}).Append(nil)
	badJoin := (&proto.Join{Header: proto.Header{Session: 1}}).Append(nil)
	oldVersion := append([]byte(nil), hello...)
	oldVersion[2] = proto.Version + 1
	shortVersion := oldVersion[:8]
	sealed := make([]byte, 60)
	copy(sealed, []byte{0x54, 0x54, proto.Version, 0x80 | byte(proto.TypeInput), 0, 0, 0, 1})
	cases := map[string][]byte{"hello": hello, "join with a bad cookie": badJoin, "another version": oldVersion,
		"another version, short": shortVersion, "sealed, no connection": sealed, "garbage": []byte("GET / HTTP/1.1\r\n\r\n")}
	for name, req := range cases {
		for _, d := range w.srv.Receive(w.now, from, req) {
			if len(d.Data) > len(req) {
				t.Errorf("%s: %d-byte request got a %d-byte reply", name, len(req), len(d.Data))
			}
		}
	}
}

// TestHelloFloodIsRateLimited: a source that sends Hellos far faster than
// any client gets most of them dropped before any cookie is computed,
// while another source is served.
func TestHelloFloodIsRateLimited(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	flood := netip.MustParseAddrPort("127.0.0.8:1000")
	hello := (&proto.Hello{Header: proto.Header{Session: 1}}).Append(nil)
	answered := 0
	for i := 0; i < 1000; i++ {
		w.now = w.now.Add(time.Millisecond)
		answered += len(w.srv.Receive(w.now, flood, hello))
	}
	if answered > limitBurst+limitRate*2 {
		t.Fatalf("%d of 1000 Hellos in 1 s answered", answered)
	}
	if got := w.srv.Stats().Drops[DropRateLimited]; got != uint64(1000-answered) {
		t.Fatalf("rate-limited drops %d, want %d", got, 1000-answered)
	}
	if len(w.srv.Receive(w.now, netip.MustParseAddrPort("127.0.0.9:1000"), hello)) != 1 {
		t.Fatal("another source is not served during the flood")
	}
}

// TestServerRestartRejoin: the server process is replaced by a new one (no
// Leave, new secret, new match) at the same address. The clients notice
// the silence, knock again, and the new server seats them in a new match.
func TestServerRestartRejoin(t *testing.T) {
	n, _ := hardeningMatch(t)
	old := n.server.Match()
	s, err := NewServer(ServerConfig{Players: 2, Seed: 77, Secret: []byte("another secret, another server")})
	if err != nil {
		t.Fatal(err)
	}
	n.server = s
	ok := n.runUntil(SilenceReconnecting+3*time.Second, func() bool {
		return n.playing() && n.server.Running() && n.clients[0].c.sess.match == n.server.Match() && n.clients[1].c.sess.match == n.server.Match()
	})
	if !ok {
		t.Fatalf("clients did not rejoin the new server: %v %v", n.clients[0].c.Status(), n.clients[1].c.Status())
	}
	if n.server.Match() == old {
		t.Fatal("the new server reused the old match ID")
	}
	n.run(2 * time.Second)
	for i, c := range n.clients {
		if m := c.c.Metrics(); m.HashMismatches != 0 || m.InputLead < 0 || m.InputLead > 10 {
			t.Fatalf("client %d after the restart: mismatches %d, lead %d", i, m.HashMismatches, m.InputLead)
		}
	}
}

// TestSpectator: a spectator joins a running match without a seat, sees
// the server's states as they come, and is kept alive by its keep-alives.
func TestSpectator(t *testing.T) {
	n, _ := hardeningMatch(t)
	sp := n.addClient(ClientConfig{Name: "watcher", Spectate: true}, transport.Impairment{Latency: 30 * time.Millisecond}, transport.Impairment{Latency: 30 * time.Millisecond}, 7)
	if !n.runUntil(3*time.Second, func() bool { return sp.c.Status() == StatusPlaying && sp.c.World() != nil }) {
		t.Fatalf("spectator status %v", sp.c.Status())
	}
	if sp.c.Slot() != -1 || n.server.Stats().Spectators != 1 || n.server.Stats().Need != 0 {
		t.Fatalf("spectator took a seat: slot %d, stats %+v", sp.c.Slot(), n.server.Stats())
	}
	n.run(FreeAfter + 2*time.Second) // longer than the server keeps a silent peer
	if n.server.Stats().Spectators != 1 || sp.c.Status() != StatusPlaying {
		t.Fatal("the spectator was dropped: keep-alives not working")
	}
	w := sp.c.World()
	if h, ok := n.serverHash[w.Tick()]; !ok || h != w.Hash() {
		t.Fatal("the spectator's world is not the server's state")
	}
}
