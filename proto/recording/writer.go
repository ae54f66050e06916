package recording

import (
	"fmt"
	"io"

	"ttytanks/game"
)

// DefaultBlockTicks is how many ticks a Writer puts in a block before it
// writes it out: one second of play.
const DefaultBlockTicks = game.TickRate

// DefaultCheckEvery is the checkpoint interval a Writer uses when the
// header's CheckEvery is zero, in ticks.
const DefaultCheckEvery = game.TickRate

// Writer writes a recording as a match is played: the header at once,
// then a block every BlockTicks ticks (and on Flush and End), each in one
// Write call, so the file is readable up to its last complete block at
// any moment.
//
// The Writer keeps its own copy of the world, stepped with the recorded
// inputs: it derives the round results from it, and Step reports an
// ErrHash error if the hash it is given differs from its own (the
// recording is kept all the same; verify will report it). A Writer is not
// safe for concurrent use.
type Writer struct {
	out   io.Writer
	h     Header
	world *game.World
	// BlockTicks is the number of ticks per block; NewWriter sets
	// DefaultBlockTicks.
	BlockTicks int

	blk      Block // pending
	chain    uint64
	lastHash uint64
	lastTick game.Tick // of the last checkpoint
	buf      []byte
	ended    bool
	err      error // sticky write error
}

// NewWriter writes h to out and returns a Writer for the match's ticks.
// A zero h.MazeW and h.MazeH mean the default maze size, a zero
// h.CheckEvery DefaultCheckEvery; Header reports what was written.
func NewWriter(out io.Writer, h Header) (*Writer, error) {
	if h.MazeW == 0 && h.MazeH == 0 {
		h.MazeW, h.MazeH = game.DefaultMazeW, game.DefaultMazeH
	}
	if h.CheckEvery == 0 {
		h.CheckEvery = DefaultCheckEvery
	}
	h.Names = append([]string(nil), h.Names...)
	if err := h.Check(); err != nil {
		return nil, err
	}
	world, err := game.NewWorld(h.Config())
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	w := &Writer{out: out, h: h, world: world, BlockTicks: DefaultBlockTicks, lastTick: h.Start}
	w.blk = Block{First: h.Start, Slots: h.Slots}
	if _, err := out.Write(h.Append(nil)); err != nil {
		return nil, err
	}
	return w, nil
}

// Header returns the header as written.
func (w *Writer) Header() Header { return w.h }

// Tick returns the tick the next Step records.
func (w *Writer) Tick() game.Tick { return w.world.Tick() }

func (w *Writer) usable() error {
	if w.err != nil {
		return w.err
	}
	if w.ended {
		return fmt.Errorf("%w: the match has ended", ErrSequence)
	}
	return nil
}

// Seat records that the player name takes seat slot (seated) or leaves it,
// before the next Step.
func (w *Writer) Seat(slot int, name string, seated bool) error {
	if err := w.usable(); err != nil {
		return err
	}
	if slot < 0 || slot >= w.h.Slots {
		return fmt.Errorf("%w: seat %d of %d", ErrMalformed, slot, w.h.Slots)
	}
	e := Event{Kind: EventLeave, Tick: w.world.Tick(), Slot: slot}
	if seated {
		e.Kind, e.Name = EventJoin, name
		if !validName(name) {
			return fmt.Errorf("%w: name %q", ErrMalformed, name)
		}
	}
	w.world.Seat(slot, seated)
	return w.event(e)
}

// Rename records that the player in seat slot is now called name.
func (w *Writer) Rename(slot int, name string) error {
	if err := w.usable(); err != nil {
		return err
	}
	if slot < 0 || slot >= w.h.Slots || !validName(name) {
		return fmt.Errorf("%w: rename of seat %d to %q", ErrMalformed, slot, name)
	}
	return w.event(Event{Kind: EventRename, Tick: w.world.Tick(), Slot: slot, Name: name})
}

