package netcode

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// These tests talk to a Server core directly, datagram by datagram, as a
// peer (or an attacker) on the wire would.

// newRoomServer returns a server for the wire tests.
func newRoomServer(t *testing.T, cfg ServerConfig) *Server {
	t.Helper()
	cfg.Seed = 5
	cfg.Secret = []byte("0123456789abcdef0123456789abcdef")
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// listAll fetches every page of the room list from from, as the lobby
// does, checking that each page is within MaxDatagram and starts where
// it was asked to; it returns the entries and the list's total.
func listAll(t *testing.T, s *Server, now time.Time, from netip.AddrPort) ([]proto.RoomEntry, int) {
	t.Helper()
	const session = 0x5151
	cookie := rawCookie(t, s, now, from, session)
	var all []proto.RoomEntry
	for pages := 0; ; pages++ {
		if pages > maxRooms {
			t.Fatalf("the room list did not end after %d pages", pages)
		}
		q := proto.ListRooms{Header: proto.Header{Session: session}, Cookie: cookie, Offset: uint16(len(all))}
		var page *proto.RoomList
		for _, d := range s.Receive(now, from, q.Append(nil)) {
			if len(d.Data) > proto.MaxDatagram {
				t.Fatalf("a RoomList page of %d bytes", len(d.Data))
			}
			if p, err := proto.ParseRoomList(d.Data); err == nil && d.Addr == from {
				page = &p
			}
		}
		if page == nil {
			t.Fatalf("no RoomList for offset %d", len(all))
		}
		if int(page.Offset) != len(all) {
			t.Fatalf("asked for offset %d, got a page at %d", len(all), page.Offset)
		}
		all = append(all, page.Rooms...)
		if len(page.Rooms) == 0 || len(all) >= int(page.Total) {
			return all, int(page.Total)
		}
	}
}

// TestRoomAntiAmplification: whatever the server answers before an
// address has shown it receives what is sent to it is no larger than
// what it was sent; with a valid cookie, the room list comes in pages
// of at most MaxDatagram bytes that together list every public room.
func TestRoomAntiAmplification(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, Rooms: 40, MaxRooms: 64})
	now := simEpoch
	port := uint16(1000)
	spoofed := func() netip.AddrPort { // a new source for each request: no rate limit in the way
		port++
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(port)}), port)
	}
	other := netip.MustParseAddrPort("203.0.113.9:9999")
	stolen := rawCookie(t, s, now, other, 77) // a cookie for another address
	old := rawCookie(t, s, now.Add(-11*time.Second), spoofed(), 78)

	otherVersion := func(n int) []byte {
		b := make([]byte, n)
		(&proto.Hello{Header: proto.Header{Session: 79}}).Append(b[:0])
		b[2] = proto.Version + 1
		return b
	}
	join := func(j proto.Join) []byte { j.Session = 80; return j.Append(nil) }
	cases := []struct {
		name    string
		b       []byte
		answers int                // datagrams the server must send back
		want    proto.Type         // their type
		reason  proto.RejectReason // for a Reject
	}{
		{"Hello", (&proto.Hello{Header: proto.Header{Session: 81}}).Append(nil), 1, proto.TypeChallenge, 0},
		{"Join, zero cookie", join(proto.Join{}), 1, proto.TypeReject, proto.RejectBadCookie},
		{"Join, zero cookie and a key", join(proto.Join{Eph: [32]byte{9}}), 1, proto.TypeReject, proto.RejectBadCookie},
		{"Join, another address's cookie", join(proto.Join{Cookie: stolen, Eph: [32]byte{9}}), 1, proto.TypeReject, proto.RejectBadCookie},
		{"Join, expired cookie", join(proto.Join{Cookie: old}), 1, proto.TypeReject, proto.RejectBadCookie},
		{"Request in the clear", (&proto.Request{Header: proto.Header{Session: 85}, Name: "x"}).Append(nil), 0, 0, 0},
		{"Start in the clear", (&proto.Start{Header: proto.Header{Session: 86}, Slots: 2, MazeW: 21, MazeH: 21, StateEvery: 1}).Append(nil), 0, 0, 0},
		{"ListRooms, zero cookie", (&proto.ListRooms{Header: proto.Header{Session: 82}}).Append(nil), 1, proto.TypeReject, proto.RejectBadCookie},
		{"ListRooms, another address's cookie", (&proto.ListRooms{Header: proto.Header{Session: 77}, Cookie: stolen}).Append(nil), 1, proto.TypeReject, proto.RejectBadCookie},
		{"another version, 22 bytes", otherVersion(proto.HeaderLen + 1), 1, proto.TypeReject, proto.RejectVersion},
		{"another version, 64 bytes", otherVersion(proto.HelloLen), 1, proto.TypeReject, proto.RejectVersion},
		{"another version, 21 bytes", otherVersion(proto.HeaderLen), 0, 0, 0},
		{"Leave of an unknown session", (&proto.Leave{Header: proto.Header{Session: 83, Match: s.Match()}, Reason: proto.LeaveQuit}).Append(nil), 0, 0, 0},
		{"Input of an unknown session", (&proto.Input{Header: proto.Header{Session: 84, Match: s.Match()}, N: 1}).Append(nil), 0, 0, 0},
	}
	for _, c := range cases {
		from := spoofed()
		out := s.Receive(now, from, c.b)
		sent := 0
		for _, d := range out {
			sent += len(d.Data)
			if d.Addr != from {
				t.Errorf("%s: an answer went to %v, not the sender %v", c.name, d.Addr, from)
			}
			h, err := proto.ParseHeader(d.Data)
			if err != nil || h.Type != c.want {
				t.Errorf("%s: answered with %v (%v), want %v", c.name, h.Type, err, c.want)
				continue
			}
			if c.want == proto.TypeReject {
				if r, err := proto.ParseReject(d.Data); err != nil || r.Reason != c.reason {
					t.Errorf("%s: Reject %v (%v), want %v", c.name, r.Reason, err, c.reason)
				}
			}
		}
		if len(out) != c.answers {
			t.Errorf("%s: %d answers, want %d", c.name, len(out), c.answers)
		}
		if sent > len(c.b) {
			t.Errorf("%s: %d bytes in, %d bytes out: the server amplifies", c.name, len(c.b), sent)
		}
	}

	// With a cookie: every public room, in pages within MaxDatagram.
	entries, total := listAll(t, s, now, netip.MustParseAddrPort("192.0.2.7:4000"))
	if total != 40 || len(entries) != 40 {
		t.Fatalf("listed %d rooms of a total of %d, want 40", len(entries), total)
	}
	for i, e := range entries {
		if want := roomName(i); e.Name != want {
			t.Fatalf("room %d in the list is %q, want %q", i, e.Name, want)
		}
	}
}

