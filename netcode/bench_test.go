package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// BenchmarkClientStateReplay10 is a client receiving a State 10 ticks
// behind its prediction: decode, identity, freshness, hash, restore and
// replay 10 ticks.
func BenchmarkClientStateReplay10(b *testing.B) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	c := NewClient(ClientConfig{Session: 1, Server: netip.MustParseAddrPort("127.0.0.1:1")})
	c.sess.status, c.sess.slot, c.sess.slots, c.sess.match = StatusPlaying, 0, 2, 9
	c.tl.adopt(w)
	base := w.Tick()
	for k := 0; k < 10; k++ {
		c.tl.inputs.Put(w.Tick(), game.Input{Tick: w.Tick(), MoveX: 1})
		c.tl.stepWorld(0, w.Tick())
	}
	var auth game.Snapshot
	c.tl.snaps.Lookup(base).Tick = base // the snapshot at base, as the server would send
	auth = *c.tl.snaps.Lookup(base)
	st := proto.State{Header: proto.Header{Session: 1, Match: 9, Player: 0}, Snapshot: auth, Hash: game.Hash(&auth)}
	st.ServerTick = auth.Tick
	var pkts [2][]byte
	for i := range pkts {
		st.Snapshot.Tick = base
		pkts[i] = st.Append(nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.tl.haveAuth = false // accept the same State again
		c.Receive(simEpoch, c.cfg.Server, pkts[i&1])
	}
	b.StopTimer()
	if c.m.replayLast != 10 {
		b.Fatalf("replayed %d ticks, want 10", c.m.replayLast)
	}
}

// BenchmarkServerTick8Players is one server tick of an 8-player match: an
// Input datagram received from each player, then the tick: inputs, Step,
// Hash, and an Ack or State encoded for each player.
func BenchmarkServerTick8Players(b *testing.B) {
	s, err := NewServer(ServerConfig{Players: 8, Seed: 1, Secret: []byte("0123456789abcdef")})
	if err != nil {
		b.Fatal(err)
	}
	now := simEpoch
	addrs := make([]netip.AddrPort, 8)
	for i := 0; i < 8; i++ {
		a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, byte(1 + i)}), uint16(40000+i)) // one address each: a fair share per address
		addrs[i] = a
		hello := proto.Hello{Header: proto.Header{Session: uint64(100 + i)}}
		ch, err := proto.ParseChallenge(s.Receive(now, a, hello.Append(nil))[0].Data)
		if err != nil {
			b.Fatal(err)
		}
		j := proto.Join{Header: proto.Header{Session: uint64(100 + i)}, Cookie: ch.Cookie, Name: "p"}
		s.Receive(now, a, j.Append(nil))
	}
	if !s.Running() {
		b.Fatal("match did not start")
	}
	for s.clock.Before(s.room0().match.world.Tick()) { // the start countdown
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(TickDuration)
		t := s.World().Tick()
		for k := 0; k < 8; k++ {
			in := proto.Input{Header: proto.Header{Session: uint64(100 + k), Match: s.Match(), Player: uint8(k), Seq: uint32(i + 1)}, N: 1}
			in.Inputs[0] = game.Input{Tick: t, MoveX: int8(k%3 - 1), MoveY: int8((i/30)%3 - 1)}
			buf = in.Append(buf[:0])
			s.Receive(now, addrs[k], buf)
		}
		out := s.Tick(now)
		if len(out) < 8 {
			b.Fatalf("%d datagrams", len(out))
		}
	}
}

func BenchmarkSimnetSecond(b *testing.B) {
	for i := 0; i < b.N; i++ {
		n := newSimnet(b, ServerConfig{Players: 2})
		for k := 0; k < 2; k++ {
			n.addClient(ClientConfig{}, Impairment{Latency: 30 * time.Millisecond}, Impairment{Latency: 30 * time.Millisecond}, uint64(k))
		}
		n.run(time.Second)
	}
}

// BenchmarkClientTick is one predicted client tick: sample, store,
// predict the remote player, step, store the snapshot, encode the Input.
func BenchmarkClientTick(b *testing.B) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	c := NewClient(ClientConfig{Session: 1, Server: netip.MustParseAddrPort("127.0.0.1:1")})
	c.sess.status, c.sess.slot, c.sess.slots, c.sess.match = StatusPlaying, 0, 2, 9
	c.tl.adopt(w)
	now := simEpoch
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Millisecond)
		c.out.reset()
		c.step(now, game.Input{MoveX: int8(i/40%3 - 1)})
	}
}
