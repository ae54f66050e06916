package tui

import (
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// tracked is the local tank as Controls.Track last saw it, in the
// predicted world: position (sub-tiles), velocity (sub-tiles a tick), aim,
// and the maze it drives in.
type tracked struct {
	ok   bool
	step int32     // see landed
	at   time.Time // the frame it was seen at
	pos  [2]int32
	vel  [2]int32
	aim  [2]int8
	maze *game.Maze
}

// get returns t, or nil when no tank is tracked.
func (t *tracked) get() *tracked {
	if !t.ok {
		return nil
	}
	return t
}

// Track tells the Controls where the local tank of v is, in the predicted
// world v shows, at now; Run calls it on every frame, before Input. In hold
// mode it ends taps: a tap holds its direction until the tank, let go,
// would coast to rest on the centre of the next tile that way (game.Approach
// brakes it; see landed for how near), or, when that tile is a wall, until
// the tank faces it. When
// the repeats of a held key stop, the tank likewise goes on to the next
// tile centre it can stop on. A spectator's view, a dead tank, a tank out
// of this round or a round not in play tracks nothing, and the Controls
// fall back to holding a first press for HoldFirst.
func (c *Controls) Track(v *netcode.View, now time.Time) {
	c.tank.ok = false
	last := c.tank.at
	c.tank.at = now
	s := v.Slot
	if c.mode == ControlsSticky || s < 0 || s >= game.MaxPlayers || s >= int(v.World.Slots) ||
		v.World.Round.Phase != game.PhasePlaying {
		return
	}
	tk := &v.World.Tanks[s]
	if !tk.Alive || !tk.Spawned() {
		return
	}
	c.tank = tracked{ok: true, step: lookStep(last, now), at: now, pos: [2]int32{tk.X, tk.Y},
		vel: [2]int32{tk.VX, tk.VY}, aim: [2]int8{tk.AimX, tk.AimY}, maze: &v.Maze}
	for k, a := range [2]*axis{&c.x, &c.y} {
		c.tank.settle(a, k, now)
	}
}

// settle ends a tap on axis k (0 = x, 1 = y) that has done its work, and
// turns a held key whose repeats stopped into a stop at the next centre.
func (t *tracked) settle(a *axis, k int, now time.Time) {
	if a.dir == 0 {
		return
	}
	switch a.tap {
	case tapping:
		if landed(a.dir, t.pos[k]+coast(t.vel[k]), a.target, t.step) {
			a.tap = stopped
		}
	case turning:
		if t.aim[k] == a.dir {
			a.tap = stopped
		}
	case held:
		if now.Before(a.until) {
			return
		}
		// The key was let go: stop on the next centre the tank can reach.
		rest := t.pos[k] + coast(t.vel[k])
		c := tileCentre(rest)
		switch off := rest - c; {
		case off >= 0 && off < t.step: // it stops on c as it is
		case a.dir > 0 && off > 0, a.dir < 0 && off < 0:
			c += int32(a.dir) * game.SubTile // c is behind it
		}
		if t.wallAt(k, c) {
			a.tap = stopped
			return
		}
		a.tap, a.target, a.until = tapping, c, now.Add(HoldFirst)
	}
}

// tapTarget returns how a tap of dir on axis k ends: at the centre of the
// tile after the one the tank would come to rest in (tapping), or, when
// that tile is a wall, once the tank faces it (turning; stopped at once
// when it faces it already, so that tapping at a wall does not inch the
// tank towards it).
func (t *tracked) tapTarget(k int, dir int8) (tapState, int32) {
	c := tileCentre(t.pos[k]+coast(t.vel[k])) + int32(dir)*game.SubTile
	switch {
	case !t.wallAt(k, c):
		return tapping, c
	case t.aim[k] == dir && t.aim[1-k] == 0:
		return stopped, 0
	}
	return turning, 0
}

// wallAt reports whether the tile at coordinate c along axis k, in the
// tank's lane across it, is a wall.
func (t *tracked) wallAt(k int, c int32) bool {
	x, y := c/game.SubTile, t.pos[1]/game.SubTile
	if k == 1 {
		x, y = t.pos[0]/game.SubTile, c/game.SubTile
	}
	return c < 0 || t.maze.IsWall(int(x), int(y))
}

// landed reports whether a tap of dir towards the tile centre target may
// let go, the tank coming to rest at rest, when the next look is step
// sub-tiles of travel away: it then stops from the centre to less than
// step on the right of it or below it, going either way. (While the key is
// held, rest moves about TankSpeed a tick.) That side because a tank from
// its tile's centre on is drawn in the tile's right (or lower) cell: one a
// few sub-tiles short of the centre on its way left would be drawn a cell
// short of the tile.
func landed(dir int8, rest, target, step int32) bool {
	if dir > 0 {
		return rest >= target
	}
	return rest < target+step
}

// lookStep returns the step for landed: the travel, at TankSpeed, in the
// ticks between the frames at last and now, and one tick more for a frame
// that comes late (two ticks a frame at 60 frames a second).
func lookStep(last, now time.Time) int32 {
	n := int32(1)
	if d := now.Sub(last); !last.IsZero() && d > 0 && d < time.Second {
		n = max(int32((d*game.TickRate+time.Second/2)/time.Second), 1)
	}
	return (n + 1) * game.TankSpeed
}

// tileCentre returns the centre of the tile holding coordinate p.
func tileCentre(p int32) int32 {
	return p&^(game.SubTile-1) + game.SubTile/2
}

// coast returns how far a tank moving at v along an axis travels, with no
// input on it, before it comes to rest: the sum of the velocities
// game.Approach brakes it through, one a tick.
func coast(v int32) int32 {
	d := int32(0)
	for v != 0 {
		v = game.Approach(v, 0)
		d += v
	}
	return d
}