// TestRoomListPages: 100 rooms take several pages; the pages, asked for
// offset by offset, list each room once, in order.
func TestRoomListPages(t *testing.T) {
	const rooms = 600 // more than a u8 counts: 2,400 players in 4-seat rooms
	s := newRoomServer(t, ServerConfig{Players: 4, Rooms: rooms, MaxRooms: rooms})
	var pages int
	from := netip.MustParseAddrPort("192.0.2.8:4000")
	cookie := rawCookie(t, s, simEpoch, from, 9)
	for off := 0; off < rooms; pages++ {
		q := proto.ListRooms{Header: proto.Header{Session: 9}, Cookie: cookie, Offset: uint16(off)}
		out := s.Receive(simEpoch, from, q.Append(nil))
		if len(out) != 1 {
			t.Fatalf("%d answers to a ListRooms", len(out))
		}
		p, err := proto.ParseRoomList(out[0].Data)
		if err != nil || len(p.Rooms) == 0 || p.Total != rooms {
			t.Fatalf("page at %d: %d rooms of %d (%v)", off, len(p.Rooms), p.Total, err)
		}
		for i, e := range p.Rooms {
			if want := roomName(off + i); e.Name != want {
				t.Fatalf("page at %d, entry %d: %q, want %q", off, i, e.Name, want)
			}
		}
		off += len(p.Rooms)
	}
	if pages < 2 {
		t.Fatalf("%d rooms in %d page: the test wants several", rooms, pages)
	}

	// An offset past the end gets a page of no room at that offset, with
	// the total.
	q := proto.ListRooms{Header: proto.Header{Session: 9}, Cookie: cookie, Offset: rooms + 100}
	out := s.Receive(simEpoch, from, q.Append(nil))
	if len(out) != 1 {
		t.Fatalf("%d answers to a ListRooms at %d", len(out), rooms+100)
	}
	if p, err := proto.ParseRoomList(out[0].Data); err != nil || len(p.Rooms) != 0 || p.Offset != rooms+100 || p.Total != rooms {
		t.Fatalf("page at %d: %d rooms from %d of %d (%v), want none from there of %d", rooms+100, len(p.Rooms), p.Offset, p.Total, err, rooms)
	}

	// The fleet's record of the server holds maxFleetRooms of them, those
	// with a free seat first: fill the first room's seats.
	for i := 0; i < 4; i++ {
		rawSeated(t, s, simEpoch, netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(1 + i)}), 5000), uint64(70+i), "p")
	}
	fr := s.FleetRooms(nil)
	if len(fr) != maxFleetRooms {
		t.Fatalf("the fleet record holds %d rooms, want %d", len(fr), maxFleetRooms)
	}
	for _, r := range fr {
		if r.Name == roomName(0) {
			t.Fatalf("the full room %q is in the record before rooms with free seats", r.Name)
		}
	}
}

