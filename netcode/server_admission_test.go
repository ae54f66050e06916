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

// Admission and fairness: no one address, idle peer or stolen token shuts
// others out.

// addClientAt attaches a client at a chosen address.
func (n *simnet) addClientAt(cfg ClientConfig, addr string, seed uint64) *simClient {
	sc := n.addClient(cfg, transport.Impairment{}, transport.Impairment{}, seed)
	sc.addr = netip.MustParseAddrPort(addr)
	return sc
}

// TestCookieBindsTheSession: a cookie is good for the session it was
// issued to: that session's Join gets an Accept and its Request a seat;
// another session's Join with the same cookie is refused in the clear,
// gets no connection and takes nothing.
func TestCookieBindsTheSession(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 8})
	from := netip.MustParseAddrPort("127.0.0.9:4000")
	cookie := rawCookie(t, w.srv, w.now, from, 0x100)
	p, err := tryJoin(w.srv, w.now, from, 0x100, cookie)
	if err != nil {
		t.Fatalf("the cookie's own session: %v", err)
	}
	if st, why := p.request(t, w.srv, w.now, proto.Request{Name: "owner"}); st == nil {
		t.Fatalf("the cookie's own session was not seated: %v", why)
	}
	for s := uint64(0x101); s < 0x108; s++ {
		w.now = w.now.Add(300 * time.Millisecond) // within the port's handshake rate
		j := proto.Join{Header: proto.Header{Session: s}, Cookie: cookie, Eph: [32]byte{byte(s)}}
		out := w.srv.Receive(w.now, from, j.Append(nil))
		if len(out) != 1 {
			t.Fatalf("session %#x with another session's cookie: %d replies", s, len(out))
		}
		if r, err := proto.ParseReject(out[0].Data); err != nil || r.Reason != proto.RejectBadCookie {
			t.Fatalf("session %#x with another session's cookie: %v %v", s, r.Reason, err)
		}
	}
	if n := w.srv.conns.count(); n != 1 {
		t.Fatalf("%d connections made with one cookie", n)
	}
	if st := w.srv.Stats(); 8-st.Need != 1 {
		t.Fatalf("%d seats taken with one cookie", 8-st.Need)
	}
}

