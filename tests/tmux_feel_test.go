package tests

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// hitMarks matches a tank arrow with a hit mark beside it: a tank in
// hitstun, flashing.
var hitMarks = regexp.MustCompile(`\([` + arrows + `]|[` + arrows + `]\)`)

// mapText is the rows of the maze: the field without the feed under it.
func mapText(s string) string {
	var rows []string
	for _, l := range field(s) {
		if strings.Contains(l, "██") {
			rows = append(rows, l)
		}
	}
	return strings.Join(rows, "\n")
}

// TestTmuxHitsAndKills plays against three hard bots: a hit tank flashes
// (hit marks beside it) while a heart is gone from the roster, the marks
// go with the hitstun, and the feed under the map reports a kill.
func TestTmuxHitsAndKills(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	tm := startTmux(t, "hits", 100, 30, binary(t), "play", "--name", "e2e", "--bots", "3", "--bot-level", "hard")
	tm.waitScreen(10*time.Second, "the match", playing)
	hit := tm.waitScreenEvery(40*time.Second, 10*time.Millisecond, "a tank flashing from a hit", func(s string) bool {
		return hitMarks.MatchString(fieldText(s))
	})
	if !strings.Contains(hit, "♡") && !strings.Contains(hit, "dead") {
		t.Errorf("a tank flashed but no one has lost a heart:\n%s", hit)
	}
	tm.waitScreenEvery(3*time.Second, 10*time.Millisecond, "the flash to end with the hitstun", func(s string) bool {
		return !hitMarks.MatchString(fieldText(s))
	})
	kill := regexp.MustCompile(`\S+ (destroyed \S+|was hit by their own shot|was destroyed)`)
	s := tm.waitScreen(60*time.Second, "a kill in the feed under the map", func(s string) bool {
		return kill.MatchString(fieldText(s))
	})
	t.Logf("feed: %q", kill.FindString(fieldText(s)))
}

// TestTmuxNames: the names by the tanks show by default, n hides them and
// n again shows them.
func TestTmuxNames(t *testing.T) {
	tm := startTmux(t, "names", 100, 30, binary(t), "play", "--name", "zed", "--bot-level", "easy")
	// A name is shortened to the free floor by its tank ("z…" in a dead
	// end): the whole name, or a prefix and an ellipsis.
	label := func(m, name string) bool {
		for n := len(name); n >= 1; n-- {
			if strings.Contains(m, name[:n]+"…") || n == len(name) && strings.Contains(m, name) {
				return true
			}
		}
		return false
	}
	onMap := func(s string) bool { return label(mapText(s), "zed") && label(mapText(s), "bot2") }
	tm.waitScreen(10*time.Second, "the names on the map", func(s string) bool { return playing(s) && onMap(s) })
	tm.keys("n")
	tm.waitScreen(3*time.Second, "the names to go", func(s string) bool {
		return playing(s) && !label(mapText(s), "zed") && !label(mapText(s), "bot2")
	})
	tm.keys("n")
	tm.waitScreen(3*time.Second, "the names to come back", onMap)
}

// TestTmuxHelp: ? opens the help overlay and Esc closes it; so does F1.
func TestTmuxHelp(t *testing.T) {
	tm := startTmux(t, "help", 100, 30, binary(t), "play", "--bot-level", "easy")
	tm.waitScreen(10*time.Second, "the match", playing)
	help := func(s string) bool {
		return strings.Contains(s, "help — Esc closes") && strings.Contains(s, "names on the map")
	}
	for _, open := range []string{"?", "F1"} {
		tm.keys(open)
		tm.waitScreen(3*time.Second, "the help overlay after "+open, help)
		tm.keys("Escape")
		tm.waitScreen(3*time.Second, "the help overlay to close after Esc", func(s string) bool { return playing(s) && !help(s) })
	}
}

// TestTmuxSidebarLevels: Tab cycles the sidebar from the full netcode
// panel to the middle level (RTT, loss, rollbacks, players) to scores and
// events, and back.
func TestTmuxSidebarLevels(t *testing.T) {
	tm := startTmux(t, "tab", 100, 30, binary(t), "play", "--bot-level", "easy")
	levels := []struct {
		name      string
		has, lack []string
	}{
		{"full", []string{"server tick", "replay p99", "RTT", "players"}, []string{"events"}},
		{"middle", []string{"RTT", "loss up/down", "rollbacks", "players"}, []string{"server tick", "replay p99", "events"}},
		{"scores", []string{"players", "events"}, []string{"RTT", "rollbacks", "server tick"}},
		{"full again", []string{"server tick", "replay p99"}, []string{"events"}},
	}
	for i, lv := range levels {
		if i > 0 {
			tm.keys("Tab")
		}
		tm.waitScreen(5*time.Second, "the "+lv.name+" sidebar", func(s string) bool {
			if !strings.Contains(s, "██") || len(tanks(s)) < 2 { // the match, whatever the sidebar shows
				return false
			}
			for _, w := range lv.has {
				if !strings.Contains(s, "│"+w) && !strings.Contains(s, " "+w+" ") {
					return false
				}
			}
			for _, w := range lv.lack {
				if strings.Contains(s, w) {
					return false
				}
			}
			return true
		})
	}
}