// TestJoinCodeGuessesAreLimited: one address gets codeTries wrong guesses
// at a join code; then "slow down", even for the right code; the tries
// come back with time; a right code costs none; another address is not
// affected.
func TestJoinCodeGuessesAreLimited(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 8})
	now := simEpoch
	st, why := rawJoin(t, s, now, netip.MustParseAddrPort("203.0.113.1:5000"), 1,
		proto.Request{Kind: proto.RoomCreate, Room: "vault", Seats: 8, Private: true})
	if st == nil || len(st.Code) != codeLen {
		t.Fatalf("creating a private room: %v, reject %v", st, why)
	}
	code := st.Code
	wrong := "ZZZZZZZZ"
	if wrong == code {
		wrong = "YYYYYYYY"
	}

	guesser := netip.MustParseAddr("198.51.100.1")
	other := netip.MustParseAddr("198.51.100.2") // the tries are counted exactly, per prefix
	port, session := uint16(6000), uint64(100)
	try := func(ip netip.Addr, code string) (*proto.Start, proto.RejectReason) {
		t.Helper()
		port++ // a fresh port and session for each try, as a guessing script would
		session++
		return rawJoin(t, s, now, netip.AddrPortFrom(ip, port), session, proto.Request{Kind: proto.RoomCode, Room: code})
	}
	for i := 1; i <= codeTries; i++ {
		if _, why := try(guesser, wrong); why != proto.RejectNoRoom {
			t.Fatalf("wrong code, try %d: %v, want %v", i, why, proto.RejectNoRoom)
		}
	}
	if _, why := try(guesser, wrong); why != proto.RejectSlowDown {
		t.Fatalf("wrong code, try %d: %v, want %v", codeTries+1, why, proto.RejectSlowDown)
	}
	if st, why := try(guesser, code); st != nil || why != proto.RejectSlowDown {
		t.Fatalf("the right code after the limit: Start %v, reject %v; want %v (the code is not checked)", st != nil, why, proto.RejectSlowDown)
	}
	if n := s.rooms.byName("vault").seats.humans(); n != 1 {
		t.Fatalf("vault has %d players after the limit, want its creator alone", n)
	}

	// A right code costs no try: a household that joins its friends'
	// rooms over and over is never slowed down.
	friend := netip.MustParseAddr("198.51.100.3")
	for i := 0; i < 3*codeTries; i++ {
		port++
		session++
		p := rawHandshake(t, s, now, netip.AddrPortFrom(friend, port), session)
		st, why := p.request(t, s, now, proto.Request{Kind: proto.RoomCode, Room: code})
		if st == nil || st.Room != "vault" {
			t.Fatalf("a friend's join %d with the right code: reject %v, want the Start of vault", i+1, why)
		}
		p.send(s, now, &proto.Leave{Header: proto.Header{Match: st.Match, Player: st.Player}, Reason: proto.LeaveQuit})
	}

	// Another address is not affected.
	if _, why := try(other, wrong); why != proto.RejectNoRoom {
		t.Fatalf("another address, wrong code: %v, want %v", why, proto.RejectNoRoom)
	}
	if st, why := try(other, code); st == nil || st.Room != "vault" {
		t.Fatalf("another address, right code: reject %v, want the Start of vault", why)
	}

	// A try comes back every codeRefill.
	now = now.Add(codeRefill / 2)
	if _, why := try(guesser, code); why != proto.RejectSlowDown {
		t.Fatalf("half a refill later: %v, want %v", why, proto.RejectSlowDown)
	}
	now = now.Add(codeRefill)
	if st, why := try(guesser, code); st == nil || st.Room != "vault" {
		t.Fatalf("a refill later, the right code: reject %v, want the Start of vault", why)
	}
	// The right code cost nothing: the try that came back is still there
	// for one wrong guess.
	if _, why := try(guesser, wrong); why != proto.RejectNoRoom {
		t.Fatalf("right after, a wrong guess: %v, want %v (the right code costs no try)", why, proto.RejectNoRoom)
	}
	if _, why := try(guesser, wrong); why != proto.RejectSlowDown {
		t.Fatalf("right after, another wrong guess: %v, want %v (one try came back)", why, proto.RejectSlowDown)
	}
	now = now.Add(codeTries * codeRefill)
	for i := 1; i <= codeTries; i++ {
		if _, why := try(guesser, wrong); why != proto.RejectNoRoom {
			t.Fatalf("after a long wait, try %d: %v, want %v", i, why, proto.RejectNoRoom)
		}
	}
}

