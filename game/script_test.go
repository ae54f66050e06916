package game

// scriptedInputs is the deterministic input script the golden and sync
// tests play: each player wanders in a direction it re-draws every 12–40
// ticks, turns to face and fires at an enemy lined up with it (odd
// players ram them instead), and
// sometimes fires at walls to exercise ricochets. It reads the world but
// never changes it.
type script struct {
	rng  RNG
	dir  [MaxPlayers][2]int8
	left [MaxPlayers]int
}

func newScript(seed uint64) *script { return &script{rng: RNG{State: seed}} }

func (sc *script) inputs(w *World, out []Input) []Input {
	out = out[:0]
	s := w.State()
	for i := 0; i < int(s.Slots); i++ {
		in := Input{Tick: s.Tick}
		me := &s.Tanks[i]
		if sc.left[i] <= 0 {
			sc.left[i] = 12 + sc.rng.Intn(29)
			d := sc.rng.Intn(9)
			sc.dir[i] = [2]int8{int8(d%3 - 1), int8(d/3 - 1)}
			if j := nearest(s, i); j >= 0 && sc.rng.Intn(2) == 0 {
				// Head for the nearest enemy half of the time.
				o := &s.Tanks[j]
				sc.dir[i] = [2]int8{int8(sign32(o.X - me.X)), int8(sign32(o.Y - me.Y))}
			}
		}
		sc.left[i]--
		in.MoveX, in.MoveY = sc.dir[i][0], sc.dir[i][1]
		for j := 0; j < int(s.Slots); j++ {
			o := &s.Tanks[j]
			if j == i || !o.Alive || !me.Alive {
				continue
			}
			dx, dy := o.X-me.X, o.Y-me.Y
			switch {
			case abs32(dy) < 200 && abs32(dx) < 8*SubTile:
				in.MoveX, in.MoveY = int8(sign32(dx)), 0
				in.Buttons = ButtonFire
			case abs32(dx) < 200 && abs32(dy) < 8*SubTile:
				in.MoveX, in.MoveY = 0, int8(sign32(dy))
				in.Buttons = ButtonFire
			}
			if i%2 == 1 {
				in.Buttons = 0 // odd players ram lined-up enemies instead of shooting
			}
		}
		if sc.rng.Intn(64) == 0 {
			in.Buttons = ButtonFire
		}
		if sc.rng.Intn(256) == 0 {
			in.Buttons |= ButtonRematch // a vote, which only counts once the match is over
		}
		out = append(out, in)
	}
	return out
}

// randomInputs draws uniformly random valid inputs, firing one tick in
// four.
func randomInputs(rng *RNG, t Tick, out []Input) {
	for i := range out {
		out[i] = Input{Tick: t, MoveX: int8(rng.Intn(3) - 1), MoveY: int8(rng.Intn(3) - 1)}
		if rng.Intn(4) == 0 {
			out[i].Buttons = ButtonFire
		}
	}
}

// randomVotingInputs is randomInputs with a rematch vote one tick in 64
// per slot.
func randomVotingInputs(rng *RNG, t Tick, out []Input) {
	randomInputs(rng, t, out)
	for i := range out {
		if rng.Intn(64) == 0 {
			out[i].Buttons |= ButtonRematch
		}
	}
}

// nearest returns the slot of the live enemy closest to slot i, or -1.
func nearest(s *Snapshot, i int) int {
	best, bd := -1, int32(1<<30)
	me := &s.Tanks[i]
	for j := 0; j < int(s.Slots); j++ {
		o := &s.Tanks[j]
		if j == i || !o.Alive {
			continue
		}
		if d := abs32(o.X-me.X) + abs32(o.Y-me.Y); d < bd {
			best, bd = j, d
		}
	}
	return best
}
