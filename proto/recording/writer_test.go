package recording

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"ttytanks/game"
)

// TestWriterReaderRoundTrip: a bots-only match with a leave, a join and
// a rename is written and read back: the blocks cover every tick in
// order, re-stepping the inputs gives every checkpoint's chain, the
// events come back in order, and the file ends cleanly.
func TestWriterReaderRoundTrip(t *testing.T) {
	const ticks = 6000
	file := randomMatch(t, 4, ticks, true)
	h, ks, _, err := readAll(file)
	if err != io.EOF {
		t.Fatalf("read: %v", err)
	}
	w, err := game.NewWorld(h.Config())
	if err != nil {
		t.Fatal(err)
	}
	var chain uint64
	var kinds []EventKind
	checks, rounds, votes := 0, 0, 0
	for _, k := range ks {
		if k.First != w.Tick() {
			t.Fatalf("block starts at %d, world at %d", k.First, w.Tick())
		}
		ev, cp := k.Events, k.Checkpoints
		for i := 0; i <= k.Count; i++ {
			// The checkpoint first: it covers the world before the tick's
			// seat changes (RECORDING.md §7).
			for len(cp) > 0 && cp[0].Tick == w.Tick() {
				chain = Chain(chain, w.Tick(), w.Hash())
				if chain != cp[0].Chain {
					t.Fatalf("checkpoint at tick %d: chain %016x, recorded %016x", w.Tick(), chain, cp[0].Chain)
				}
				checks++
				cp = cp[1:]
			}
			for len(ev) > 0 && ev[0].Tick == w.Tick() {
				kinds = append(kinds, ev[0].Kind)
				switch ev[0].Kind {
				case EventJoin, EventLeave:
					w.Seat(ev[0].Slot, ev[0].Kind == EventJoin)
				case EventRound:
					rounds++
					s := w.State()
					over := s.Round.Phase == game.PhaseOver || s.Round.Phase == game.PhaseMatchOver
					if !over || s.Round.Winner != ev[0].Winner {
						t.Fatalf("round event at %d: world phase %d winner %d, event winner %d", w.Tick(), s.Round.Phase, s.Round.Winner, ev[0].Winner)
					}
				}
				ev = ev[1:]
			}
			if i < k.Count {
				w.Step(k.Input(i))
			}
		}
		if len(ev) > 0 || len(cp) > 0 {
			t.Fatalf("block at %d: %d events and %d checkpoints not reached", k.First, len(ev), len(cp))
		}
	}
	if got := int(w.Tick() - h.Start); got != ticks {
		t.Fatalf("replayed %d ticks, want %d", got, ticks)
	}
	if checks != ticks/DefaultCheckEvery {
		t.Fatalf("%d checkpoints, want %d", checks, ticks/DefaultCheckEvery)
	}
	for i := range w.State().Tanks {
		if w.State().Tanks[i].Rematch {
			votes++
		}
	}
	if w.State().Round.Phase != game.PhaseMatchOver || votes == 0 {
		t.Fatalf("the match did not end with a rematch vote (phase %v, %d votes): the test covers too little", w.State().Round.Phase, votes)
	}
	if rounds == 0 || kinds[len(kinds)-1] != EventEnd {
		t.Fatalf("events %v: want rounds and a final end", kinds)
	}
	t.Logf("%d ticks, %d blocks, %d bytes, %d rounds, events %v", ticks, len(ks), len(file), rounds, kinds)
}

// TestWriterReportsDivergence: a hash that differs from the Writer's own
// simulation is reported with ErrHash, and recorded all the same.
func TestWriterReportsDivergence(t *testing.T) {
	var buf sink
	w, err := NewWriter(&buf, Header{Slots: 2, Seed: 1, Names: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	in := []game.Input{{}, {}}
	if err := w.Step(0, in, 12345); !errors.Is(err, ErrHash) {
		t.Fatalf("Step with a wrong hash: %v, want ErrHash", err)
	}
	if err := w.Step(5, in, 0); !errors.Is(err, ErrSequence) {
		t.Fatalf("Step of the wrong tick: %v, want ErrSequence", err)
	}
}

type sink struct{ n int }

func (s *sink) Write(b []byte) (int, error) { s.n += len(b); return len(b), nil }

// TestWriterManyEvents: more seat changes between two ticks than a block
// may hold spill into blocks of events only; they read back in order.
func TestWriterManyEvents(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Slots: 2, Seed: 1, Names: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*MaxEvents + 7
	for i := 0; i < n; i++ {
		if err := w.Seat(1, "b", i%2 == 1); err != nil {
			t.Fatal(err)
		}
	}
	world, _ := game.NewWorld(w.Header().Config())
	world.Seat(1, (n-1)%2 == 1) // as the last change left it
	in := []game.Input{{}, {}}
	for i := 0; i < 100; i++ {
		tk := world.Tick()
		in[0].Tick, in[1].Tick = tk, tk
		world.Step(in)
		if err := w.Step(tk, in, world.Hash()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	_, ks, _, err := readAll(buf.Bytes())
	if err != io.EOF {
		t.Fatal(err)
	}
	seen := 0
	for _, k := range ks {
		for _, e := range k.Events {
			if e.Kind == EventJoin || e.Kind == EventLeave {
				if want := seen%2 == 1; (e.Kind == EventJoin) != want || e.Tick != 0 {
					t.Fatalf("event %d: %v at %d", seen, e.Kind, e.Tick)
				}
				seen++
			}
		}
	}
	if seen != n || len(ks) < 4 {
		t.Fatalf("%d seat events in %d blocks, want %d in at least 4", seen, len(ks), n)
	}
}
