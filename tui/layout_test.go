package tui

import (
	"fmt"
	"strings"
	"testing"

	"ttytanks/game"
	"ttytanks/netcode"
)

// defaultView is testView on a maze of the default size, 25×21 tiles: 50
// columns by 21 rows at one tile per two columns.
func defaultView(t *testing.T) *netcode.View {
	v := testView(t)
	v.Maze = game.Maze{}
	v.Maze.Generate(7, game.DefaultMazeW, game.DefaultMazeH)
	v.World.Round.MazeW, v.World.Round.MazeH = game.DefaultMazeW, game.DefaultMazeH
	return v
}

// checkMazeWhole fails t unless every wall tile of v's maze is drawn, from
// the field's corner, at one tile per two columns and one row.
func checkMazeWhole(t *testing.T, lines []string, l layout, v *netcode.View) {
	t.Helper()
	m := &v.Maze
	for ty := range m.H {
		row := []rune(lines[l.field.y+ty])
		for tx := range m.W {
			got := string(row[l.field.x+2*tx : l.field.x+2*tx+2])
			if m.IsWall(tx, ty) && got != "██" {
				t.Fatalf("wall tile (%d, %d) shows %q:\n%s", tx, ty, got, strings.Join(lines, "\n"))
			}
		}
	}
}

// TestCompactLayout: below 80 columns (or 24 rows) the match drops the
// sidebar and shows the whole maze under a status line with the essential
// figures, down to the maze's own size; below that, "too small".
func TestCompactLayout(t *testing.T) {
	for _, sz := range [][2]int{{79, 24}, {80, 23}, {50, 22}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			w, h := sz[0], sz[1]
			v := defaultView(t)
			l := computeLayout(w, h, v)
			if l.tooSmall || !l.compact || l.side.w != 0 || l.play.w != w {
				t.Fatalf("layout: too small %v, compact %v, sidebar %d columns, play %d; want compact, no sidebar, play %d",
					l.tooSmall, l.compact, l.side.w, l.play.w, w)
			}
			if l.field.w != 50 || l.field.h != 21 || l.viewX != 0 || l.viewY != 0 || l.titleY != l.field.y-1 {
				t.Fatalf("field %+v from maze cell (%d, %d), title row %d; want the whole 50x21 maze under the title",
					l.field, l.viewX, l.viewY, l.titleY)
			}
			scr := drawTest(t, w, h, v, Options{})
			lines := screenLines(scr)
			checkMazeWhole(t, lines, l, v)
			text := strings.Join(lines, "\n")
			for _, lack := range []string{"server tick", "│", "too small"} {
				if strings.Contains(text, lack) {
					t.Errorf("the compact screen shows %q:\n%s", lack, text)
				}
			}
			status := strings.TrimSpace(lines[l.titleY])
			for _, want := range []string{"ROUND 7", "01:23", "♥♥♡ score 5", "RTT 123 ms"} {
				if !strings.Contains(status, want) {
					t.Errorf("the status line %q lacks %q", status, want)
				}
			}
			if textWidth(status) > w {
				t.Errorf("the status line is %d cells wide on %d columns", textWidth(status), w)
			}
		})
	}
	// Narrower than the maze, or shorter than it and the status row.
	for _, sz := range [][2]int{{49, 24}, {79, 21}} {
		v := defaultView(t)
		if l := computeLayout(sz[0], sz[1], v); !l.tooSmall || l.needW != 50 || l.needH != 22 {
			t.Errorf("%dx%d: too small %v, need %dx%d; want too small, need 50x22", sz[0], sz[1], l.tooSmall, l.needW, l.needH)
		}
		scr := drawTest(t, sz[0], sz[1], v, Options{})
		want := fmt.Sprintf("terminal too small (need 50x22, have %dx%d)", sz[0], sz[1])
		if got := playText(scr, sz[0]); got != want {
			t.Errorf("%dx%d reads %q, want %q", sz[0], sz[1], got, want)
		}
	}
	// 80x24 keeps the sidebar.
	if l := computeLayout(80, 24, defaultView(t)); l.compact || l.side.w != SidebarMinW {
		t.Errorf("80x24: compact %v, sidebar %d columns; want the full layout", l.compact, l.side.w)
	}
}

// TestScreensAt79Columns: at 79x24 the help overlay, the results and the
// waiting screen are drawn whole, not the "too small" message.
func TestScreensAt79Columns(t *testing.T) {
	waiting := defaultView(t)
	waiting.Status, waiting.Need = netcode.StatusWaiting, 1
	for _, c := range []struct {
		name string
		v    *netcode.View
		opts Options
		want []string
	}{
		{"help", defaultView(t), Options{HUD: HUD{Help: true}}, []string{"help — Esc closes", "names on the map", "q"}},
		{"results", matchOverView(t), Options{Lobby: true}, []string{"MATCH OVER — bob wins", "kills", "acc", "r rematch · l lobby · q quit"}},
		{"waiting", waiting, Options{}, []string{"waiting for 1 more player"}},
	} {
		scr := drawTest(t, 79, 24, c.v, c.opts)
		text := strings.Join(screenLines(scr), "\n")
		for _, want := range c.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s at 79x24 lacks %q:\n%s", c.name, want, text)
			}
		}
		if strings.Contains(text, "too small") {
			t.Errorf("%s at 79x24 is too small:\n%s", c.name, text)
		}
	}
}