// TestRoomOpensAreLimited: one address opens at most openBurst rooms at
// once, each with its own player (a new port each), then "slow down";
// it may open one more after openRefill; another address is unaffected,
// and so is joining a room that exists.
func TestRoomOpensAreLimited(t *testing.T) {
	// The cap on rooms open at once has a test of its own
	// (TestRoomBudgets); here it never binds.
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 64, MaxSeatsPerAddr: 64, MaxRoomsPerAddr: 64})
	now := simEpoch
	ip := netip.MustParseAddr("198.51.100.7")
	create := func(port uint16, name string, at time.Time) proto.RejectReason {
		_, why := rawJoin(t, s, at, netip.AddrPortFrom(ip, port), uint64(port), proto.Request{Name: "x", Kind: proto.RoomCreate, Room: name})
		return why
	}
	for i := 0; i < openBurst; i++ {
		if why := create(uint16(1000+i), fmt.Sprintf("r%d", i), now); why != 0 {
			t.Fatalf("room %d refused: %v", i, why)
		}
	}
	if why := create(2000, "one-too-many", now); why != proto.RejectSlowDown {
		t.Fatalf("room %d: %v, want slow down", openBurst, why)
	}
	if _, why := rawJoin(t, s, now, netip.AddrPortFrom(ip, 2001), 2001, proto.Request{Name: "y", Kind: proto.RoomNamed, Room: "r0"}); why != 0 {
		t.Fatalf("joining an open room from the same address: %v", why)
	}
	other := netip.MustParseAddrPort("203.0.113.9:3000")
	if _, why := rawJoin(t, s, now, other, 3000, proto.Request{Name: "z", Kind: proto.RoomCreate, Room: "theirs"}); why != 0 {
		t.Fatalf("another address: %v", why)
	}
	if why := create(2002, "later", now.Add(openRefill)); why != 0 {
		t.Fatalf("after %v: %v", openRefill, why)
	}
}

