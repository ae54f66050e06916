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
	p := rawHandshake(t, s, now, home, 0x51)
	if st, why := p.request(t, s, now, proto.Request{Name: "mover"}); st == nil {
		t.Fatalf("refused: %v", why)
	}
	p.request(t, s, now, proto.Request{Name: "mover"}) // the running match's Start
	for s.clock.Before(s.room0().match.world.Tick()) { // the countdown
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
	limited := s.sec.pathLimited
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
	data, err := proto.ParsePathBody(h, challenge)
	if err != nil {
		t.Fatal(err)
	}
	s.Receive(now, away, p.sealed(&proto.PathResponse{Data: data}))
	for i := 0; i < 10; i++ {
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	if s.sec.pathLimited != limited {
		t.Fatalf("%d more datagrams held back after the path answered", s.sec.pathLimited-limited)
	}
	if s.sec.migrations != 1 {
		t.Fatalf("%d migrations, want 1", s.sec.migrations)
	}
}
