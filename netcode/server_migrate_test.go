package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// TestMigrationChecksThePath: a seated player's sealed Input from a new
// address is used at once (a NAT rebinding loses no inputs), but the
// connection stays at its validated address, and the new one gets only
// the PathChallenge, within the bytes it sent (the 1x rule), and takes no
// Request; when it answers, with the old address quiet since, the
// connection and its seat move there and get full traffic. An old
// datagram (a lower packet number) from the old address afterwards does
// not move it back.
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
		if d.Addr == away {
			sent += len(d.Data)
		}
		if h, clear, ok := p.opened(d); ok && h.Type == proto.TypePathChallenge {
			if d.Addr != away {
				t.Fatalf("the PathChallenge went to %v, want the new address %v", d.Addr, away)
			}
			challenge = clear
		}
	}
	if challenge == nil {
		t.Fatal("no PathChallenge to the new address")
	}
	seat := s.room0().seats.at(int(p.slot))
	if seat.addr != home {
		t.Fatalf("the seat moved to %v before the new address answered", seat.addr)
	}
	if real, _, _, _ := seat.in.counts(); real == 0 {
		// counts are taken per tick: step one to see the input used
		now = now.Add(TickDuration)
		s.Tick(now)
		if real, _, _, _ := seat.in.counts(); real == 0 {
			t.Fatal("the Input from the new address was not used")
		}
	}
	before := s.drops[DropMoved]
	s.Receive(now, away, p.sealed(&proto.Request{Name: "mover"}))
	if s.drops[DropMoved] != before+1 {
		t.Fatal("a Request from the unchecked address was not dropped")
	}
	// Ticks: the unchecked address gets challenges only, within what it
	// sent; the States and Acks go to the validated one.
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
				if d.Addr == away {
					sent += len(d.Data)
				}
			}
		}
	}
	if s.conns.migrations != 0 {
		t.Fatalf("%d migrations before the answer, want 0", s.conns.migrations)
	}
	// The answer, from the new address, moves the connection: full
	// traffic there.
	h, _ := proto.ParseHeader(challenge)
	data, err := proto.ParsePathBody(h, challenge[proto.HeaderLen:])
	if err != nil {
		t.Fatal(err)
	}
	s.Receive(now, away, p.sealed(&proto.PathResponse{Data: data}))
	if got := s.room0().seats.at(int(p.slot)).addr; got != away || s.conns.migrations != 1 {
		t.Fatalf("after the answer the seat is at %v (%d migrations), want %v", got, s.conns.migrations, away)
	}
	states := 0
	for i := 0; i < 10; i++ {
		now = now.Add(TickDuration)
		for _, d := range s.Tick(now) {
			if d.Addr == away {
				states++
			}
		}
	}
	if states < 10/2 { // a State every 2 ticks, and no Ack between
		t.Fatalf("%d datagrams to the validated new address in 10 ticks, want full traffic", states)
	}
	// The old address's late datagram does not move it back.
	s.Receive(now, home, early)
	if got := s.room0().seats.at(int(p.slot)).addr; got != away {
		t.Fatalf("a late datagram from the old address moved the seat back to %v", got)
	}
}

