package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// At 80×24 the test maze (13×7 tiles, 26×7 cells) is centred in the 50
// columns left of the 30-column sidebar and below the title row.
const (
	testOX = (80 - SidebarMinW - 26) / 2 // 12
	testOY = 1 + (24-1-7)/2              // 9
)

func drawTest(t *testing.T, w, h int, v *netcode.View, opts Options) tcell.SimulationScreen {
	t.Helper()
	scr := newScreen(t, w, h)
	Draw(scr, v, opts)
	return scr
}

func TestDrawWalls(t *testing.T) {
	// The tanks' name labels would cover some of the walls.
	noNames := HUD{HideNames: true}
	for _, opts := range []Options{{HUD: noNames}, {ASCII: true, HUD: noNames}} {
		scr := drawTest(t, 80, 24, testView(t), opts)
		wall := "█"
		if opts.ASCII {
			wall = "#"
		}
		tests := []struct {
			tx, ty int
			wall   bool
		}{
			{0, 0, true}, {12, 0, true}, {0, 6, true}, {12, 6, true},
			{6, 1, true}, {2, 2, true}, {4, 4, true}, {8, 4, true}, {10, 5, true},
			{2, 1, false}, {6, 3, false}, {1, 5, false}, {11, 1, false},
		}
		for _, tt := range tests {
			for dx := range 2 {
				x, y := testOX+2*tt.tx+dx, testOY+tt.ty
				got, _ := cellAt(scr, x, y)
				want := " "
				if tt.wall {
					want = wall
				}
				if got != want {
					t.Errorf("ascii=%v: tile (%d,%d) cell (%d,%d) = %q, want %q", opts.ASCII, tt.tx, tt.ty, x, y, got, want)
				}
			}
		}
	}
}

func TestDrawTanksAndBullets(t *testing.T) {
	v := testView(t)
	scr := drawTest(t, 80, 24, v, Options{})
	// Positions are tile centres: column 2*tx+1, row ty of the maze.
	tests := []struct {
		name    string
		col     int
		row     int
		glyph   string
		slot    int
		reverse bool
	}{
		{"alice facing right", 3, 1, "→", 0, false},
		{"bob (local) facing up-left", 11, 3, "↖", 1, true},
		{"carol facing down", 23, 5, "↓", 2, false},
		{"alice's bullet", 7, 1, "•", 0, false},
		{"bob's bullet", 17, 3, "•", 1, false},
		{"carol's bullet", 19, 5, "•", 2, false},
	}
	for _, tt := range tests {
		got, st := cellAt(scr, testOX+tt.col, testOY+tt.row)
		if got != tt.glyph {
			t.Errorf("%s: cell (%d,%d) = %q, want %q", tt.name, testOX+tt.col, testOY+tt.row, got, tt.glyph)
			continue
		}
		fg, _, attrs := st.Decompose()
		if want := tcell.PaletteColor(int(slotColors[tt.slot])); fg != want {
			t.Errorf("%s: colour %v, want slot %d's %v", tt.name, fg, tt.slot, want)
		}
		if rev := attrs&tcell.AttrReverse != 0; rev != tt.reverse {
			t.Errorf("%s: reverse = %v, want %v", tt.name, rev, tt.reverse)
		}
	}
}

// TestSubTileMapping moves one bullet across tile boundaries: column
// X*2/SubTile and row Y/SubTile of the maze.
func TestSubTileMapping(t *testing.T) {
	tests := []struct {
		x, y     int32
		col, row int
	}{
		{1 * game.SubTile, 1 * game.SubTile, 2, 1},
		{1*game.SubTile + game.SubTile/2 - 1, 1*game.SubTile + game.SubTile - 1, 2, 1},
		{1*game.SubTile + game.SubTile/2, 1 * game.SubTile, 3, 1},
		{2*game.SubTile - 1, 3*game.SubTile + 5, 3, 3},
		{7*game.SubTile + 700, 5 * game.SubTile, 15, 5},
	}
	for _, tt := range tests {
		v := testView(t)
		v.World.NumBullets = 1
		v.World.Bullets[0] = game.Bullet{X: tt.x, Y: tt.y, Owner: 2, Life: 10}
		for i := range v.World.Tanks {
			v.World.Tanks[i].X, v.World.Tanks[i].Y = at(11, 1) // out of the way
		}
		scr := drawTest(t, 80, 24, v, Options{ASCII: true})
		if got, _ := cellAt(scr, testOX+tt.col, testOY+tt.row); got != "*" {
			t.Errorf("bullet at (%d,%d) sub-tiles: cell (%d,%d) of the maze = %q, want \"*\"\n%s",
				tt.x, tt.y, tt.col, tt.row, got, strings.Join(screenLines(scr)[testOY:testOY+7], "\n"))
		}
	}
}

