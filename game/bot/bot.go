package bot

import "ttytanks/game"

// Tuning of the policy. Durations are in ticks.
const (
	// active is how long a candidate move sequence runs; after it the
	// tank is assumed to stop and wait where it is.
	active = 36
	// window is how far ahead bullets are traced and candidates are
	// checked against them.
	window = 100
	// safeAfter: a hit later than this is weighed only after progress
	// towards the target.
	safeAfter = 60
	// shotReach is the longest flight of a planned shot.
	shotReach = 100
	// shotBounces is how many ricochets a planned shot may make before it
	// hits (0: straight shots only).
	shotBounces = 1
	// shotMargin is how many ticks past the hit a target must stay clear
	// of a shot to count as escaping it.
	shotMargin = 4
	// reactTicks is how late a target is assumed to react to a shot.
	reactTicks = 1
	// epoch is how long a random choice (wander target, path tie-break)
	// holds.
	epoch = 60
	// wanderOneIn is the chance (1 in wanderOneIn) that an epoch is spent
	// heading for a random cell near the nearest enemy instead of the
	// enemy itself, which may take another way round.
	wanderOneIn = 8
	// flankMin and flankMax bound the path distance from the enemy of
	// the cell a wandering bot heads for.
	flankMin, flankMax = 3, 10
	// wanderMinDist is the path distance, in tiles, below which the bot
	// never wanders.
	wanderMinDist = 10
	// hesitateOneIn is the chance (1 in hesitateOneIn) that the bot holds
	// its fire for a tick although it has a shot.
	hesitateOneIn = 4
	// alignSlack is how far off a lane's centre the bot still turns into a
	// side lane and trusts corner assist to slide it in.
	alignSlack = game.CornerAssist - game.TankSpeed/2

	maxTiles = game.MaxMazeW * game.MaxMazeH
	noDist   = int16(0x7fff)
	noHit    = window + 1
)

// dirs8 are the eight move and aim directions; index 8 is "stand still".
var dirs8 = [9][2]int8{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {0, 0}}

const still = 8

// dirIndex returns the index in dirs8 of (mx, my).
func dirIndex(mx, my int8) int {
	for i, d := range dirs8 {
		if d[0] == mx && d[1] == my {
			return i
		}
	}
	return still
}

// plan is a candidate move sequence for dodging: move a for the first n
// ticks, then b until tick active, then stand still.
type plan struct {
	a, b int8 // indexes into dirs8
	n    int8
}

// Bot decides one player's input each tick. It is deterministic given its
// seed and the states it is shown, allocation-free per call, and not safe
// for concurrent use.
//
// Input is a pure function of the seed and its arguments: the Bot keeps no
// memory between calls, only scratch space, so a rolled-back or replayed
// state gives the same input again.
type Bot struct {
	seed  uint64
	level Level

	// BFS scratch: path distance (tiles) to the current target for each
	// tile, y*W+x, and the queue.
	dist  [maxTiles]int16
	queue [maxTiles]int16

	// Traces of the bullets that may hit the bot within window ticks:
	// position after k+1 steps (only while the bullet can hit the bot),
	// and how many steps each survives.
	nTrace int
	steps  [game.MaxBullets]uint8
	traceX [game.MaxBullets][window]int32
	traceY [game.MaxBullets][window]int32
	// danger[k][y] has bit x set when a tank centred on tile (x, y) may be
	// hit at step k+1: a cheap filter before the exact test.
	danger [window][game.MaxMazeH]uint64

	plans [64]plan

	// The flight of the shot being considered, one position per tick.
	shotX, shotY [2*shotReach + shotMargin]int32
}

// New returns a Hard bot whose random choices are drawn from seed. (The
// zero Bot is a usable Hard bot with seed 0.)
func New(seed uint64) *Bot { return &Bot{seed: seed} }

// NewLevel returns a bot of the given level whose random choices are drawn
// from seed.
func NewLevel(seed uint64, l Level) *Bot { return &Bot{seed: seed, level: l} }

// Level returns the bot's level.
func (b *Bot) Level() Level { return b.level }

