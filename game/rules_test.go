package game

import (
	"strings"
	"testing"
)

// scene builds a world on a literal maze with the given tanks (slot order)
// and no bullets.
func scene(t *testing.T, rows []string, tanks ...Tank) *World {
	t.Helper()
	m, err := ParseMaze(rows...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorldWithMaze(len(tanks), 1, m)
	if err != nil {
		t.Fatal(err)
	}
	for i, tk := range tanks {
		w.SetTank(i, tk)
	}
	return w
}

// at returns a live, seated tank centred on tile (x, y), facing right.
func at(x, y int) Tank {
	return Tank{X: int32(x)*SubTile + SubTile/2, Y: int32(y)*SubTile + SubTile/2,
		AimX: 1, HP: TankHP, Alive: true, Seated: true}
}

// run steps w n times; each slot gets the input made by f (nil: neutral).
func run(w *World, n int, f func(slot int) Input) {
	in := make([]Input, w.Slots())
	for k := 0; k < n; k++ {
		for i := range in {
			in[i] = Input{}
			if f != nil {
				in[i] = f(i)
			}
			in[i].Tick = w.Tick()
		}
		w.Step(in)
	}
}

func hold(mx, my int8, b Buttons) func(int) Input {
	return func(int) Input { return Input{MoveX: mx, MoveY: my, Buttons: b} }
}

func only(slot int, in Input) func(int) Input {
	return func(i int) Input {
		if i == slot {
			return in
		}
		return Input{}
	}
}

var corridor = []string{
	"###########",
	"#.........#",
	"###########",
}

func TestTankStopsAtWall(t *testing.T) {
	w := scene(t, corridor, at(1, 1))
	run(w, 200, hold(1, 0, 0))
	tk := w.State().Tanks[0]
	wantX := int32(10*SubTile - TankHalf) // touching the east wall
	if tk.X != wantX || tk.Y != SubTile+SubTile/2 {
		t.Fatalf("tank at (%d,%d), want (%d,%d) against the wall", tk.X, tk.Y, wantX, SubTile+SubTile/2)
	}
	run(w, 120, hold(0, -1, 0))
	if got := w.State().Tanks[0].Y; got != SubTile+TankHalf {
		t.Fatalf("moving up: y = %d, want %d (against the north wall)", got, SubTile+TankHalf)
	}
}

func TestTankAcceleratesSmoothly(t *testing.T) {
	w := scene(t, corridor, at(1, 1))
	var vx []int32
	for k := 0; k < 30; k++ {
		run(w, 1, hold(1, 0, 0))
		vx = append(vx, w.State().Tanks[0].VX)
	}
	for k := 1; k < len(vx); k++ {
		if vx[k] < vx[k-1] || vx[k] > TankSpeed {
			t.Fatalf("velocity not a smooth ramp to %d: %v", TankSpeed, vx)
		}
	}
	if vx[0] >= TankSpeed || vx[len(vx)-1] != TankSpeed {
		t.Fatalf("velocity should ramp up to %d, got %v", TankSpeed, vx)
	}
}

func TestTanksPushedTogetherNeverOverlap(t *testing.T) {
	open := []string{
		"#########",
		"#.......#",
		"#.......#",
		"#.......#",
		"#########",
	}
	w := scene(t, open, at(2, 2), at(5, 2), at(4, 1))
	touched := false
	for k := 0; k < 300; k++ {
		moves := [][2]int8{{1, 0}, {-1, 0}, {0, 1}}
		if k > 150 {
			moves = [][2]int8{{1, 1}, {-1, -1}, {-1, 1}}
		}
		run(w, 1, func(i int) Input { return Input{MoveX: moves[i][0], MoveY: moves[i][1]} })
		s := w.State()
		for i := 0; i < 3; i++ {
			for j := i + 1; j < 3; j++ {
				a, b := s.Tanks[i], s.Tanks[j]
				dx, dy := abs32(a.X-b.X), abs32(a.Y-b.Y)
				if dx < 2*TankHalf && dy < 2*TankHalf {
					t.Fatalf("tick %d: tanks %d and %d overlap: %+v %+v", k, i, j, a, b)
				}
				if max(dx, dy) == 2*TankHalf {
					touched = true
				}
			}
		}
	}
	if !touched {
		t.Fatal("the tanks never met; the scene does not test pushing")
	}
}

func TestTankPushesAnother(t *testing.T) {
	w := scene(t, corridor, at(2, 1), at(4, 1))
	run(w, 60, only(0, Input{MoveX: 1}))
	s := w.State()
	if s.Tanks[1].X <= 4*SubTile+SubTile/2 {
		t.Fatalf("tank 1 was not pushed: x = %d", s.Tanks[1].X)
	}
	if s.Tanks[1].X-s.Tanks[0].X != 2*TankHalf {
		t.Fatalf("pusher and pushed should touch: %d apart", s.Tanks[1].X-s.Tanks[0].X)
	}
}

func TestStoppedTankFiresAlongLastAim(t *testing.T) {
	w := scene(t, []string{
		"#######",
		"#.....#",
		"#.....#",
		"#.....#",
		"#######",
	}, at(3, 2))
	run(w, 1, hold(0, -1, 0)) // face up
	run(w, 30, nil)           // come to a stop
	if tk := w.State().Tanks[0]; tk.VX != 0 || tk.VY != 0 || tk.AimX != 0 || tk.AimY != -1 {
		t.Fatalf("tank should be stopped facing up: %+v", tk)
	}
	run(w, 1, hold(0, 0, ButtonFire))
	s := w.State()
	if s.NumBullets != 1 || s.Bullets[0].VX != 0 || s.Bullets[0].VY != -BulletSpeed {
		t.Fatalf("want one bullet flying up, got %d: %+v", s.NumBullets, s.Bullets[0])
	}
}

func TestCooldownBlocksRefire(t *testing.T) {
	w := scene(t, []string{
		"#######################",
		"#.....................#",
		"#######################",
	}, at(1, 1))
	for k := 0; k < FireCooldown; k++ {
		run(w, 1, hold(0, 0, ButtonFire))
		if got := w.State().NumBullets; got != 1 {
			t.Fatalf("tick %d of cooldown: %d bullets, want 1", k, got)
		}
	}
	run(w, 1, hold(0, 0, ButtonFire))
	if got := w.State().NumBullets; got != 2 {
		t.Fatalf("after the cooldown: %d bullets, want 2", got)
	}
}

func TestBulletCapPerTank(t *testing.T) {
	w := scene(t, []string{
		"#####",
		"#...#",
		"#...#",
		"#...#",
		"#####",
	}, at(2, 2))
	run(w, FireCooldown*(MaxBulletsPerTank+3), hold(0, 0, ButtonFire))
	if got := w.bulletsOf(0); got > MaxBulletsPerTank {
		t.Fatalf("%d live bullets, cap is %d", got, MaxBulletsPerTank)
	}
}

// bulletScene is a world with one tank far away in a corner and one
// bullet, on maze rows.
func bulletScene(t *testing.T, rows []string, b Bullet) *World {
	w := scene(t, rows, at(1, 1))
	w.AddBullet(b)
	return w
}

func TestBulletRicochetsOffWall(t *testing.T) {
	rows := []string{
		"#########",
		"#.......#",
		"#.......#",
		"#.......#",
		"#########",
	}
	// Flying right along row 2 towards the east wall at x = 8 tiles.
	b := Bullet{X: 7*SubTile + 950, Y: 2*SubTile + 512, VX: BulletSpeed, Owner: 0, Life: 100}
	w := bulletScene(t, rows, b)
	run(w, 1, nil)
	got := w.State().Bullets[0]
	if got.VX != -BulletSpeed || got.X != b.X || got.Bounces != 1 || got.VY != 0 {
		t.Fatalf("bullet after hitting the east wall = %+v, want it reversed in place with 1 bounce", got)
	}
	run(w, 1, nil)
	if got := w.State().Bullets[0]; got.X != b.X-BulletSpeed {
		t.Fatalf("reversed bullet should fly back west: x = %d, want %d", got.X, b.X-BulletSpeed)
	}
}

func TestBulletDiagonalOffWallKeepsOtherAxis(t *testing.T) {
	rows := []string{
		"#########",
		"#.......#",
		"#.......#",
		"#.......#",
		"#########",
	}
	b := Bullet{X: 3*SubTile + 512, Y: 3*SubTile + 1000, VX: BulletDiagSpeed, VY: BulletDiagSpeed, Life: 100}
	w := bulletScene(t, rows, b)
	run(w, 1, nil)
	got := w.State().Bullets[0]
	if got.VX != BulletDiagSpeed || got.VY != -BulletDiagSpeed || got.X != b.X+BulletDiagSpeed || got.Y != b.Y {
		t.Fatalf("bullet off the floor = %+v, want VY reversed, x advanced, y kept", got)
	}
}

func TestBulletRicochetsOffCorner(t *testing.T) {
	// Tile (3,2) is a lone post: a bullet flying diagonally at its corner,
	// with open tiles on both sides, comes straight back.
	rows := []string{
		"######",
		"#....#",
		"#..#.#",
		"#....#",
		"######",
	}
	b := Bullet{X: 3*SubTile - 50, Y: 2*SubTile - 50, VX: BulletDiagSpeed, VY: BulletDiagSpeed, Life: 100}
	w := bulletScene(t, rows, b)
	run(w, 1, nil)
	got := w.State().Bullets[0]
	if got.VX != -BulletDiagSpeed || got.VY != -BulletDiagSpeed || got.X != b.X || got.Y != b.Y || got.Bounces != 1 {
		t.Fatalf("bullet at a corner = %+v, want both components reversed in place, 1 bounce", got)
	}
}

func TestBulletDiesAfterBounceLimitAndLifetime(t *testing.T) {
	rows := []string{
		"#####",
		"#.###",
		"#####",
	}
	// Bouncing between the walls of a one-tile cell.
	w := bulletScene(t, rows, Bullet{X: SubTile + 512, Y: SubTile + 512, VX: BulletSpeed, Life: BulletLife})
	w.SetTank(0, Tank{Seated: true, AimX: 1}) // dead: out of the way
	maxB := 0
	for k := 0; k < BulletLife && w.State().NumBullets == 1; k++ {
		run(w, 1, nil)
		maxB = max(maxB, int(w.State().Bullets[0].Bounces))
	}
	if w.State().NumBullets != 0 || maxB != BulletBounces {
		t.Fatalf("bullet should die on the contact after %d bounces; live=%d maxBounces=%d", BulletBounces, w.State().NumBullets, maxB)
	}
	w = bulletScene(t, []string{"#####################", "#...................#", "#####################"},
		Bullet{X: SubTile + 512, Y: SubTile + 512, VX: 0, VY: 0, Life: 10})
	w.SetTank(0, Tank{Seated: true, AimX: 1})
	run(w, 9, nil)
	if w.State().NumBullets != 1 {
		t.Fatal("bullet died before its lifetime")
	}
	run(w, 1, nil)
	if w.State().NumBullets != 0 {
		t.Fatal("bullet outlived its lifetime")
	}
}

func TestHitLowersHPStunsKnocksBackAndRemovesBullet(t *testing.T) {
	w := scene(t, []string{
		"###########",
		"#.........#",
		"###########",
	}, at(1, 1), at(6, 1))
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	hit := false
	for k := 0; k < 60 && !hit; k++ {
		run(w, 1, nil)
		hit = w.State().Tanks[1].HP < TankHP
	}
	s := w.State()
	v := s.Tanks[1]
	if !hit || v.HP != TankHP-BulletDamage || v.Hitstun != HitstunTicks || v.VX != KnockbackSpeed || s.NumBullets != 0 {
		t.Fatalf("after the hit: victim %+v, %d bullets; want HP %d, hitstun %d, knockback %d, bullet gone",
			v, s.NumBullets, TankHP-BulletDamage, HitstunTicks, KnockbackSpeed)
	}
	x := v.X
	run(w, 1, only(1, Input{MoveX: -1}))
	if got := w.State().Tanks[1]; got.X <= x || got.AimX != 1 {
		t.Fatalf("a stunned tank must ignore input and be knocked back: %+v (was at %d)", got, x)
	}
}

func TestRicochetHitsOwner(t *testing.T) {
	w := scene(t, []string{
		"#####",
		"#...#",
		"#####",
	}, at(2, 1))
	run(w, 1, hold(0, 0, ButtonFire)) // fires east into the wall 2 tiles away
	for k := 0; k < 30 && w.State().Tanks[0].HP == TankHP; k++ {
		run(w, 1, nil)
	}
	if got := w.State().Tanks[0].HP; got != TankHP-BulletDamage {
		t.Fatalf("own ricochet should hit the owner: HP %d", got)
	}
}

func TestOwnBulletDoesNotHitBeforeBounce(t *testing.T) {
	w := scene(t, []string{
		"##############",
		"#............#",
		"##############",
	}, at(1, 1))
	run(w, 1, hold(1, 0, ButtonFire))
	run(w, 20, hold(1, 0, 0)) // chase the bullet
	if got := w.State().Tanks[0].HP; got != TankHP {
		t.Fatalf("a bullet hit its owner before any ricochet: HP %d", got)
	}
}

func TestLastTankStandingScoresAndNewMazeFollows(t *testing.T) {
	w := scene(t, []string{
		"#########",
		"#.......#",
		"#.......#",
		"#.......#",
		"#.......#",
		"#.......#",
		"#########",
	}, at(1, 2), at(7, 2))
	victim := at(7, 2)
	victim.HP = 1
	w.SetTank(1, victim)
	oldMaze := w.Maze().String()
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	for k := 0; k < 120 && w.State().Round.Phase == PhasePlaying; k++ {
		run(w, 1, nil)
	}
	s := w.State()
	if s.Round.Phase != PhaseOver || s.Round.Winner != 0 || s.Tanks[0].Score != 1 || s.Tanks[1].Alive {
		t.Fatalf("round should be over, won by slot 0 with score 1: %+v tanks %+v %+v", s.Round, s.Tanks[0], s.Tanks[1])
	}
	if wreck := s.Tanks[1]; wreck.X != victim.X || wreck.Y != victim.Y || wreck.VX != 0 || wreck.HP != 0 {
		t.Fatalf("the wreck should stay where the tank died, stopped: %+v", wreck)
	}
	run(w, RoundOverTicks, nil)
	s = w.State()
	if s.Round.Number != 2 || s.Round.Phase != PhaseCountdown || s.Round.Timer != CountdownTicks || s.NumBullets != 0 {
		t.Fatalf("a new round should start with its countdown: %+v", s.Round)
	}
	if w.Maze().String() == oldMaze || w.Maze().W != 9 || w.Maze().H != 7 {
		t.Fatalf("new round kept the old maze:\n%s", w.Maze())
	}
	for i := 0; i < 2; i++ {
		tk := s.Tanks[i]
		if !tk.Alive || tk.HP != TankHP || w.Maze().IsWall(int(tk.X/SubTile), int(tk.Y/SubTile)) {
			t.Fatalf("tank %d not respawned on floor with full HP: %+v", i, tk)
		}
	}
	if s.Tanks[0].Score != 1 || s.Tanks[1].Score != 0 {
		t.Fatalf("scores must carry over: %d, %d", s.Tanks[0].Score, s.Tanks[1].Score)
	}
}

func TestRoundTimeLimitIsADraw(t *testing.T) {
	w, err := NewWorld(Config{Slots: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	run(w, CountdownTicks, nil)
	if r := w.State().Round; r.Phase != PhasePlaying || r.Timer != RoundTicks {
		t.Fatalf("after the countdown: %+v, want a round of %d ticks to play", r, RoundTicks)
	}
	run(w, RoundTicks-1, nil)
	if w.State().Round.Phase != PhasePlaying {
		t.Fatal("round ended before its time limit")
	}
	run(w, 1, nil)
	r := w.State().Round
	if r.Phase != PhaseOver || r.Winner != -1 || w.State().Tanks[0].Score+w.State().Tanks[1].Score != 0 {
		t.Fatalf("time limit should end the round in a draw: %+v", r)
	}
}

func TestCornerAssistTurnsIntoSideCorridor(t *testing.T) {
	w := scene(t, []string{
		"#####",
		"#...#",
		"###.#",
		"###.#",
		"#####",
	}, at(1, 1))
	run(w, 200, hold(1, 0, 0)) // to the east end of the top corridor
	tk := w.State().Tanks[0]
	tk.X -= 300 // a bit short of the side corridor's centre line
	w.SetTank(0, tk)
	run(w, 120, hold(0, 1, 0))
	if got := w.State().Tanks[0]; got.Y/SubTile != 3 {
		t.Fatalf("tank should have turned down the side corridor: %+v", got)
	}
}

func TestBadInputIsClampedNotFatal(t *testing.T) {
	w := scene(t, corridor, at(3, 1))
	run(w, 30, func(int) Input { return Input{MoveX: 100, MoveY: -128, Buttons: 0xFE} })
	s := w.State()
	if s.Tanks[0].X <= 3*SubTile+SubTile/2 || s.NumBullets != 0 {
		t.Fatalf("MoveX 100 should act as 1 and unknown buttons be ignored: %+v, %d bullets", s.Tanks[0], s.NumBullets)
	}
	if !(Input{MoveX: 2}).Clamped().Valid() || (Input{MoveX: 2}).Valid() || (Input{Buttons: 4}).Valid() || !(Input{Buttons: ButtonFire | ButtonRematch}).Valid() {
		t.Fatal("Valid/Clamped disagree about range")
	}
}

func TestStepPanicsOnProgrammerError(t *testing.T) {
	w := scene(t, corridor, at(1, 1), at(5, 1))
	cases := []struct {
		name string
		in   []Input
		want string
	}{
		{"too few", []Input{{}}, "got 1 inputs for 2 slots"},
		{"wrong tick", []Input{{}, {Tick: 5}}, "got input for tick 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, c.want) {
					t.Fatalf("panic %v, want one containing %q", r, c.want)
				}
			}()
			w.Step(c.in)
		})
	}
}

