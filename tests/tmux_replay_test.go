package tests

import (
	"strings"
	"testing"
	"time"
)

// TestTmuxReplayKeys plays the committed recording of two bots in a real
// terminal (tmux at 100x30) at 8x: once round 2 is on, the feed shows
// round 1's result; Home takes it back (the feed holds nothing of later
// on); the screen lists no key the replay does not handle (no Tab, no
// move or fire); ? opens the replay's help and Esc closes it; the
// sidebar is the replay's.
func TestTmuxReplayKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	tm := startTmux(t, "replaykeys", 100, 30, binary(t), "replay", "--speed", "8", "../proto/recording/resim/testdata/serve-2bots.ttrec")
	tm.waitScreen(10*time.Second, "round 2 and round 1's result in the feed", func(s string) bool {
		return strings.Contains(s, "round 2/2") && strings.Contains(s, "round 1: bot1 wins")
	})
	tm.keys("Space", "Home")
	s := tm.waitScreen(5*time.Second, "paused at the start", func(s string) bool {
		st, tick := replayStatus(s)
		return st == "PAUSE" && tick == 6
	})
	for _, not := range []string{"round 1:", "destroyed", "match over", "Tab", "move", "fire", "RTT"} {
		if strings.Contains(s, not) {
			t.Errorf("paused at the start, the screen shows %q:\n%s", not, s)
		}
	}
	for _, want := range []string{"REPLAY", "position", "0:00 / 0:28", "Home End ? q"} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	tm.keys("?")
	tm.waitScreen(5*time.Second, "the help", func(s string) bool {
		return strings.Contains(s, "this help") && strings.Contains(s, "go to the start / end")
	})
	tm.keys("Escape")
	tm.waitScreen(5*time.Second, "the help closed", func(s string) bool { return !strings.Contains(s, "this help") && strings.Contains(s, "PAUSE") })
	tm.keys("q")
	if st := tm.waitExit(); st != "0" {
		t.Fatalf("replay exited with %s", st)
	}
}
