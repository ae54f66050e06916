package netcode

import (
	"testing"
	"time"

	"ttytanks/game"
)

// TestSpectatorWatchesDelayed: with SpectatorDelay a spectator watches
// the match that far behind (never ahead), and what it shows is the
// server's world of that tick; with no delay it watches live.
func TestSpectatorWatchesDelayed(t *testing.T) {
	const stateEvery = 2
	for _, delay := range []time.Duration{2 * time.Second, 0} {
		t.Run(delay.String(), func(t *testing.T) {
			n := newSimnet(t, ServerConfig{Players: 2, Bots: 2, StateEvery: stateEvery, SpectatorDelay: delay,
				NewBot: func(int, uint64) InputSource { return walker{} }})
			n.run(time.Second) // the bots' match runs
			sp := n.addClient(ClientConfig{Spectate: true}, roomLink, roomLink, 1)
			// Until the first State, a spectator may show the world the
			// match began with (its delayed view is from before the first
			// State the server kept for it); what follows is measured.
			if !n.runUntil(delay+2*time.Second, func() bool {
				_, ok := sp.c.tl.auth()
				return sp.c.Status() == StatusPlaying && ok
			}) {
				t.Fatalf("the spectator shows nothing: status %v (%v)", sp.c.Status(), sp.c.Err())
			}
			want := int32(delay / TickDuration)
			minLag, maxLag := int32(1<<30), int32(-1<<30)
			checked, mismatches := 0, 0
			seen := map[game.Tick]bool{}
			n.onServerTick = func() {
				w := sp.c.World()
				lag := n.server.World().Tick().Diff(w.Tick())
				minLag, maxLag = min(minLag, lag), max(maxLag, lag)
				if seen[w.Tick()] {
					return
				}
				seen[w.Tick()] = true
				checked++
				if h, ok := n.serverHash[w.Tick()]; !ok || h != w.Hash() {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("the spectator shows tick %d with hash %x, the server's is %x (%v)", w.Tick(), w.Hash(), h, ok)
					}
				}
			}
			n.run(5 * time.Second)
			t.Logf("delay %v: lag %d..%d ticks, %d ticks checked", delay, minLag, maxLag, checked)
			if minLag < 0 {
				t.Fatalf("the spectator is %d ticks ahead of the server", -minLag)
			}
			if minLag < want-stateEvery-2 || maxLag > want+stateEvery+3 {
				t.Fatalf("the spectator lags %d..%d ticks behind, want about %d", minLag, maxLag, want)
			}
			if checked < 5*60/stateEvery-10 {
				t.Fatalf("only %d of the spectator's ticks checked", checked)
			}
			if mismatches > 0 {
				t.Fatalf("%d of %d ticks the spectator showed differ from the server's", mismatches, checked)
			}
			if sp.c.Status() != StatusPlaying {
				t.Fatalf("spectator status %v (%v)", sp.c.Status(), sp.c.Err())
			}
		})
	}
}