// rand returns pseudo-random bits for (slot, t, salt) from the bot's seed.
func (b *Bot) rand(slot int, t uint32, salt uint64) uint64 {
	r := game.RNG{State: b.seed ^ uint64(slot+1)*0x9e3779b97f4a7c15 ^ uint64(t)*0xd1b54a32d192ed03 ^ salt*0xa0761d6478bd642f}
	r.Next()
	return r.Next()
}

// Input returns the input for slot at tick s.Tick, given the world state
// and its maze. When the match is over it votes for a rematch (a seated
// slot holds game.ButtonRematch); during a countdown and between rounds it
// is neutral.
func (b *Bot) Input(s *game.Snapshot, m *game.Maze, slot int) game.Input {
	in := game.Input{Tick: s.Tick}
	if slot < 0 || slot >= int(s.Slots) {
		return in
	}
	if s.Round.Phase == game.PhaseMatchOver && s.Tanks[slot].Seated {
		in.Buttons = game.ButtonRematch
		return in
	}
	if s.Round.Phase != game.PhasePlaying {
		return in
	}
	if m.W != int(s.Round.MazeW) || m.H != int(s.Round.MazeH) || m.Seed != s.Round.MazeSeed {
		return in // not this round's maze: nothing sensible to do
	}
	me := &s.Tanks[slot]
	if !me.Alive || !me.Seated || me.Hitstun > 0 {
		return in // dead, or stunned: the game ignores the input anyway
	}
	tick := uint32(s.Tick)
	ep := tick / epoch

	// Where to go: the nearest live enemy; for an occasional epoch, a
	// random cell near it, which may lead round another way.
	enemies := b.fieldFromEnemies(s, m, slot)
	if enemies > 0 {
		d := b.distAt(m, me.X, me.Y)
		if d != noDist && d >= wanderMinDist && b.rand(slot, ep, 1)%wanderOneIn == 0 {
			r := game.RNG{State: b.rand(slot, ep, 2)}
			for try := 0; try < 24; try++ {
				x, y := 2*r.Intn(m.W/2)+1, 2*r.Intn(m.H/2)+1
				if e := b.dist[y*m.W+x]; !m.IsWall(x, y) && e >= flankMin && e <= flankMax {
					b.fieldFrom(m, x, y)
					break
				}
			}
		}
	}

	// Shots: for each direction, would a bullet fired now surely hit an
	// enemy (before it could hit us)?
	var shotTicks [9]int
	sk := b.skill()
	canFire := me.Cooldown == 0
	// A slow bot looks for a shot only now and then, each slot at its own
	// phase; between looks it only moves.
	looking := (tick+uint32(slot)*7)%sk.lookEvery == 0
	canFire = canFire && looking
	best := -1
	for i := 0; i < 8 && canFire; i++ {
		shotTicks[i] = b.shot(s, m, slot, i)
		if shotTicks[i] > 0 && (best < 0 || shotTicks[i] < shotTicks[best]) {
			best = i
		}
	}
	shotTicks[still] = shotTicks[dirIndex(me.AimX, me.AimY)]
	hesitate := b.rand(slot, tick, 3)%hesitateOneIn == 0

	// The preferred move: turn and fire, or follow the path.
	want := still
	if canFire && best >= 0 {
		want = best
	} else {
		want = b.steer(m, me, slot, ep)
	}

	// Dodge: if the preferred move (held for a while, then waiting) runs
	// into a bullet soon, try other move sequences: the one hit latest
	// wins, hits after safeAfter ticks counting as none; then the one that
	// ends closest to the target; then the one hit latest at all.
	move := want
	if sk.dodge && b.traceBullets(s, m, slot, sk.seeAfter) > 0 {
		start := fromTank(me)
		if hit, _ := b.try(m, start, plan{a: int8(want), b: int8(want), n: active}, noDist); hit <= safeAfter {
			np := b.makePlans(want, canFire && shotTicks[want] > 0)
			bestSafe, bestHit, bestProg := -1, -1, int16(0)
			for _, p := range b.plans[:np] {
				bound := noDist
				if bestSafe > safeAfter {
					bound = bestProg // only a safe plan that ends nearer can win
				}
				hit, prog := b.try(m, start, p, bound)
				safe := min(hit, safeAfter+1)
				if safe > bestSafe || safe == bestSafe && (prog < bestProg || prog == bestProg && hit > bestHit) {
					bestSafe, bestHit, bestProg, move = safe, hit, prog, int(p.a)
				}
			}
		}
	}
	in.MoveX, in.MoveY = dirs8[move][0], dirs8[move][1]
	if canFire && shotTicks[move] > 0 && !hesitate {
		in.Buttons = game.ButtonFire
		if sk.missOneIn > 0 && move != still && b.rand(slot, tick, 4)%sk.missOneIn == 0 {
			// Miss on purpose: turn 45° too far, one way or the other.
			off := 1 + 6*int(b.rand(slot, tick, 5)&1)
			miss := (move + off) % 8
			in.MoveX, in.MoveY = dirs8[miss][0], dirs8[miss][1]
		}
	}
	return in
}

