package netcode

import (
	"ttytanks/game"
	"ttytanks/proto"
)

// Delta States (PROTOCOL.md §5.7). The client tells the server, in each
// Input, the newest State it holds as the server sent it; the server may
// then send a State as the inputs that step that baseline to the State's
// tick. The timeline keeps the snapshot of every State it applies in its
// snapshot ring (replays write only later ticks), marks those ticks as
// baselines, and rebuilds a delta State on a world of its own, so that
// the snapshot it checks against the hash is the server's and nothing of
// the predicted world is touched until the State is accepted.

// deltaRebuild is the scratch world a delta State is rebuilt on, and the
// snapshot it gives.
type deltaRebuild struct {
	world *game.World
	snap  game.Snapshot
}

// keepBase marks the snapshot of tick tk in the snapshot ring as a
// State's: a baseline.
func (t *timeline) keepBase(tk game.Tick) { t.bases.Put(tk, struct{}{}) }

// baseline returns the snapshot of the State of tick tk, if the timeline
// still holds it.
func (t *timeline) baseline(tk game.Tick) *game.Snapshot {
	if !t.bases.Has(tk) {
		return nil
	}
	return t.snaps.Lookup(tk)
}

// newestBase returns the tick of the newest State the client holds, for
// its Inputs to name. A light client holds no snapshots; it names the
// newest State it took, and never rebuilds a delta.
func (t *timeline) newestBase() (game.Tick, bool) {
	if !t.haveAuth {
		return 0, false
	}
	if t.light {
		return t.lastAuth, true
	}
	return t.lastAuth, t.baseline(t.lastAuth) != nil
}

// forgetBases drops every baseline: after a delta the client could not
// rebuild or whose hash did not match, its Inputs name none until a full
// State comes.
func (t *timeline) forgetBases() { t.bases.Clear() }

// rebuildResult says why a delta State could not be rebuilt.
type rebuildResult uint8

const (
	rebuildOK       rebuildResult = iota
	rebuildNoBase                 // the baseline is not held (any more)
	rebuildBadSlots               // the delta's slots are not the baseline's
)

// rebuild steps the baseline of the delta State st with its inputs and
// returns the snapshot it gives (valid until the next rebuild), or why it
// could not.
func (t *timeline) rebuild(st *proto.State) (*game.Snapshot, rebuildResult) {
	base := t.baseline(st.Base())
	if base == nil {
		return nil, rebuildNoBase
	}
	if base.Slots != st.Snapshot.Slots {
		return nil, rebuildBadSlots
	}
	r := &t.rebuilt
	if r.world == nil {
		w, err := game.NewWorld(game.Config{Slots: int(base.Slots), MazeW: int(base.Round.MazeW), MazeH: int(base.Round.MazeH)})
		if err != nil {
			return nil, rebuildBadSlots // a held State is valid: not reached
		}
		r.world = w
	}
	r.world.Restore(base)
	for k := 0; k < int(st.Back); k++ {
		r.world.Step(st.StepInputs(k))
	}
	r.world.Save(&r.snap)
	return &r.snap, rebuildOK
}
