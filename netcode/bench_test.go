package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// BenchmarkClientStateReplay10 is a client receiving a State 10 ticks
// behind its prediction: open, decode, identity, freshness, hash, restore
// and replay 10 ticks.
func BenchmarkClientStateReplay10(b *testing.B) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	c := NewClient(ClientConfig{Session: 1, Server: netip.MustParseAddrPort("127.0.0.1:1")})
	c.sess.status, c.sess.slot, c.sess.slots, c.sess.match = StatusPlaying, 0, 2, 9
	// A connection whose epoch 1 stands for match 9, seat 0.
	const conn = 0x5eed
	var key [proto.KeyLen]byte
	seal, err := proto.NewSealer(key, proto.ServerToClient, conn)
	if err != nil {
		b.Fatal(err)
	}
	open, err := proto.NewOpener(key, proto.ServerToClient, conn)
	if err != nil {
		b.Fatal(err)
	}
	fresh := *open // an opener that has opened nothing yet
	c.hs.conn = clientConn{id: conn, open: open}
	c.hs.conn.epochs.learn(1, 9, 0)
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
		if pkts[i], err = seal.AppendPacket(nil, &st, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.tl.haveAuth = false   // accept the same State again
		*c.hs.conn.open = fresh // and not as a replay
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
	peers := make([]*rawPeer, 8)
	for i := 0; i < 8; i++ {
		a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, byte(1 + i)}), uint16(40000+i)) // one address each: a fair share per address
		peers[i] = rawHandshake(b, s, now, a, uint64(100+i))
		peers[i].request(b, s, now, proto.Request{Name: "p"})
	}
	for _, p := range peers {
		p.request(b, s, now, proto.Request{Name: "p"}) // the Start of the running match
	}
	if !s.Running() {
		b.Fatal("match did not start")
	}
	for s.clk.now().Before(s.room0().match.world.Tick()) { // the start countdown
		now = now.Add(TickDuration)
		s.Tick(now)
	}
	// A State goes to each player every second tick and nothing between
	// (it carries the report an Ack did), so the timed ticks start on a
	// State's tick: the tick before it sends nothing.
	for k := 0; len(s.Tick(now)) != 0; k++ {
		if k == 4 {
			b.Fatal("every tick sends datagrams: no tick between States")
		}
		now = now.Add(TickDuration)
	}
	var buf []byte
	var in proto.Input // one, reused: sealing it through proto.Packet makes it escape
	sent := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(TickDuration)
		t := s.World().Tick()
		for k, p := range peers {
			in = proto.Input{Header: proto.Header{Match: s.Match(), Player: uint8(k)}, N: 1}
			in.Inputs[0] = game.Input{Tick: t, MoveX: int8(k%3 - 1), MoveY: int8((i/30)%3 - 1)}
			buf, _ = p.seal.AppendPacket(buf[:0], &in, p.epochs.of(in.Match, in.Player))
			s.Receive(now, p.from, buf)
		}
		sent += len(s.Tick(now))
	}
	b.StopTimer()
	if want := 8 * ((b.N + 1) / 2); sent < want {
		b.Fatalf("%d datagrams in %d ticks, want at least %d (a State to each player every second tick)", sent, b.N, want)
	}
	b.ReportMetric(float64(sent)/float64(b.N), "datagrams/op")
}

func BenchmarkSimnetSecond(b *testing.B) {
	for i := 0; i < b.N; i++ {
		n := newSimnet(b, ServerConfig{Players: 2})
		for k := 0; k < 2; k++ {
			n.addClient(ClientConfig{}, transport.Impairment{Latency: 30 * time.Millisecond}, transport.Impairment{Latency: 30 * time.Millisecond}, uint64(k))
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
