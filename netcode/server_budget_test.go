package netcode

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// createRoom makes a connection from from and asks it to create a room
// of seats seats and bots bots; it returns the Reject reason (0: the
// room opened and the peer is seated).
func createRoom(t *testing.T, s *Server, now time.Time, from netip.AddrPort, name string, seats, bots uint8) proto.RejectReason {
	t.Helper()
	_, why := rawJoin(t, s, now, from, uint64(from.Port())<<8|uint64(from.Addr().As16()[15]),
		proto.Request{Name: "x", Kind: proto.RoomCreate, Room: name, Seats: seats, Bots: bots})
	return why
}

// TestRoomBudgets: one prefix holds at most MaxRoomsPerAddr rooms opened
// on demand at once and MaxBotsPerAddr bot seats in them (an IPv6 /64 as
// one); the bots of all rooms opened on demand stay within MaxBots, past
// which the server says it is busy, whatever the number of addresses;
// joining a room that exists is never refused for them.
func TestRoomBudgets(t *testing.T) {
	bot := func(int, uint64) InputSource { return walker{} }
	s := newRoomServer(t, ServerConfig{Players: 2, NewBot: bot, MaxRooms: 64, MaxSeatsPerAddr: 64,
		MaxRoomsPerAddr: 3, MaxBotsPerAddr: 8, MaxBots: 20})
	now := simEpoch
	ip := netip.MustParseAddr("2001:db8:1:2::5")
	at := func(i int) netip.AddrPort {
		a := ip.As16()
		a[15] = byte(5 + i) // the same /64
		return netip.AddrPortFrom(netip.AddrFrom16(a), uint16(4000+i))
	}
	step := openRefill // past the rate limit of openings: only the budgets bind
	for i, bots := range []uint8{1, 7} {
		if why := createRoom(t, s, now, at(i), fmt.Sprintf("r%d", i), 8, bots); why != 0 {
			t.Fatalf("room %d with %d bots refused: %v", i, bots, why)
		}
		now = now.Add(step)
	}
	if why := createRoom(t, s, now, at(2), "too-many-bots", 2, 1); why != proto.RejectAddrLimit {
		t.Fatalf("a 9th bot from the /64: %v, want the address limit", why)
	}
	now = now.Add(step)
	if why := createRoom(t, s, now, at(3), "r2", 2, 0); why != 0 {
		t.Fatalf("a third room without bots: %v", why)
	}
	now = now.Add(step)
	if why := createRoom(t, s, now, at(4), "r3", 2, 0); why != proto.RejectAddrLimit {
		t.Fatalf("a fourth room from the /64: %v, want the address limit", why)
	}
	if _, why := rawJoin(t, s, now, at(5), 0x77, proto.Request{Name: "y", Kind: proto.RoomNamed, Room: "r0"}); why != 0 {
		t.Fatalf("joining an open room from the /64: %v", why)
	}
	// Other addresses, each within its own budget, fill the server's.
	busy := false
	for k := 0; k < 10 && !busy; k++ {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + k)}), 5000)
		switch why := createRoom(t, s, now, from, fmt.Sprintf("o%d", k), 8, 7); why {
		case 0:
		case proto.RejectBusy:
			busy = true
		default:
			t.Fatalf("address %d: %v", k, why)
		}
	}
	_, _, all := s.rooms.spending(netip.Addr{})
	if !busy || all > 20 {
		t.Fatalf("bots of the rooms opened on demand: %d (busy %v), want a refusal at MaxBots 20", all, busy)
	}
	if got := s.Stats().Drops[DropBusy]; got == 0 {
		t.Fatal("the busy refusal was not counted")
	}
}

// TestBusyServerOpensNoRooms: while the ticks take more than half their
// time, the server opens no room on demand (and says so), but still
// seats players in the rooms it has; when they are fast again it opens
// rooms again.
func TestBusyServerOpensNoRooms(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 8})
	now := simEpoch
	for range 600 {
		s.ObserveTickDuration(12 * time.Millisecond)
	}
	if why := createRoom(t, s, now, netip.MustParseAddrPort("198.51.100.1:1000"), "new", 2, 0); why != proto.RejectBusy {
		t.Fatalf("a new room while the ticks take 12 ms: %v, want busy", why)
	}
	if _, why := rawJoin(t, s, now, netip.MustParseAddrPort("198.51.100.2:1000"), 9, proto.Request{Name: "y", Kind: proto.RoomNamed, Room: "a"}); why != 0 {
		t.Fatalf("joining the open room while busy: %v", why)
	}
	for range 600 {
		s.ObserveTickDuration(time.Millisecond)
	}
	now = now.Add(time.Second)
	if why := createRoom(t, s, now, netip.MustParseAddrPort("198.51.100.3:1000"), "later", 2, 0); why != 0 {
		t.Fatalf("a new room once the ticks are fast: %v", why)
	}
}

