package netcode

import (
	"testing"

	"ttytanks/game"
)

// TestVelocityPredictorRules: the seed's rules for guessing a remote
// player's input from the last authoritative state.
func TestVelocityPredictorRules(t *testing.T) {
	snap := func(vx, vy int32, stun uint8) *game.Snapshot {
		s := &game.Snapshot{Tick: 100, Slots: 2}
		s.Tanks[1] = game.Tank{VX: vx, VY: vy, Hitstun: stun, Alive: true, Seated: true, HP: 3, AimX: 1}
		return s
	}
	var p VelocityPredictor
	if in := p.Predict(1, 100); in != game.Neutral(100) {
		t.Fatalf("before any update: %+v, want neutral", in)
	}
	steps := []struct {
		name   string
		vx, vy int32
		stun   uint8
		mx, my int8
	}{
		{"clear velocity right and up", game.TankSpeed, -game.TankSpeed, 0, 1, -1},
		{"in between keeps the last guess", predictMoving - 1, -(predictStill + 1), 0, 1, -1},
		{"near zero stops that axis", 2, -game.TankSpeed, 0, 0, -1},
		{"hitstun stops", game.KnockbackSpeed, 0, 5, 0, 0},
		{"after hitstun, in between stays stopped", predictMoving - 1, 0, 0, 0, 0},
	}
	for _, st := range steps {
		p.Update(snap(st.vx, st.vy, st.stun), 110)
		in := p.Predict(1, 112)
		if in.MoveX != st.mx || in.MoveY != st.my || in.Buttons != 0 || in.Tick != 112 {
			t.Errorf("%s: predicted %+v, want move (%d,%d) and no fire", st.name, in, st.mx, st.my)
		}
	}
	p.Update(snap(game.TankSpeed, 0, 0), 110)
	if in := p.Predict(1, 110+HoldTicks); in.MoveX != 1 {
		t.Errorf("%d ticks after the last update: %+v, want still moving", HoldTicks, in)
	}
	if in := p.Predict(1, 110+HoldTicks+1); in != game.Neutral(110+HoldTicks+1) {
		t.Errorf("%d ticks after the last update: %+v, want neutral", HoldTicks+1, in)
	}
}
