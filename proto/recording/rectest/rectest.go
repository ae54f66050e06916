// Package rectest makes and reads match recordings for the tests of the
// packages that replay and verify them, as net/http/httptest does for
// servers: a recorded match of any size with seat changes, a seeded
// source of inputs, a shared sample, and the blocks of a file with their
// offsets.
package rectest

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording"
)

// Record writes a match of slots seats and ticks ticks whose inputs come
// from input; seat 1 leaves at a third and someone joins it at two thirds
// when churn is set; the file ends with the match's end when end is set,
// else it is flushed as a killed server leaves it. It returns the file.
func Record(t testing.TB, slots, ticks int, churn, end bool, input func(w *game.World, slot int) game.Input) []byte {
	t.Helper()
	var buf bytes.Buffer
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"}[:slots]
	w, err := recording.NewWriter(&buf, recording.Header{Rules: game.RulesVersion, Match: 9, Seed: 5, Slots: slots,
		Start: 77, Server: "test", Names: names})
	if err != nil {
		t.Fatal(err)
	}
	world, err := game.NewWorld(w.Header().Config())
	if err != nil {
		t.Fatal(err)
	}
	in := make([]game.Input, slots)
	for i := 0; i < ticks; i++ {
		if churn && slots > 1 && (i == ticks/3 || i == 2*ticks/3) {
			on := i != ticks/3
			world.Seat(1, on)
			if err := w.Seat(1, "zed", on); err != nil {
				t.Fatal(err)
			}
		}
		for s := range in {
			in[s] = input(world, s)
			in[s].Tick = world.Tick()
		}
		tk := world.Tick()
		world.Step(in)
		if err := w.Step(tk, in, world.Hash()); err != nil {
			t.Fatal(err)
		}
	}
	if end {
		if err := w.End(); err != nil {
			t.Fatal(err)
		}
	} else if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// RandomInputs returns an input source that holds each seat's input for
// 8 ticks on average, seeded.
func RandomInputs(seed uint64) func(*game.World, int) game.Input {
	rng := rand.New(rand.NewPCG(seed, 1))
	var held [game.MaxPlayers]game.Input
	return func(_ *game.World, s int) game.Input {
		if rng.IntN(8) == 0 {
			held[s] = game.Input{MoveX: int8(rng.IntN(3) - 1), MoveY: int8(rng.IntN(3) - 1), Buttons: game.Buttons(rng.IntN(2))}
		}
		return held[s]
	}
}

var (
	sampleOnce sync.Once
	sampleFile []byte
)

// Sample returns a 2-minute, 4-seat match with seat changes, recorded once
// per test binary. It must not be modified.
func Sample(t testing.TB) []byte {
	sampleOnce.Do(func() { sampleFile = Record(t, 4, 7200, true, true, RandomInputs(3)) })
	return sampleFile
}

// Blocks reads file and returns each complete block with its offset, up
// to the first that does not read; err is why, nil at the file's end.
func Blocks(file []byte) (ks []recording.Block, offs []int64, err error) {
	r, err := recording.NewReader(bytes.NewReader(file))
	if err != nil {
		return nil, nil, err
	}
	for {
		off := r.Offset()
		k, err := r.Next()
		if errors.Is(err, io.EOF) {
			return ks, offs, nil
		}
		if err != nil {
			return ks, offs, err
		}
		ks, offs = append(ks, k), append(offs, off)
	}
}