// TestTmuxSpectate: a spectator of a bots-only match sees "SPECTATING",
// no movement keys in the hints, and follows a player with a number key.
func TestTmuxSpectate(t *testing.T) {
	srv := startTmux(t, "server", 100, 30, binary(t), "serve", "--addr", "127.0.0.1:0", "--players", "2", "--bots", "2")
	var addr string // the port is the server's choice: its dashboard says which
	srv.waitScreen(5*time.Second, "the server's dashboard with the address to join", func(s string) bool {
		addr = sharedAddr(s)
		return addr != ""
	})
	tm := startTmux(t, "spectator", 100, 30, binary(t), "join", addr, "--spectate", "--quick")
	s := tm.waitScreen(10*time.Second, "the spectator's view", func(s string) bool {
		return strings.Contains(s, "SPECTATING") && len(tanks(s)) >= 2
	})
	if strings.Contains(s, "WASD") || !strings.Contains(s, "1-8 follow") {
		t.Errorf("the spectator's hints are not the spectator's:\n%s", s)
	}
	followed := regexp.MustCompile(`│\*\S bot2 `) // the roster's marker, then the tank
	tm.keys("2")
	tm.waitScreen(3*time.Second, "following bot2", func(s string) bool {
		return strings.Contains(s, "following bot2") && followed.MatchString(s)
	})
}

// brokenWalls returns the map rows (of mapText) where a run of wall cells
// is not whole tiles: a run of odd length, or one starting off the maze's
// two-column grid, means something was drawn over half a wall.
func brokenWalls(s string) []string {
	rows := strings.Split(mapText(s), "\n")
	if len(rows) == 0 {
		return nil
	}
	x0 := len([]rune(rows[0][:max(strings.Index(rows[0], "█"), 0)])) // the maze's left edge
	var bad []string
	for _, row := range rows {
		r := []rune(row)
		for x := 0; x < len(r); {
			if r[x] != '█' {
				x++
				continue
			}
			end := x
			for end < len(r) && r[end] == '█' {
				end++
			}
			if (x-x0)%2 != 0 || (end-x)%2 != 0 {
				bad = append(bad, row)
				break
			}
			x = end
		}
	}
	return bad
}

// TestTmuxLabelsKeepWalls plays against three bots for four seconds: the
// names by the tanks show, and no frame has a wall cell covered by one
// (they were drawn on the row above each tank, over the maze: "█bob██").
func TestTmuxLabelsKeepWalls(t *testing.T) {
	tm := startTmux(t, "labels", 100, 30, binary(t), "play", "--name", "zed", "--bots", "3", "--bot-level", "easy")
	tm.waitScreen(10*time.Second, "the match", func(s string) bool { return playing(s) && !strings.Contains(s, "get ready") })
	label := regexp.MustCompile(`zed|ze…|z…|bot\d|bo…|b…`)
	frames, labelled := 0, 0
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		s := tm.screen()
		if !playing(s) {
			continue
		}
		frames++
		if label.MatchString(mapText(s)) {
			labelled++
		}
		if bad := brokenWalls(s); len(bad) > 0 {
			t.Fatalf("a label covers part of a wall:\n%s\n\nscreen:\n%s", strings.Join(bad, "\n"), s)
		}
	}
	if frames < 10 || labelled < frames/2 {
		t.Fatalf("%d frames of the match, %d with a name on the map", frames, labelled)
	}
	t.Logf("%d frames, %d with names, no wall covered", frames, labelled)
}

// TestTmuxCompact79x24 plays in a 79x24 terminal, a column short of the
// sidebar's layout: the whole maze shows (its top and bottom walls, 50
// cells each for the default 25x21 maze, 21 rows) under the status line,
// not the "terminal too small" message.
func TestTmuxCompact79x24(t *testing.T) {
	tm := startTmux(t, "compact", 79, 24, binary(t), "play", "--name", "e2e", "--bot-level", "easy")
	s := tm.waitScreen(10*time.Second, "the compact match", func(s string) bool {
		return strings.Contains(s, "ROUND") && strings.Contains(s, "RTT") && len(tanks(s)) >= 2
	})
	if strings.Contains(s, "too small") || strings.Contains(s, "│") {
		t.Fatalf("at 79x24 the screen has the too-small message or a sidebar:\n%s", s)
	}
	rows := strings.Split(mapText(s), "\n")
	full := strings.Repeat("█", 50)
	if len(rows) != 21 || !strings.Contains(rows[0], full) || !strings.Contains(rows[20], full) {
		t.Fatalf("the maze is not whole (%d rows):\n%s", len(rows), s)
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "ROUND") {
			t.Logf("status line: %q", strings.TrimSpace(l))
		}
	}
}
