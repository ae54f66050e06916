package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// roomMaze is an open room of 9×5 floor tiles inside the border wall.
var roomMaze = []string{
	"###########",
	"#.........#",
	"#.........#",
	"#.........#",
	"#.........#",
	"#.........#",
	"###########",
}

// keyAt is a key event at an offset from the start of a drive.
type keyAt struct {
	at time.Duration
	ev *tcell.EventKey
}

// driveResult is what a drive measured.
type driveResult struct {
	tank   game.Tank
	moving []bool // per tick: whether the input held a direction
}

// drive runs a one-tank world on maze from tile (tx, ty) for d of fake time
// at game.TickRate, as Run does: each tick a frame tracks the tank in the
// view, the keys that came since the last frame are applied, and the
// input the world steps with is sampled.
func drive(t *testing.T, maze []string, tx, ty int, d time.Duration, keys ...keyAt) driveResult {
	t.Helper()
	return driveFrames(t, 1, maze, tx, ty, d, keys...)
}

// driveFrames is drive with a frame every ticks ticks; the input the last
// frame sampled holds in between.
func driveFrames(t *testing.T, ticks int, maze []string, tx, ty int, d time.Duration, keys ...keyAt) driveResult {
	t.Helper()
	m, err := game.ParseMaze(maze...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := game.NewWorldWithMaze(1, 1, m)
	if err != nil {
		t.Fatal(err)
	}
	x, y := at(tx, ty)
	w.SetTank(0, game.Tank{X: x, Y: y, AimX: 1, HP: game.TankHP, Alive: true, Seated: true})
	c := NewControls(ControlsHold)
	v := &netcode.View{Status: netcode.StatusPlaying, Slot: 0, Maze: m}
	var res driveResult
	var in game.Input
	tick := time.Second / game.TickRate
	for i := 0; time.Duration(i)*tick < d; i++ {
		now := t0.Add(time.Duration(i) * tick)
		if i%ticks == 0 {
			w.Save(&v.World)
			c.Track(v, now)
			for len(keys) > 0 && keys[0].at <= now.Sub(t0) {
				c.Key(keys[0].ev, t0.Add(keys[0].at))
				keys = keys[1:]
			}
			in = c.Input(now)
		}
		in.Tick = w.Tick()
		res.moving = append(res.moving, in.MoveX != 0 || in.MoveY != 0)
		w.Step([]game.Input{in})
	}
	res.tank = w.State().Tanks[0]
	return res
}

// offCentre returns the tank's tile and how far it is from that tile's
// centre, in sub-tiles, on each axis.
func offCentre(tk game.Tank) (tx, ty int, dx, dy int32) {
	tx, ty = int(tk.X/game.SubTile), int(tk.Y/game.SubTile)
	cx, cy := at(tx, ty)
	return tx, ty, tk.X - cx, tk.Y - cy
}

// autoRepeat returns a held key's events as a terminal sends them: the
// press at start, the first repeat after delay, then one every every
// until end.
func autoRepeat(ev *tcell.EventKey, start, delay, every, end time.Duration) []keyAt {
	keys := []keyAt{{start, ev}}
	for at := start + delay; at < end; at += every {
		keys = append(keys, keyAt{at, ev})
	}
	return keys
}

// TestTapMovesOneTile: one press of a direction key, never repeated,
// moves the tank exactly one tile and stops it on that tile's centre (or
// less than two ticks' travel right of or below it, where the renderer
// draws the tank in the same cell), in each direction, whichever way the
// tank faced. (It held the direction for HoldFirst: 2.8 tiles.)
func TestTapMovesOneTile(t *testing.T) {
	for _, k := range directionKeys[:4] {
		res := drive(t, roomMaze, 5, 3, 2*time.Second, keyAt{0, k.ev})
		tx, ty, dx, dy := offCentre(res.tank)
		wantX, wantY := 5+int(k.want.x), 3+int(k.want.y)
		off := dx + dy // along the move: the other is 0
		if tx != wantX || ty != wantY || off < 0 || off >= 2*game.TankSpeed || dx*int32(k.want.y) != 0 || dy*int32(k.want.x) != 0 {
			t.Errorf("%s: the tank stopped in tile (%d, %d), %d, %d sub-tiles off its centre; want (%d, %d), on the centre or less than %d right of or below it",
				k.name, tx, ty, dx, dy, wantX, wantY, 2*game.TankSpeed)
		}
		if res.tank.VX != 0 || res.tank.VY != 0 {
			t.Errorf("%s: the tank still moves (%d, %d)", k.name, res.tank.VX, res.tank.VY)
		}
		held := 0
		for _, m := range res.moving {
			if m {
				held++
			}
		}
		// From rest, the step takes about a tile's time at full speed less
		// the coast: 13 to 16 ticks.
		if held < 10 || held > 20 || !res.moving[0] {
			t.Errorf("%s: the direction was held %d ticks (from the first: %v), want a step's 10 to 20", k.name, held, res.moving[0])
		}
		if a := res.tank; a.AimX != k.want.x || a.AimY != k.want.y {
			t.Errorf("%s: the tank faces (%d, %d)", k.name, a.AimX, a.AimY)
		}
	}
}

// TestTapSteps: taps a second apart step one tile each, and a double tap
// (the second press after the first step ended) steps two.
func TestTapSteps(t *testing.T) {
	right := specialKey(tcell.KeyRight)
	res := drive(t, roomMaze, 1, 3, 4*time.Second, keyAt{0, right}, keyAt{time.Second, right}, keyAt{2 * time.Second, right})
	if tx, _, dx, _ := offCentre(res.tank); tx != 4 || dx < 0 || dx >= game.TankSpeed {
		t.Errorf("three taps from tile 1: tile %d, %d off its centre; want tile 4, on its centre", tx, dx)
	}
	res = drive(t, roomMaze, 1, 3, 2*time.Second, keyAt{0, right}, keyAt{ms(330), right})
	if tx, _, dx, _ := offCentre(res.tank); tx != 3 || dx < 0 || dx >= game.TankSpeed {
		t.Errorf("a double tap from tile 1: tile %d, %d off its centre; want tile 3, on its centre", tx, dx)
	}
}

// TestTapTurnsAtWall: a tap towards a wall turns the tank to face it and
// lets go at once: the tank stays in its tile, drifting 65 sub-tiles
// (1/16 of a tile) towards the wall, what one tick of input moves it.
func TestTapTurnsAtWall(t *testing.T) {
	up := specialKey(tcell.KeyUp)
	res := drive(t, roomMaze, 3, 1, time.Second, keyAt{0, up})
	tx, ty, dx, dy := offCentre(res.tank)
	v1 := game.Approach(0, -game.TankSpeed)
	drift := -(v1 + coast(v1)) // one tick of input, then the brakes: 65
	if tx != 3 || ty != 1 || dx != 0 || dy > 0 || dy < -drift {
		t.Errorf("a tap up under the wall: tile (%d, %d), off centre (%d, %d); want (3, 1), at most %d up", tx, ty, dx, dy, drift)
	}
	if res.tank.AimX != 0 || res.tank.AimY != -1 {
		t.Errorf("the tank faces (%d, %d), want up", res.tank.AimX, res.tank.AimY)
	}
	held := 0
	for _, m := range res.moving {
		if m {
			held++
		}
	}
	if held > 2 {
		t.Errorf("the turn held the direction %d ticks, want 1 or 2", held)
	}
	// Tapped again, facing the wall already: nothing moves.
	again := drive(t, roomMaze, 3, 1, time.Second, keyAt{0, up}, keyAt{ms(500), up}, keyAt{ms(700), up})
	if again.tank.Y != res.tank.Y {
		t.Errorf("two more taps up at the wall moved the tank from y %d to %d", res.tank.Y, again.tank.Y)
	}
}

// TestHoldDrivesOn: a key held down (a press, the auto-repeat delay, then
// repeats) drives on for as long as the repeats come, several tiles in
// 1.5 s, and stops on a tile centre when they stop. With a short
// auto-repeat delay the direction is held without a break; with a long
// one the first press's step ends before the first repeat, and the
// repeats drive on from there.
func TestHoldDrivesOn(t *testing.T) {
	right := specialKey(tcell.KeyRight)
	for _, cad := range []struct {
		delay, every time.Duration
		breaks       int // most runs of ticks without a direction before the last repeat
	}{
		{ms(250), ms(33), 0},
		{ms(500), ms(30), 1},
		{ms(500), ms(50), 1},
	} {
		keys := autoRepeat(right, 0, cad.delay, cad.every, ms(1500))
		res := drive(t, roomMaze, 1, 3, 3*time.Second, keys...)
		tx, _, dx, _ := offCentre(res.tank)
		if tx < 1+4 || dx < 0 || dx >= game.TankSpeed || res.tank.VX != 0 {
			t.Errorf("delay %v, every %v: held 1.5 s from tile 1, the tank stopped in tile %d, %d off its centre (moving %d); want 4 tiles or more, on a centre",
				cad.delay, cad.every, tx, dx, res.tank.VX)
		}
		last := int(keys[len(keys)-1].at * game.TickRate / time.Second)
		breaks := 0
		for i := 1; i <= last; i++ {
			if !res.moving[i] && res.moving[i-1] {
				breaks++
			}
		}
		if breaks > cad.breaks || !res.moving[last] {
			t.Errorf("delay %v, every %v: the direction broke off %d times before the last repeat (held then: %v), want at most %d",
				cad.delay, cad.every, breaks, res.moving[last], cad.breaks)
		}
	}
}

// TestTapAt30FPS: with a frame every other tick (an SSH session's 30
// frames a second) a tap still moves one tile and stops in the tile's
// centre cell: from the centre to less than three ticks' travel right of
// or below it.
func TestTapAt30FPS(t *testing.T) {
	for _, k := range directionKeys[:4] {
		res := driveFrames(t, 2, roomMaze, 5, 3, 2*time.Second, keyAt{0, k.ev})
		tx, ty, dx, dy := offCentre(res.tank)
		wantX, wantY := 5+int(k.want.x), 3+int(k.want.y)
		if off := dx + dy; tx != wantX || ty != wantY || off < 0 || off >= 3*game.TankSpeed {
			t.Errorf("%s: the tank stopped in tile (%d, %d), %d, %d sub-tiles off its centre; want (%d, %d), less than %d right of or below it",
				k.name, tx, ty, dx, dy, wantX, wantY, 3*game.TankSpeed)
		}
	}
}
