package game

// The rules of motion for one tank or one bullet against the maze, without
// the other tanks. World.Step builds on them, and the bot uses them to look
// ahead, so there is one copy of the rules.

// TargetVelocity returns the velocity a tank steering (mx, my) accelerates
// towards: TankSpeed along one axis, TankDiagSpeed on each for a diagonal.
func TargetVelocity(mx, my int8) (vx, vy int32) {
	speed := int32(TankSpeed)
	if mx != 0 && my != 0 {
		speed = TankDiagSpeed
	}
	return int32(mx) * speed, int32(my) * speed
}

// Approach moves v a quarter of the way to target, at least one unit, so it
// reaches target exactly.
func Approach(v, target int32) int32 {
	d := target - v
	if d == 0 {
		return v
	}
	s := d >> TankAccelShift
	if d > 0 && s == 0 {
		s = 1
	}
	// For d < 0 the arithmetic shift rounds towards −∞, so s <= -1 already.
	return v + s
}

// WallLimit returns how much of a move by d along axis (0 = x, 1 = y) a
// tank centred at (x, y) can make before its box touches a wall tile.
// |d| must be below SubTile.
func (m *Maze) WallLimit(x, y int32, axis int, d int32) int32 {
	if d == 0 {
		return 0
	}
	along, perp := x, y
	if axis == 1 {
		along, perp = y, x
	}
	p0, p1 := (perp-TankHalf)>>subTileShift, (perp+TankHalf-1)>>subTileShift
	if d > 0 {
		edge := along + TankHalf // first unit beyond the box
		for a := edge >> subTileShift; a <= (edge+d-1)>>subTileShift; a++ {
			if m.wallAcross(axis, a, p0, p1) {
				if lim := a*SubTile - edge; lim < d {
					return lim
				}
				break
			}
		}
		return d
	}
	edge := along - TankHalf // first unit inside the box
	for a := (edge - 1) >> subTileShift; a >= (edge+d)>>subTileShift; a-- {
		if m.wallAcross(axis, a, p0, p1) {
			if lim := (a+1)*SubTile - edge; lim > d {
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
func (m *Maze) wallAcross(axis int, a, p0, p1 int32) bool {
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

// CornerNudge is the corner assist: a tank at (x, y) steering along one
// axis, with a wall within half a tile ahead but the tile straight ahead of
// its centre open, and at most CornerAssist off that lane's centre line, is
// slid towards the centre line by up to TankSpeed, so turning into a side
// corridor needs no pixel-exact alignment. It returns the axis of the
// slide and its distance (0 for none); the caller makes the slide, subject
// to walls (and, in a World, other tanks).
func (m *Maze) CornerNudge(x, y int32, mx, my int8) (axis int, off int32) {
	if (mx == 0) == (my == 0) {
		return 0, 0 // idle or diagonal
	}
	along, perp, s := x, y, int32(mx)
	moving := 0
	if my != 0 {
		along, perp, s, moving = y, x, int32(my), 1
	}
	if m.WallLimit(x, y, moving, s*SubTile/2) == s*SubTile/2 {
		return 0, 0 // nothing in the way
	}
	lane := perp >> subTileShift
	ahead := (along + s*SubTile) >> subTileShift
	open := !m.IsWall(int(ahead), int(lane))
	if moving == 1 {
		open = !m.IsWall(int(lane), int(ahead))
	}
	off = lane*SubTile + SubTile/2 - perp
	if !open || off == 0 || abs32(off) > CornerAssist {
		return 0, 0
	}
	return 1 - moving, max(-TankSpeed, min(TankSpeed, off))
}

// MoveBullet moves a bullet one tick, ricocheting off walls, and reports
// whether it still flies (it has life left and has not used up its
// bounces). It does not test for tanks.
//
// The bullet moves along both axes at once. If the step on the x axis
// alone would enter a wall tile, VX reverses and the bullet keeps its x;
// likewise for y. If neither single-axis step hits a wall but the diagonal
// target tile is a wall (a wall corner head on), both components reverse
// and the bullet flies straight back. Each wall contact costs one bounce, a
// corner included; the contact after BulletBounces ricochets ends it.
func (m *Maze) MoveBullet(b *Bullet) bool {
	if b.Life <= 1 {
		return false
	}
	b.Life--
	nx, ny := b.X+b.VX, b.Y+b.VY
	tx, ty := int(b.X>>subTileShift), int(b.Y>>subTileShift)
	ntx, nty := int(nx>>subTileShift), int(ny>>subTileShift)
	hx := b.VX != 0 && m.IsWall(ntx, ty)
	hy := b.VY != 0 && m.IsWall(tx, nty)
	if !hx && !hy && b.VX != 0 && b.VY != 0 && m.IsWall(ntx, nty) {
		hx, hy = true, true
	}
	if hx || hy {
		if b.Bounces >= BulletBounces {
			return false
		}
		b.Bounces++
		if hx {
			b.VX, nx = -b.VX, b.X
		}
		if hy {
			b.VY, ny = -b.VY, b.Y
		}
	}
	b.X, b.Y = nx, ny
	return true
}