// event adds e to the pending block, writing the block first if it has no
// room for another event.
func (w *Writer) event(e Event) error {
	if len(w.blk.Events) == MaxEvents {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	w.blk.Events = append(w.blk.Events, e)
	return nil
}

// Step records tick t: the inputs of every seat (clamped; their Tick
// fields are ignored) and the world hash after the step. t must be Tick().
// It writes a block when BlockTicks ticks are pending. A hash that differs
// from the Writer's own simulation is recorded, and reported as an error
// wrapping ErrHash.
func (w *Writer) Step(t game.Tick, inputs []game.Input, hash uint64) error {
	if err := w.usable(); err != nil {
		return err
	}
	if t != w.world.Tick() || len(inputs) != w.h.Slots {
		return fmt.Errorf("%w: step of tick %d with %d inputs, recording tick %d with %d seats",
			ErrSequence, t, len(inputs), w.world.Tick(), w.h.Slots)
	}
	at := len(w.blk.Inputs)
	for _, in := range inputs {
		in = in.Clamped()
		in.Tick = t
		w.blk.Inputs = append(w.blk.Inputs, in)
	}
	w.blk.Count++
	before := w.world.State().Round.Phase
	w.world.Step(w.blk.Inputs[at:])
	w.lastHash = hash
	s := w.world.State()
	if before == game.PhasePlaying && (s.Round.Phase == game.PhaseOver || s.Round.Phase == game.PhaseMatchOver) {
		if err := w.event(Event{Kind: EventRound, Tick: s.Tick, Round: s.Round.Number, Winner: s.Round.Winner, Scores: w.scores()}); err != nil {
			return err
		}
	}
	var diverged error
	if own := w.world.Hash(); own != hash {
		diverged = fmt.Errorf("%w: tick %d: recorded %016x, the writer's own simulation %016x", ErrHash, s.Tick, hash, own)
	}
	if s.Tick.Diff(w.h.Start)%int32(w.h.CheckEvery) == 0 {
		w.checkpoint()
	}
	if w.blk.Count >= w.BlockTicks || w.blk.Count >= MaxBlockTicks {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return diverged
}

// checkpoint adds a checkpoint at the world's tick with the last hash.
func (w *Writer) checkpoint() {
	t := w.world.Tick()
	w.chain = Chain(w.chain, t, w.lastHash)
	w.blk.Checkpoints = append(w.blk.Checkpoints, Checkpoint{Tick: t, Chain: w.chain})
	w.lastTick = t
}

func (w *Writer) scores() []uint16 {
	s := w.world.State()
	out := make([]uint16, w.h.Slots)
	for i := range out {
		out[i] = s.Tanks[i].Score
	}
	return out
}

// End records the end of the match at the current tick, with the final
// scores, and writes the last block. Nothing can be recorded after it.
func (w *Writer) End() error {
	if err := w.usable(); err != nil {
		return err
	}
	sc := w.scores()
	e := Event{Kind: EventEnd, Tick: w.world.Tick(), Winner: leader(sc), Scores: sc}
	if err := w.event(e); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	w.ended = true
	return nil
}

// leader returns the seat with the strictly highest score, or −1.
func leader(scores []uint16) int8 {
	best, who := -1, int8(-1)
	for i, s := range scores {
		switch {
		case int(s) > best:
			best, who = int(s), int8(i)
		case int(s) == best:
			who = -1
		}
	}
	return who
}

// Flush writes the pending ticks and events as a block, ending it with a
// checkpoint if it has ticks and none at its end. It does nothing when
// nothing is pending. A write error sticks: every later call returns it.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	k := &w.blk
	if k.Count == 0 && len(k.Events) == 0 {
		return nil
	}
	if k.Count > 0 && w.lastTick != w.world.Tick() {
		w.checkpoint()
	}
	w.buf = k.Append(w.buf[:0])
	if _, err := w.out.Write(w.buf); err != nil {
		w.err = err
		return err
	}
	*k = Block{First: w.world.Tick(), Slots: w.h.Slots, Inputs: k.Inputs[:0]}
	return nil
}
