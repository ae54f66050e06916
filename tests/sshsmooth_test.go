package tests

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"ttytanks/tui/sshterm"
)

// TestSSHTankMovesEveryCell watches an SSH player's screen as it arrives,
// at the sessions' default frame rate (30 a second: two ticks a frame),
// while the player drives around the maze: after every piece of output
// the tanks are read off the emulated terminal, and the player's tank
// never skips a cell between one screen and the next. Every cell it
// drives through is drawn, as a frame that writes only the cells it
// changed must still do. (At 5 frames a second this test fails.)
func TestSSHTankMovesEveryCell(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	r := startSSHRig(t, func(c *sshRigConfig) { c.Game.UI.FPS = sshterm.DefaultFPS })
	p := r.dial("alice", 80, 24)
	p.waitScreen(10*time.Second, "the match", sshPlaying)
	p.waitScreen(5*time.Second, "the end of the round's countdown", func(s string) bool {
		return sshPlaying(s) && !strings.Contains(s, "get ready")
	})

	var mu sync.Mutex
	var screens [][][2]int // the tank cells of each screen, in order
	var lastScreen string
	p.vt.OnWrite(func() {
		s := p.vt.Screen()
		cells := tanks(s)
		mu.Lock()
		screens = append(screens, cells)
		lastScreen = s
		mu.Unlock()
	})
	// Hold each direction in turn, at auto-repeat pace, for about 0.6 s:
	// the tank drives until a wall stops it. After each move both turns
	// off it are tried, so a start at the end of a dead end (a corridor
	// down, then right) still leads out. Twice round, or once under
	// -short.
	rounds := 2
	if testing.Short() {
		rounds = 1
	}
	right, down, left, up := "d", "\x1b[B", "a", "\x1b[A"
	for range rounds {
		for _, key := range []string{right, down, right, up, left, down, left, up} {
			for range 15 {
				p.keys(key)
				time.Sleep(40 * time.Millisecond) // typing pace: a held key's auto-repeat
			}
		}
	}
	p.vt.OnWrite(nil)
	mu.Lock()
	defer mu.Unlock()

	// The sitting bot's tank is on every screen at the same cell; the
	// player's is the other one.
	still := map[[2]int]int{}
	for _, cells := range screens {
		for _, c := range cells {
			still[c]++
		}
	}
	var path [][2]int // the player's tank's cells, one entry per move
	for i, cells := range screens {
		var mine [][2]int
		for _, c := range cells {
			if still[c] < len(screens) {
				mine = append(mine, c)
			}
		}
		switch {
		case len(mine) == 0: // the tank stands on the bot's cell or the output stopped mid-frame
			continue
		case len(mine) > 2 || (len(mine) == 2 && !adjacent(mine[0], mine[1])):
			t.Fatalf("screen %d of %d shows player tanks at %v; screen:\n%s", i, len(screens), mine, lastScreen)
		}
		at := mine[len(mine)-1]
		if len(path) > 0 && at == path[len(path)-1] {
			continue
		}
		if len(path) > 0 && !adjacent(at, path[len(path)-1]) {
			t.Errorf("screen %d of %d: the tank jumped from cell %v to %v, skipping a cell (path so far %v)",
				i, len(screens), path[len(path)-1], at, path)
		}
		path = append(path, at)
	}
	distinct := map[[2]int]bool{}
	for _, c := range path {
		distinct[c] = true
	}
	t.Logf("%d screens, the tank drove through %d cells: %v", len(screens), len(distinct), fmt.Sprint(path))
	if len(distinct) < 4 {
		t.Errorf("the tank was drawn in only %d cells over %d screens; last screen:\n%s", len(distinct), len(screens), lastScreen)
	}
}

// adjacent: cells a and b touch (side or corner) or are the same.
func adjacent(a, b [2]int) bool {
	return max(a[0]-b[0], b[0]-a[0]) <= 1 && max(a[1]-b[1], b[1]-a[1]) <= 1
}