// TestMovedConnectionActsOnlyForItsOwnAddress: an attacker holding
// connections of its own, who can spoof source addresses, cannot use a
// move to act for another address. Its datagrams from a victim's address
// start a check of that address, which the attacker never sees answered,
// so the connection never moves; a Request from there, on a connection
// with a place or without, is dropped; and its places count against the
// address their cookie proved, so four seats leave the attacker's address
// at its cap, and the victim's address is not charged for them.
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
		s.Receive(now, to, p.sealed(&in)) // starts a check of that address
		before := s.drops[DropMoved]
		s.Receive(now, to, p.sealed(&proto.Request{Name: "a", Kind: proto.RoomNamed, Room: "a"}))
		if s.drops[DropMoved] != before+1 {
			t.Fatalf("a Request on a connection moved to %v was not dropped as moved", to)
		}
	}
	if s.conns.migrations != 0 {
		t.Fatalf("%d moves, want none: no spoofed address answered its check", s.conns.migrations)
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

// startMatch seats p in a 2-seat room with a bot and runs the countdown.
func startMatch(t *testing.T, s *Server, now time.Time, p *rawPeer) time.Time {
	t.Helper()
	p.request(t, s, now, proto.Request{Name: p.String()})
	for s.clk.now().Before(s.room0().match.world.Tick()) {
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	return now
}

// TestInjectedCopiesCannotMoveAConnection: an attacker on the path that
// can inject (not drop) copies the genuine player's datagrams, each copy
// arriving from its own address before the original: the originals are
// then replays. The attacker even forwards the server's PathChallenges
// to the player and races the player's answers the same way. The
// connection never moves, the player keeps playing (no input guessed),
// and its States keep going to its own address.
func TestInjectedCopiesCannotMoveAConnection(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	now := simEpoch
	home := netip.MustParseAddrPort("192.0.2.1:4000")
	evil := netip.MustParseAddrPort("198.51.100.66:6666")
	p := rawSeated(t, s, now, home, 0x51, "genuine")
	now = startMatch(t, s, now, p)
	seat := s.room0().seats.at(int(p.slot))
	_, held0, neutral0, _ := seat.in.counts()
	toHome := 0
	race := func(b []byte) { // the copy first, from the attacker; then the original
		for _, from := range []netip.AddrPort{evil, home} {
			for _, d := range s.Receive(now, from, b) {
				fwd := *p // the attacker forwards what comes to it to the player
				fwd.from = d.Addr
				if h, clear, ok := fwd.opened(d); ok && h.Type == proto.TypePathChallenge {
					// The player answers the challenge, and the attacker
					// races the answer.
					data, err := proto.ParsePathBody(h, clear[proto.HeaderLen:])
					if err != nil {
						t.Fatal(err)
					}
					resp := p.sealed(&proto.PathResponse{Data: data})
					s.Receive(now, evil, resp)
					s.Receive(now, home, resp)
				}
			}
		}
	}
	for i := 0; i < 120; i++ {
		now = now.Add(TickDuration)
		in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
		in.Inputs[0] = game.Input{Tick: s.World().Tick(), MoveX: 1}
		race(p.sealed(&in))
		for _, d := range s.Tick(now) {
			if d.Addr == home {
				toHome++
			}
		}
	}
	if got := seat.addr; got != home || s.conns.migrations != 0 {
		t.Fatalf("the seat is at %v after the injected copies (%d migrations), want %v", got, s.conns.migrations, home)
	}
	_, held, neutral, _ := seat.in.counts()
	if guessed := held + neutral - held0 - neutral0; guessed > 0 {
		t.Fatalf("%d ticks of the player's input guessed", guessed)
	}
	if toHome < 55 { // of the 60 States of 120 ticks
		t.Fatalf("%d datagrams to the player's address in 120 ticks, want the whole stream", toHome)
	}
}

// TestForgedSourceCannotAimABan: a troublemaker seals its own Inputs
// correctly but sends them with a forged source address, a neighbour's.
// Its connection does not move there: the dashboard lists it at its own
// address, and the operator's ban of that address hits the troublemaker,
// while the neighbour plays on and can join again.
func TestForgedSourceCannotAimABan(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 4})
	now := simEpoch
	bad := netip.MustParseAddrPort("198.51.100.13:1300")
	good := netip.MustParseAddrPort("203.0.113.20:2000")
	tm := rawSeated(t, s, now, bad, 0x13, "troublemaker")
	nb := rawSeated(t, s, now, good, 0x20, "neighbour")
	for i := 0; i < 20; i++ {
		now = now.Add(TickDuration)
		in := proto.Input{Header: proto.Header{Match: tm.match, Player: tm.slot}, N: 1}
		in.Inputs[0] = game.Neutral(s.clk.now())
		s.Receive(now, good, tm.sealed(&in)) // the forged source
		s.Tick(now)
	}
	var listed string
	for _, p := range s.Stats().Players {
		if p.Name == "troublemaker" {
			listed = p.Addr
		}
	}
	if listed != bad.String() {
		t.Fatalf("the troublemaker is listed at %q, want its own address %v", listed, bad)
	}
	ap := netip.MustParseAddrPort(listed)
	s.Ban(ap.Addr())
	var names []string
	for _, p := range s.Stats().Players {
		names = append(names, p.Name)
	}
	if len(names) != 1 || names[0] != "neighbour" {
		t.Fatalf("after the ban: %v seated, want the neighbour alone", names)
	}
	if _, err := tryCookie(s, now, netip.AddrPortFrom(bad.Addr(), 1301), 0x99); err == nil {
		t.Fatal("the banned address was answered")
	}
	if _, why := rawJoin(t, s, now, netip.AddrPortFrom(good.Addr(), 2001), 0x21, proto.Request{Name: "neighbour2"}); why != 0 {
		t.Fatalf("the neighbour's address after the ban: %v", why)
	}
	_ = nb
}