func TestTankFacing(t *testing.T) {
	aims := []struct {
		ax, ay         int8
		unicode, ascii string
	}{
		{0, -1, "↑", "^"}, {1, -1, "↗", "/"}, {1, 0, "→", ">"}, {1, 1, "↘", "\\"},
		{0, 1, "↓", "v"}, {-1, 1, "↙", "/"}, {-1, 0, "←", "<"}, {-1, -1, "↖", "\\"},
	}
	for _, a := range aims {
		v := testView(t)
		v.World.Tanks[0].AimX, v.World.Tanks[0].AimY = a.ax, a.ay
		for _, ascii := range []bool{false, true} {
			scr := drawTest(t, 80, 24, v, Options{ASCII: ascii})
			want := a.unicode
			if ascii {
				want = a.ascii
			}
			if got, _ := cellAt(scr, testOX+3, testOY+1); got != want {
				t.Errorf("aim (%d,%d), ascii=%v: glyph %q, want %q", a.ax, a.ay, ascii, got, want)
			}
		}
	}
}

func TestDeadTankIsWreck(t *testing.T) {
	v := testView(t)
	v.World.Tanks[2].Alive = false
	v.World.Tanks[2].HP = 0
	scr := drawTest(t, 80, 24, v, Options{})
	if got, _ := cellAt(scr, testOX+23, testOY+5); got != "x" {
		t.Errorf("dead tank drawn as %q, want wreck \"x\"", got)
	}
	if row := findRow(t, scr, SidebarMinW, "carol"); !strings.Contains(row, "dead") {
		t.Errorf("roster line for a dead tank = %q, want \"dead\"", row)
	}
}

func TestSlotColoursDistinct(t *testing.T) {
	seen := map[tcell.Color]int{}
	th := themeFor(Options{})
	for i := range game.MaxPlayers {
		fg, _, _ := th.slot[i].Decompose()
		if j, ok := seen[fg]; ok {
			t.Errorf("slots %d and %d share colour %v", j, i, fg)
		}
		seen[fg] = i
	}
}

// TestLargeMazeViewport: the largest maze does not fit at 80×24; the view
// follows the local tank.
func TestLargeMazeViewport(t *testing.T) {
	v := bigView(t)
	for _, slot := range []int{0, 3, 7} {
		v.Slot = slot
		scr := drawTest(t, 80, 24, v, Options{})
		l := computeLayout(80, 24, v)
		tk := v.World.Tanks[slot]
		x, y := l.field.x+tileCol(tk.X)-l.viewX, l.field.y+tileRow(tk.Y)-l.viewY
		if !l.field.contains(x, y) {
			t.Fatalf("slot %d: local tank at (%d,%d) is outside the field %+v", slot, x, y, l.field)
		}
		want := unicodeGlyphs.tank[aimIndex(tk.AimX, tk.AimY)]
		if got, st := cellAt(scr, x, y); got != want {
			t.Errorf("slot %d: local tank cell = %q, want %q", slot, got, want)
		} else if _, _, a := st.Decompose(); a&tcell.AttrReverse == 0 {
			t.Errorf("slot %d: local tank not in reverse video", slot)
		}
		if l.field.x+l.field.w > l.side.x {
			t.Errorf("field %+v overlaps the sidebar %+v", l.field, l.side)
		}
	}
}

// TestLargeTerminal: at 200×60 the whole largest maze is centred and the
// sidebar gets its border and section headers.
func TestLargeTerminal(t *testing.T) {
	v := bigView(t)
	scr := drawTest(t, 200, 60, v, Options{HUD: HUD{HideNames: true}}) // labels would cover walls
	l := computeLayout(200, 60, v)
	if l.field.w != 2*game.MaxMazeW || l.field.h != game.MaxMazeH {
		t.Fatalf("field %+v does not show the whole %dx%d maze", l.field, game.MaxMazeW, game.MaxMazeH)
	}
	left, right := l.field.x, l.side.x-(l.field.x+l.field.w)
	if d := left - right; d < -1 || d > 1 {
		t.Errorf("maze not centred: %d columns left of it, %d right", left, right)
	}
	for _, c := range [][2]int{{0, 0}, {game.MaxMazeW - 1, 0}, {0, game.MaxMazeH - 1}, {game.MaxMazeW - 1, game.MaxMazeH - 1}} {
		if got, _ := cellAt(scr, l.field.x+2*c[0]+1, l.field.y+c[1]); got != "█" {
			t.Errorf("corner tile %v = %q, want wall", c, got)
		}
	}
	if got, _ := cellAt(scr, 199, 0); got != "╮" {
		t.Errorf("top-right corner %q, want the sidebar box's ╮", got)
	}
	for _, h := range []string{"── network", "── rollback", "── players", "── keys"} {
		findRow(t, scr, l.side.w, h)
	}
}

