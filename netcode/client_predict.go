package netcode

import "ttytanks/game"

// RemotePredictor guesses the inputs of the other players, which a client
// cannot know until the server's next State. A guess only has to look
// continuous: the next State corrects it.
type RemotePredictor interface {
	// Update learns from a new authoritative snapshot whose hash has been
	// verified, received when the client's present tick is local. It is
	// never called with an unverified snapshot.
	Update(auth *game.Snapshot, local game.Tick)
	// Predict returns the guessed input of slot for tick t.
	Predict(slot int, t game.Tick) game.Input
}

// Velocity thresholds of VelocityPredictor, in sub-tiles per tick.
const (
	predictMoving = game.TankSpeed / 2 // above: moving that way
	predictStill  = 8                  // below: stopped on that axis
)

// VelocityPredictor is the default RemotePredictor, the rules of the
// design (seed 001 §7): in hitstun, predict a stop; a clear velocity on an
// axis predicts that direction; a velocity near zero predicts a stop on that
// axis; in between, the last guess stands; and when updates stop coming, a
// guess is held for at most HoldTicks ticks past the client's present at the
// last update, then neutral. (Counting from the State's own tick instead
// would stop every remote tank for the last ticks of each prediction as soon
// as the State delay exceeds HoldTicks, which it does at any real RTT.)
// Fire is never predicted.
type VelocityPredictor struct {
	local game.Tick // the client's present when the last update came
	have  bool
	guess [game.MaxPlayers][2]int8
}

// Update implements RemotePredictor.
func (p *VelocityPredictor) Update(auth *game.Snapshot, local game.Tick) {
	p.local, p.have = local, true
	for i := 0; i < int(auth.Slots); i++ {
		t := &auth.Tanks[i]
		g := &p.guess[i]
		if !t.Alive || t.Hitstun > 0 {
			*g = [2]int8{}
			continue
		}
		g[0] = axisGuess(t.VX, g[0])
		g[1] = axisGuess(t.VY, g[1])
	}
}

func axisGuess(v int32, last int8) int8 {
	switch {
	case v >= predictMoving:
		return 1
	case v <= -predictMoving:
		return -1
	case v > -predictStill && v < predictStill:
		return 0
	}
	return last
}

// Predict implements RemotePredictor.
func (p *VelocityPredictor) Predict(slot int, t game.Tick) game.Input {
	if !p.have || t.Diff(p.local) > HoldTicks || slot < 0 || slot >= game.MaxPlayers {
		return game.Neutral(t)
	}
	g := p.guess[slot]
	return game.Input{Tick: t, MoveX: g[0], MoveY: g[1]}
}

// Reset forgets everything learnt.
func (p *VelocityPredictor) Reset() { *p = VelocityPredictor{} }
