package proto

import (
	"fmt"

	"ttytanks/game"
)

// A delta State. The world is deterministic, so the inputs the server
// stepped from one State to the next are all a client needs to go from
// the first snapshot to the second: a State whose client holds an earlier
// one (Input.Base) carries, in place of its snapshot, the inputs of every
// slot for the Back ticks from that baseline to its own tick, and the
// client steps its copy of the baseline with them and checks the result
// against the State's hash, as it checks a full snapshot. A player's input
// seldom changes from tick to tick, so each slot's inputs go as runs: an
// input byte (PackInput) and, unless it is the slot's last run, the
// number of ticks it lasts.

// MaxBack is the furthest, in ticks, a delta State's baseline may be
// behind it: two seconds.
const MaxBack = 120

// runLast marks the last run of a slot: it lasts to the State's tick, and
// no length byte follows it.
const runLast = 0x80

// Errors of a delta State's runs.
var (
	errBack = fmt.Errorf("%w: a delta's back is out of range", ErrSnapshot)
	errRuns = fmt.Errorf("%w: a slot's runs do not cover the delta's ticks", ErrSnapshot)
)

// deltaBodyLen is a delta State's fixed part without the header: the
// report, back u8, slots u8.
const deltaBodyLen = ackInfoLen + 1 + 1

// Delta reports whether p is a delta State (Back > 0).
func (p *State) Delta() bool { return p.Back > 0 }

// Base returns the tick of a delta State's baseline: Back ticks before it.
func (p *State) Base() game.Tick { return p.Snapshot.Tick.Add(-int32(p.Back)) }

// StepInputs returns the inputs a delta State's client steps its baseline
// with at the k-th tick after it (k from 0 to Back−1): one per slot, for
// tick Base()+k.
func (p *State) StepInputs(k int) []game.Input {
	return p.Steps[int(p.Back)-1-k][:p.Snapshot.Slots]
}

// deltaLen returns the encoded size of p's delta: the fixed part and each
// slot's runs.
func (p *State) deltaLen() int {
	n := HeaderLen + deltaBodyLen
	for slot := 0; slot < int(p.Snapshot.Slots); slot++ {
		p.eachRun(slot, func(_ game.Input, _ int, last bool) {
			n++
			if !last {
				n++
			}
		})
	}
	return n
}

// eachRun calls f for each run of slot's inputs over the delta's ticks,
// oldest first: the input, the ticks it lasts, and whether it is the last.
func (p *State) eachRun(slot int, f func(in game.Input, ticks int, last bool)) {
	back := int(p.Back)
	run, ticks := p.Steps[back-1][slot], 0
	for i := back - 1; i >= 0; i-- {
		in := p.Steps[i][slot]
		if sameInput(in, run) {
			ticks++
			continue
		}
		f(run, ticks, false)
		run, ticks = in, 1
	}
	f(run, ticks, true)
}

// sameInput reports whether a and b are the same input, whatever their
// ticks.
func sameInput(a, b game.Input) bool {
	return a.MoveX == b.MoveX && a.MoveY == b.MoveY && a.Buttons == b.Buttons
}

// appendDelta appends a delta State's slots and runs to b.
func (p *State) appendDelta(b []byte) []byte {
	b = append(b, p.Snapshot.Slots)
	for slot := 0; slot < int(p.Snapshot.Slots); slot++ {
		p.eachRun(slot, func(in game.Input, ticks int, last bool) {
			if last {
				b = append(b, PackInput(in)|runLast)
				return
			}
			b = append(b, PackInput(in), byte(ticks))
		})
	}
	return b
}

// parseDelta decodes a delta State's slots and runs from r, whose report
// and back are read, into dst: Snapshot.Tick and Slots, Steps[:Back] with
// their ticks; the rest of the snapshot is zero. Each run must hold
// another input than the run before it, as the encoder writes them, so
// that a delta has one encoding.
func parseDelta(r *reader, dst *State) error {
	s := &dst.Snapshot
	tick := s.Tick
	*s = game.Snapshot{Tick: tick}
	s.Slots = r.u8()
	if r.short {
		return ErrShort
	}
	if s.Slots < 1 || s.Slots > game.MaxPlayers {
		return errSlots
	}
	back := int(dst.Back)
	base := dst.Base()
	for slot := 0; slot < int(s.Slots); slot++ {
		k := 0 // ticks filled, oldest first
		prev := byte(0xff)
		for k < back {
			c := r.u8()
			if r.short {
				return ErrShort
			}
			if c&^runLast == prev {
				return errRuns // one run, written as two: not the encoding's
			}
			prev = c &^ runLast
			ticks := back - k
			if c&runLast == 0 {
				ticks = int(r.u8())
				if r.short {
					return ErrShort
				}
				if ticks == 0 || k+ticks >= back {
					return errRuns // a run that is not the last leaves ticks for the last
				}
			}
			in, err := UnpackInput(c&^runLast, 0)
			if err != nil {
				return err
			}
			for ; ticks > 0; ticks-- {
				in.Tick = base.Add(int32(k))
				dst.Steps[back-1-k][slot] = in
				k++
			}
			if c&runLast != 0 {
				break
			}
		}
	}
	return r.end()
}