// makePlans fills b.plans with the move sequences tried when dodging and
// returns how many there are. The preferred move comes first so that it
// wins ties.
func (b *Bot) makePlans(want int, firing bool) int {
	n := 0
	add := func(a, c, k int) {
		b.plans[n] = plan{a: int8(a), b: int8(c), n: int8(k)}
		n++
	}
	add(want, want, active)
	if firing {
		// Fire this tick, then get out of the way.
		for c := 0; c < 9; c++ {
			add(want, c, 1)
		}
	}
	for a := 0; a < 9; a++ {
		if a != want {
			add(a, a, active)
		}
	}
	// Run along a lane, then turn off it.
	for a := 0; a < 8; a += 2 {
		for _, k := range [...]int{4, 8, 14, 20} {
			add(a, (a+2)%8, k)
			add(a, (a+6)%8, k)
		}
	}
	return n
}

// try simulates the bot's tank following p (move a for p.n ticks, then b
// until tick active, then standing still) against the traced bullets for
// window ticks. It returns the tick of the first hit (noHit if none) and
// the path distance to the target where the tank ends up. A plan that
// ends farther than bound from the target is given up early as hit at 0.
func (b *Bot) try(m *game.Maze, t tankSim, p plan, bound int16) (int, int16) {
	var prog int16 = -1
	fixed := -1 // a move that leaves t as it is: no need to step it
	for k := 0; k < window; k++ {
		mv := still
		switch {
		case k < int(p.n):
			mv = int(p.a)
		case k < active:
			mv = int(p.b)
		}
		if k == active {
			if prog = b.progress(m, t.x, t.y); prog > bound {
				return 0, prog
			}
		}
		if mv != fixed {
			prev := t
			t.step(m, dirs8[mv][0], dirs8[mv][1])
			fixed = -1
			if t == prev {
				fixed = mv // at rest, or pressed against a wall at full speed
			}
		}
		tx, ty := t.x>>subTileShift, t.y>>subTileShift
		if b.danger[k][ty]>>uint(tx)&1 == 0 {
			continue
		}
		for i := 0; i < b.nTrace; i++ {
			if k < int(b.steps[i]) && hits(b.traceX[i][k], b.traceY[i][k], t.x, t.y) {
				if prog < 0 {
					prog = b.progress(m, t.x, t.y)
				}
				return k + 1, prog
			}
		}
	}
	return noHit, prog
}

func (b *Bot) progress(m *game.Maze, x, y int32) int16 {
	d := b.distAt(m, x, y)
	if d == noDist {
		return 0
	}
	return d
}

// traceBullets records the flight of every bullet at least seeAfter ticks
// old for window ticks, as far as it can hit the bot, and returns how many
// may.
func (b *Bot) traceBullets(s *game.Snapshot, m *game.Maze, slot, seeAfter int) int {
	for k := range b.danger {
		clear(b.danger[k][:m.H])
	}
	b.nTrace = 0
	for j := 0; j < int(s.NumBullets); j++ {
		if game.BulletLife-int(s.Bullets[j].Life) < seeAfter {
			continue // too young: not seen yet
		}
		bl := fromBullet(&s.Bullets[j])
		own := int(s.Bullets[j].Owner) == slot
		i := b.nTrace
		n, marked := 0, false
		for n < window && bl.step(m) {
			b.traceX[i][n], b.traceY[i][n] = bl.x, bl.y
			if own && bl.bounces == 0 {
				// Cannot hit its owner yet: park it far away.
				b.traceX[i][n], b.traceY[i][n] = -4*game.SubTile, -4*game.SubTile
			} else {
				b.mark(m, n, bl.x, bl.y)
				marked = true
			}
			n++
		}
		if marked {
			b.steps[i] = uint8(n)
			b.nTrace++
		}
	}
	return b.nTrace
}

