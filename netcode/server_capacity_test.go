package netcode

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// BenchmarkServerCapacity is the load benchmark of SPEC §8: one Server
// hosting 64 rooms of 8 players (512 clients), stepped by one goroutine,
// so one core. One op is one 60 Hz tick of all of them: every client's
// Input datagram routed to its room, decoded and checked, every room's
// match stepped and hashed, and an Ack or a State encoded for every
// client. It reports the p99 of that tick and how many clients one core
// could serve with the p99 under 25% of the 16.7 ms budget (socket system
// calls not included: see BenchmarkUDPLoopback).
func BenchmarkServerCapacity(b *testing.B) {
	const rooms, seats = 64, 8
	type player struct {
		*rawPeer
		slot  int
		match uint32
	}
	s, err := NewServer(ServerConfig{Players: seats, MaxRooms: rooms, Seed: 1, Secret: []byte("0123456789abcdef")})
	if err != nil {
		b.Fatal(err)
	}
	var players []player
	now := simEpoch
	for m := 0; m < rooms; m++ {
		for i := 0; i < seats; i++ {
			addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 1, byte(m), byte(i)}), 7000)
			p := player{rawPeer: rawHandshake(b, s, now, addr, uint64(m*seats+i+1))}
			if st, why := p.request(b, s, now, proto.Request{Name: "load"}); st == nil {
				b.Fatalf("refused: %v", why)
			}
			players = append(players, p)
		}
	}
	if n := s.rooms.count(); n != rooms {
		b.Fatalf("%d rooms, want %d", n, rooms)
	}
	for i := range players { // the Start of the running match, and its epoch
		st, _ := players[i].request(b, s, now, proto.Request{Name: "load"})
		players[i].slot, players[i].match = int(st.Slot), st.Match
	}
	for _, r := range s.rooms.list { // the start countdown
		if !r.match.live() {
			b.Fatalf("room %s did not start", r.name)
		}
		for s.clk.now().Before(r.match.world.Tick()) {
			s.Tick(now)
		}
	}
	var buf []byte
	var in proto.Input // one, reused: sealing it through proto.Packet makes it escape
	durs := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(TickDuration)
		start := time.Now()
		for _, p := range players {
			t := s.rooms.byMatch(p.match).match.world.Tick()
			in = proto.Input{Header: proto.Header{Match: p.match, Player: uint8(p.slot)}, N: 1}
			in.Inputs[0] = game.Input{Tick: t, MoveX: int8((i/40+p.slot)%3 - 1), MoveY: int8((i/25+p.slot)%3 - 1)}
			if (i+p.slot)%20 == 0 {
				in.Inputs[0].Buttons = game.ButtonFire
			}
			buf, _ = p.seal.AppendPacket(buf[:0], &in, p.epochs.of(p.match, uint8(p.slot)))
			s.Receive(now, p.from, buf)
		}
		s.Tick(now)
		durs = append(durs, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(durs)
	p99 := durs[len(durs)*99/100]
	b.ReportMetric(float64(p99.Microseconds()), "p99-µs/tick")
	perClient := float64(p99) / (rooms * seats)
	b.ReportMetric(float64(TickDuration/4)/perClient, "clients/core")
}

// BenchmarkUDPLoopback is one State-sized datagram sent and received over
// real UDP on 127.0.0.1: the system-call cost a server pays per client per
// tick, to add to BenchmarkServerCapacity's.
func BenchmarkUDPLoopback(b *testing.B) {
	a, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	c, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	msg := make([]byte, 127)
	buf := make([]byte, 2048)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Send(c.LocalAddr(), msg); err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.Recv(buf); err != nil {
			b.Fatal(err)
		}
	}
}