// TestSpectator: with no seat (Slot -1) no tank is marked as ours and the
// maze still draws.
func TestSpectator(t *testing.T) {
	v := testView(t)
	v.Slot = -1
	scr := drawTest(t, 80, 24, v, Options{})
	for _, c := range [][2]int{{3, 1}, {11, 3}, {23, 5}} {
		_, st := cellAt(scr, testOX+c[0], testOY+c[1])
		if _, _, a := st.Decompose(); a&tcell.AttrReverse != 0 {
			t.Errorf("spectating: tank at maze cell %v is marked as ours", c)
		}
	}
	for _, row := range sidebarText(scr, SidebarMinW) {
		if strings.Contains(row, "›") {
			t.Errorf("spectating: roster row %q has the local-player marker", row)
		}
	}
	if got, _ := cellAt(scr, testOX, testOY); got != "█" {
		t.Errorf("spectating: maze corner %q, want a wall", got)
	}
}

// TestDoubleSizeMap: when the whole maze fits at twice the size, each tile
// is four columns by two rows, the tanks are drawn at that scale, and the
// round's title stays right above the maze.
func TestDoubleSizeMap(t *testing.T) {
	v := testView(t) // a 13×7 maze: 52×14 cells at 2x
	scr := drawTest(t, 100, 30, v, Options{HUD: HUD{HideNames: true}})
	l := computeLayout(100, 30, v)
	if l.scale != 2 || l.field.w != 4*13 || l.field.h != 2*7 {
		t.Fatalf("layout at 100x30: scale %d, field %+v; want the 13x7 maze at 2x (52x14)", l.scale, l.field)
	}
	for _, c := range []struct {
		tx, ty int
		wall   bool
	}{{0, 0, true}, {6, 1, true}, {1, 1, false}, {12, 6, true}} {
		for dy := range 2 {
			for dx := range 4 {
				got, _ := cellAt(scr, l.field.x+4*c.tx+dx, l.field.y+2*c.ty+dy)
				if (got == "█") != c.wall {
					t.Errorf("tile (%d,%d) cell +(%d,%d) = %q, wall %v", c.tx, c.ty, dx, dy, got, c.wall)
				}
			}
		}
	}
	// alice is at the centre of tile (1,1), facing right.
	if got, _ := cellAt(scr, l.field.x+6, l.field.y+3); got != "→" {
		t.Errorf("alice's cell = %q, want →", got)
	}
	if row := screenLines(scr)[l.field.y-1]; !strings.Contains(row, "ROUND 7") {
		t.Errorf("the row above the maze is %q, want the title", row)
	}
	if small := computeLayout(80, 24, v); small.scale != 1 {
		t.Errorf("at 80x24 the scale is %d, want 1", small.scale)
	}
}

// TestNoColorBullets: without colour, your own bullets and everyone
// else's have different glyphs (bob, slot 1, is us).
func TestNoColorBullets(t *testing.T) {
	cases := []struct {
		opts              Options
		mine, theirs, col string
	}{
		{Options{NoColor: true}, "•", "◦", "no colour"},
		{Options{NoColor: true, ASCII: true}, "*", "o", "no colour, ASCII"},
		{Options{}, "•", "•", "colour (told apart by colour)"},
	}
	for _, c := range cases {
		scr := drawTest(t, 80, 24, testView(t), c.opts)
		for _, b := range []struct {
			col, row int
			want     string
		}{{7, 1, c.theirs}, {17, 3, c.mine}, {19, 5, c.theirs}} {
			if got, _ := cellAt(scr, testOX+b.col, testOY+b.row); got != b.want {
				t.Errorf("%s: bullet at maze cell (%d,%d) = %q, want %q", c.col, b.col, b.row, got, b.want)
			}
		}
	}
}
