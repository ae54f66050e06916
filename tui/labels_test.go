package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
)

// labelRun is a run of underlined cells on one screen row: a name label.
type labelRun struct {
	x, y int
	text string
}

// labelRuns returns the underlined runs of the screen, row by row.
func labelRuns(scr tcell.SimulationScreen) []labelRun {
	cells, w, h := scr.GetContents()
	var runs []labelRun
	for y := range h {
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if c.Style.GetUnderlineStyle() == tcell.UnderlineStyleNone {
				continue
			}
			if n := len(runs); n > 0 && runs[n-1].y == y && runs[n-1].x+len([]rune(runs[n-1].text)) == x {
				runs[n-1].text += string(c.Runes)
			} else {
				runs = append(runs, labelRun{x, y, string(c.Runes)})
			}
		}
	}
	return runs
}

// checkWallsKept fails t for each wall cell of the frame drawn without
// names that the frame with names does not show as a wall.
func checkWallsKept(t *testing.T, bare, named tcell.SimulationScreen) {
	t.Helper()
	b, n := screenLines(bare), screenLines(named)
	for y := range b {
		br, nr := []rune(b[y]), []rune(n[y])
		for x := range br {
			if br[x] == '█' && nr[x] != '█' {
				t.Errorf("the wall cell (%d, %d) shows %q with names on:\n%s", x, y, nr[x], strings.Join(n, "\n"))
			}
		}
	}
}

// TestLabelsHideNoWalls: with names on, every wall cell is still drawn,
// and each name is whole (or shortened with the ellipsis) in one label.
// Tanks at a wall's foot, in a corridor one tile high and in a dead end
// one tile wide; the names once covered the walls above them. Bullets are
// left out: they fly over labels.
func TestLabelsHideNoWalls(t *testing.T) {
	v := testView(t)
	v.Names[0], v.Names[1], v.Names[2] = "alice", "bob", "carolyn-long"
	v.World.Tanks[1].X, v.World.Tanks[1].Y = at(7, 1) // between two walls, under the top one
	v.World.NumBullets = 0                            // bullets fly over labels
	bare := drawTest(t, 80, 24, v, Options{HUD: HUD{HideNames: true}})
	named := drawTest(t, 80, 24, v, Options{})
	checkWallsKept(t, bare, named)
	runs := labelRuns(named)
	// carol's dead end, one tile wide, has room for two cells above her.
	for i, want := range []string{"alice", "bob", "c…"} {
		found := 0
		for _, r := range runs {
			if r.text == want {
				found++
			}
		}
		if found != 1 {
			t.Errorf("slot %d: %d labels read %q; labels %v", i, found, want, runs)
		}
	}
	if len(runs) != 3 {
		t.Errorf("%d labels, want 3: %v", len(runs), runs)
	}
}

// TestLabelsDoNotOverlap: the labels of tanks a tile apart never share a
// cell (they read "█bot2yer██" when both sat centred above their tanks),
// and no label covers a tank.
func TestLabelsDoNotOverlap(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b [2]int // the two tanks' tiles
	}{
		{"side by side in a corridor", [2]int{3, 3}, [2]int{4, 3}},
		{"side by side under an opening", [2]int{7, 3}, [2]int{8, 3}},
		{"one above the other", [2]int{1, 2}, [2]int{1, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := testView(t)
			v.Names[0], v.Names[1], v.Names[2] = "bot2", "player", "carol"
			v.World.Tanks[0].X, v.World.Tanks[0].Y = at(c.a[0], c.a[1])
			v.World.Tanks[1].X, v.World.Tanks[1].Y = at(c.b[0], c.b[1])
			v.World.NumBullets = 0 // bullets fly over labels
			bare := drawTest(t, 80, 24, v, Options{HUD: HUD{HideNames: true}})
			named := drawTest(t, 80, 24, v, Options{})
			checkWallsKept(t, bare, named)
			runs := labelRuns(named)
			for _, name := range []string{"bot2", "player"} {
				n := 0
				for _, r := range runs {
					if r.text == name {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%q is whole in %d labels, want 1: labels %v\n%s", name, n, runs, strings.Join(screenLines(named), "\n"))
				}
			}
			for i := range 3 {
				tk := &v.World.Tanks[i]
				x, y := testOX+tileCol(tk.X), testOY+tileRow(tk.Y)
				if got, _ := cellAt(named, x, y); !strings.Contains(arrowGlyphs, got) || got == "" {
					t.Errorf("slot %d's tank cell (%d, %d) shows %q", i, x, y, got)
				}
			}
		})
	}
}

// arrowGlyphs are the tank glyphs.
const arrowGlyphs = "↑↗→↘↓↙←↖"

// TestLabelNoRoom: a tank walled in on a one-tile island has no free run
// of two cells by it, and no label is drawn rather than one over a wall.
func TestLabelNoRoom(t *testing.T) {
	v := testView(t)
	m, err := game.ParseMaze(
		"#############",
		"#.#.........#",
		"###.........#",
		"#...........#",
		"#...........#",
		"#...........#",
		"#############",
	)
	if err != nil {
		t.Fatal(err)
	}
	v.Maze = m
	bare := drawTest(t, 80, 24, v, Options{HUD: HUD{HideNames: true}})
	named := drawTest(t, 80, 24, v, Options{})
	checkWallsKept(t, bare, named)
	for _, r := range labelRuns(named) {
		if strings.HasPrefix("alice", strings.TrimSuffix(r.text, "…")) {
			t.Errorf("alice, walled in, has the label %q at (%d, %d)", r.text, r.x, r.y)
		}
	}
}
