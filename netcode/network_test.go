package netcode

import (
	"math"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// TestWrapAround: a match that starts 300 ticks before the uint32 tick
// counter wraps runs across it under an impaired network with no stale-state
// mistakes: States keep being applied after the wrap, none is wrongly
// rejected or accepted, and every prediction checked against the server
// still matches (oracle inputs).
func TestWrapAround(t *testing.T) {
	const seed = 77
	n := newSimnet(t, ServerConfig{Players: 2, StartTick: game.Tick(math.MaxUint32 - 299)})
	down := transport.Impairment{Latency: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05, Dup: 0.02}
	up := transport.Impairment{Latency: 40 * time.Millisecond}
	var bad, checked int
	settled := false
	for i := 0; i < 2; i++ {
		n.addClient(ClientConfig{Predictor: oracle{seed},
			LocalInput: func(w *game.World, slot int) game.Input { return scripted(seed, slot, w.Tick()) },
			OnPredict: func(s *game.Snapshot) {
				if !settled {
					return
				}
				checked++
				if h, ok := n.serverHash[s.Tick]; ok && h != game.Hash(s) {
					bad++
				}
			}}, up, down, uint64(i+3))
	}
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(3 * time.Second) // clock sync settles; the wrap comes 2 s later
	if n.server.World().Tick() < math.MaxUint32-200 {
		t.Fatal("setup: the wrap already happened")
	}
	settled = true
	applied := n.clients[0].c.m.staleStates
	n.run(15 * time.Second)
	c := n.clients[0].c
	if c.World().Tick() > 100_000 || c.World().Tick() < 500 {
		t.Fatalf("client tick %d: did not cross the wrap cleanly", c.World().Tick())
	}
	if !c.tl.haveAuth || c.tl.lastAuth > 100_000 || c.Metrics().StateDelay > 30 {
		t.Fatalf("States stopped being applied after the wrap: last auth %d, state delay %d", c.tl.lastAuth, c.Metrics().StateDelay)
	}
	stale := c.m.staleStates - applied
	// Only reordered or duplicated States may be stale: a few percent.
	if stale > 60 {
		t.Fatalf("%d States rejected as stale in 15 s", stale)
	}
	if bad > 0 || checked < 1000 {
		t.Fatalf("%d of %d predictions differ from the server across the wrap", bad, checked)
	}
}

// TestInputPathUnderLoss: with 10% loss and jitter on the way up, input
// redundancy and the clock sync's loss-aware margin get the real input to
// the server for at least 99.5% of ticks.
func TestInputPathUnderLoss(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 1})
	up := transport.Impairment{Latency: 75 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.10}
	down := transport.Impairment{Latency: 75 * time.Millisecond, Jitter: 30 * time.Millisecond}
	n.addClient(ClientConfig{LocalInput: func(w *game.World, slot int) game.Input { return scripted(5, slot, w.Tick()) }}, up, down, 11)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(3 * time.Second)
	r0, h0, n0 := n.server.tl.real, n.server.tl.held, n.server.tl.neutral
	n.run(120 * time.Second)
	real, held, neutral := n.server.tl.real-r0, n.server.tl.held-h0, n.server.tl.neutral-n0
	total := real + held + neutral
	frac := float64(real) / float64(total)
	t.Logf("real %d, held %d, neutral %d: %.3f%% real; measured loss up %.3f", real, held, neutral, 100*frac, n.clients[0].c.Metrics().LossUp)
	if frac < 0.995 {
		t.Fatalf("server used the real input on %.2f%% of ticks, want ≥ 99.5%%", 100*frac)
	}
}

// TestConvergence: 2–4 clients with random inputs under an impaired
// network; when the impairment stops and everyone goes neutral, within 2 s
// every client's world at tick T hashes equal to the server's at T.
func TestConvergence(t *testing.T) {
	for players := 2; players <= 4; players++ {
		n := newSimnet(t, ServerConfig{Players: players, Seed: uint64(players)})
		bad := transport.Impairment{Latency: 60 * time.Millisecond, Jitter: 25 * time.Millisecond, Loss: 0.08, Reorder: 0.05, Dup: 0.03}
		neutral := false
		for i := 0; i < players; i++ {
			n.addClient(ClientConfig{LocalInput: func(w *game.World, slot int) game.Input {
				if neutral {
					return game.Input{}
				}
				return scripted(uint64(1000+slot), slot, w.Tick())
			}}, bad, bad, uint64(50+i))
		}
		if !n.runUntil(5*time.Second, n.playing) {
			t.Fatal("match did not start")
		}
		n.run(20 * time.Second)
		for _, c := range n.clients {
			c.up.Impairment, c.down.Impairment = transport.Impairment{Latency: 30 * time.Millisecond}, transport.Impairment{Latency: 30 * time.Millisecond}
		}
		neutral = true
		ok := n.runUntil(2*time.Second, func() bool {
			for _, c := range n.clients {
				w := c.c.World()
				h, have := n.serverHash[w.Tick()]
				if !have || h != w.Hash() {
					// The client runs ahead: compare its snapshot at the
					// server's newest tick instead.
					st := c.c.tl.snaps.Lookup(n.server.World().Tick())
					if st == nil || game.Hash(st) != n.server.World().Hash() {
						return false
					}
				}
			}
			return true
		})
		if !ok {
			t.Fatalf("%d players: clients did not converge within 2 s of the network healing", players)
		}
	}
}

