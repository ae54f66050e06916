package game

// startRound begins the next round's countdown: a new maze from the
// world's RNG, every seated tank respawned with full HP, bullets cleared.
// Scores and stats carry over.
func (w *World) startRound() {
	r := &w.s.Round
	rng := RNG{State: w.s.RNG}
	r.Number++
	r.Phase = PhaseCountdown
	r.Timer = CountdownTicks
	r.MazeSeed = rng.Next()
	w.maze.Generate(r.MazeSeed, int(r.MazeW), int(r.MazeH))
	var spawns [MaxPlayers][2]int
	w.maze.spawnPoints(&rng, spawns[:w.s.Slots])
	for i := 0; i < int(w.s.Slots); i++ {
		t := &w.s.Tanks[i]
		if !t.Seated {
			continue
		}
		x, y := spawns[i][0], spawns[i][1]
		ax := int8(1)
		if x > w.maze.W/2 {
			ax = -1 // face the middle of the maze
		}
		*t = Tank{
			X: int32(x)*SubTile + SubTile/2, Y: int32(y)*SubTile + SubTile/2,
			AimX: ax, HP: TankHP, Alive: true, Seated: true, Score: t.Score, Stats: t.Stats,
		}
	}
	w.s.Bullets = [MaxBullets]Bullet{}
	w.s.NumBullets = 0
	w.s.RNG = rng.State
}

// checkRoundEnd ends the round when at most one of the tanks that took
// part in it is alive (with at least two taking part), or when the time
// limit runs out; the survivor, if any, scores. A round with one tank in
// it and a newcomer waiting ends at once, a draw, so the newcomer spawns
// in the next one instead of waiting out the clock. A win that brings the
// winner's score to RoundsToWin (when not 0) ends the match instead:
// PhaseMatchOver, with the bullets cleared.
func (w *World) checkRoundEnd() {
	r := &w.s.Round
	r.Timer--
	seated, spawned, alive, last := 0, 0, 0, -1
	for i := 0; i < int(w.s.Slots); i++ {
		t := &w.s.Tanks[i]
		if !t.Seated {
			continue
		}
		seated++
		if t.Spawned() {
			spawned++
		}
		if t.Alive {
			alive++
			last = i
		}
	}
	switch {
	case spawned >= 2 && alive <= 1:
		r.Winner = -1
		if alive == 1 {
			r.Winner = int8(last)
			t := &w.s.Tanks[last]
			t.Score++
			if w.s.RoundsToWin > 0 && t.Score >= uint16(w.s.RoundsToWin) {
				r.Phase = PhaseMatchOver
				r.Timer = 0
				w.s.Bullets = [MaxBullets]Bullet{}
				w.s.NumBullets = 0
				return
			}
		}
	case seated >= 2 && spawned < 2, r.Timer == 0:
		r.Winner = -1
	default:
		return
	}
	r.Phase = PhaseOver
	r.Timer = RoundOverTicks
}

// seated returns the number of seated tanks.
func (w *World) seated() int {
	n := 0
	for i := 0; i < int(w.s.Slots); i++ {
		if w.s.Tanks[i].Seated {
			n++
		}
	}
	return n
}

// checkAlone puts a world of two slots or more that has at most one
// seated tank into PhaseWaiting: the others left, and a round against
// nobody would only run out its clock. The round is abandoned (no winner,
// no score), the bullets go, and the tanks stay where they are with their
// scores. A match cannot start with one seat taken of two or more, so a
// lone tank in such a world is always one left behind.
func (w *World) checkAlone() {
	if w.s.Slots < 2 || w.seated() >= 2 {
		return
	}
	r := &w.s.Round
	r.Phase, r.Timer, r.Winner = PhaseWaiting, 0, -1
	w.s.Bullets = [MaxBullets]Bullet{}
	w.s.NumBullets = 0
}

// spawnPoints fills out with floor cells (odd coordinates) spread across the
// maze: the first at random, each next one the cell farthest (by Manhattan
// distance) from those already chosen, ties broken by the RNG.
func (m *Maze) spawnPoints(rng *RNG, out [][2]int) {
	cw, ch := m.W/2, m.H/2
	for k := range out {
		if k == 0 {
			out[0] = [2]int{2*rng.Intn(cw) + 1, 2*rng.Intn(ch) + 1}
			continue
		}
		best, ties := -1, 0
		for cy := 0; cy < ch; cy++ {
			for cx := 0; cx < cw; cx++ {
				x, y := 2*cx+1, 2*cy+1
				d := 1 << 30
				for _, p := range out[:k] {
					if dd := absInt(p[0]-x) + absInt(p[1]-y); dd < d {
						d = dd
					}
				}
				switch {
				case d > best:
					best, ties = d, 1
					out[k] = [2]int{x, y}
				case d == best:
					// Reservoir choice among equally distant cells.
					ties++
					if rng.Intn(ties) == 0 {
						out[k] = [2]int{x, y}
					}
				}
			}
		}
	}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
