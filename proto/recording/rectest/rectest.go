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
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"}[:slots]
	m := NewMatch(t, recording.Header{Rules: game.RulesVersion, Match: 9, Seed: 5, Slots: slots, Start: 77, Server: "test", Names: names}, input)
	for i := 0; i < ticks; i++ {
		if churn && slots > 1 && (i == ticks/3 || i == 2*ticks/3) {
			m.Seat(1, "zed", i != ticks/3)
		}
		m.Step()
	}
	if end {
		return m.End()
	}
	return m.Flush()
}

// Match is a match recorded as a server records it: a world stepped
// with inputs from a source, and a Writer told each step and seat change.
// Every method fails the test on a Writer error.
type Match struct {
	t     testing.TB
	buf   bytes.Buffer
	w     *recording.Writer
	world *game.World
	input func(w *game.World, slot int) game.Input
	in    []game.Input
}

// NewMatch starts recording a match of header h whose inputs come from
// input.
func NewMatch(t testing.TB, h recording.Header, input func(w *game.World, slot int) game.Input) *Match {
	t.Helper()
	m := &Match{t: t, input: input, in: make([]game.Input, h.Slots)}
	w, err := recording.NewWriter(&m.buf, h)
	if err != nil {
		t.Fatal(err)
	}
	m.w = w
	if m.world, err = game.NewWorld(w.Header().Config()); err != nil {
		t.Fatal(err)
	}
	return m
}

// Seat seats (on) or unseats slot before the next step.
func (m *Match) Seat(slot int, name string, on bool) {
	m.t.Helper()
	m.world.Seat(slot, on)
	if err := m.w.Seat(slot, name, on); err != nil {
		m.t.Fatal(err)
	}
}

// Step steps one tick.
func (m *Match) Step() {
	m.t.Helper()
	for s := range m.in {
		m.in[s] = m.input(m.world, s)
		m.in[s].Tick = m.world.Tick()
	}
	tk := m.world.Tick()
	m.world.Step(m.in)
	if err := m.w.Step(tk, m.in, m.world.Hash()); err != nil {
		m.t.Fatal(err)
	}
}

// End records the match's end and returns the file.
func (m *Match) End() []byte {
	m.t.Helper()
	if err := m.w.End(); err != nil {
		m.t.Fatal(err)
	}
	return m.buf.Bytes()
}

// Flush writes what is pending, as a server that stops does, and returns
// the file.
func (m *Match) Flush() []byte {
	m.t.Helper()
	if err := m.w.Flush(); err != nil {
		m.t.Fatal(err)
	}
	return m.buf.Bytes()
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
