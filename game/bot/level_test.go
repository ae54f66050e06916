package bot

import (
	"testing"

	"ttytanks/game"
)

// player decides one slot's input each tick from the world.
type player func(s *game.Snapshot, m *game.Maze, slot int) game.Input

// botPlayer plays a bot of level l.
func botPlayer(seed uint64, l Level) player { return NewLevel(seed, l).Input }

// faceAndFire is the scripted newcomer: it stays where it spawned, and
// when a live enemy stands in its row or column with no wall between them
// it turns to face it and holds fire.
func faceAndFire(s *game.Snapshot, m *game.Maze, slot int) game.Input {
	in := game.Input{Tick: s.Tick}
	me := &s.Tanks[slot]
	if s.Round.Phase != game.PhasePlaying || !me.Alive {
		return in
	}
	for j := 0; j < int(s.Slots); j++ {
		o := &s.Tanks[j]
		if j == slot || !o.Alive {
			continue
		}
		dx, dy := o.X-me.X, o.Y-me.Y
		switch {
		case abs32(dy) < game.TankHalf && clearLine(m, me.X, me.Y, o.X, 0):
			in.MoveX = sign32(dx)
		case abs32(dx) < game.TankHalf && clearLine(m, me.X, me.Y, o.Y, 1):
			in.MoveY = sign32(dy)
		default:
			continue
		}
		in.Buttons = game.ButtonFire
		return in
	}
	return in
}

// clearLine reports whether no wall tile lies between (x, y) and the
// coordinate to along axis (0 = x, 1 = y).
func clearLine(m *game.Maze, x, y, to int32, axis int) bool {
	tx, ty := int(x>>subTileShift), int(y>>subTileShift)
	end := int(to >> subTileShift)
	for {
		c := &tx
		if axis == 1 {
			c = &ty
		}
		if *c == end {
			return true
		}
		if *c < end {
			*c++
		} else {
			*c--
		}
		if m.IsWall(tx, ty) {
			return false
		}
	}
}

// duel plays a against b (slots 0 and 1) on seed's worlds for ticks ticks
// and returns the rounds each won and the rounds played (draws and
// timeouts count as played and won by neither).
func duel(t testing.TB, a, b player, seed uint64, ticks int) (winsA, winsB, rounds int) {
	t.Helper()
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	in := make([]game.Input, 2)
	for k := 0; k < ticks; k++ {
		s := w.State()
		was := s.Round.Phase
		in[0], in[1] = a(s, w.Maze(), 0), b(s, w.Maze(), 1)
		w.Step(in)
		s = w.State()
		if was == game.PhasePlaying && s.Round.Phase == game.PhaseOver {
			rounds++
			switch s.Round.Winner {
			case 0:
				winsA++
			case 1:
				winsB++
			}
		}
	}
	return winsA, winsB, rounds
}

// TestLevels plays each pairing for a few seeded matches, each side taking
// each slot, and checks the share of rounds the stronger side wins: hard
// beats easy in at least 80% of rounds, normal beats easy in at least 60%,
// and the scripted face-and-fire newcomer wins at least 20% of its rounds
// against easy (draws and timeouts count as rounds not won).
func TestLevels(t *testing.T) {
	const seeds, ticks = 6, 60 * game.TickRate
	cases := []struct {
		name     string
		strong   func(seed uint64) player
		weak     func(seed uint64) player
		minShare float64
	}{
		{"hard vs easy", func(s uint64) player { return botPlayer(s, Hard) }, func(s uint64) player { return botPlayer(s, Easy) }, 0.80},
		{"normal vs easy", func(s uint64) player { return botPlayer(s, Normal) }, func(s uint64) player { return botPlayer(s, Easy) }, 0.60},
		{"hard vs normal", func(s uint64) player { return botPlayer(s, Hard) }, func(s uint64) player { return botPlayer(s, Normal) }, 0.50},
		{"face-and-fire vs easy", func(uint64) player { return faceAndFire }, func(s uint64) player { return botPlayer(s, Easy) }, 0.20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			won, lost, rounds := 0, 0, 0
			for seed := uint64(1); seed <= seeds; seed++ {
				// The strong side in slot 0 on odd seeds, slot 1 on even ones.
				var ws, wk, r int
				if seed%2 == 1 {
					ws, wk, r = duel(t, c.strong(seed*31), c.weak(seed*31+1), seed, ticks)
				} else {
					wk, ws, r = duel(t, c.weak(seed*31), c.strong(seed*31+1), seed, ticks)
				}
				won, lost, rounds = won+ws, lost+wk, rounds+r
			}
			share := float64(won) / float64(max(rounds, 1))
			t.Logf("%s: won %d, lost %d, of %d rounds (%.0f%%)", c.name, won, lost, rounds, 100*share)
			if rounds < 2*seeds || share < c.minShare {
				t.Errorf("%s: won %d of %d rounds (%.0f%%), want at least %.0f%% of at least %d rounds",
					c.name, won, rounds, 100*share, 100*c.minShare, 2*seeds)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	cases := []struct {
		in   string
		want Level
		ok   bool
	}{{"easy", Easy, true}, {"normal", Normal, true}, {"hard", Hard, true}, {"expert", Hard, false}, {"", Hard, false}}
	for _, c := range cases {
		got, err := ParseLevel(c.in)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != c.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), c.in)
		}
	}
}
