package recording

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"ttytanks/game"
)

// randomMatch records ticks ticks of a match of slots seats with cheap
// seeded random inputs, each seat holding an input for a random number of
// ticks (8 on average); when churn is set, seat 1 leaves at a third of the
// way and someone else joins at two thirds, and seat 0 is renamed. It
// returns the file.
func randomMatch(t testing.TB, slots, ticks int, churn bool) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(slots), uint64(ticks)))
	held := make([]game.Input, slots)
	return playMatch(t, slots, ticks, churn, func(w *game.World, s int) game.Input {
		if rng.IntN(8) == 0 {
			held[s] = game.Input{MoveX: int8(rng.IntN(3) - 1), MoveY: int8(rng.IntN(3) - 1), Buttons: game.Buttons(rng.IntN(4))}
		}
		return held[s]
	})
}

// playMatch records a match whose inputs come from input.
func playMatch(t testing.TB, slots, ticks int, churn bool, input func(w *game.World, slot int) game.Input) []byte {
	t.Helper()
	var buf bytes.Buffer
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"}[:slots]
	h := Header{Rules: game.RulesVersion, Match: 7, Seed: 42, Slots: slots, Start: 1000, Rounds: 3, Started: 1767225600, Server: "test", Names: names}
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	world, err := game.NewWorld(w.Header().Config())
	if err != nil {
		t.Fatal(err)
	}
	inputs := make([]game.Input, slots)
	for i := 0; i < ticks; i++ {
		if churn && slots > 1 {
			switch i {
			case ticks / 3:
				world.Seat(1, false)
				must(t, w.Seat(1, "bob", false))
				must(t, w.Rename(0, "ann2"))
			case 2 * ticks / 3:
				world.Seat(1, true)
				must(t, w.Seat(1, "zed", true))
			}
		}
		for s := range inputs {
			inputs[s] = input(world, s)
			inputs[s].Tick = world.Tick()
		}
		tk := world.Tick()
		world.Step(inputs)
		must(t, w.Step(tk, inputs, world.Hash()))
	}
	must(t, w.End())
	return buf.Bytes()
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// readAll reads every block of file; it returns the blocks, each block's
// offset and the error that stopped it (io.EOF at a clean end).
func readAll(file []byte) (Header, []Block, []int64, error) {
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		return Header{}, nil, nil, err
	}
	var ks []Block
	var offs []int64
	for {
		off := r.Offset()
		k, err := r.Next()
		if err != nil {
			return r.Header(), ks, offs, err
		}
		ks = append(ks, k)
		offs = append(offs, off)
	}
}

// deepEqual reports whether a and b are deeply equal.
func deepEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