// mark sets the danger bits at step k for the tank centres a bullet at
// (x, y) hits: up to 2×2 tiles.
func (b *Bot) mark(m *game.Maze, k int, x, y int32) {
	x0, x1 := (x-game.TankHalf+1)>>subTileShift, (x+game.TankHalf-1)>>subTileShift
	y0, y1 := (y-game.TankHalf+1)>>subTileShift, (y+game.TankHalf-1)>>subTileShift
	for ty := max(y0, 0); ty <= y1 && ty < int32(m.H); ty++ {
		for tx := max(x0, 0); tx <= x1 && tx < int32(m.W); tx++ {
			b.danger[k][ty] |= 1 << uint(tx)
		}
	}
}

// shot returns the flight time of a bullet fired now in direction dir if
// it hits an enemy before anything else, with at most shotBounces
// ricochets within shotReach ticks, and the enemy cannot step out of its
// way in time; otherwise 0.
func (b *Bot) shot(s *game.Snapshot, m *game.Maze, slot, dir int) int {
	me := &s.Tanks[slot]
	t := fromTank(me)
	d := dirs8[dir]
	t.step(m, d[0], d[1]) // the turn: the bullet leaves from here
	bl := bulletSim{x: t.x, y: t.y, life: game.BulletLife}
	speed := int32(game.BulletSpeed)
	if d[0] != 0 && d[1] != 0 {
		speed = game.BulletDiagSpeed
	}
	bl.vx, bl.vy = int32(d[0])*speed, int32(d[1])*speed
	target, te := -1, 0
	for k := 0; k < shotReach && target < 0; k++ {
		if !bl.step(m) || bl.bounces > shotBounces {
			return 0
		}
		b.shotX[k], b.shotY[k] = bl.x, bl.y
		for i := 0; i < int(s.Slots); i++ {
			o := &s.Tanks[i]
			if !o.Alive || i == slot && bl.bounces == 0 {
				continue
			}
			x, y := o.X, o.Y
			if i == slot {
				x, y = t.x, t.y
			}
			if hits(bl.x, bl.y, x, y) {
				if i == slot {
					return 0
				}
				target, te = i, k+1
				break
			}
		}
	}
	if target < 0 {
		return 0
	}
	// Follow the bullet further: a target that merely lets it pass its
	// old place, or runs ahead of it, is not out of the way. A bullet
	// closes on a tank running away at BulletSpeed-TankSpeed, so twice
	// the flight time covers a chase down the lane.
	n := te
	for n < 2*te+shotMargin && n < len(b.shotX) && bl.step(m) {
		b.shotX[n], b.shotY[n] = bl.x, bl.y
		n++
	}
	if b.canEscape(m, &s.Tanks[target], n) {
		return 0
	}
	return te
}

// canEscape reports whether tank o, reacting reactTicks late, has a move
// sequence that keeps it clear of the first n steps of the bullet in
// b.shotX, b.shotY.
func (b *Bot) canEscape(m *game.Maze, o *game.Tank, n int) bool {
	first := dirIndex(sign32(o.VX), sign32(o.VY)) // what it is doing now
	for _, p := range escapes {
		t := fromTank(o)
		hit := false
		for k := 0; k < n && !hit; k++ {
			d := dirs8[p.b]
			switch {
			case k < reactTicks:
				d = dirs8[first]
			case k < reactTicks+int(p.n):
				d = dirs8[p.a]
			}
			t.step(m, d[0], d[1])
			hit = hits(b.shotX[k], b.shotY[k], t.x, t.y)
		}
		if !hit {
			return true
		}
	}
	return false
}