// TestClockSlipsAreCounted: a server that falls behind its clock by more
// than MaxCatchUpTicks restarts it, and the ticks it skipped are counted.
func TestClockSlipsAreCounted(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2})
	now := simEpoch
	s.Advance(now)
	s.Advance(now.Add(time.Second)) // a second's stall: 60 ticks due, 8 run
	st := s.Stats()
	if st.Slips != 1 || st.SkippedTicks < 50 || st.SkippedTicks > 60 {
		t.Fatalf("after a 1 s stall: %d slips, %d ticks skipped; want 1 and about 52", st.Slips, st.SkippedTicks)
	}
}

// TestIdleSeatIsFreed: a player who shows no intent (neutral inputs or
// keep-alives only) for Idle loses its seat with a Leave that says so,
// whether the match runs or the room waits; one that moves keeps it.
func TestIdleSeatIsFreed(t *testing.T) {
	const idle = 5 * time.Second
	s := newRoomServer(t, ServerConfig{Players: 3, Idle: idle, StartWait: time.Second})
	now := simEpoch
	mover := rawSeated(t, s, now, netip.MustParseAddrPort("192.0.2.1:1000"), 1, "mover")
	sitter := rawSeated(t, s, now, netip.MustParseAddrPort("192.0.2.2:1000"), 2, "sitter")
	var sitterLeave *proto.Leave
	for i := 0; i < int((idle+2*time.Second)/TickDuration); i++ {
		now = now.Add(TickDuration)
		for _, d := range s.Tick(now) {
			if d.Addr != sitter.from {
				continue
			}
			if h, clear, ok := sitter.opened(d); ok && h.Type == proto.TypeLeave {
				l, err := proto.ParseLeave(clear)
				if err != nil {
					t.Fatal(err)
				}
				sitterLeave = &l
			}
			if h, clear, ok := sitter.opened(d); ok && h.Type == proto.TypeStart {
				if st, err := proto.ParseStart(clear); err == nil {
					sitter.match, sitter.slot = st.Match, st.Slot
				}
			}
		}
		if i%6 == 0 {
			for _, p := range []*rawPeer{mover, sitter} {
				in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
				in.Inputs[0] = game.Neutral(s.clk.now())
				if p == mover {
					in.Inputs[0].MoveX = 1
				}
				p.send(s, now, &in)
			}
		}
	}
	if sitterLeave == nil || sitterLeave.Reason != proto.LeaveIdle {
		t.Fatalf("the sitter got %+v, want a Leave for idleness", sitterLeave)
	}
	var names []string
	for _, p := range s.Stats().Players {
		names = append(names, p.Name)
	}
	if len(names) != 1 || names[0] != "mover" {
		t.Fatalf("seated after %v: %v, want only the mover", idle+2*time.Second, names)
	}
	if s.Stats().Idled != 1 {
		t.Fatalf("%d seats freed for idleness, want 1", s.Stats().Idled)
	}
}

// TestKickHoldsThePrefix: a kicked player's prefix (its IPv6 /64) gets
// no new connection, from any address in it, for KickHold: it is told
// why, in the clear; another prefix is not held, and after the hold the
// prefix is welcome again.
func TestKickHoldsThePrefix(t *testing.T) {
	const hold = time.Minute
	s := newRoomServer(t, ServerConfig{Players: 2, KickHold: hold})
	now := simEpoch
	p := rawSeated(t, s, now, netip.MustParseAddrPort("[2001:db8:7:7::1]:1000"), 1, "kicked")
	s.Kick(now, "a", int(p.slot))
	for _, from := range []string{"[2001:db8:7:7::1]:1001", "[2001:db8:7:7:ffff::9]:2000"} {
		if _, err := tryHandshake(s, now.Add(time.Second), netip.MustParseAddrPort(from), 2); err == nil {
			t.Fatalf("a connection from %v, in the kicked /64, was made", from)
		}
	}
	if got := s.Stats().Drops[DropKicked]; got != 2 {
		t.Fatalf("%d Joins dropped as kicked, want 2", got)
	}
	if _, why := rawJoin(t, s, now.Add(time.Second), netip.MustParseAddrPort("[2001:db8:7:8::1]:1000"), 3, proto.Request{Name: "other"}); why != 0 {
		t.Fatalf("another /64: %v", why)
	}
	if _, why := rawJoin(t, s, now.Add(hold+time.Second), netip.MustParseAddrPort("[2001:db8:7:7::1]:1002"), 4, proto.Request{Name: "back"}); why != 0 {
		t.Fatalf("after the hold: %v", why)
	}
}

