package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// frameDT is one frame at 60 FPS.
const frameDT = time.Second / 60

// smoothRig draws testView frame by frame on an 80×24 screen with a kept
// Renderer and a fake frame clock; each frame advances the world one tick.
type smoothRig struct {
	t   *testing.T
	scr tcell.SimulationScreen
	r   *Renderer
	v   *netcode.View
	now time.Time
}

func newSmoothRig(t *testing.T, opts Options) *smoothRig {
	t.Helper()
	scr := newScreen(t, 80, 24)
	g := &smoothRig{t: t, scr: scr, r: NewRenderer(scr, opts), v: testView(t), now: t0}
	for range 3 {
		g.frame(1, nil)
	}
	return g
}

// frame applies edit, advances the world by ticks and the clock by one
// frame, and draws.
func (g *smoothRig) frame(ticks int, edit func(v *netcode.View)) {
	if edit != nil {
		edit(g.v)
	}
	g.v.World.Tick += game.Tick(ticks)
	g.now = g.now.Add(frameDT)
	g.r.DrawAt(g.v, g.now)
}

// cell returns the maze cell (column, row) where glyph is drawn in the
// field; it must be there exactly once. The testView maze fits at 80×24, so
// the field is not scrolled.
func (g *smoothRig) cell(glyph string) [2]int {
	g.t.Helper()
	return fieldCell(g.t, g.scr, computeLayout(80, 24, g.v), glyph, false)
}

// fieldCell finds glyph (in reverse video when reverse is set) in l's
// field and returns its maze cell.
func fieldCell(t *testing.T, scr tcell.SimulationScreen, l layout, glyph string, reverse bool) [2]int {
	t.Helper()
	var found [][2]int
	f := l.field
	for y := f.y; y < f.y+f.h; y++ {
		for x := f.x; x < f.x+f.w; x++ {
			s, st := cellAt(scr, x, y)
			_, _, a := st.Decompose()
			if s == glyph && (!reverse || a&tcell.AttrReverse != 0) {
				found = append(found, [2]int{x - f.x + l.viewX, y - f.y + l.viewY})
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("%q drawn at %v in the field, want exactly one cell", glyph, found)
	}
	return found[0]
}

// simCell is the maze cell of a position in sub-tiles.
func simCell(x, y int32) [2]int { return [2]int{tileCol(x), tileRow(y)} }

var aliceGlyph = unicodeGlyphs.tank[aimIndex(1, 0)] // testView's slot 0 faces right

// TestSmoothCorrection: a corrected tank glides from where it was drawn to
// where it is simulated: the first frame after the correction still shows
// it off the new cell, every frame is between the old and the new cell and
// never moves back, a correction of a tile passes through the cell between,
// and the simulated cell is reached within 250 ms of frame time and kept.
func TestSmoothCorrection(t *testing.T) {
	tests := []struct {
		name   string
		tile   [2]int // alice's tile before the correction
		dx, dy int32
		middle bool // a cell strictly between old and new must be drawn
	}{
		{"half a tile right", [2]int{1, 1}, game.SubTile / 2, 0, false},
		{"one tile right", [2]int{1, 1}, game.SubTile, 0, true},
		{"one tile left", [2]int{3, 1}, -game.SubTile, 0, true},
		{"half a tile down", [2]int{1, 1}, 0, game.SubTile / 2, false},
		{"one tile down", [2]int{1, 1}, 0, game.SubTile, false}, // rows are a tile high
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newSmoothRig(t, Options{})
			g.frame(1, func(v *netcode.View) {
				v.World.Tanks[0].X, v.World.Tanks[0].Y = at(tt.tile[0], tt.tile[1])
			})
			g.frame(1, nil)
			tk := &g.v.World.Tanks[0]
			old := g.cell(aliceGlyph)
			if want := simCell(tk.X, tk.Y); old != want {
				t.Fatalf("before the correction alice is drawn at %v, want her simulated cell %v", old, want)
			}
			g.frame(1, func(v *netcode.View) { tk.X += tt.dx; tk.Y += tt.dy })
			target := simCell(tk.X, tk.Y)
			if target == old {
				t.Fatalf("bad case: the correction does not change the cell (%v)", old)
			}
			// A tile's centre is on a column boundary, so the first frame may
			// already be a column on its way; it must not be there yet.
			got := g.cell(aliceGlyph)
			if got == target {
				t.Fatalf("first frame after the correction: alice at %v already, want her on her way from %v", got, old)
			}
			prev, sawMiddle := old, false
			reached := time.Duration(-1)
			for n := 1; n*int(frameDT/time.Millisecond) <= 400; n++ {
				if n > 1 {
					g.frame(1, nil)
					got = g.cell(aliceGlyph)
				}
				elapsed := time.Duration(n) * frameDT
				for a := range 2 {
					lo, hi := min(old[a], target[a]), max(old[a], target[a])
					if got[a] < lo || got[a] > hi {
						t.Fatalf("at %v alice is drawn at %v, outside %v..%v", elapsed, got, old, target)
					}
					if (got[a]-prev[a])*(target[a]-old[a]) < 0 {
						t.Fatalf("at %v alice moved back, from %v to %v (towards %v)", elapsed, prev, got, target)
					}
				}
				if got != old && got != target {
					sawMiddle = true
				}
				if got == target && reached < 0 {
					reached = elapsed
				}
				if reached >= 0 && got != target {
					t.Fatalf("at %v alice left her simulated cell %v for %v", elapsed, target, got)
				}
				prev = got
			}
			if reached < 0 || reached > 250*time.Millisecond {
				t.Errorf("alice reached her simulated cell after %v, want within 250ms", reached)
			}
			if reached < 2*frameDT {
				t.Errorf("alice reached her simulated cell after %v: no smoothing to see", reached)
			}
			if tt.middle && !sawMiddle {
				t.Errorf("a correction of a tile never drew alice in the cell between %v and %v", old, target)
			}
			t.Logf("reached %v after %v", target, reached)
		})
	}
}

