package netcode

import (
	"testing"
	"time"

	"ttytanks/netcode/transport"
)

// TestSpectatorLeaveAfterARematch: a delayed spectator that still shows
// the old match when a rematch has begun leaves: the server acknowledges
// its Leave with the match it named (an epoch the spectator holds), so
// the spectator learns its Leave arrived; and when that acknowledgement
// is lost, the repeats are acknowledged again.
func TestSpectatorLeaveAfterARematch(t *testing.T) {
	for _, lose := range []bool{false, true} {
		name := "acknowledged"
		if lose {
			name = "first acknowledgement lost"
		}
		t.Run(name, func(t *testing.T) {
			n := newSimnet(t, ServerConfig{Players: 2, Bots: 2, NewBot: botPolicy, Rounds: 1, Seed: 7, SpectatorDelay: 3 * time.Second})
			sp := n.addClient(ClientConfig{Spectate: true}, roomLink, roomLink, 1)
			if !n.runUntil(5*time.Second, func() bool { return sp.c.Status() == StatusPlaying }) {
				t.Fatalf("the spectator does not watch: %v", errText(sp.c))
			}
			first := n.server.Match()
			if !n.runUntil(10*time.Minute, func() bool { return n.server.Match() != first }) {
				t.Fatal("no rematch")
			}
			if sp.c.sess.matchID() != first {
				t.Fatalf("the spectator holds match %08x, want the old %08x (its view is delayed)", sp.c.sess.matchID(), first)
			}
			n.route(sp.addr, sp.up, sp.c.Close())
			if lose {
				sp.down.Impairment = transport.Impairment{Latency: roomLink.Latency, Loss: 1}
				n.run(50 * time.Millisecond)
				sp.down.Impairment = roomLink
			}
			if !n.runUntil(900*time.Millisecond, func() bool { return !sp.c.sess.leaving }) {
				t.Fatal("the spectator's Leave is never acknowledged")
			}
		})
	}
}
