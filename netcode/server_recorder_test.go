package netcode

import (
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// tape is a Recorder that keeps everything, for tests.
type tape struct {
	starts []MatchInfo
	seats  []seatEvent
	ticks  []tapeTick
	ends   []game.Tick
}

type seatEvent struct {
	t      game.Tick
	slot   int
	name   string
	seated bool
}

type tapeTick struct {
	t      game.Tick
	inputs []game.Input
	hash   uint64
}

func (p *tape) MatchStarted(m MatchInfo) { p.starts = append(p.starts, m) }
func (p *tape) Seated(t game.Tick, slot int, name string, seated bool) {
	p.seats = append(p.seats, seatEvent{t, slot, name, seated})
}
func (p *tape) Stepped(t game.Tick, inputs []game.Input, hash uint64) {
	p.ticks = append(p.ticks, tapeTick{t, append([]game.Input(nil), inputs...), hash})
}
func (p *tape) MatchEnded(t game.Tick) { p.ends = append(p.ends, t) }

// TestRecorderReproducesTheMatch: what the server tells its Recorder is
// enough to replay the match bit for bit: a fresh world from MatchStarted,
// the seat changes applied before their tick, and each tick's inputs give
// every recorded hash. A player leaves and another joins mid-match, so
// seat events are exercised.
func TestRecorderReproducesTheMatch(t *testing.T) {
	rec := &tape{}
	n := newSimnet(t, ServerConfig{Players: 2, NewRecorder: func(string) Recorder { return rec }})
	path := transport.Impairment{Latency: 20 * time.Millisecond, Loss: 0.05}
	a := n.addClient(ClientConfig{Name: "a", LocalInput: func(w *game.World, slot int) game.Input {
		return scripted(3, slot, w.Tick())
	}}, path, path, 1)
	n.addClient(ClientConfig{Name: "b"}, path, path, 2)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(10 * time.Second)
	n.route(a.addr, a.up, a.c.Close())
	n.run(2 * time.Second)
	n.addClient(ClientConfig{Name: "c"}, path, path, 3)
	n.run(10 * time.Second)
	if len(rec.starts) != 1 || len(rec.ticks) < 1000 || len(rec.seats) != 2 {
		t.Fatalf("recorded %d starts, %d ticks, %d seat events", len(rec.starts), len(rec.ticks), len(rec.seats))
	}
	m := rec.starts[0]
	if m.Names[0] != "a" || m.Names[1] != "b" {
		t.Fatalf("names %q", m.Names)
	}
	w, err := game.NewWorld(game.Config{Slots: m.Slots, Seed: m.Seed, MazeW: m.MazeW, MazeH: m.MazeH, StartTick: m.Start})
	if err != nil {
		t.Fatal(err)
	}
	seats := rec.seats
	for _, tk := range rec.ticks {
		for len(seats) > 0 && seats[0].t == tk.t {
			w.Seat(seats[0].slot, seats[0].seated)
			seats = seats[1:]
		}
		if w.Tick() != tk.t {
			t.Fatalf("replay at tick %d, recording at %d", w.Tick(), tk.t)
		}
		w.Step(tk.inputs)
		if w.Hash() != tk.hash {
			t.Fatalf("tick %d: replayed hash %016x, recorded %016x", tk.t, w.Hash(), tk.hash)
		}
	}
	t.Logf("replayed %d recorded ticks and %d seat events", len(rec.ticks), len(rec.seats))
	if e := rec.seats[0]; e.name != "a" || e.seated {
		t.Fatalf("first seat event %+v, want a leaving", e)
	}
	if e := rec.seats[1]; e.name != "c" || !e.seated {
		t.Fatalf("second seat event %+v, want c joining", e)
	}
}
