package netcode

import (
	"net/netip"
	"testing"

	"ttytanks/game"
	"ttytanks/proto"
)

// TestMigrationChecksThePath: a seated player's sealed Input from a new
// address moves its connection there at once (the Input is used), and
// until the new address answers the PathChallenge the server sends it no
// more bytes than it received from it; the answer ends the limit. An old
// datagram (a lower packet number) from the old address afterwards does
// not move the connection back.
func TestMigrationChecksThePath(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	now := simEpoch
	home := netip.MustParseAddrPort("192.0.2.1:4000")
	away := netip.MustParseAddrPort("192.0.2.77:5555")
	p := rawSeated(t, s, now, home, 0x51, "mover")
	p.request(t, s, now, proto.Request{Name: "mover"})     // the running match's Start
	for s.clk.now().Before(s.room0().match.world.Tick()) { // the countdown
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	input := func() []byte {
		in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
		in.Inputs[0] = game.Input{Tick: s.World().Tick(), MoveX: 1}
		return p.sealed(&in)
	}
	early := input() // sealed before the move: a lower packet number
	p.from = away
	b := input()
	received, sent := len(b), 0
	var challenge []byte
	for _, d := range s.Receive(now, away, b) {
		if d.Addr != away {
			t.Fatalf("a datagram to %v after the move to %v", d.Addr, away)
		}
		sent += len(d.Data)
		if h, clear, ok := p.opened(d); ok && h.Type == proto.TypePathChallenge {
			challenge = clear
		}
	}
	if challenge == nil {
		t.Fatal("no PathChallenge to the new address")
	}
	if got := s.room0().seats.at(int(p.slot)).addr; got != away {
		t.Fatalf("the seat is at %v, want %v at once", got, away)
	}
	// Ticks: the States and Acks to the unchecked address stay within
	// what it sent.
	for i := 0; i < 30; i++ {
		now = now.Add(TickDuration)
		for _, d := range s.Tick(now) {
			if d.Addr == away {
				sent += len(d.Data)
			}
		}
		if sent > received {
			t.Fatalf("tick %d: %d bytes sent to the unchecked address, %d received from it", i, sent, received)
		}
		if i%3 == 0 {
			b := input()
			received += len(b)
			for _, d := range s.Receive(now, away, b) {
				sent += len(d.Data)
			}
		}
	}
	limited := s.conns.pathLimited
	if limited == 0 {
		t.Fatal("nothing was held back from the unchecked address: the test proves nothing")
	}
	// The old address's late datagram is used but does not move it back.
	s.Receive(now, home, early)
	if got := s.room0().seats.at(int(p.slot)).addr; got != away {
		t.Fatalf("a late datagram from the old address moved the seat back to %v", got)
	}
	// The answer, from the new address, ends the check: full traffic.
	h, _ := proto.ParseHeader(challenge)
	data, err := proto.ParsePathBody(h, challenge[proto.HeaderLen:])
	if err != nil {
		t.Fatal(err)
	}
	s.Receive(now, away, p.sealed(&proto.PathResponse{Data: data}))
	for i := 0; i < 10; i++ {
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	if s.conns.pathLimited != limited {
		t.Fatalf("%d more datagrams held back after the path answered", s.conns.pathLimited-limited)
	}
	if s.conns.migrations != 1 {
		t.Fatalf("%d migrations, want 1", s.conns.migrations)
	}
}

// TestMovedConnectionActsOnlyForItsOwnAddress: an attacker holding
// connections of its own, who can spoof source addresses, cannot use a
// move to act for another address. A Request sent from a victim's
// address, on a connection with a place or without, moves the connection
// there but is dropped until the address answers the path check (which
// the attacker never sees); and places moved away still count against
// the address their cookie proved, so four seats moved elsewhere leave
// the attacker's address at its cap, and the victim's address is not
// charged for them.
func TestMovedConnectionActsOnlyForItsOwnAddress(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 8, MaxRooms: 4})
	now := simEpoch
	victim := netip.MustParseAddrPort("203.0.113.5:7000")
	v := rawHandshake(t, s, now, victim, 0x99)
	if st, why := v.request(t, s, now, proto.Request{Name: "victim", Kind: proto.RoomNamed, Room: "a"}); st == nil {
		t.Fatalf("victim refused: %v", why)
	}
	where := func() netip.AddrPort {
		_, st, _ := s.rooms.byConn(victim, v.conn)
		if st == nil {
			return netip.AddrPort{}
		}
		return st.addr
	}

	// A Request from the victim's address on an unplaced connection: it
	// asks for the room "a" under the victim's address and port, which
	// would supersede the victim's place there.
	home := netip.MustParseAddrPort("198.51.100.1:4000")
	a := rawHandshake(t, s, now, home, 0x1)
	q := proto.Request{Name: "x", Kind: proto.RoomNamed, Room: "a"}
	before := s.drops[DropMoved]
	s.Receive(now, victim, a.sealed(&q))
	if where() != victim || s.drops[DropMoved] != before+1 {
		t.Fatal("a spoofed Request on an unplaced connection was not dropped as moved")
	}

	// Four seats from the attacker's address, each moved to a spoofed
	// address (one is the victim's), then a Request there.
	var peers []*rawPeer
	for i := 0; i < 4; i++ {
		p := rawHandshake(t, s, now, netip.AddrPortFrom(home.Addr(), uint16(5000+i)), uint64(0x10+i))
		if st, why := p.request(t, s, now, proto.Request{Name: "a", Kind: proto.RoomNamed, Room: "b"}); st == nil {
			t.Fatalf("seat %d refused: %v", i, why)
		}
		peers = append(peers, p)
	}
	for i, p := range peers {
		to := netip.AddrPortFrom(netip.AddrFrom4([4]byte{192, 0, 2, byte(10 + i)}), 9000)
		if i == 0 {
			to = victim
		}
		in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
		s.Receive(now, to, p.sealed(&in)) // moves the connection
		before := s.drops[DropMoved]
		s.Receive(now, to, p.sealed(&proto.Request{Name: "a", Kind: proto.RoomNamed, Room: "a"}))
		if s.drops[DropMoved] != before+1 {
			t.Fatalf("a Request on a connection moved to %v was not dropped as moved", to)
		}
	}
	if s.conns.migrations != 5 {
		t.Fatalf("%d moves, want 5", s.conns.migrations)
	}
	if where() != victim {
		t.Fatal("the victim lost its place to a moved connection")
	}
	fifth := rawHandshake(t, s, now, netip.AddrPortFrom(home.Addr(), 6000), 0x20)
	if st, why := fifth.request(t, s, now, proto.Request{Name: "a", Kind: proto.RoomNamed, Room: "c"}); st != nil || why != proto.RejectAddrLimit {
		t.Fatalf("a fifth seat from the attacker's address: start %v, reason %v; want the address limit", st != nil, why)
	}
	friend := rawHandshake(t, s, now, netip.AddrPortFrom(victim.Addr(), 7001), 0x21)
	if st, why := friend.request(t, s, now, proto.Request{Name: "friend", Kind: proto.RoomNamed, Room: "c"}); st == nil {
		t.Fatalf("the victim's address was charged for the attacker's moved seat: %v", why)
	}
}

// TestTalkingConnectionWithoutAPlaceIsForgotten: a connection whose
// session is over (it left its place) but that keeps sending datagrams
// that open is forgotten all the same, so no one keeps the server's
// connections, or an address's share of them, by talking.
func TestTalkingConnectionWithoutAPlaceIsForgotten(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	now := simEpoch
	p := rawSeated(t, s, now, netip.MustParseAddrPort("192.0.2.8:4000"), 0x61, "p")
	p.send(s, now, &proto.Leave{Header: proto.Header{Match: p.match, Player: p.slot}, Reason: proto.LeaveQuit})
	for i := 0; i < 30*60; i++ { // 30 s of ticks, a datagram that opens every half second
		now = now.Add(TickDuration)
		s.Tick(now)
		if i%30 == 0 {
			s.Receive(now, p.from, p.sealed(&proto.PathResponse{}))
		}
		if s.conns.lookup(p.conn) == nil {
			t.Logf("forgotten after %v", now.Sub(simEpoch))
			return
		}
	}
	t.Fatal("a connection without a place, kept talking, was never forgotten")
}