// TestOneAddressGetsItsShare: the peers of one IP (each with its own port,
// session and handshake) get at most MaxSeatsPerAddr seats and as many
// spectator places; a player at another address joins at once; a trusted
// range is exempt. The room has 32 spectator places, so its per-prefix
// share (an eighth) is not the tighter bound here.
func TestOneAddressGetsItsShare(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 8, MaxSpectators: 32})
	var greedy []*simClient
	for i := 0; i < 6; i++ {
		greedy = append(greedy, n.addClientAt(ClientConfig{}, "127.0.0.5:"+itoa(30000+i), uint64(i+1)))
	}
	for i := 0; i < 6; i++ {
		greedy = append(greedy, n.addClientAt(ClientConfig{Spectate: true}, "127.0.0.5:"+itoa(31000+i), uint64(i+10)))
	}
	n.run(2 * time.Second)
	var seated, watching, refused int
	for _, c := range greedy {
		var re *RefusedError
		switch {
		case c.c.Status() == StatusWaiting && c.c.Slot() >= 0:
			seated++
		case c.c.Status() == StatusWaiting:
			watching++
		case errors.As(c.c.Err(), &re) && re.Reason == proto.RejectAddrLimit:
			refused++
		}
	}
	if seated != DefaultSeatsPerAddr || watching != DefaultSeatsPerAddr || refused != 4 {
		t.Fatalf("one address: %d seated, %d watching, %d refused; want %d, %d, 4", seated, watching, refused,
			DefaultSeatsPerAddr, DefaultSeatsPerAddr)
	}
	other := n.addClientAt(ClientConfig{}, "127.0.0.6:5000", 99)
	if !n.runUntil(time.Second, func() bool { return other.c.Status() == StatusWaiting && other.c.Slot() >= 0 }) {
		t.Fatalf("a player at another address: %v %v", other.c.Status(), other.c.Err())
	}

	trusted := newSimnet(t, ServerConfig{Players: 8, Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	for i := 0; i < 8; i++ {
		trusted.addClientAt(ClientConfig{}, "127.0.0.5:"+itoa(30000+i), uint64(i+1))
	}
	if !trusted.runUntil(3*time.Second, trusted.playing) {
		t.Fatal("a trusted address could not fill the server")
	}
}

// TestStaleInputsDoNotKeepASeat: a player who is gone, whose old Input an
// attacker replays every second, loses the seat after FreeAfter like any
// silent player.
func TestStaleInputsDoNotKeepASeat(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
	c := w.join(ClientConfig{})
	var old []byte
	for k := 0; k < 10; k++ {
		old = w.stepClient(c, game.Input{})
		w.srv.Receive(w.now, w.addr[c], old)
		w.tick()
	}
	for k := 0; w.now.Sub(simEpoch) < FreeAfter+2*time.Second; k++ {
		w.tick()
		if k%60 == 0 {
			w.srv.Receive(w.now, w.addr[c], old)
		}
	}
	if st := w.srv.Stats(); st.Timeouts != 1 || len(st.Players) != 0 {
		t.Fatalf("after %v of replayed stale Inputs: %d timeouts, players %+v", FreeAfter, st.Timeouts, st.Players)
	}
}

// TestTokensRotate: a reconnect token is good for one use, so one read off
// the wire cannot take the seat back; and tokens are renewed every
// tokenLife, the old one good for tokenGrace more.
func TestTokensRotate(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2})
	a := n.addClientAt(ClientConfig{}, "127.0.0.7:7000", 1)
	n.addClientAt(ClientConfig{}, "127.0.0.8:8000", 2)
	if !n.runUntil(3*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	stolen := a.c.sess.token
	// The owner moves (NAT rebinding) and reconnects with its token.
	a.cut(true)
	n.run(SilenceReconnecting + time.Second)
	a.addr = netip.MustParseAddrPort("127.0.0.7:7001")
	a.cut(false)
	if !n.runUntil(3*time.Second, func() bool { return a.c.Status() == StatusPlaying }) {
		t.Fatalf("no reconnect: %v %v", a.c.Status(), a.c.Err())
	}
	if a.c.sess.token == stolen {
		t.Fatal("the token was not renewed on use")
	}
	// A thief with the old token, from its own address: the seat stays.
	thief := n.addClientAt(ClientConfig{}, "127.0.0.66:6666", 3)
	thief.c.sess.token = stolen
	n.run(time.Second)
	if errors.Is(thief.c.Err(), ErrServerFull) == false || n.server.room0().seats.at(a.c.Slot()).addr != a.addr {
		t.Fatalf("a used token: thief %v %v, seat at %v", thief.c.Status(), thief.c.Err(), n.server.room0().seats.at(a.c.Slot()).addr)
	}
	// Renewal: after tokenLife the player holds a new token. It plays
	// meanwhile (a player who does nothing for the server's Idle loses
	// its seat).
	before := a.c.sess.token
	a.in = game.Input{MoveX: 1}
	n.run(tokenLife + 2*time.Second)
	if a.c.sess.token == before {
		t.Fatal("the token was not renewed after tokenLife")
	}
	if st := n.server.room0().seats.at(a.c.Slot()); st.prevToken != before || !st.prevUntil.After(n.now) {
		t.Fatal("the previous token is not kept for its grace period")
	}
}

