package tui

import (
	"testing"

	"ttytanks/netcode"
)

// TestBellOnHitAndKill runs Run on a simulation screen with views that
// change between frames: with Options.Bell, a hit on the local tank rings
// the bell once, a kill by it once, a frame with nothing new not at all,
// a hit a State takes back and the prediction makes again once in all,
// another tank hit not at all; without Bell, the same frames ring nothing.
func TestBellOnHitAndKill(t *testing.T) {
	for _, on := range []bool{true, false} {
		v := testView(t) // we are bob, slot 1, at 2 HP
		l := startLoop(t, v, Options{Bell: on})
		step := func(what string, edit func(v *netcode.View), want int) {
			t.Helper()
			l.s.mu.Lock()
			edit(&l.s.view)
			l.s.mu.Unlock()
			l.frame()
			if !on {
				want = 0
			}
			if got := l.scr.beepCount(); got != want {
				t.Errorf("bell %v, after %s: %d beeps, want %d", on, what, got, want)
			}
		}
		step("nothing new", func(v *netcode.View) {}, 0)
		step("a hit on us", func(v *netcode.View) { v.World.Tanks[1].HP = 1 }, 1)
		step("the same view again", func(v *netcode.View) {}, 1)
		step("the hit taken back", func(v *netcode.View) { v.World.Tanks[1].HP = 2 }, 1)
		step("the hit predicted again", func(v *netcode.View) { v.World.Tanks[1].HP = 1 }, 1)
		step("another tank hit", func(v *netcode.View) { v.World.Tanks[0].HP = 2 }, 1)
		step("a kill by us", func(v *netcode.View) {
			v.World.Tanks[2].Alive, v.World.Tanks[2].HP = false, 0
			v.World.Tanks[1].Stats.Kills++
		}, 2)
		step("the next frame", func(v *netcode.View) {}, 2)
	}
}