// TestNewcomerWaitsForTheNextRound: a player seated mid-round is not in
// the maze and hands nobody a win; with the round's only other tank left
// alone, the round ends at once as a draw and both spawn in the next.
func TestNewcomerWaitsForTheNextRound(t *testing.T) {
	rows := []string{
		"#########",
		"#.......#",
		"#.......#",
		"#.......#",
		"#########",
	}
	w := scene(t, rows, at(1, 1), at(7, 3), Tank{})
	w.Seat(2, true) // a newcomer, mid-round: 2 of 3 seats took part
	if w.State().Tanks[2].Spawned() || !w.State().Tanks[0].Spawned() {
		t.Fatal("Spawned: the newcomer is in the maze, or a playing tank is not")
	}
	run(w, 3, nil)
	if w.State().Round.Phase != PhasePlaying {
		t.Fatal("a waiting newcomer ended a round with two tanks in it")
	}
	// One of the two leaves: the other is alone with the newcomer waiting.
	w.Seat(1, false)
	run(w, 1, nil)
	r := w.State().Round
	if r.Phase != PhaseOver || r.Winner != -1 || w.State().Tanks[0].Score != 0 {
		t.Fatalf("round %+v, score %d: want a draw at once", r, w.State().Tanks[0].Score)
	}
	run(w, RoundOverTicks+CountdownTicks+1, nil)
	s := w.State()
	if s.Round.Phase != PhasePlaying || !s.Tanks[0].Alive || !s.Tanks[2].Alive || !s.Tanks[2].Spawned() {
		t.Fatalf("next round: phase %v, tanks %+v %+v", s.Round.Phase, s.Tanks[0], s.Tanks[2])
	}
}
