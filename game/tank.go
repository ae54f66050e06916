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
		tx, ty = TargetVelocity(in.MoveX, in.MoveY)
	}
	t.VX = Approach(t.VX, tx)
	t.VY = Approach(t.VY, ty)
	if control {
		if axis, off := w.maze.CornerNudge(t.X, t.Y, in.MoveX, in.MoveY); off != 0 {
			w.slide(i, axis, off, false)
		}
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
		inc(&t.Stats.Shots)
	}
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
	d = w.maze.WallLimit(t.X, t.Y, axis, d)
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
