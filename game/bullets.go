package game

// stepBullets moves every bullet one tick in firing order, ricocheting off
// walls and hitting tanks, and compacts the survivors to the front of the
// bullet array (keeping their order and zeroing freed slots).
func (w *World) stepBullets() {
	n := uint8(0)
	for k := uint8(0); k < w.s.NumBullets; k++ {
		b := w.s.Bullets[k]
		if w.stepBullet(&b) {
			w.s.Bullets[n] = b
			n++
		}
	}
	for k := n; k < w.s.NumBullets; k++ {
		w.s.Bullets[k] = Bullet{}
	}
	w.s.NumBullets = n
}

// stepBullet advances one bullet (Maze.MoveBullet) and then tests it
// against the tanks; it reports whether the bullet survives.
//
// Ricochet rule (Maze.MoveBullet): the bullet moves along both axes at once. If the step on
// the x axis alone would enter a wall tile, VX reverses and the bullet keeps
// its x; likewise for y. If neither single-axis step hits a wall but the
// diagonal target tile is a wall (the bullet meets a wall corner head on),
// both components reverse and the bullet flies straight back. Each wall
// contact costs one bounce, a corner included; the contact after
// BulletBounces ricochets removes the bullet. A bullet cannot hit the tank
// that fired it until it has ricocheted at least once.
func (w *World) stepBullet(b *Bullet) bool {
	if !w.maze.MoveBullet(b) {
		return false
	}
	for i := 0; i < int(w.s.Slots); i++ {
		t := &w.s.Tanks[i]
		if !t.Alive || (int(b.Owner) == i && b.Bounces == 0) {
			continue
		}
		if abs32(b.X-t.X) < TankHalf && abs32(b.Y-t.Y) < TankHalf {
			w.hit(i, b)
			return false
		}
	}
	return true
}

// hit applies bullet b to tank i: damage, hitstun, knockback along the
// bullet's direction, and death at zero HP; and counts it in the stats: a
// hit and, at zero HP, a kill for the shooter when it is another seated
// tank (the bullets of a player who left fly on and count for nobody),
// and a death for the victim.
func (w *World) hit(i int, b *Bullet) {
	t := &w.s.Tanks[i]
	var shooter *Stats
	if o := &w.s.Tanks[b.Owner]; int(b.Owner) != i && o.Seated {
		shooter = &o.Stats
		inc(&shooter.Hits)
	}
	t.HP -= BulletDamage
	if t.HP <= 0 {
		inc(&t.Stats.Deaths)
		if shooter != nil {
			inc(&shooter.Kills)
		}
		*t = Tank{X: t.X, Y: t.Y, Seated: true, AimX: t.AimX, AimY: t.AimY, Score: t.Score, Stats: t.Stats} // a wreck where it died
		return
	}
	t.Hitstun = HitstunTicks
	k := int32(KnockbackSpeed)
	if b.VX != 0 && b.VY != 0 {
		k = KnockbackSpeed * 181 / 256 // ≈ 1/√2
	}
	t.VX, t.VY = sign32(b.VX)*k, sign32(b.VY)*k
}

func sign32(v int32) int32 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
