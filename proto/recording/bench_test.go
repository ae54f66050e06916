package recording

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"ttytanks/game"
)

// BenchmarkWriterStep measures what recording costs the server per tick:
// Writer.Step with its own simulation step, and a block encoded and
// written every 60 ticks (to io.Discard), for 2 and 8 seats with random
// inputs held 8 ticks on average.
func BenchmarkWriterStep(b *testing.B) {
	for _, slots := range []int{2, 8} {
		b.Run(fmt.Sprintf("players=%d", slots), func(b *testing.B) {
			names := make([]string, slots)
			w, err := NewWriter(io.Discard, Header{Slots: slots, Seed: 1, Names: names})
			if err != nil {
				b.Fatal(err)
			}
			world, _ := game.NewWorld(w.Header().Config())
			rng := rand.New(rand.NewPCG(1, 2))
			in := make([]game.Input, slots)
			b.ReportAllocs()
			for b.Loop() {
				for s := range in {
					if rng.IntN(8) == 0 {
						in[s] = game.Input{MoveX: int8(rng.IntN(3) - 1), MoveY: int8(rng.IntN(3) - 1), Buttons: game.Buttons(rng.IntN(2))}
					}
					in[s].Tick = world.Tick()
				}
				t := world.Tick()
				world.Step(in)
				if err := w.Step(t, in, world.Hash()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadBlock measures decoding a file block by block: bytes/s
// through Reader.Next.
func BenchmarkReadBlock(b *testing.B) {
	file := sharedMatch(b)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := readAll(file); err != io.EOF {
			b.Fatal(err)
		}
	}
}
