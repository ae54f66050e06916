package netcode

import (
	"ttytanks/game"
)

// rollbackThreshold is how far, in sub-tiles, the local tank's predicted
// position may be from the authoritative one before a State counts as a
// rollback (1/16 tile).
const rollbackThreshold = game.SubTile / 16

// timeline is the client's predicted world and its histories: the local
// inputs and the snapshots by tick, the local tank as first shown, and
// the newest authoritative tick. It steps predictions and applies States
// (restore and replay); it knows nothing of the network.
type timeline struct {
	world      *game.World
	inputs     *Ring[game.Input]
	snaps      *Ring[game.Snapshot]
	firstLocal *Ring[game.Tank] // the local tank as first predicted for each tick
	lastAuth   game.Tick
	haveAuth   bool
	// bases marks the ticks whose snapshot in snaps is a State's, as the
	// server sent it: the baselines a delta State may be sent against
	// (client_delta.go).
	bases     *Ring[struct{}]
	rebuilt   deltaRebuild
	all       []game.Input
	pred      RemotePredictor
	onPredict func(s *game.Snapshot)
	// light keeps no prediction (ClientConfig.Light): at is the local
	// tick, the world is the first State's and never stepped.
	light bool
	at    game.Tick
}

func newTimeline(history int, pred RemotePredictor, onPredict func(*game.Snapshot), light bool) timeline {
	return timeline{inputs: NewRing[game.Input](history), snaps: NewRing[game.Snapshot](history),
		firstLocal: NewRing[game.Tank](history), bases: NewRing[struct{}](history),
		pred: pred, onPredict: onPredict, light: light}
}

// reset forgets the world and every history.
func (t *timeline) reset() {
	t.world = nil
	t.inputs.Clear()
	t.snaps.Clear()
	t.firstLocal.Clear()
	t.bases.Clear()
	t.haveAuth = false
	if r, ok := t.pred.(interface{ Reset() }); ok {
		r.Reset()
	}
}

// adopt makes w the predicted world.
func (t *timeline) adopt(w *game.World) {
	t.world, t.at = w, w.Tick()
	t.all = make([]game.Input, w.Slots())
	w.Save(t.snaps.Ref(w.Tick()))
}

// tick returns the predicted world's tick (0 without a world).
func (t *timeline) tick() game.Tick {
	if t.world == nil {
		return 0
	}
	if t.light {
		return t.at
	}
	return t.world.Tick()
}

// predict stores the local input of slot for the world's tick, steps,
// and records the local tank as first shown.
func (t *timeline) predict(slot int, in game.Input) {
	tk := t.tick()
	in.Tick = tk
	in = in.Clamped()
	t.inputs.Put(tk, in)
	if t.light {
		t.at++
		return
	}
	t.stepWorld(slot, tk)
	t.firstLocal.Put(tk+1, t.world.State().Tanks[slot])
}

// stepWorld steps the world from tick tk with the stored local input and
// predicted remote inputs, and records the snapshot at tk+1.
func (t *timeline) stepWorld(slot int, tk game.Tick) {
	for i := range t.all {
		if i == slot {
			t.all[i], _ = t.inputs.Get(tk)
		} else {
			t.all[i] = t.pred.Predict(i, tk)
		}
		t.all[i].Tick = tk
	}
	t.world.Step(t.all)
	snap := t.snaps.Ref(t.world.Tick())
	t.world.Save(snap)
	if t.onPredict != nil {
		t.onPredict(snap)
	}
}

// fresh reports whether a State for tick ta is newer than the last one.
func (t *timeline) fresh(ta game.Tick) bool { return !t.haveAuth || ta.After(t.lastAuth) }

// applyResult says what applying a State did.
type applyResult struct {
	rollback bool // it contradicted what the player was first shown
	replayed int  // ticks replayed after it (0: none)
	resync   bool // an input needed for replay was missing
}

// apply takes a verified authoritative snapshot for a seated player in
// slot (-1: spectator): accept, update the remote prediction, compare,
// restore, replay.
func (t *timeline) apply(auth *game.Snapshot, slot int) (applyResult, error) {
	var r applyResult
	ta := auth.Tick
	t.lastAuth, t.haveAuth = ta, true
	if t.light && t.world != nil {
		if ta.After(t.at) {
			t.at = ta // the server is ahead of us: no local input is lost
		}
		return r, nil
	}
	present := ta // a client still without a world is at the State
	if t.world != nil && t.world.Tick().After(present) {
		present = t.world.Tick()
	}
	t.pred.Update(auth, present)
	if t.world == nil {
		w, err := game.NewWorld(game.Config{Slots: int(auth.Slots), MazeW: int(auth.Round.MazeW), MazeH: int(auth.Round.MazeH)})
		if err != nil {
			return r, err
		}
		w.Restore(auth)
		t.adopt(w)
		t.keepBase(ta)
		return r, nil
	}
	if slot < 0 {
		t.world.Restore(auth)
		return r, nil
	}
	// A rollback is a State that contradicts what the player was shown of
	// their own tank: the first prediction for that tick.
	if first := t.firstLocal.Lookup(ta); first != nil && localDiffers(first, &auth.Tanks[slot]) {
		r.rollback = true
	}
	local := t.world.Tick()
	if !ta.Before(local) {
		// The server is ahead of us (just started, joined late, back from
		// an outage): take its state; no local input is lost.
		t.world.Restore(auth)
		*t.snaps.Ref(ta) = *auth
		t.keepBase(ta)
		return r, nil
	}
	for tk := ta; tk != local; tk++ {
		if !t.inputs.Has(tk) {
			t.resync(auth) // never invent a local input
			r.resync = true
			return r, nil
		}
	}
	t.world.Restore(auth)
	*t.snaps.Ref(ta) = *auth
	t.keepBase(ta)
	for tk := ta; tk != local; tk++ {
		t.stepWorld(slot, tk)
	}
	r.replayed = int(local.Diff(ta))
	return r, nil
}

// resync restarts the local timeline from an authoritative snapshot: the
// histories are cleared and the clock sync brings the lead back.
func (t *timeline) resync(auth *game.Snapshot) {
	t.world.Restore(auth)
	t.inputs.Clear()
	t.snaps.Clear()
	t.firstLocal.Clear()
	t.bases.Clear()
	*t.snaps.Ref(auth.Tick) = *auth
	t.keepBase(auth.Tick)
}

// input returns the stored local input of tick tk.
func (t *timeline) input(tk game.Tick) (game.Input, bool) { return t.inputs.Get(tk) }

// snapshot returns the snapshot the timeline holds for tick tk.
func (t *timeline) snapshot(tk game.Tick) *game.Snapshot { return t.snaps.Lookup(tk) }

// localDiffers reports whether the local tank's prediction missed: position
// beyond rollbackThreshold, or HP, hitstun or life differ.
func localDiffers(p, a *game.Tank) bool {
	dx, dy := p.X-a.X, p.Y-a.Y
	return dx > rollbackThreshold || dx < -rollbackThreshold || dy > rollbackThreshold || dy < -rollbackThreshold ||
		p.HP != a.HP || p.Hitstun != a.Hitstun || p.Alive != a.Alive
}

// current returns the predicted world, or nil.
func (t *timeline) current() *game.World { return t.world }

// auth returns the tick of the newest authoritative State, if any.
func (t *timeline) auth() (game.Tick, bool) { return t.lastAuth, t.haveAuth }
