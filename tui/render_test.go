package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

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
		// feed, the bursts and the figures as last refreshed), drawing one
		// frame.
		fresh := newScreen(t, f.w, f.h)
		once := NewRenderer(fresh, Options{})
		once.oneShot, once.feed, once.fx, once.figs = true, r.feed, r.fx, r.figs
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

// TestSidebarFiguresRefreshTenTimesASecond: the sidebar's figures change on
// screen every figureEvery ticks, at once when the status changes, and a
// frame that changes no cell is not shown.
func TestSidebarFiguresRefreshTenTimesASecond(t *testing.T) {
	screen := newScreen(t, 100, 30)
	r := NewRenderer(screen, Options{})
	v := testView(t)
	rtt := func() string {
		for _, l := range screenLines(screen) {
			if i := strings.Index(l, "RTT"); i >= 0 {
				return strings.TrimSpace(strings.TrimRight(l[i+3:], " │|"))
			}
		}
		t.Fatal("no RTT line on the screen")
		return ""
	}
	v.Metrics.RTT = 40 * time.Millisecond
	r.Draw(v)
	if got := rtt(); got != "40 ms" {
		t.Fatalf("RTT shows %q, want 40 ms", got)
	}
	start := v.Metrics.LocalTick
	for k := 1; k < figureEvery; k++ {
		v.Metrics.LocalTick = start + game.Tick(k)
		v.Metrics.RTT = time.Duration(40+k) * time.Millisecond
		r.Draw(v)
		if got := rtt(); got != "40 ms" {
			t.Fatalf("%d ticks on, RTT shows %q: refreshed before %d ticks", k, got, figureEvery)
		}
	}
	v.Metrics.LocalTick = start + figureEvery
	r.Draw(v)
	if got := rtt(); got != fmt.Sprintf("%d ms", 40+figureEvery-1) {
		t.Fatalf("%d ticks on, RTT shows %q", figureEvery, got)
	}
	v.Metrics.RTT = 99 * time.Millisecond
	v.Status = netcode.StatusReconnecting
	r.Draw(v)
	if got := rtt(); got != "99 ms" {
		t.Fatalf("after a status change RTT shows %q, want 99 ms", got)
	}
	// The same view again: DrawAt changes no cell and does not show the
	// frame (Draw always shows: callers such as the replay player draw a
	// line of their own beside it).
	now := time.Unix(1000, 0)
	r.DrawAt(v, now)
	shown := 0
	counting := &showCounter{Screen: screen, shows: &shown}
	r.screen = counting
	r.DrawAt(v, now.Add(time.Second/60))
	if shown != 0 {
		t.Fatalf("DrawAt showed an unchanged frame %d times", shown)
	}
	r.Draw(v)
	if shown != 1 {
		t.Fatalf("Draw showed an unchanged frame %d times, want 1", shown)
	}
	v.Metrics.LocalTick += 2 * figureEvery
	v.Metrics.RTT = 7 * time.Millisecond
	r.DrawAt(v, now.Add(time.Second/30))
	if shown != 2 {
		t.Fatalf("DrawAt showed a changed frame %d times, want once", shown-1)
	}
}

// showCounter counts a screen's Show calls.
type showCounter struct {
	tcell.Screen
	shows *int
}

func (s *showCounter) Show() { *s.shows++; s.Screen.Show() }
