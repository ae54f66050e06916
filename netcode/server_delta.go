package netcode

import (
	"ttytanks/game"
	"ttytanks/proto"
)

// deltaLog is what a match needs to send its States as deltas
// (PROTOCOL.md §5.7): the inputs it stepped over the last proto.MaxBack
// ticks, and the tick of the last change to its world that was not a
// step (a seat taken or left), before which no baseline holds. It
// belongs to one match and is reset when a world is built.
type deltaLog struct {
	steps *Ring[[game.MaxPlayers]game.Input]
	edit  game.Tick // the world's tick at its last edit: a baseline must be after it
	// filled is how many of the State's Steps hold this tick's inputs
	// (each State tick fills them as far back as a peer's baseline asks).
	filled int
}

// reset starts the log of a world built at tick start.
func (d *deltaLog) reset(start game.Tick) {
	if d.steps == nil {
		d.steps = NewRing[[game.MaxPlayers]game.Input](proto.MaxBack)
	}
	d.steps.Clear()
	d.edit, d.filled = start, 0
}

// stepped records the inputs stepped at tick t, one per slot.
func (d *deltaLog) stepped(t game.Tick, inputs []game.Input) {
	row := d.steps.Ref(t)
	*row = [game.MaxPlayers]game.Input{}
	copy(row[:], inputs)
	d.filled = 0 // a new tick: the State's Steps are stale
}

// edited notes a change to the world between steps at tick t: States
// saved before it are no baselines for States after it.
func (d *deltaLog) edited(t game.Tick) { d.edit = t }

// delta makes st, a State the match saved at its tick, a delta against
// base if the log can (base after the last edit, at most proto.MaxBack
// ticks back, every step since logged) and the delta is smaller than the
// whole State; else it makes st a full State. It reports whether st is a
// delta.
func (d *deltaLog) delta(st *proto.State, base game.Tick, hasBase bool) bool {
	st.Back = 0
	if !hasBase || !base.After(d.edit) {
		return false
	}
	now := st.Snapshot.Tick
	back := int(now.Diff(base))
	if back < 1 || back > proto.MaxBack {
		return false
	}
	for ; d.filled < back; d.filled++ {
		row := d.steps.Lookup(now.Add(int32(-1 - d.filled)))
		if row == nil {
			return false
		}
		st.Steps[d.filled] = *row
	}
	st.Back = uint8(back)
	if st.Len() >= st.FullLen() {
		st.Back = 0 // not shorter: the whole State, which needs no baseline
	}
	return st.Back > 0
}
