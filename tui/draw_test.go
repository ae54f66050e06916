package tui

import (
	"fmt"
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
	for _, opts := range []Options{{}, {ASCII: true}} {
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

// playText returns the words in the w columns left of the sidebar, row by
// row, leaving out box-drawing borders: wrapped text reads as one line.
func playText(scr tcell.SimulationScreen, w int) string {
	var words []string
	for _, l := range screenLines(scr) {
		for _, f := range strings.Fields(string([]rune(l)[:w])) {
			if strings.Trim(f, "│╭╮╰╯─█") != "" {
				words = append(words, f)
			}
		}
	}
	return strings.Join(words, " ")
}

// sidebarText returns the rightmost w columns of each screen row.
func sidebarText(scr tcell.SimulationScreen, w int) []string {
	lines := screenLines(scr)
	out := make([]string, len(lines))
	for i, l := range lines {
		r := []rune(l)
		out[i] = string(r[max(len(r)-w, 0):])
	}
	return out
}

// findRow returns the sidebar row (of width w) containing label.
func findRow(t *testing.T, scr tcell.SimulationScreen, w int, label string) string {
	t.Helper()
	for _, row := range sidebarText(scr, w) {
		if strings.Contains(row, label) {
			return row
		}
	}
	t.Errorf("no sidebar row contains %q:\n%s", label, strings.Join(sidebarText(scr, w), "\n"))
	return ""
}

func TestSidebarFigures(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			v := testView(t)
			scr := drawTest(t, size[0], size[1], v, Options{})
			l := computeLayout(size[0], size[1], v)
			figures := []struct{ label, value string }{
				{"status", "playing"},
				{"tick", "12345"},
				{"server tick", "12339"},
				{"RTT", "123 ms"},
				{"input lead", "6 ticks"},
				{"arrival margin", "+17 ms"},
				{"loss up/down", "2.5% / 12.5%"},
				{"state delay", "9 ticks"},
				{"bandwidth KB/s", "↑2.3 ↓5.7"},
				{"rollbacks", "4567"},
				{"replay ticks", "last 6 max 19"},
				{"replay cost", "41 µs"},
				{"replay p95", "88 µs"},
				{"replay p99", "97 µs"},
				{"hash mismatches", "31"},
				{"resyncs", "2"},
				{"alice", "♥♥♥"},
				{"bob", "♥♥♡"},
				{"carol", "♥♡♡"},
			}
			rows := sidebarText(scr, l.side.w)
			for _, f := range figures {
				found := false
				for _, row := range rows {
					li := strings.Index(row, f.label+" ")
					if li >= 0 && strings.LastIndex(row, f.value) > li+len(f.label) &&
						strings.HasSuffix(strings.TrimRight(row, " │"), f.value) == (f.label != "alice" && f.label != "bob" && f.label != "carol") {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("no sidebar row has %q with %q right-aligned after it:\n%s", f.label, f.value, strings.Join(rows, "\n"))
				}
			}
			scores := map[string]string{"alice": "2", "bob": "5", "carol": "0"}
			for name, score := range scores {
				row := strings.TrimRight(findRow(t, scr, l.side.w, name), " │")
				if !strings.HasSuffix(row, " "+score) {
					t.Errorf("roster row %q does not end in score %s", row, score)
				}
			}
			if row := findRow(t, scr, l.side.w, "bob"); !strings.Contains(row, "›") {
				t.Errorf("local player's roster row %q lacks the › marker", row)
			}
			findRow(t, scr, l.side.w, "space fire")
			findRow(t, scr, l.side.w, "q quit")
			// The sparklines sit under RTT and replay p99.
			for _, label := range []string{"RTT", "replay p99"} {
				for i, row := range rows {
					if strings.Contains(row, label+" ") {
						if i+1 >= len(rows) || !strings.Contains(rows[i+1], "▁") || !strings.Contains(rows[i+1], "█") {
							t.Errorf("no sparkline under %s", label)
						}
						break
					}
				}
			}
		})
	}
}

