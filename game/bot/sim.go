package bot

import "ttytanks/game"

// This file is a small copy of the parts of the game's rules the bot needs
// to look ahead: one tank moving through the maze (acceleration, corner
// assist, wall clipping; other tanks are ignored) and one bullet flying
// (ricochets, bounce limit, life). It must follow game/tank.go and
// game/bullets.go exactly; the tests compare it with the real World.

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
// does when no other tank is in the way.
func (t *tankSim) step(m *game.Maze, mx, my int8) {
	var tx, ty int32
	control := t.stun == 0
	if !control {
		t.stun--
	} else {
		speed := int32(game.TankSpeed)
		if mx != 0 && my != 0 {
			speed = game.TankDiagSpeed
		}
		tx, ty = int32(mx)*speed, int32(my)*speed
	}
	t.vx = approach(t.vx, tx)
	t.vy = approach(t.vy, ty)
	if control {
		t.cornerAssist(m, mx, my)
	}
	t.x += t.wallLimit(m, 0, t.vx)
	t.y += t.wallLimit(m, 1, t.vy)
}

func approach(v, target int32) int32 {
	d := target - v
	if d == 0 {
		return v
	}
	s := d >> game.TankAccelShift
	if d > 0 && s == 0 {
		s = 1
	}
	return v + s
}

func (t *tankSim) cornerAssist(m *game.Maze, mx, my int8) {
	if (mx == 0) == (my == 0) {
		return
	}
	axis, s := 0, int32(mx)
	if my != 0 {
		axis, s = 1, int32(my)
	}
	if t.wallLimit(m, axis, s*game.SubTile/2) == s*game.SubTile/2 {
		return
	}
	along, perp := t.x, t.y
	if axis == 1 {
		along, perp = t.y, t.x
	}
	lane := perp >> subTileShift
	ahead := (along + s*game.SubTile) >> subTileShift
	open := !m.IsWall(int(ahead), int(lane))
	if axis == 1 {
		open = !m.IsWall(int(lane), int(ahead))
	}
	off := lane*game.SubTile + game.SubTile/2 - perp
	if !open || off == 0 || abs32(off) > game.CornerAssist {
		return
	}
	if off > game.TankSpeed {
		off = game.TankSpeed
	} else if off < -game.TankSpeed {
		off = -game.TankSpeed
	}
	if axis == 0 {
		t.y += t.wallLimit(m, 1, off)
	} else {
		t.x += t.wallLimit(m, 0, off)
	}
}

// wallLimit returns how much of a move by d along axis the tank can make
// before its box touches a wall tile. |d| must be below SubTile.
func (t *tankSim) wallLimit(m *game.Maze, axis int, d int32) int32 {
	if d == 0 {
		return 0
	}
	along, perp := t.x, t.y
	if axis == 1 {
		along, perp = t.y, t.x
	}
	p0, p1 := (perp-game.TankHalf)>>subTileShift, (perp+game.TankHalf-1)>>subTileShift
	if d > 0 {
		edge := along + game.TankHalf
		for a := edge >> subTileShift; a <= (edge+d-1)>>subTileShift; a++ {
			if wallAcross(m, axis, a, p0, p1) {
				if lim := a*game.SubTile - edge; lim < d {
					return lim
				}
				break
			}
		}
		return d
	}
	edge := along - game.TankHalf
	for a := (edge - 1) >> subTileShift; a >= (edge+d)>>subTileShift; a-- {
		if wallAcross(m, axis, a, p0, p1) {
			if lim := (a+1)*game.SubTile - edge; lim > d {
				return lim
			}
			break
		}
	}
	return d
}

// wallAcross reports whether any tile at coordinate a along axis, between
// p0 and p1 (p0 <= p1) across it, is a wall. Tiles outside the maze are
// walls.
func wallAcross(m *game.Maze, axis int, a, p0, p1 int32) bool {
	if axis == 1 {
		// Row a, columns p0..p1: one mask test.
		if a < 0 || a >= int32(m.H) || p0 < 0 || p1 >= int32(m.W) {
			return true
		}
		return m.Wall[a]>>uint(p0)&(1<<uint(p1-p0+1)-1) != 0
	}
	// Column a, rows p0..p1.
	if a < 0 || a >= int32(m.W) || p0 < 0 || p1 >= int32(m.H) {
		return true
	}
	for p := p0; p <= p1; p++ {
		if m.Wall[p]>>uint(a)&1 != 0 {
			return true
		}
	}
	return false
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

// step moves the bullet one tick with ricochets, as game.World.stepBullet
// does before its hit test, and reports whether it still flies.
func (b *bulletSim) step(m *game.Maze) bool {
	if b.life <= 1 {
		return false
	}
	b.life--
	nx, ny := b.x+b.vx, b.y+b.vy
	tx, ty := int(b.x>>subTileShift), int(b.y>>subTileShift)
	ntx, nty := int(nx>>subTileShift), int(ny>>subTileShift)
	hx := b.vx != 0 && m.IsWall(ntx, ty)
	hy := b.vy != 0 && m.IsWall(tx, nty)
	if !hx && !hy && b.vx != 0 && b.vy != 0 && m.IsWall(ntx, nty) {
		hx, hy = true, true
	}
	if hx || hy {
		if b.bounces >= game.BulletBounces {
			return false
		}
		b.bounces++
		if hx {
			b.vx, nx = -b.vx, b.x
		}
		if hy {
			b.vy, ny = -b.vy, b.y
		}
	}
	b.x, b.y = nx, ny
	return true
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
