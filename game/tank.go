package game

// stepTank runs one tick of tank i with a clamped input: timers, aim,
// velocity, corner assist, movement, firing.
func (w *World) stepTank(i int, in Input) {
	t := &w.s.Tanks[i]
	if !t.Alive {
		return
	}
	if t.Cooldown > 0 {
		t.Cooldown--
	}
	var tx, ty int32
	control := t.Hitstun == 0
	if !control {
		t.Hitstun--
	} else {
		if in.MoveX != 0 || in.MoveY != 0 {
			t.AimX, t.AimY = in.MoveX, in.MoveY
		}
		speed := int32(TankSpeed)
		if in.MoveX != 0 && in.MoveY != 0 {
			speed = TankDiagSpeed
		}
		tx, ty = int32(in.MoveX)*speed, int32(in.MoveY)*speed
	}
	t.VX = approach(t.VX, tx)
	t.VY = approach(t.VY, ty)
	if control {
		w.cornerAssist(i, in)
	}
	w.slide(i, 0, t.VX, true)
	w.slide(i, 1, t.VY, true)
	if control && in.Fire() && t.Cooldown == 0 && w.bulletsOf(i) < MaxBulletsPerTank &&
		w.s.NumBullets < MaxBullets {
		vx, vy := int32(t.AimX)*BulletSpeed, int32(t.AimY)*BulletSpeed
		if t.AimX != 0 && t.AimY != 0 {
			vx, vy = int32(t.AimX)*BulletDiagSpeed, int32(t.AimY)*BulletDiagSpeed
		}
		w.s.Bullets[w.s.NumBullets] = Bullet{X: t.X, Y: t.Y, VX: vx, VY: vy,
			Owner: uint8(i), Life: BulletLife}
		w.s.NumBullets++
		t.Cooldown = FireCooldown
	}
}

// approach moves v a quarter of the way to target, at least one unit, so it
// reaches target exactly.
func approach(v, target int32) int32 {
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

// cornerAssist slides a tank that steers along one axis into a lane it is
// slightly off-centre of, so turning into a side corridor does not need
// pixel-exact alignment. It acts only when a wall is within half a tile
// ahead, the tile straight ahead of the tank's centre is open, and the tank
// is at most CornerAssist off that lane's centre line.
func (w *World) cornerAssist(i int, in Input) {
	if (in.MoveX == 0) == (in.MoveY == 0) {
		return // idle or diagonal
	}
	t := &w.s.Tanks[i]
	axis, s := 0, int32(in.MoveX)
	if in.MoveY != 0 {
		axis, s = 1, int32(in.MoveY)
	}
	if w.wallLimit(t, axis, s*SubTile/2) == s*SubTile/2 {
		return // nothing in the way
	}
	along, perp := t.X, t.Y
	if axis == 1 {
		along, perp = t.Y, t.X
	}
	lane := perp >> subTileShift
	ahead := (along + s*SubTile) >> subTileShift
	open := !w.maze.IsWall(int(ahead), int(lane))
	if axis == 1 {
		open = !w.maze.IsWall(int(lane), int(ahead))
	}
	off := lane*SubTile + SubTile/2 - perp
	if !open || off == 0 || abs32(off) > CornerAssist {
		return
	}
	if off > TankSpeed {
		off = TankSpeed
	} else if off < -TankSpeed {
		off = -TankSpeed
	}
	w.slide(i, 1-axis, off, false)
}

// slide moves tank i by d along axis (0 = x, 1 = y) as far as walls and
// other live tanks allow, and returns the distance moved. When canPush is
// set, a tank in the way is shoved by half of the overlap the move would
// cause (it is blocked in turn by walls and tanks, but pushes no further),
// and the mover advances into the room made. Tanks never overlap.
func (w *World) slide(i, axis int, d int32, canPush bool) int32 {
	if d == 0 {
		return 0
	}
	t := &w.s.Tanks[i]
	d = w.wallLimit(t, axis, d)
	s := int32(1)
	if d < 0 {
		s = -1
	}
	dist := s * d
	for j := 0; j < int(w.s.Slots) && dist > 0; j++ {
		o := &w.s.Tanks[j]
		if j == i || !o.Alive {
			continue
		}
		along, perp := o.X-t.X, o.Y-t.Y
		if axis == 1 {
			along, perp = perp, along
		}
		if abs32(perp) >= 2*TankHalf {
			continue // passes beside it
		}
		ahead := s*along - 2*TankHalf // free room between the two
		if ahead < 0 || dist <= ahead {
			continue // behind us, or not reached this tick
		}
		if canPush {
			ahead += s * w.slide(j, axis, s*((dist-ahead+1)/2), false)
		}
		if dist > ahead {
			dist = ahead
		}
	}
	if axis == 0 {
		t.X += s * dist
	} else {
		t.Y += s * dist
	}
	return s * dist
}

// wallLimit returns how much of a move by d along axis tank t can make
// before its box touches a wall tile. |d| must be below SubTile.
func (w *World) wallLimit(t *Tank, axis int, d int32) int32 {
	along, perp := t.X, t.Y
	if axis == 1 {
		along, perp = t.Y, t.X
	}
	p0, p1 := (perp-TankHalf)>>subTileShift, (perp+TankHalf-1)>>subTileShift
	wall := func(a int32) bool {
		for p := p0; p <= p1; p++ {
			if axis == 0 && w.maze.IsWall(int(a), int(p)) || axis == 1 && w.maze.IsWall(int(p), int(a)) {
				return true
			}
		}
		return false
	}
	if d > 0 {
		edge := along + TankHalf // first unit beyond the box
		for a := edge >> subTileShift; a <= (edge+d-1)>>subTileShift; a++ {
			if wall(a) {
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
		if wall(a) {
			if lim := (a+1)*SubTile - edge; lim > d {
				return lim
			}
			break
		}
	}
	return d
}

// bulletsOf counts the live bullets fired by slot i.
func (w *World) bulletsOf(i int) int {
	n := 0
	for k := 0; k < int(w.s.NumBullets); k++ {
		if int(w.s.Bullets[k].Owner) == i {
			n++
		}
	}
	return n
}
