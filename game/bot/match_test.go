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

// playMatch runs slots bots (seeds seed+slot) against each other on the
// default maze until they have played ticks ticks (countdowns and the
// pauses between rounds not counted).
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
	for k := 0; k < ticks; {
		s := w.State()
		if s.Round.Phase == game.PhasePlaying {
			k++
		}
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

// TestCompetence plays two bots against each other for a minute on each
// of several seeds: every match must have at least 3 rounds that end with
// a kill (a winner, not a draw or the time limit). Bots that cannot find,
// hit or finish each other fail it; so do bots that only ever trade shots
// and die together. Across all matches, at most one hit in ten may be a
// tank's own ricochet.
func TestCompetence(t *testing.T) {
	var total matchStats
	for seed := uint64(1); seed <= 5; seed++ {
		st := playMatch(t, 2, seed, 60*game.TickRate)
		t.Logf("2 bots, seed %d: %d rounds won by a kill, %d draws, %d timeouts; %d hits, %d own",
			seed, st.kills, st.draws, st.timeouts, st.hits, st.selfHits)
		if st.kills < 3 {
			t.Errorf("seed %d: only %d rounds ended with a kill in 60 s", seed, st.kills)
		}
		total.hits += st.hits
		total.selfHits += st.selfHits
	}
	if total.selfHits*10 > total.hits {
		t.Errorf("%d of %d hits were own ricochets", total.selfHits, total.hits)
	}
}

// TestCompetenceFourBots: a free-for-all of four bots still ends its rounds
// with a winner and not on the clock.
func TestCompetenceFourBots(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		st := playMatch(t, 4, seed, 60*game.TickRate)
		t.Logf("4 bots, seed %d: %d rounds won by a kill, %d draws, %d timeouts; %d hits, %d own",
			seed, st.kills, st.draws, st.timeouts, st.hits, st.selfHits)
		if st.kills < 2 || st.timeouts > 0 || st.selfHits*5 > st.hits {
			t.Errorf("seed %d: %+v, want at least 2 won rounds, no timeouts, few own hits", seed, st)
		}
	}
}