// TestClockSync: at 100 ms RTT with ±20 ms jitter each way, within 3 s at
// least 99% of inputs arrive before the server needs them and the lead
// stays within RTT/2 + 3 ticks; when the RTT steps from 50 to 200 ms, it
// re-converges within 3 s.
func TestClockSync(t *testing.T) {
	path := transport.Impairment{Latency: 50 * time.Millisecond, Jitter: 20 * time.Millisecond}
	n := newSimnet(t, ServerConfig{Players: 1})
	sc := n.addClient(ClientConfig{}, path, path, 21)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(3 * time.Second)
	onTime, late, maxLead := measureSync(n, sc, 20*time.Second)
	t.Logf("RTT 100±20: %d on time, %d late, max lead %d ticks", onTime, late, maxLead)
	if float64(late) > 0.01*float64(onTime+late) {
		t.Fatalf("%d of %d inputs late (want ≤ 1%%)", late, onTime+late)
	}
	if limit := int32(50*time.Millisecond/TickDuration) + 3; maxLead > limit {
		t.Fatalf("lead reached %d ticks, want ≤ RTT/2 + 3 = %d", maxLead, limit)
	}

	// Route change: 25 ms each way, then 100 ms each way.
	sc.up.Impairment, sc.down.Impairment = transport.Impairment{Latency: 25 * time.Millisecond}, transport.Impairment{Latency: 25 * time.Millisecond}
	n.run(5 * time.Second)
	sc.up.Impairment, sc.down.Impairment = transport.Impairment{Latency: 100 * time.Millisecond}, transport.Impairment{Latency: 100 * time.Millisecond}
	n.run(3 * time.Second)
	onTime, late, maxLead = measureSync(n, sc, 5*time.Second)
	t.Logf("after 50→200 ms: %d on time, %d late, max lead %d ticks", onTime, late, maxLead)
	if late > 0 {
		t.Fatalf("3 s after the RTT step still %d late inputs", late)
	}
	if limit := int32(100*time.Millisecond/TickDuration) + 3; maxLead > limit {
		t.Fatalf("lead %d ticks after the step, want ≤ %d", maxLead, limit)
	}
}

// measureSync runs for d and counts, per server tick, whether the server
// had the client's real input (on time) or not (late), and the largest
// lead of the client's tick over the server's.
func measureSync(n *simnet, sc *simClient, d time.Duration) (onTime, late int, maxLead int32) {
	p := &n.server.room0().seats.at(sc.c.Slot()).in
	r0, l0 := p.real, p.heldN+p.neutral
	n.onServerTick = func() {
		if lead := sc.c.World().Tick().Diff(n.server.World().Tick()); lead > maxLead {
			maxLead = lead
		}
	}
	n.run(d)
	n.onServerTick = nil
	return int(p.real - r0), int(p.heldN + p.neutral - l0), maxLead
}

// TestMetricsHonest: with a fixed simulated latency, the smoothed RTT is
// within ±10% of the true RTT after 2 s, and the loss estimates within ±3
// points of the simulated loss.
func TestMetricsHonest(t *testing.T) {
	up := transport.Impairment{Latency: 40 * time.Millisecond, Loss: 0.07}
	down := transport.Impairment{Latency: 40 * time.Millisecond, Loss: 0.12}
	n := newSimnet(t, ServerConfig{Players: 1})
	sc := n.addClient(ClientConfig{}, up, down, 31)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(2 * time.Second)
	m := sc.c.Metrics()
	if rtt := m.RTT; rtt < 72*time.Millisecond || rtt > 88*time.Millisecond {
		t.Fatalf("smoothed RTT %v after 2 s, true RTT 80ms", rtt)
	}
	n.run(28 * time.Second)
	m = sc.c.Metrics()
	t.Logf("RTT %v, loss up %.3f (true 0.07), loss down %.3f (true 0.12)", m.RTT, m.LossUp, m.LossDown)
	if math.Abs(m.LossUp-0.07) > 0.03 || math.Abs(m.LossDown-0.12) > 0.03 {
		t.Fatalf("loss estimates up %.3f, down %.3f; true 0.07, 0.12", m.LossUp, m.LossDown)
	}
	if rtt := m.RTT; rtt < 72*time.Millisecond || rtt > 88*time.Millisecond {
		t.Fatalf("smoothed RTT %v, true RTT 80ms", rtt)
	}
	// The input lead is measured against the server's present tick.
	if truth := sc.c.World().Tick().Diff(n.server.World().Tick()); m.InputLead < truth-1 || m.InputLead > truth+1 {
		t.Fatalf("input lead %d ticks, true lead %d", m.InputLead, truth)
	}
}
