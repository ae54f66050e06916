package bot

import (
	"testing"

	"ttytanks/game"
)

// matchStats summarises a bots-only match.
type matchStats struct {
	kills    int // rounds that ended with a winner
	draws    int // rounds that ended with everyone dead at once
	timeouts int // rounds that ran out of time
	selfHits int // hits by a tank's own bullet
	hits     int // all hits
}

// playMatch runs slots bots (seeds seed+slot) against each other for ticks
// ticks on the default maze.
func playMatch(t testing.TB, slots int, seed uint64, ticks int) matchStats {
	t.Helper()
	w, err := game.NewWorld(game.Config{Slots: slots, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, slots)
	for i := range bots {
		bots[i] = New(seed*31 + uint64(i))
	}
	in := make([]game.Input, slots)
	var st matchStats
	var prev game.Snapshot
	for k := 0; k < ticks; k++ {
		s := w.State()
		for i := range in {
			in[i] = bots[i].Input(s, w.Maze(), i)
		}
		w.Save(&prev)
		w.Step(in)
		s = w.State()
		if prev.Round.Phase == game.PhasePlaying {
			countHits(&prev, s, w.Maze(), &st)
			if s.Round.Phase == game.PhaseOver {
				switch {
				case s.Round.Winner >= 0:
					st.kills++
				case s.Round.Timer == game.RoundOverTicks && prev.Round.Timer == 1:
					st.timeouts++
				default:
					st.draws++
				}
			}
		}
	}
	return st
}

// countHits counts the hits of one step and whose bullet made them, by
// replaying prev's bullets against cur's tank positions.
func countHits(prev, cur *game.Snapshot, m *game.Maze, st *matchStats) {
	for k := 0; k < int(prev.NumBullets); k++ {
		b := fromBullet(&prev.Bullets[k])
		if !b.step(m) {
			continue
		}
		for i := 0; i < int(cur.Slots); i++ {
			p, c := &prev.Tanks[i], &cur.Tanks[i]
			if !p.Alive || int(prev.Bullets[k].Owner) == i && b.bounces == 0 {
				continue
			}
			if c.Alive && c.HP == p.HP {
				continue // not hit this tick
			}
			x, y := c.X, c.Y
			if !c.Alive {
				// Dead tanks are zeroed; where it was after moving is unknown,
				// so use where it was before (good to within a step).
				x, y = p.X+p.VX, p.Y+p.VY
			}
			if abs32(b.x-x) < game.TankHalf+game.TankSpeed && abs32(b.y-y) < game.TankHalf+game.TankSpeed {
				st.hits++
				if int(prev.Bullets[k].Owner) == i {
					st.selfHits++
				}
				break
			}
		}
	}
}

func TestMatchReport(t *testing.T) {
	for _, slots := range []int{2, 4} {
		for seed := uint64(1); seed <= 8; seed++ {
			st := playMatch(t, slots, seed, 3600)
			t.Logf("slots %d seed %d: %+v", slots, seed, st)
		}
	}
}