// TestBanCoversThePrefix: a ban of an IPv6 address covers its /64: no
// address in it gets an answer to a Hello, and the players in it are
// kicked; another /64 plays on.
func TestBanCoversThePrefix(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 3})
	now := simEpoch
	in := rawSeated(t, s, now, netip.MustParseAddrPort("[2001:db8:5:5::1]:1000"), 1, "neighbour")
	out := rawSeated(t, s, now, netip.MustParseAddrPort("[2001:db8:5:6::1]:1000"), 2, "stranger")
	kicked := false
	for _, d := range s.Ban(netip.MustParseAddr("2001:db8:5:5::77")) {
		if h, _, ok := in.opened(d); ok && h.Type == proto.TypeLeave {
			kicked = true
		}
	}
	if !kicked {
		t.Fatal("the player in the banned /64 got no Leave")
	}
	if _, err := tryCookie(s, now, netip.MustParseAddrPort("[2001:db8:5:5:abcd::1]:3000"), 3); err == nil {
		t.Fatal("an address in the banned /64 was answered")
	}
	if _, err := tryCookie(s, now, netip.MustParseAddrPort("[2001:db8:5:6::2]:3000"), 4); err != nil {
		t.Fatalf("another /64: %v", err)
	}
	seated := 0
	for _, p := range s.Stats().Players {
		if p.Addr == out.from.String() {
			seated++
		}
	}
	if seated != 1 {
		t.Fatal("the player of another /64 lost its seat to the ban")
	}
}

// TestSpectatorPlacesPerPrefix: one prefix holds at most an eighth of a
// room's spectator places, so the 4 addresses that filled a room's 16
// places now hold 8 of them and a newcomer at another address still
// watches; the prefix may watch other rooms within its own limit.
func TestSpectatorPlacesPerPrefix(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, Rooms: 2, MaxSpectators: 16, MaxSpectatorsPerAddr: 16})
	now := simEpoch
	watch := func(from netip.AddrPort, session uint64, room string) proto.RejectReason {
		_, why := rawJoin(t, s, now, from, session, proto.Request{Name: "w", Kind: proto.RoomNamed, Room: room, Spectate: true})
		return why
	}
	room := s.rooms.list[0].name
	var refused int
	for a := 0; a < 4; a++ {
		for k := 0; k < 4; k++ {
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(1 + a)}), uint16(6000+k))
			switch why := watch(from, uint64(a<<8|k+1), room); why {
			case 0:
			case proto.RejectAddrLimit:
				refused++
			default:
				t.Fatalf("spectator %d of address %d: %v", k, a, why)
			}
		}
	}
	if want := 4 * (4 - s.spectatorsPerRoom()); s.spectatorsPerRoom() != 2 || refused != want {
		t.Fatalf("%d of 16 spectators refused (per room and prefix %d), want %d", refused, s.spectatorsPerRoom(), want)
	}
	if why := watch(netip.MustParseAddrPort("203.0.113.9:7000"), 0x999, room); why != 0 {
		t.Fatalf("a newcomer at another address was refused: %v", why)
	}
	if why := watch(netip.MustParseAddrPort("198.51.100.1:6100"), 0x1001, s.rooms.list[1].name); why != 0 {
		t.Fatalf("the first address watching another room: %v", why)
	}
}

// TestIdleClockStartsAtTheFirstInput: a player whose Start was lost
// learns of its seat late (here 4 s after taking it); its idle clock
// starts at its first Input, not at the seat's taking, so it keeps the
// seat for Idle after that Input, and loses it once Idle has passed
// with nothing but keep-alives.
func TestIdleClockStartsAtTheFirstInput(t *testing.T) {
	const idle, late = 5 * time.Second, 4 * time.Second
	s := newRoomServer(t, ServerConfig{Players: 2, Idle: idle})
	t0 := simEpoch
	p := rawSeated(t, s, t0, netip.MustParseAddrPort("192.0.2.7:1000"), 1, "late")
	seated := func() bool { return len(s.Stats().Players) == 1 }
	var freedAt time.Time
	for now := t0; now.Before(t0.Add(late + idle + 2*time.Second)); now = now.Add(TickDuration) {
		s.Tick(now)
		if !freedAt.IsZero() {
			break
		}
		if !seated() {
			freedAt = now
			break
		}
		if now.Sub(t0) >= late && now.Sub(t0)%(100*time.Millisecond) < TickDuration {
			in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
			in.Inputs[0] = game.Neutral(s.clk.now())
			p.send(s, now, &in)
		}
	}
	if freedAt.IsZero() {
		t.Fatalf("still seated %v after its first Input with keep-alives only (idle %v)", idle+2*time.Second, idle)
	}
	if since := freedAt.Sub(t0.Add(late)); since < idle || since > idle+time.Second {
		t.Fatalf("freed %v after its first Input (%v after taking the seat), want about %v", since, freedAt.Sub(t0), idle)
	}
}