func TestTitleRow(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(v *netcode.View)
		want  string
		style tcell.AttrMask
	}{
		{"playing", func(v *netcode.View) {}, "ROUND 7  ·  01:23", tcell.AttrBold},
		{"full time", func(v *netcode.View) { v.World.Round.Timer = game.RoundTicks }, "ROUND 7  ·  01:30", tcell.AttrBold},
		{"last second", func(v *netcode.View) { v.World.Round.Timer = 59 }, "ROUND 7  ·  00:00", tcell.AttrBold},
		{"won", func(v *netcode.View) {
			v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 2
		}, "ROUND 7 OVER — carol wins", tcell.AttrBold},
		{"draw", func(v *netcode.View) {
			v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, -1
		}, "ROUND 7 OVER — draw", tcell.AttrBold},
	}
	for _, tt := range tests {
		v := testView(t)
		tt.edit(v)
		scr := drawTest(t, 80, 24, v, Options{})
		title := strings.TrimSpace(string([]rune(screenLines(scr)[0])[:50]))
		if title != tt.want {
			t.Errorf("%s: title row %q, want %q", tt.name, title, tt.want)
		}
	}
}

func TestRoundOverPanelShowsScores(t *testing.T) {
	v := testView(t)
	v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 1
	scr := drawTest(t, 80, 24, v, Options{})
	text := playText(scr, 80-SidebarMinW)
	for _, want := range []string{"ROUND 7 OVER — bob wins", "bob wins", "alice 2", "bob 5", "carol 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("round-over screen lacks %q:\n%s", want, text)
		}
	}
}

func TestStatusScreens(t *testing.T) {
	tests := []struct {
		name string
		edit func(v *netcode.View)
		opts Options
		want []string
		maze bool // whether the maze is still drawn
	}{
		{"connecting", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusConnecting, "dialling 10.0.0.1:7777"
		}, Options{}, []string{"connecting…", "dialling 10.0.0.1:7777"}, false},
		{"waiting", func(v *netcode.View) {
			v.Status, v.Need = netcode.StatusWaiting, 2
		}, Options{ShareAddr: "10.0.0.1:7777"}, []string{"waiting for 2 more players — share: ttytanks join 10.0.0.1:7777",
			"players so far: • alice • bob (you) • carol"}, false},
		{"waiting for one", func(v *netcode.View) {
			v.Status, v.Need = netcode.StatusWaiting, 1
		}, Options{}, []string{"waiting for 1 more player", "players so far:"}, false},
		{"reconnecting", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusReconnecting, "no reply for 3s"
		}, Options{}, []string{"reconnecting…", "no reply for 3s", "ROUND 7"}, true},
		{"closed", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusClosed, "server shut down"
		}, Options{}, []string{"session closed", "server shut down"}, false},
	}
	for _, tt := range tests {
		v := testView(t)
		tt.edit(v)
		scr := drawTest(t, 80, 24, v, tt.opts)
		text := playText(scr, 80-SidebarMinW)
		for _, want := range tt.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s: play area lacks %q:\n%s", tt.name, want, strings.Join(screenLines(scr), "\n"))
			}
		}
		if row := findRow(t, scr, SidebarMinW, "status"); !strings.Contains(row, v.Status.String()) {
			t.Errorf("%s: sidebar status row %q", tt.name, row)
		}
		// The maze's bottom-left corner is outside every panel.
		got, _ := cellAt(scr, testOX, testOY+6)
		if (got == "█") != tt.maze {
			t.Errorf("%s: maze drawn = %v, want %v", tt.name, got == "█", tt.maze)
		}
	}
}

func TestTooSmall(t *testing.T) {
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 12}, {20, 5}} {
		w, h := size[0], size[1]
		scr := drawTest(t, w, h, testView(t), Options{})
		lines := screenLines(scr)
		var words []string
		for _, l := range lines {
			words = append(words, strings.Fields(l)...)
		}
		want := fmt.Sprintf("terminal too small (need 80x24, have %dx%d)", w, h)
		if got := strings.Join(words, " "); got != want {
			t.Errorf("%dx%d: screen reads %q, want only %q", w, h, got, want)
		}
	}
	// 80×24 itself is big enough.
	scr := drawTest(t, 80, 24, testView(t), Options{})
	if text := strings.Join(screenLines(scr), ""); strings.Contains(text, "too small") {
		t.Errorf("80x24 is reported too small")
	}
}

// allStates are views in every state the renderer draws, for tests that
// check every cell.
func allStates(t *testing.T) map[string]*netcode.View {
	states := map[string]*netcode.View{"playing": testView(t), "big": bigView(t)}
	for _, st := range []netcode.Status{netcode.StatusConnecting, netcode.StatusWaiting, netcode.StatusReconnecting, netcode.StatusClosed} {
		v := testView(t)
		v.Status, v.Message, v.Need = st, "a message", 1
		states[st.String()] = v
	}
	over := testView(t)
	over.World.Round.Phase, over.World.Round.Winner = game.PhaseOver, 0
	states["round over"] = over
	dead := testView(t)
	dead.World.Tanks[0].Alive = false
	states["dead tank"] = dead
	return states
}