// TestSmoothSnaps: a new round, a new maze, a respawn and a jump beyond the
// snap limit are drawn at once, with no glide, as is a wreck.
func TestSmoothSnaps(t *testing.T) {
	const half = game.SubTile / 2
	tests := []struct {
		name  string
		steps []func(v *netcode.View) // applied one frame each; the last must be drawn as simulated
	}{
		{"new round", []func(v *netcode.View){func(v *netcode.View) {
			v.World.Round.Number++
			v.World.Tanks[0].X += half
		}}},
		{"new maze", []func(v *netcode.View){func(v *netcode.View) {
			v.World.Round.MazeSeed++
			v.World.Tanks[0].X += half
		}}},
		{"jump beyond the snap limit", []func(v *netcode.View){func(v *netcode.View) {
			v.World.Tanks[0].X += 2 * game.SubTile
		}}},
		{"death", []func(v *netcode.View){func(v *netcode.View) {
			v.World.Tanks[0].Alive = false
			v.World.Tanks[0].X += half
		}}},
		{"respawn", []func(v *netcode.View){
			func(v *netcode.View) { v.World.Tanks[0].Alive = false },
			func(v *netcode.View) { v.World.Tanks[0].Alive = true; v.World.Tanks[0].X += half },
		}},
		{"seated", []func(v *netcode.View){
			func(v *netcode.View) { v.World.Tanks[0] = game.Tank{} },
			func(v *netcode.View) {
				x, y := at(2, 1)
				v.World.Tanks[0] = game.Tank{X: x - half + 1, Y: y, AimX: 1, HP: 3, Alive: true, Seated: true}
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newSmoothRig(t, Options{})
			for _, step := range tt.steps {
				g.frame(1, step)
			}
			tk := &g.v.World.Tanks[0]
			glyph := aliceGlyph
			if !tk.Alive {
				glyph = unicodeGlyphs.burst[0] // it has just died
			}
			if got, want := g.cell(glyph), simCell(tk.X, tk.Y); got != want {
				t.Errorf("alice drawn at %v, want at once at her simulated cell %v", got, want)
			}
		})
	}
}

// TestSmoothNormalMovement: movement the tank can make in the ticks since
// the last frame is never smoothed: the tank is drawn exactly where it is
// simulated on every frame, at top speed, knocked back, two ticks in a
// frame, or with frames faster than ticks; and from one frame to the next
// it moves at most one cell, so even at 30 frames a second (SSH play's
// rate: two ticks a frame) every cell it passes through is shown.
func TestSmoothNormalMovement(t *testing.T) {
	tests := []struct {
		name    string
		ticks   []int // ticks per frame, repeated
		perTick int32
	}{
		{"top speed", []int{1}, game.TankSpeed},
		{"knockback", []int{1}, game.KnockbackSpeed},
		{"two ticks a frame", []int{2}, game.TankSpeed},
		{"two ticks a frame knocked back", []int{2}, game.KnockbackSpeed},
		{"frames faster than ticks", []int{1, 0, 1, 1, 0}, game.TankSpeed},
		{"diagonal", []int{1}, game.TankDiagSpeed},
	}
	for _, tt := range tests {
		for _, dir := range []int32{1, -1} {
			name := tt.name + " right"
			if dir < 0 {
				name = tt.name + " left"
			}
			t.Run(name, func(t *testing.T) {
				g := newSmoothRig(t, Options{})
				from, to := 1, 11 // row 3 is open from tile 1 to 11
				if dir < 0 {
					from, to = to, from
				}
				bob := &g.v.World.Tanks[1]
				g.frame(1, func(v *netcode.View) { bob.X, bob.Y = at(from, 3) })
				endX, _ := at(to, 3)
				glyph := unicodeGlyphs.tank[aimIndex(bob.AimX, bob.AimY)]
				frames := 0
				prev := simCell(bob.X, bob.Y)
				for n := 0; dir*(endX-bob.X) > 0; n++ {
					ticks := tt.ticks[n%len(tt.ticks)]
					g.frame(ticks, func(v *netcode.View) {
						d := dir * tt.perTick * int32(ticks)
						bob.X += d
						if tt.perTick == game.TankDiagSpeed {
							bob.Y += int32(1-2*(n%2)) * tt.perTick * int32(ticks) // down, up, down…
						}
					})
					frames++
					l := computeLayout(80, 24, g.v)
					if got, want := fieldCell(t, g.scr, l, glyph, true), simCell(bob.X, bob.Y); got != want {
						t.Fatalf("frame %d: bob drawn at %v, simulated at %v (x=%d)", frames, got, want, bob.X)
					}
					if got := simCell(bob.X, bob.Y); max(got[0]-prev[0], prev[0]-got[0]) > 1 || max(got[1]-prev[1], prev[1]-got[1]) > 1 {
						t.Fatalf("frame %d: bob jumped from cell %v to %v, skipping a cell", frames, prev, got)
					} else {
						prev = got
					}
				}
				if frames < 20 {
					t.Fatalf("only %d frames of movement", frames)
				}
			})
		}
	}
}

// TestNoSmoothing: with Options.NoSmoothing, and with Renderer.Draw and the
// package-level Draw, a corrected tank is drawn at its simulated cell at
// once.
func TestNoSmoothing(t *testing.T) {
	correct := func(v *netcode.View) { v.World.Tanks[0].X += game.SubTile }
	check := func(t *testing.T, scr tcell.SimulationScreen, v *netcode.View) {
		t.Helper()
		tk := &v.World.Tanks[0]
		if got, want := fieldCell(t, scr, computeLayout(80, 24, v), aliceGlyph, false), simCell(tk.X, tk.Y); got != want {
			t.Errorf("alice drawn at %v after the correction, want her simulated cell %v", got, want)
		}
	}
	t.Run("NoSmoothing", func(t *testing.T) {
		g := newSmoothRig(t, Options{NoSmoothing: true})
		for range 5 {
			g.frame(1, correct)
			check(t, g.scr, g.v)
			g.frame(1, nil)
			check(t, g.scr, g.v)
		}
	})
	t.Run("Renderer.Draw", func(t *testing.T) {
		g := newSmoothRig(t, Options{})
		correct(g.v)
		g.v.World.Tick++
		g.r.Draw(g.v)
		check(t, g.scr, g.v)
		// The first DrawAt after Draw starts afresh, with nothing to glide
		// from; the next correction glides again.
		g.frame(1, correct)
		check(t, g.scr, g.v)
		g.frame(1, correct)
		if got := g.cell(aliceGlyph); got == simCell(g.v.World.Tanks[0].X, g.v.World.Tanks[0].Y) {
			t.Fatalf("a correction after Renderer.Draw and DrawAt was not smoothed (alice at %v at once)", got)
		}
		g.r.Draw(g.v)
		check(t, g.scr, g.v)
	})
	t.Run("Draw", func(t *testing.T) {
		v := testView(t)
		scr := newScreen(t, 80, 24)
		Draw(scr, v, Options{})
		correct(v)
		v.World.Tick++
		Draw(scr, v, Options{})
		check(t, scr, v)
	})
}

// TestSmoothLocalTankInView: on the largest maze at 80×24 the window
// follows the local tank where it is drawn, so while a correction of the
// local tank is smoothed the tank stays in view, drawn off its simulated
// cell at first and on it after 300 ms.
func TestSmoothLocalTankInView(t *testing.T) {
	v := bigView(t)
	scr := newScreen(t, 80, 24)
	r := NewRenderer(scr, Options{})
	now := t0
	frame := func() layout {
		v.World.Tick++
		now = now.Add(frameDT)
		r.DrawAt(v, now)
		return computeLayoutFocus(80, 24, v, &r.pos, v.Slot)
	}
	for _, slot := range []int{0, 3, 7} {
		v.Slot = slot
		tk := &v.World.Tanks[slot]
		if !tk.Alive {
			continue
		}
		glyph := unicodeGlyphs.tank[aimIndex(tk.AimX, tk.AimY)]
		frame()
		// A correction of one tile towards an open neighbour.
		tx, ty := int(tk.X/game.SubTile), int(tk.Y/game.SubTile)
		moved := false
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if !v.Maze.IsWall(tx+d[0], ty+d[1]) {
				tk.X += int32(d[0]) * game.SubTile
				tk.Y += int32(d[1]) * game.SubTile
				moved = true
				break
			}
		}
		if !moved {
			t.Fatalf("slot %d: no open tile next to (%d,%d)", slot, tx, ty)
		}
		l := frame()
		if got := fieldCell(t, scr, l, glyph, true); got == simCell(tk.X, tk.Y) {
			t.Errorf("slot %d: the local tank's correction was not smoothed (drawn at %v at once)", slot, got)
		}
		for range 300 * time.Millisecond / frameDT {
			l = frame()
			fieldCell(t, scr, l, glyph, true) // in view on every frame
		}
		if got, want := fieldCell(t, scr, l, glyph, true), simCell(tk.X, tk.Y); got != want {
			t.Errorf("slot %d: after 300ms the local tank is drawn at %v, want %v", slot, got, want)
		}
	}
}