// escapes are the move sequences a target is assumed to try against a
// shot: hold any move, or run along an axis and then turn off it.
var escapes = func() (ps [9 + 4*4*2]plan) {
	n := 0
	for a := 0; a < 9; a++ {
		ps[n] = plan{a: int8(a), b: int8(a), n: 0}
		n++
	}
	for a := 0; a < 8; a += 2 {
		for _, k := range [...]int8{3, 6, 10, 15} {
			ps[n] = plan{a: int8(a), b: int8((a + 2) % 8), n: k}
			ps[n+1] = plan{a: int8(a), b: int8((a + 6) % 8), n: k}
			n += 2
		}
	}
	return ps
}()

// steer returns the dirs8 index of the move that follows the BFS field
// from the bot's tile towards its target.
func (b *Bot) steer(m *game.Maze, me *game.Tank, slot int, ep uint32) int {
	cx, cy := int(me.X>>subTileShift), int(me.Y>>subTileShift)
	d := b.dist[cy*m.W+cx]
	if d == noDist || d == 0 {
		return still
	}
	// Among the neighbours one step closer, pick one by the epoch's dice
	// so equal paths are not always taken the same way.
	var opts [4]int
	n := 0
	for k := 0; k < 8; k += 2 {
		x, y := cx+int(dirs8[k][0]), cy+int(dirs8[k][1])
		if !m.IsWall(x, y) && b.dist[y*m.W+x] == d-1 {
			opts[n] = k
			n++
		}
	}
	if n == 0 {
		return still
	}
	k := opts[int(b.rand(slot, ep, uint64(cy*m.W+cx)+16)%uint64(n))]
	dx := dirs8[k][0]
	// Line up with the lane first when too far off it to turn in.
	centre := func(c int) int32 { return int32(c)*game.SubTile + game.SubTile/2 }
	if dx != 0 {
		if e := centre(cy) - me.Y; abs32(e) > alignSlack {
			return dirIndex(0, sign32(e))
		}
	} else {
		if e := centre(cx) - me.X; abs32(e) > alignSlack {
			return dirIndex(sign32(e), 0)
		}
	}
	return k
}

func (b *Bot) distAt(m *game.Maze, x, y int32) int16 {
	tx, ty := int(x>>subTileShift), int(y>>subTileShift)
	if tx < 0 || ty < 0 || tx >= m.W || ty >= m.H {
		return noDist
	}
	return b.dist[ty*m.W+tx]
}

// fieldFromEnemies fills b.dist with the path distance to the nearest live
// enemy and returns how many live enemies there are.
func (b *Bot) fieldFromEnemies(s *game.Snapshot, m *game.Maze, slot int) int {
	b.clear(m)
	n, q := 0, 0
	for i := 0; i < int(s.Slots); i++ {
		o := &s.Tanks[i]
		if i == slot || !o.Alive {
			continue
		}
		n++
		q = b.push(m, q, int(o.X>>subTileShift), int(o.Y>>subTileShift), 0)
	}
	b.flood(m, q)
	return n
}

// fieldFrom fills b.dist with the path distance to tile (x, y).
func (b *Bot) fieldFrom(m *game.Maze, x, y int) {
	b.clear(m)
	b.flood(m, b.push(m, 0, x, y, 0))
}

func (b *Bot) clear(m *game.Maze) {
	for i := range b.dist[:m.W*m.H] {
		b.dist[i] = noDist
	}
}

func (b *Bot) push(m *game.Maze, q, x, y int, d int16) int {
	if m.IsWall(x, y) || b.dist[y*m.W+x] != noDist {
		return q
	}
	b.dist[y*m.W+x] = d
	b.queue[q] = int16(y*m.W + x)
	return q + 1
}

func (b *Bot) flood(m *game.Maze, q int) {
	for h := 0; h < q; h++ {
		i := int(b.queue[h])
		x, y := i%m.W, i/m.W
		d := b.dist[i] + 1
		q = b.push(m, q, x+1, y, d)
		q = b.push(m, q, x, y+1, d)
		q = b.push(m, q, x-1, y, d)
		q = b.push(m, q, x, y-1, d)
	}
}
