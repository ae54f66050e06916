package tui

import (
	"strings"
	"testing"

	"ttytanks/game"
	"ttytanks/netcode"
)

// feedRig feeds a feed successive edits of one view, a tick apart.
type feedRig struct {
	t *testing.T
	v *netcode.View
	f feed
}

func newFeedRig(t *testing.T) *feedRig {
	g := &feedRig{t: t, v: testView(t)}
	g.f.observe(g.v)
	return g
}

// step advances the view one tick, applies edit and shows it to the feed.
func (g *feedRig) step(edit func(v *netcode.View)) {
	g.v.World.Tick++
	if edit != nil {
		edit(g.v)
	}
	g.f.observe(g.v)
}

func (g *feedRig) lines() string { return strings.Join(g.f.last(FeedLen), "|") }

func TestFeedRoster(t *testing.T) {
	g := newFeedRig(t)
	if got := g.lines(); got != "" {
		t.Fatalf("the players already here are news: %q", got)
	}
	g.step(func(v *netcode.View) { v.Names[3], v.Connected[3] = "dave", true })
	g.step(func(v *netcode.View) { v.Names[2], v.Connected[2] = "", false })
	g.step(func(v *netcode.View) { v.Connected[0] = false })
	g.step(func(v *netcode.View) { v.Connected[0] = true })
	if got, want := g.lines(), "dave joined|carol left|alice lost the connection|alice is back"; got != want {
		t.Errorf("feed %q, want %q", got, want)
	}
}

// killCarol kills carol in the predicted world, with alice's bullet right
// beside her in the view before.
func killCarol(g *feedRig) {
	g.step(func(v *netcode.View) {
		c := &v.World.Tanks[2]
		v.World.Bullets[0] = game.Bullet{X: c.X - game.SubTile/2, Y: c.Y, VX: game.BulletSpeed, Owner: 0, Life: 100}
	})
	g.step(func(v *netcode.View) {
		c := &v.World.Tanks[2]
		*c = game.Tank{X: c.X, Y: c.Y, Seated: true, AimY: 1}
		v.World.Bullets[0] = v.World.Bullets[1]
		v.World.NumBullets--
	})
}

// TestFeedKillConfirmed: a kill seen in the predicted world is reported
// only once the newest State has reached its tick, and once.
func TestFeedKillConfirmed(t *testing.T) {
	g := newFeedRig(t)
	g.v.Metrics.StateDelay = 9
	killCarol(g)
	for range 8 {
		g.step(nil) // the State tick stays behind the death: still 9 ticks back
	}
	if got := g.lines(); got != "" {
		t.Fatalf("kill reported before the server confirmed it: %q", got)
	}
	g.step(func(v *netcode.View) { v.Metrics.StateDelay = 0 })
	g.step(nil)
	if got, want := g.lines(), "alice destroyed carol"; got != want {
		t.Errorf("feed %q, want %q", got, want)
	}
}

// TestFeedKillRolledBack: a predicted death that a State takes back is
// never reported.
func TestFeedKillRolledBack(t *testing.T) {
	g := newFeedRig(t)
	g.v.Metrics.StateDelay = 9
	alive := g.v.World.Tanks[2]
	killCarol(g)
	g.step(func(v *netcode.View) { v.World.Tanks[2] = alive })
	g.step(func(v *netcode.View) { v.Metrics.StateDelay = 0 })
	g.step(nil)
	if got := g.lines(); got != "" {
		t.Errorf("a death that was rolled back is in the feed: %q", got)
	}
}

// TestFeedRoundResult: the round's result is reported once, when
// confirmed.
func TestFeedRoundResult(t *testing.T) {
	g := newFeedRig(t)
	g.v.Metrics.StateDelay = 5
	g.step(func(v *netcode.View) { v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 1 })
	if got := g.lines(); got != "" {
		t.Fatalf("round result before it was confirmed: %q", got)
	}
	for range 10 {
		g.step(nil)
	}
	if got, want := g.lines(), "round 7: bob wins"; got != want {
		t.Errorf("feed %q, want %q", got, want)
	}
}

// TestBurstForgetsRolledBackDeath: a destroyed tank bursts, then is a
// wreck; a death a State takes back stops the burst at once.
func TestBurstForgetsRolledBackDeath(t *testing.T) {
	v := testView(t)
	var e effects
	e.observe(v)
	alive := v.World.Tanks[2]
	v.World.Tick++
	v.World.Tanks[2].Alive = false
	e.observe(v)
	if f := e.burst(2, v.World.Tick); f != 0 {
		t.Fatalf("burst frame at death %d, want 0", f)
	}
	if f := e.burst(2, v.World.Tick.Add(BurstTicks)); f != -1 {
		t.Errorf("burst frame after BurstTicks %d, want -1 (a wreck)", f)
	}
	v.World.Tick++
	v.World.Tanks[2] = alive
	e.observe(v)
	if f := e.burst(2, v.World.Tick); f != -1 {
		t.Errorf("burst frame after the death was rolled back %d, want -1", f)
	}
}

// TestHitFlash: a tank in hitstun shows hit marks for half of each flash
// period, and none once the hitstun is over.
func TestHitFlash(t *testing.T) {
	on := 0
	for h := 1; h <= game.HitstunTicks; h++ {
		if flashing(uint8(h)) {
			on++
		}
	}
	if on < game.HitstunTicks/3 || on == game.HitstunTicks || flashing(0) {
		t.Errorf("flashing for %d of %d hitstun ticks, at 0: %v", on, game.HitstunTicks, flashing(0))
	}
	v := testView(t)
	v.World.Tanks[0].Hitstun = game.HitstunTicks // alice, just hit, at tile (1,1)
	scr := drawTest(t, 80, 24, v, Options{})
	if got, _ := cellAt(scr, testOX+2*1+1+1, testOY+1); got != ")" {
		t.Errorf("cell right of a hit tank %q, want the hit mark", got)
	}
}
