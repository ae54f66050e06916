package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTmuxPlayPauses: in `ttytanks play`, p stops the game with "paused"
// on the screen (the tick and the bot's tank stand still for a second and
// a half), p again plays on; the help overlay and a terminal too small
// pause it the same way while they are up.
func TestTmuxPlayPauses(t *testing.T) {
	tm := startTmux(t, "pause", 100, 30, binary(t), "play", "--name", "e2e")
	tm.waitScreen(10*time.Second, "the match after its countdown", func(s string) bool {
		return playing(s) && !strings.Contains(s, "get ready")
	})
	still := func(what string) {
		t.Helper()
		s1 := tm.screen()
		tick := sidebarValue(s1, "tick")
		time.Sleep(1500 * time.Millisecond) // the wall time the pause must hold: what is measured
		s2 := tm.screen()
		if tick == "" || sidebarValue(s2, "tick") != tick {
			t.Fatalf("%s: the tick went from %q to %q in 1.5 s:\n%s", what, tick, sidebarValue(s2, "tick"), s2)
		}
		if fieldText(s1) != fieldText(s2) {
			t.Fatalf("%s: the field changed in 1.5 s:\n%s\n----\n%s", what, s1, s2)
		}
	}
	moves := func(what string) {
		t.Helper()
		tick := sidebarValue(tm.screen(), "tick")
		tm.waitScreen(3*time.Second, what, func(s string) bool {
			return !strings.Contains(s, "paused") && sidebarValue(s, "tick") != tick
		})
	}

	tm.keys("p")
	tm.waitScreen(2*time.Second, "paused after p", func(s string) bool { return strings.Contains(s, "paused") })
	still("after p")
	tm.keys("p")
	moves("the game playing on after p again")

	// The sidebar is under the help: the ticks before and after it tell
	// (a game that ran on would be 90 ticks further after 1.5 s).
	before := atoi(t, sidebarValue(tm.screen(), "tick"))
	tm.keys("?")
	tm.waitScreen(2*time.Second, "the help, paused", func(s string) bool {
		return strings.Contains(s, "paused") && strings.Contains(s, "Esc closes")
	})
	time.Sleep(1500 * time.Millisecond) // the wall time the pause must hold
	tm.keys("Escape")
	s := tm.waitScreen(2*time.Second, "the help closed", func(s string) bool { return !strings.Contains(s, "Esc closes") })
	if after := atoi(t, sidebarValue(s, "tick")); after-before > 45 {
		t.Fatalf("the tick went from %d to %d over 1.5 s under the help", before, after)
	}
	moves("the game playing on after the help")

	before = atoi(t, sidebarValue(tm.screen(), "tick"))
	tm.run("resize-window", "-t", tm.name, "-x", "30", "-y", "10")
	tm.waitScreen(2*time.Second, "the too-small screen, paused", func(s string) bool {
		return strings.Contains(s, "paused") && strings.Contains(s, "too small")
	})
	time.Sleep(1500 * time.Millisecond) // the wall time the pause must hold: 90 ticks if it did not
	tm.run("resize-window", "-t", tm.name, "-x", "100", "-y", "30")
	s = tm.waitScreen(3*time.Second, "the game back at 100x30", func(s string) bool { return playing(s) })
	if after := atoi(t, sidebarValue(s, "tick")); after-before > 45 {
		t.Fatalf("the tick went from %d to %d over 1.5 s on the too-small screen and back", before, after)
	}
	moves("the game playing on after the resize")
	tm.keys("q")
	if how := tm.waitExit(); how != "0" {
		t.Fatalf("play exited with %s", how)
	}
}

// atoi parses a sidebar figure that must be a number.
func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.Fields(s + " x")[0])
	if err != nil {
		t.Fatalf("sidebar figure %q is not a number", s)
	}
	return n
}
