package bot

import (
	"testing"

	"ttytanks/game"
)

// TestSimMatchesWorld drives one tank (no others to push or be hit by)
// with random inputs on generated mazes and checks that the bot's
// look-ahead model moves the tank and every bullet exactly as the game
// does.
func TestSimMatchesWorld(t *testing.T) {
	tanks, bullets := 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		w, err := game.NewWorld(game.Config{Slots: 1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		rng := game.RNG{State: seed}
		var prev game.Snapshot
		in := []game.Input{{}}
		var mx, my int8
		for k := 0; k < 3000; k++ {
			if rng.Intn(12) == 0 {
				mx, my = int8(rng.Intn(3)-1), int8(rng.Intn(3)-1)
			}
			in[0] = game.Input{Tick: w.Tick(), MoveX: mx, MoveY: my}
			if rng.Intn(6) == 0 {
				in[0].Buttons = game.ButtonFire
			}
			w.Save(&prev)
			w.Step(in)
			s := w.State()
			if tk := s.Tanks[0]; tk.Alive && tk.HP < game.TankHP {
				tk.HP = game.TankHP // keep it alive through its own ricochets
				w.SetTank(0, tk)
			}
			if prev.Round.Phase != game.PhasePlaying || s.Round.Phase != game.PhasePlaying {
				continue
			}
			pt := &prev.Tanks[0]
			if !pt.Alive || !s.Tanks[0].Alive {
				continue
			}
			tanks++
			ts := fromTank(pt)
			ts.step(w.Maze(), mx, my)
			if c := s.Tanks[0]; ts.stun != c.Hitstun || ts.x != c.X || ts.y != c.Y || ts.vx != c.VX || ts.vy != c.VY {
				if c.Hitstun != game.HitstunTicks { // a hit this tick: the model does not predict hits
					t.Fatalf("seed %d tick %d: model tank (%d,%d) v(%d,%d), game (%d,%d) v(%d,%d)",
						seed, prev.Tick, ts.x, ts.y, ts.vx, ts.vy, c.X, c.Y, c.VX, c.VY)
				}
			}
			// Bullets of prev that survive and miss must be cur's bullets in order.
			n := 0
			for j := 0; j < int(prev.NumBullets); j++ {
				b := fromBullet(&prev.Bullets[j])
				if !b.step(w.Maze()) {
					continue
				}
				if b.bounces > 0 && hits(b.x, b.y, s.Tanks[0].X, s.Tanks[0].Y) {
					continue
				}
				if n >= int(s.NumBullets) {
					t.Fatalf("seed %d tick %d: model has more bullets than the game", seed, prev.Tick)
				}
				c := &s.Bullets[n]
				if b.x != c.X || b.y != c.Y || b.vx != c.VX || b.vy != c.VY || b.bounces != c.Bounces || b.life != c.Life {
					t.Fatalf("seed %d tick %d: bullet %d model %+v, game %+v", seed, prev.Tick, j, b, *c)
				}
				n++
				bullets++
			}
			if d := int(s.NumBullets) - n; d != 0 && d != 1 {
				t.Fatalf("seed %d tick %d: game has %d bullets, model %d", seed, prev.Tick, s.NumBullets, n)
			}
		}
	}
	if tanks < 5000 || bullets < 10000 {
		t.Fatalf("compared only %d tank steps and %d bullet steps", tanks, bullets)
	}
	t.Logf("compared %d tank steps and %d bullet steps", tanks, bullets)
}