var testSizes = [][2]int{{80, 24}, {79, 24}, {120, 40}, {200, 60}}

func TestASCIIOnly(t *testing.T) {
	for name, v := range allStates(t) {
		for _, size := range testSizes {
			scr := drawTest(t, size[0], size[1], v, Options{ASCII: true, ShareAddr: "host:7777"})
			cells, w, _ := scr.GetContents()
			for i, c := range cells {
				for _, r := range c.Runes {
					if r >= 0x80 {
						t.Fatalf("%s at %dx%d: cell (%d,%d) = %q is not ASCII", name, size[0], size[1], i%w, i/w, string(c.Runes))
					}
				}
			}
		}
	}
}

func TestNoColor(t *testing.T) {
	for name, v := range allStates(t) {
		for _, size := range testSizes {
			scr := drawTest(t, size[0], size[1], v, Options{NoColor: true})
			cells, w, _ := scr.GetContents()
			for i, c := range cells {
				fg, bg, _ := c.Style.Decompose()
				if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
					t.Fatalf("%s at %dx%d: cell (%d,%d) %q has colours %v on %v", name, size[0], size[1], i%w, i/w, string(c.Runes), fg, bg)
				}
			}
		}
	}
	// Without colour the local tank is still marked.
	scr := drawTest(t, 80, 24, testView(t), Options{NoColor: true})
	_, st := cellAt(scr, testOX+11, testOY+3)
	if _, _, a := st.Decompose(); a&tcell.AttrReverse == 0 {
		t.Errorf("local tank is not in reverse video without colour")
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
	scr := drawTest(t, 200, 60, v, Options{})
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

// TestRendererMatchesDraw: a Renderer kept across frames, which rewrites
// only what changed, must leave the screen exactly as a fresh Draw does.
func TestRendererMatchesDraw(t *testing.T) {
	kept := newScreen(t, 80, 24)
	r := NewRenderer(kept, Options{})
	frames := []struct {
		w, h int
		edit func(v *netcode.View)
	}{
		{80, 24, func(v *netcode.View) {}},
		{80, 24, func(v *netcode.View) { v.World.Bullets[0].X += game.SubTile; v.Metrics.LocalTick++ }},
		{80, 24, func(v *netcode.View) {
			v.World.NumBullets = 1
			v.World.Bullets[1], v.World.Bullets[2] = game.Bullet{}, game.Bullet{}
		}},
		{80, 24, func(v *netcode.View) {
			v.World.Tanks[1].X, v.World.Tanks[1].AimX = v.World.Tanks[1].X+2*game.SubTile, 1
		}},
		{80, 24, func(v *netcode.View) { v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 0 }},
		{80, 24, func(v *netcode.View) { v.World.Round.Phase = game.PhasePlaying }},
		{80, 24, func(v *netcode.View) { v.Status, v.Message = netcode.StatusReconnecting, "lost" }},
		{80, 24, func(v *netcode.View) {
			v.Status = netcode.StatusPlaying
			v.Names[2] = ""
			v.World.Tanks[2] = game.Tank{}
		}},
		{120, 40, func(v *netcode.View) {}},
		{79, 24, func(v *netcode.View) {}},
		{80, 24, func(v *netcode.View) { v.Metrics.Rollbacks = 1 }},
		{80, 24, func(v *netcode.View) { v.Status = netcode.StatusClosed }},
	}
	v := testView(t)
	for i, f := range frames {
		f.edit(v)
		kept.SetSize(f.w, f.h)
		r.Draw(v)
		fresh := drawTest(t, f.w, f.h, v, Options{})
		a, aw, _ := kept.GetContents()
		b, _, _ := fresh.GetContents()
		for j := range b {
			if string(a[j].Runes) != string(b[j].Runes) || a[j].Style != b[j].Style {
				t.Fatalf("frame %d: cell (%d,%d) is %q after Renderer.Draw, %q after Draw\nkept:\n%s\nfresh:\n%s",
					i, j%aw, j/aw, string(a[j].Runes), string(b[j].Runes),
					strings.Join(screenLines(kept), "\n"), strings.Join(screenLines(fresh), "\n"))
			}
		}
	}
}