// TestQuietPeerCostsLittle: a player whose datagrams stop arriving gets
// Acks only after a second, and a few a second once lost, until it speaks
// again.
func TestQuietPeerCostsLittle(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	a := n.addClient(ClientConfig{}, transport.Impairment{}, transport.Impairment{}, 1)
	if !n.runUntil(3*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(time.Second)                              // it has played: a peer that never spoke since its Start is not backed off
	a.up.Impairment = transport.Impairment{Loss: 1} // its datagrams stop arriving
	n.run(10 * time.Second)
	// Count what the server sends to a over 5 s of its silence.
	sent := func(d time.Duration) (st, ak int) {
		end := n.now.Add(d)
		for n.now.Before(end) {
			if !n.now.Before(n.nextSrv) {
				for _, dg := range n.server.Tick(n.now) {
					if dg.Addr == a.addr {
						switch typeOf(dg.Data) { // readable in a sealed header
						case proto.TypeState:
							st++
						case proto.TypeAck:
							ak++
						}
					}
				}
				n.nextSrv = n.nextSrv.Add(TickDuration)
			}
			n.now = n.now.Add(time.Millisecond)
		}
		return st, ak
	}
	states, acks := sent(5 * time.Second)
	if states != 0 || acks > 5*5 {
		t.Fatalf("to a peer silent for 10 s: %d States and %d Acks in 5 s", states, acks)
	}
	a.up.Impairment = transport.Impairment{}
	if !n.runUntil(2*time.Second, func() bool {
		st := n.server.room0().seats.at(a.c.Slot())
		return a.c.Status() == StatusPlaying && st.state == seatHeld && st.addr == a.addr
	}) {
		t.Fatal("the player did not come back")
	}
	states, _ = sent(time.Second)
	if states < 25 {
		t.Fatalf("a player back from silence gets %d States a second", states)
	}
}

// TestKickAndBan: the operator kicks a player (told why, seat freed) and
// bans an address (its players kicked, its Hellos unanswered, others
// unaffected).
func TestKickAndBan(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 3})
	a := n.addClientAt(ClientConfig{}, "127.0.0.11:1000", 1)
	b := n.addClientAt(ClientConfig{}, "127.0.0.12:1000", 2)
	c := n.addClientAt(ClientConfig{}, "127.0.0.13:1000", 3)
	if !n.runUntil(3*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.route(n.saddr, a.down, n.server.Kick(n.now, "a", a.c.Slot()))
	n.run(500 * time.Millisecond)
	var ended *EndedError
	if !errors.As(a.c.Err(), &ended) || ended.Reason != proto.LeaveKicked || n.server.Stats().Need != 1 {
		t.Fatalf("kicked: %v, need %d", a.c.Err(), n.server.Stats().Need)
	}
	n.route(n.saddr, b.down, n.server.Ban(b.addr.Addr()))
	n.run(500 * time.Millisecond)
	if !errors.As(b.c.Err(), &ended) || ended.Reason != proto.LeaveKicked {
		t.Fatalf("banned: %v", b.c.Err())
	}
	again := n.addClientAt(ClientConfig{ConnectTimeout: time.Second}, "127.0.0.12:2000", 4)
	n.run(2 * time.Second)
	var na *NoAnswerError
	if !errors.As(again.c.Err(), &na) || n.server.Stats().Drops[DropBanned] == 0 {
		t.Fatalf("a banned address: %v, banned drops %d", again.c.Err(), n.server.Stats().Drops[DropBanned])
	}
	fresh := n.addClientAt(ClientConfig{}, "127.0.0.14:1000", 5)
	if !n.runUntil(2*time.Second, func() bool { return fresh.c.Status() == StatusPlaying }) || c.c.Status() != StatusPlaying {
		t.Fatalf("others: fresh %v, c %v", fresh.c.Status(), c.c.Status())
	}
}

func itoa(i int) string {
	var b [12]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[n:])
}

