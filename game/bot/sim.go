package bot

import "ttytanks/game"

// The bot's look-ahead: one tank moving through the maze (acceleration,
// corner assist, wall clipping; other tanks are ignored) and one bullet
// flying (ricochets, bounce limit, life), both with the game's own rules of
// motion (game/motion.go); the tests compare them with the real World.

const subTileShift = 10

// tankSim is the movement state of one tank.
type tankSim struct {
	x, y, vx, vy int32
	stun         uint8
}

func fromTank(t *game.Tank) tankSim {
	return tankSim{x: t.X, y: t.Y, vx: t.VX, vy: t.VY, stun: t.Hitstun}
}

// step moves the tank one tick holding (mx, my), as game.World.stepTank
// does when no other tank is in the way, with the game's own rules of
// motion.
func (t *tankSim) step(m *game.Maze, mx, my int8) {
	var tx, ty int32
	control := t.stun == 0
	if !control {
		t.stun--
	} else {
		tx, ty = game.TargetVelocity(mx, my)
	}
	t.vx = game.Approach(t.vx, tx)
	t.vy = game.Approach(t.vy, ty)
	if control {
		if axis, off := m.CornerNudge(t.x, t.y, mx, my); axis == 0 && off != 0 {
			t.x += m.WallLimit(t.x, t.y, 0, off)
		} else if off != 0 {
			t.y += m.WallLimit(t.x, t.y, 1, off)
		}
	}
	t.x += m.WallLimit(t.x, t.y, 0, t.vx)
	t.y += m.WallLimit(t.x, t.y, 1, t.vy)
}

// bulletSim is one bullet in flight.
type bulletSim struct {
	x, y, vx, vy int32
	bounces      uint8
	life         uint8
}

func fromBullet(b *game.Bullet) bulletSim {
	return bulletSim{x: b.X, y: b.Y, vx: b.VX, vy: b.VY, bounces: b.Bounces, life: b.Life}
}

// step moves the bullet one tick with ricochets (game.Maze.MoveBullet)
// and reports whether it still flies.
func (b *bulletSim) step(m *game.Maze) bool {
	g := game.Bullet{X: b.x, Y: b.y, VX: b.vx, VY: b.vy, Bounces: b.bounces, Life: b.life}
	ok := m.MoveBullet(&g)
	b.x, b.y, b.vx, b.vy, b.bounces, b.life = g.X, g.Y, g.VX, g.VY, g.Bounces, g.Life
	return ok
}

// hits reports whether a bullet at (bx, by) is inside the box of a tank
// centred at (x, y).
func hits(bx, by, x, y int32) bool {
	return abs32(bx-x) < game.TankHalf && abs32(by-y) < game.TankHalf
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func sign32(v int32) int8 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