// TestRunSmoothsWithItsClock: Run draws with its injected clock, so a
// correction glides on the frame clock, and not with NoSmoothing.
func TestRunSmoothsWithItsClock(t *testing.T) {
	for _, off := range []bool{false, true} {
		l := startLoop(t, testView(t), Options{NoSmoothing: off})
		find := func() int {
			_, w, h := l.scr.GetContents()
			return fieldCell(t, l.scr, computeLayout(w, h, testView(t)), aliceGlyph, false)[0]
		}
		edit := func(f func(v *netcode.View)) {
			l.s.mu.Lock()
			f(&l.s.view)
			l.s.mu.Unlock()
		}
		l.advance(frameDT)
		l.frame()
		x0 := find()
		edit(func(v *netcode.View) { v.World.Tick++; v.World.Tanks[0].X += game.SubTile })
		l.advance(frameDT)
		l.frame()
		if x, want := find(), x0+2; off && x != want {
			t.Errorf("NoSmoothing: alice at column %d after the correction, want %d at once", x, want)
		} else if !off && x >= want {
			// A tank is drawn in the cell whose middle is nearest
			// (tankCol): a fifth of the way along, it may be a cell on.
			t.Errorf("alice at column %d one frame after the correction, want short of %d", x, want)
		}
		l.advance(300 * time.Millisecond)
		l.frame()
		if x, want := find(), x0+2; x != want {
			t.Errorf("NoSmoothing=%v: alice at column %d 300ms after the correction, want %d", off, x, want)
		}
		l.cancel()
	}
}

