package netcode

import (
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

type prediction struct {
	tick game.Tick
	hash uint64
}

// TestReplayExactness: with an oracle for the remote inputs and on-time
// local inputs, every snapshot a client computes — first prediction or
// replay after any State — must hash equal to the server's for that tick.
// The server→client path is hostile (jitter, loss, reordering,
// duplicates), so States arrive late, out of order or not at all, and every
// State triggers a restore and replay: an off-by-one anywhere breaks this.
func TestReplayExactness(t *testing.T) {
	const seed = 4242
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 99})
	up := transport.Impairment{Latency: 75 * time.Millisecond}
	down := transport.Impairment{Latency: 75 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.10, Reorder: 0.05, Dup: 0.02}
	var preds [2][]prediction
	var settled bool
	for i := 0; i < 2; i++ {
		i := i
		n.addClient(ClientConfig{
			Name:       "p",
			Predictor:  oracle{seed},
			LocalInput: func(w *game.World, slot int) game.Input { return scripted(seed, slot, w.Tick()) },
			OnPredict: func(s *game.Snapshot) {
				if settled {
					preds[i] = append(preds[i], prediction{s.Tick, game.Hash(s)})
				}
			},
		}, up, down, uint64(7+i))
	}
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(3 * time.Second)
	settled = true
	total := exactnessTicks
	first := n.clients[0].c.World().Tick()
	// exactnessTicks ticks for each client.
	n.runUntil(time.Duration(total+600)*TickDuration, func() bool {
		return int(n.clients[0].c.World().Tick().Diff(first)) >= total &&
			int(n.clients[1].c.World().Tick().Diff(first)) >= total
	})
	n.run(time.Second) // let the server pass every predicted tick
	distinct, checked, mismatches := 0, 0, 0
	for i := range preds {
		seen := map[game.Tick]bool{}
		for _, p := range preds[i] {
			want, ok := n.serverHash[p.tick]
			if !ok {
				continue // the server has not reached it
			}
			checked++
			if !seen[p.tick] {
				seen[p.tick] = true
				distinct++
			}
			if p.hash != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("client %d tick %d: predicted hash %x, server %x", i, p.tick, p.hash, want)
				}
			}
		}
	}
	m := n.clients[0].c.Metrics()
	t.Logf("%d distinct ticks, %d snapshots checked, %d mismatches; client 0: rollbacks %d, replay max %d, resyncs %d, lead %d, srv real/held/neutral %d/%d/%d",
		distinct, checked, mismatches, m.Rollbacks, m.ReplayMax, m.Resyncs, m.InputLead, n.server.tl.real, n.server.tl.held, n.server.tl.neutral)
	if distinct < 2*total {
		t.Fatalf("only %d client-ticks checked, want %d", distinct, 2*total)
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d predicted snapshots differ from the server", mismatches, checked)
	}
}