// TestSSHPlayersCountByTheirOrigin: in-memory peers (SSH players) are
// held to the per-address limits of the address ServerConfig.Origin gives
// them — seats and rooms opened — not exempt, and not each on its own
// in-memory address.
func TestSSHPlayersCountByTheirOrigin(t *testing.T) {
	home := netip.MustParseAddr("198.51.100.20")
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 64, MaxSeatsPerAddr: 3,
		Origin: func(netip.AddrPort) (netip.Addr, bool) { return home, true }})
	mem := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(transport.MemPrefix.Addr().Next(), uint16(100+i))
	}
	for i := 0; i < 3; i++ {
		if _, why := rawJoin(t, s, simEpoch, mem(i), uint64(10+i), proto.Request{Name: "ssh", Kind: proto.RoomCreate, Room: fmt.Sprintf("s%d", i)}); why != 0 {
			t.Fatalf("SSH player %d: %v", i, why)
		}
	}
	if _, why := rawJoin(t, s, simEpoch, mem(3), 13, proto.Request{Name: "ssh", Kind: proto.RoomNamed, Room: "s0"}); why != proto.RejectAddrLimit {
		t.Fatalf("a fourth seat from one SSH client's address: %v, want the address limit", why)
	}
	// The operator sees where an SSH player comes from, not only the
	// in-process address its session plays from.
	for _, p := range s.Stats().Players {
		if p.SSHFrom != home.String() || p.Addr != mem(0).String() && p.Addr != mem(1).String() && p.Addr != mem(2).String() {
			t.Errorf("player %s: addr %q, SSH from %q; want an in-memory address and %s", p.Name, p.Addr, p.SSHFrom, home)
		}
	}
	// Rooms opened count too: a spectator place opens nothing, so leave
	// seats aside and open rooms from a fresh origin's peers.
	other := netip.MustParseAddr("198.51.100.21")
	s2 := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 64, MaxSeatsPerAddr: 64,
		Origin: func(netip.AddrPort) (netip.Addr, bool) { return other, true }})
	for i := 0; i < openBurst; i++ {
		if _, why := rawJoin(t, s2, simEpoch, mem(i), uint64(20+i), proto.Request{Name: "ssh", Kind: proto.RoomCreate, Room: fmt.Sprintf("o%d", i)}); why != 0 {
			t.Fatalf("room %d: %v", i, why)
		}
	}
	if _, why := rawJoin(t, s2, simEpoch, mem(9), 29, proto.Request{Name: "ssh", Kind: proto.RoomCreate, Room: "more"}); why != proto.RejectSlowDown {
		t.Fatalf("one SSH client's address opening room %d: %v, want slow down", openBurst+1, why)
	}
}

// TestSSHPlayersHandshakesCountByOrigin: an SSH player's in-process
// client spends its SSH client's prefix's key-exchange budget, like a UDP
// client: one SSH client's address past kexBurst handshakes at once gets
// no Accept, while an SSH player from another address still does. Before,
// in-memory peers skipped the handshake limits.
func TestSSHPlayersHandshakesCountByOrigin(t *testing.T) {
	busy, quiet := netip.MustParseAddr("198.51.100.30"), netip.MustParseAddr("198.51.100.31")
	mem := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(transport.MemPrefix.Addr().Next(), uint16(100+i))
	}
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 64, Origin: func(a netip.AddrPort) (netip.Addr, bool) {
		if a.Port() >= 1000 {
			return quiet, true
		}
		return busy, true
	}})
	for i := range kexBurst {
		if _, err := tryHandshake(s, simEpoch, mem(i), uint64(10+i)); err != nil {
			t.Fatalf("handshake %d within the burst: %v", i+1, err)
		}
	}
	if _, err := tryHandshake(s, simEpoch, mem(kexBurst), 99); err == nil {
		t.Fatalf("handshake %d from one SSH client's address at once was accepted, want it dropped", kexBurst+1)
	}
	if _, err := tryHandshake(s, simEpoch, mem(1000), 100); err != nil {
		t.Fatalf("an SSH player from another address: %v", err)
	}
}