// TestSmootherAllocs: tracking and decaying offsets allocates nothing.
func TestSmootherAllocs(t *testing.T) {
	v := bigView(t)
	var s smoother
	var pos [game.MaxPlayers][2]int32
	now := t0
	allocs := testing.AllocsPerRun(200, func() {
		v.World.Tick++
		v.World.Tanks[3].X ^= game.SubTile / 2 // a correction every frame
		now = now.Add(frameDT)
		s.update(v, now, &pos)
	})
	if allocs != 0 {
		t.Errorf("smoother.update allocates %v times per frame, want 0", allocs)
	}
}

// TestSmoothNeverInWall: the straight way from where a tank was drawn to
// where it is simulated can cut a wall's corner; the tank is never drawn
// in a wall. Alice is corrected from tile (5,2) down-left into tile (4,3),
// past the wall at (4,2).
func TestSmoothNeverInWall(t *testing.T) {
	g := newSmoothRig(t, Options{})
	g.frame(1, func(v *netcode.View) { v.World.Tanks[0].X, v.World.Tanks[0].Y = at(5, 2) })
	g.frame(1, nil)
	g.frame(1, func(v *netcode.View) {
		v.World.Tanks[0].X, v.World.Tanks[0].Y = 4*game.SubTile+game.SubTile/2, 3*game.SubTile+game.TankHalf
	})
	if !g.v.Maze.IsWall(4, 2) {
		t.Fatal("bad case: tile (4,2) is not a wall")
	}
	for n := range 20 {
		c := g.cell(aliceGlyph)
		if g.v.Maze.IsWall(c[0]/2, c[1]) {
			t.Fatalf("frame %d: alice drawn at cell %v, in the wall at tile (%d,%d)", n, c, c[0]/2, c[1])
		}
		g.frame(1, nil)
	}
	if got, want := g.cell(aliceGlyph), simCell(g.v.World.Tanks[0].X, g.v.World.Tanks[0].Y); got != want {
		t.Errorf("alice drawn at %v in the end, want %v", got, want)
	}
}
