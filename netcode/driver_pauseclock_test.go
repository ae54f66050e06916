package netcode

import (
	"context"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// TestPauseClockStandsStill: paused, Now does not move however long the
// wall clock runs; resumed, it runs on from where it stood, so the time
// paused is lost to it, and pausing twice or resuming a running clock
// changes nothing.
func TestPauseClockStandsStill(t *testing.T) {
	wall := time.Unix(1000, 0)
	p := newPauseClock(func() time.Time { return wall })
	if got := p.Now(); !got.Equal(wall) {
		t.Fatalf("a new clock reads %v, want the wall's %v", got, wall)
	}
	wall = wall.Add(time.Second)
	p.SetPaused(true)
	p.SetPaused(true)
	wall = wall.Add(time.Hour)
	if got := p.Now(); !got.Equal(time.Unix(1001, 0)) || !p.Paused() {
		t.Fatalf("paused an hour, the clock reads %v (paused %v), want 1001 s", got.Unix(), p.Paused())
	}
	p.SetPaused(false)
	p.SetPaused(false)
	wall = wall.Add(2 * time.Second)
	if got := p.Now(); !got.Equal(time.Unix(1003, 0)) {
		t.Fatalf("2 s after resuming, the clock reads %v, want 1003 s", got.Unix())
	}
	if d := waitFor(p, p.Now().Add(5*time.Millisecond), 0); d != 5*time.Millisecond {
		t.Fatalf("running: a deadline 5 ms ahead waits %v", d)
	}
	p.SetPaused(true)
	if d := waitFor(p, p.Now().Add(5*time.Millisecond), 0); d != pausedWait {
		t.Fatalf("paused: a deadline waits %v, want %v", d, pausedWait)
	}
}

// TestPausedDriversStandStill: a server driver and a client driver on one
// PauseClock, as in ttytanks play, stop together: while the clock is
// paused neither the server's match (its bot included) nor the client's
// world moves on, and nobody is judged silent; resumed, the match plays
// on with the client in it.
func TestPausedDriversStandStill(t *testing.T) {
	net := transport.NewMemNetwork()
	st := net.Listen()
	srv, err := NewServer(ServerConfig{Players: 2, Bots: 1, NewBot: botPolicy, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	clk := NewPauseClock()
	sd := NewServerDriver(srv, st)
	sd.SetClock(clk)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	cd := StartClientClock(NewClient(ClientConfig{Server: st.LocalAddr(), Name: "p",
		LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}), net.Listen(), clk)
	defer cd.CloseNow()

	var v View
	waitView := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			cd.View(&v)
			if cond() {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: status %v, server tick %d", what, v.Status, v.Metrics.ServerTick)
			}
			time.Sleep(5 * time.Millisecond) // polling a real-time loop
		}
	}
	waitView("no match", func() bool { return v.Status == StatusPlaying && v.Metrics.ServerTick > 120 })
	serverTick := func() (tk game.Tick) {
		sd.Do(func(s *Server) {
			if w := s.room0().match.current(); w != nil {
				tk = w.Tick()
			}
		})
		return tk
	}
	clk.SetPaused(true)
	time.Sleep(3 * TickDuration) // let a tick under way finish
	before := serverTick()
	cd.View(&v)
	local := v.World.Tick
	// SilenceGone and the seat's idle time are seconds; a pause of 1.5 s
	// of wall time with a wall-clock driver would step the world 90 times.
	time.Sleep(1500 * time.Millisecond) // the wall time the pause lasts: what is measured
	after := serverTick()
	cd.View(&v)
	if after != before || v.World.Tick != local {
		t.Fatalf("paused 1.5 s: the server's world went from tick %d to %d, the client's from %d to %d", before, after, local, v.World.Tick)
	}
	clk.SetPaused(false)
	waitView("the match did not play on", func() bool { return v.Status == StatusPlaying && v.World.Tick > local+60 })
	if v.Metrics.HashMismatches != 0 {
		t.Fatalf("%d hash mismatches after the pause", v.Metrics.HashMismatches)
	}
}
