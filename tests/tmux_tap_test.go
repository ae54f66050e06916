package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// reverseArrow returns the cell (column, row) of the tank arrow drawn in
// reverse video left of column cut (the local player's tank), from a
// capture-pane -e screen whose SGR sequences say where reverse video is on,
// or false when there is none.
func reverseArrow(esc string, cut int) (int, int, bool) {
	for y, line := range strings.Split(esc, "\n") {
		reverse, x := false, 0
		for i := 0; i < len(line); {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					ps := strings.Split(line[i+2:j], ";")
					for k := 0; k < len(ps); k++ {
						switch n, _ := strconv.Atoi(ps[k]); n {
						case 0:
							reverse = false
						case 7:
							reverse = true
						case 27:
							reverse = false
						case 38, 48, 58: // a colour: 5;N or 2;R;G;B follow
							if k+1 < len(ps) && ps[k+1] == "5" {
								k += 2
							} else if k+1 < len(ps) && ps[k+1] == "2" {
								k += 4
							}
						}
					}
				}
				i = j + 1
				continue
			}
			r, size := []rune(line[i:])[0], len(string([]rune(line[i:])[0]))
			if reverse && x < cut && strings.ContainsRune(arrows, r) {
				return x, y, true
			}
			x++
			i += size
		}
	}
	return 0, 0, false
}

// localTank returns the local player's tank cell on tm's screen now.
func (tm *tmux) localTank() (int, int, bool) {
	plain := tm.screen()
	cut := sidebarCol(plain)
	if cut < 0 {
		cut = 1 << 30
	}
	return reverseArrow(tm.run("capture-pane", "-e", "-p", "-t", tm.name), cut)
}

// settledTank waits until the local tank has stayed in one cell for
// 300 ms and returns that cell.
func (tm *tmux) settledTank(d time.Duration) [2]int {
	tm.t.Helper()
	var last [2]int
	since := time.Now()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		x, y, ok := tm.localTank()
		if !ok {
			continue
		}
		if p := [2]int{x, y}; p != last {
			last, since = p, time.Now()
		} else if time.Since(since) >= 300*time.Millisecond {
			return p
		}
	}
	tm.t.Fatalf("the local tank did not settle in %v; screen:\n%s", d, tm.screen())
	return last
}

// freeTiles counts the floor tiles from the tank at cell (x, y) in
// direction (dx, dy) before a wall, on a screen at one tile per two
// columns.
func freeTiles(screen string, x, y, dx, dy int) int {
	rows := strings.Split(screen, "\n")
	wall := func(cx, cy int) bool {
		if cy < 0 || cy >= len(rows) {
			return true
		}
		r := []rune(rows[cy])
		return cx < 0 || cx >= len(r) || r[cx] == '█'
	}
	n := 0
	for cx, cy := x+2*dx, y+dy; !wall(cx, cy); cx, cy = cx+2*dx, cy+dy {
		n++
	}
	return n
}

// TestTmuxTapMovesOneTile plays in a real terminal: one press of an arrow
// key, not repeated, moves the local tank exactly one tile (two columns,
// or one row), and the key held down for 1.5 s (a press, the auto-repeat
// delay, repeats every 40 ms, as a terminal sends them) drives it several
// tiles. (A tap held its direction for 750 ms: three tiles.)
func TestTmuxTapMovesOneTile(t *testing.T) {
	tm := startTmux(t, "tap", 100, 30, binary(t), "play", "--name", "e2e", "--bot-level", "easy")
	// The countdown, and the "GO" after it, are drawn over the walls.
	tm.waitScreen(10*time.Second, "the round under way", func(s string) bool {
		return playing(s) && !strings.Contains(s, "get ready") && !strings.Contains(s, "▓")
	})
	dirs := []struct {
		key    string
		dx, dy int
	}{{"Right", 1, 0}, {"Left", -1, 0}, {"Down", 0, 1}, {"Up", 0, -1}}
	tapped := false
	var back = dirs[0] // the way just come, not to go back on
	for _, d := range dirs {
		p0 := tm.settledTank(5 * time.Second)
		free := freeTiles(tm.screen(), p0[0], p0[1], d.dx, d.dy)
		tm.keys(d.key)
		p1 := tm.settledTank(5 * time.Second)
		moved := [2]int{p1[0] - p0[0], p1[1] - p0[1]}
		t.Logf("%s from %v (%d free tiles that way): moved %v", d.key, p0, free, moved)
		if free == 0 {
			if moved != [2]int{} {
				t.Errorf("a tap %s into a wall moved the tank %v", d.key, moved)
			}
			continue
		}
		if want := [2]int{2 * d.dx, d.dy}; moved != want {
			t.Fatalf("a tap %s moved the tank %v cells, want %v (one tile); screen:\n%s", d.key, moved, want, tm.screen())
		}
		tapped = true
		break
	}
	if !tapped {
		t.Fatalf("walled in on every side:\n%s", tm.screen())
	}
	// A hold, the way with the most room; with less than three tiles of
	// it, a tap or two that way first may find more.
	var p0 [2]int
	best, most := dirs[0], -1
	for try := 0; try < 4; try++ {
		p0 = tm.settledTank(5 * time.Second)
		s := tm.screen()
		best, most = dirs[0], -1
		for _, d := range dirs {
			if n := freeTiles(s, p0[0], p0[1], d.dx, d.dy); n > most && (try == 0 || d != back) {
				best, most = d, n
			}
		}
		if most >= 3 || most == 0 {
			break
		}
		tm.keys(best.key)
		back = dirs[map[string]int{"Right": 1, "Left": 0, "Down": 3, "Up": 2}[best.key]]
	}
	if most < 1 { // only the way back is open: hold that way
		s := tm.screen()
		for _, d := range dirs {
			if n := freeTiles(s, p0[0], p0[1], d.dx, d.dy); n > most {
				best, most = d, n
			}
		}
	}
	// With fewer than 4 free tiles the hold drives to the wall: all of them.
	start := time.Now()
	tm.keys(best.key)
	time.Sleep(400 * time.Millisecond) // the auto-repeat delay
	for time.Since(start) < 1500*time.Millisecond {
		tm.keys(best.key)
		time.Sleep(40 * time.Millisecond)
	}
	p1 := tm.settledTank(5 * time.Second)
	tiles := (p1[0]-p0[0])/2*best.dx + (p1[1]-p0[1])*best.dy
	t.Logf("held %s for 1.5 s from %v (%d free tiles): moved %d tiles", best.key, p0, most, tiles)
	if want := min(most, 4); tiles < want || tiles > most {
		t.Fatalf("a 1.5 s hold %s moved %d tiles, want %d to %d", best.key, tiles, want, most)
	}
}
