package tui

import (
	"strings"
	"testing"

	"ttytanks/game"
	"ttytanks/netcode"
)

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
		// A fresh Renderer with the kept one's memory of earlier views (the
		// feed and the bursts), drawing one frame.
		fresh := newScreen(t, f.w, f.h)
		once := NewRenderer(fresh, Options{})
		once.oneShot, once.feed, once.fx = true, r.feed, r.fx
		once.Draw(v)
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

// TestDrawSurvivesCorruptView: a view with a maze larger than the game
// allows (never produced by netcode, which validates) draws without a
// panic.
func TestDrawSurvivesCorruptView(t *testing.T) {
	v := testView(t)
	v.Maze.W, v.Maze.H = 120, 80
	scr := newScreen(t, 200, 60)
	r := NewRenderer(scr, Options{})
	r.Draw(v)
}