// TestFloodSparesTheNeighbour: 20,000 Hellos a second from 512 ports of
// one IP address, and an honest client on another port of that address
// still gets in within its connect timeout: its port is quiet, the
// flooding ones are not.
func TestFloodSparesTheNeighbour(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	ip := netip.MustParseAddr("127.0.0.50")
	// The honest port, one whose bucket no flooding port shares: the
	// table is hashed with a random seed, and a port that shares a
	// flooding port's bucket (about 3 in 100) is refused with it, as the
	// README says, which is not what this test is about.
	flooding := map[uint64]bool{}
	for p := 0; p < 512; p++ {
		flooding[w.srv.adm.hello.portBucket(netip.AddrPortFrom(ip, uint16(20000+p)))] = true
	}
	honest := netip.AddrPortFrom(ip, 9999)
	for flooding[w.srv.adm.hello.portBucket(honest)] {
		honest = netip.AddrPortFrom(ip, honest.Port()+1)
	}
	c := NewClient(ClientConfig{Server: srvAddr, Session: 4242})
	hello := proto.Hello{Header: proto.Header{Session: 7}}
	flood := hello.Append(nil)
	var sent, answered int
	var seatedAt time.Duration
	deliver := func(out []transport.Datagram) {
		for _, d := range out {
			if d.Addr == honest {
				c.Receive(w.now, srvAddr, d.Data)
			}
		}
	}
	for ms := 0; ms < 6000; ms++ {
		for k := 0; k < 20; k++ {
			port := uint16(20000 + (ms*20+k)%512)
			sent++
			answered += len(w.srv.Receive(w.now, netip.AddrPortFrom(ip, port), flood))
		}
		if ms < 1000 {
			w.now = w.now.Add(time.Millisecond)
			continue // the flood is on before the neighbour comes
		}
		for _, d := range c.Advance(w.now, game.Input{}) {
			deliver(w.srv.Receive(w.now, honest, d.Data))
		}
		if ms%17 == 0 {
			deliver(w.srv.Tick(w.now))
		}
		if seatedAt == 0 && c.Status() == StatusWaiting {
			seatedAt = time.Duration(ms-1000) * time.Millisecond
		}
		w.now = w.now.Add(time.Millisecond)
	}
	if seatedAt == 0 || c.Status() != StatusWaiting {
		t.Fatalf("the honest neighbour of a flood: %v %v", c.Status(), c.Err())
	}
	// Each flooding port's first burst, then the address's own rate.
	if limit := 512*portBurst + 6*limitRate; answered > limit {
		t.Fatalf("the flood got %d answers to %d Hellos, more than %d", answered, sent, limit)
	}
	t.Logf("seated %v after it came; the flood's %d Hellos in 6 s got %d answers", seatedAt, sent, answered)
}

// TestKickedPlayerIsToldAgain: a kicked player whose Leave was lost
// keeps sending Inputs; each is dropped, and it is told again, at most
// every retellEvery, until it is placed anew.
func TestKickedPlayerIsToldAgain(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, KickHold: 30 * time.Second})
	now := simEpoch
	p := rawSeated(t, s, now, netip.MustParseAddrPort("192.0.2.9:1000"), 1, "kicked")
	s.Kick(now, "a", int(p.slot)) // its Leave is lost: the datagrams are not delivered
	leaves := 0
	for i := 0; i < 60; i++ { // a second of Inputs, one a tick
		now = now.Add(TickDuration)
		in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
		in.Inputs[0] = game.Neutral(s.clk.now())
		for _, b := range p.send(s, now, &in) {
			l, err := proto.ParseLeave(b)
			if err != nil {
				t.Fatalf("a kicked player's Input answered with %x", b)
			}
			if l.Reason != proto.LeaveKicked {
				t.Fatalf("told %v, want kicked", l.Reason)
			}
			leaves++
		}
	}
	if want := int(time.Second / retellEvery); leaves < want || leaves > want+1 {
		t.Fatalf("told %d times in a second of Inputs, want %d (every %v)", leaves, want, retellEvery)
	}
	if got := s.Stats().Drops[DropUnknownPlayer]; got != 60 {
		t.Fatalf("%d Inputs dropped as from no player, want 60", got)
	}
	if st, why := p.request(t, s, now.Add(time.Minute), proto.Request{Name: "back"}); st == nil {
		t.Fatalf("placed anew after the kick hold: refused %v", why)
	}
	in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
	in.Inputs[0] = game.Neutral(s.clk.now())
	if out := p.send(s, now.Add(time.Minute+time.Second), &in); len(out) != 0 {
		t.Fatalf("placed anew, its Input was answered with %d datagrams", len(out))
	}
}
