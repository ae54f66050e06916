package tests

import (
	"context"
	be "encoding/binary"
	"math/rand/v2"
	"net"
	"runtime"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestFloodDuringMatch: while two bot clients play over real UDP on
// 127.0.0.1, a sender fires 200,000 hostile datagrams at the server
// (40,000 under -short: the same mix, 2 s of it instead of 10):
// garbage, truncated and oversized packets, Inputs with a wrong session or
// match, replayed old Inputs, and Hellos with random sessions. The clients
// see no hash mismatch, the server's tick p99 stays under 25% of the tick
// budget, every datagram is accepted or counted as dropped by reason (and
// none of the junk is accepted), and the heap stays bounded.
func TestFloodDuringMatch(t *testing.T) {
	st, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	sd := netcode.NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- sd.Run(ctx) }()
	defer func() {
		cancel()
		<-served
	}()
	var clients []*netcode.ClientDriver
	var capture []byte // a genuine Input datagram, to replay and forge
	for i := 0; i < 2; i++ {
		ct, err := transport.ListenUDP("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		b := bot.New(uint64(i + 1))
		cl := netcode.NewClient(netcode.ClientConfig{Server: st.LocalAddr(), Name: "bot",
			LocalInput: func(w *game.World, slot int) game.Input { return b.Input(w.State(), w.Maze(), slot) }})
		clients = append(clients, netcode.StartClient(cl, ct))
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	waitFor(t, 5*time.Second, "the match to run for a second", func() bool {
		var ok bool
		sd.Do(func(s *netcode.Server) { ok = s.Running() && s.World().Tick() > 60 })
		return ok
	})
	// A genuine Input, forged from what a client would send: its identity.
	var match uint32
	var slot int
	clients[0].Do(func(c *netcode.Client) { slot = c.Slot() })
	sd.Do(func(s *netcode.Server) { match = s.Match() })
	in := proto.Input{Header: proto.Header{Session: 12345, Match: match, Player: uint8(slot)}, N: 4}
	for k := range in.Inputs[:4] {
		in.Inputs[k] = game.Input{Tick: game.Tick(10 + k)}
	}
	capture = in.Append(nil)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var st0 netcode.ServerStats
	sd.Do(func(s *netcode.Server) { st0 = s.Stats() })
	up0 := clientDatagrams(clients)

	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(st.LocalAddr()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	total := 200_000
	if testing.Short() {
		total = 40_000
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1600)
	hellos := 0
	start := time.Now()
	for i := 0; i < total; i++ {
		var d []byte
		switch i % 6 {
		case 0: // random garbage
			d = buf[:1+r.IntN(200)]
			for k := range d {
				d[k] = byte(r.Uint32())
			}
		case 1: // truncated genuine-looking packet
			d = capture[:r.IntN(len(capture))]
		case 2: // oversized
			d = buf[:proto.MaxDatagram+1+r.IntN(300)]
			copy(d, capture)
		case 3: // an Input with a wrong session or match
			d = append(buf[:0], capture...)
			if r.IntN(2) == 0 {
				be.BigEndian.PutUint64(d[4:], r.Uint64())
			} else {
				be.BigEndian.PutUint32(d[12:], r.Uint32())
			}
		case 4: // a replayed old Input (stale ticks, spoofed identity)
			d = capture
		case 5: // a Hello from a random session
			h := proto.Hello{Header: proto.Header{Session: r.Uint64()}}
			d = h.Append(buf[:0])
			hellos++
		}
		if _, err := conn.Write(d); err != nil {
			t.Fatal(err)
		}
		if i%20 == 19 {
			// Pace: about 20,000 a second (for 10 s, or 2 under -short), a
			// flood the kernel's socket buffer does not simply discard.
			time.Sleep(time.Millisecond)
		}
	}
	elapsed := time.Since(start)
	// Wait until the server has taken in what is still queued: its
	// datagram count stops moving.
	var st1 netcode.ServerStats
	prev := uint64(0)
	waitFor(t, 5*time.Second, "the server to take in the flood", func() bool {
		sd.Do(func(s *netcode.Server) { st1 = s.Stats() })
		settled := st1.DatagramsIn-prev < 200 // the clients' own traffic goes on
		prev = st1.DatagramsIn
		if !settled {
			time.Sleep(20 * time.Millisecond)
		}
		return settled
	})
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	in1 := st1.DatagramsIn - st0.DatagramsIn
	dropped := st1.DroppedTotal() - st0.DroppedTotal()
	accepted := st1.Accepted - st0.Accepted
	clientsSent := clientDatagrams(clients) - up0
	t.Logf("sent %d junk datagrams in %v; server received %d: %d dropped, %d accepted (clients sent %d, hellos %d)",
		total, elapsed.Round(time.Millisecond), in1, dropped, accepted, clientsSent, hellos)
	for i, n := range st1.Drops {
		if d := n - st0.Drops[i]; d > 0 {
			t.Logf("  dropped as %-14s %d", netcode.DropReason(i), d)
		}
	}
	t.Logf("tick p50 %v, p99 %v; heap %d KiB before, %d KiB after", st1.TickP50, st1.TickP99, before.HeapAlloc>>10, after.HeapAlloc>>10)
	if in1 != dropped+accepted {
		t.Errorf("received %d datagrams but %d dropped + %d accepted", in1, dropped, accepted)
	}
	// The flood's Hellos come from one address: its rate limit answers a
	// burst and then a steady trickle, and everything else is junk.
	answerable := uint64(40 + 20*(elapsed.Seconds()+1))
	if accepted > clientsSent+answerable {
		t.Errorf("%d datagrams accepted, more than the clients' %d plus %d rate-limited Hellos: junk got through", accepted, clientsSent, answerable)
	}
	if junk := in1 - min(in1, clientsSent); float64(junk) < 0.9*float64(total) {
		t.Errorf("only %d of %d junk datagrams reached the server", junk, total)
	}
	if st1.TickP99 > netcode.TickDuration/4 {
		t.Errorf("tick p99 %v over 25%% of the %v budget", st1.TickP99, netcode.TickDuration)
	}
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 16<<20 {
		t.Errorf("heap grew by %d KiB during the flood", grow>>10)
	}
	for i, c := range clients {
		c.Do(func(cl *netcode.Client) {
			if m := cl.Metrics(); m.HashMismatches != 0 || cl.Status() != netcode.StatusPlaying {
				t.Errorf("client %d: %d hash mismatches, status %v", i, m.HashMismatches, cl.Status())
			}
		})
	}
}

func clientDatagrams(cs []*netcode.ClientDriver) uint64 {
	var n uint64
	for _, c := range cs {
		c.Do(func(cl *netcode.Client) { n += cl.Metrics().DatagramsUp })
	}
	return n
}
