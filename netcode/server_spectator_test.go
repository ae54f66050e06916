package netcode

import (
	"testing"
	"time"
	"ttytanks/netcode/transport"
)

// TestSpectatorMeasuresItsRTT: the server echoes a spectator's keep-alives,
// so its RTT follows the link (it once froze at the handshake's sample),
// and a spectator shows no input lead.
func TestSpectatorMeasuresItsRTT(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 2, NewBot: func(int, uint64) InputSource { return walker{} }})
	fast := transport.Impairment{Latency: 5 * time.Millisecond}
	sp := n.addClient(ClientConfig{Spectate: true}, fast, fast, 1)
	if !n.runUntil(2*time.Second, func() bool { return sp.c.Status() == StatusPlaying && sp.c.World() != nil }) {
		t.Fatalf("spectator status %v", sp.c.Status())
	}
	n.run(3 * time.Second)
	if rtt := sp.c.Metrics().RTT; rtt < 8*time.Millisecond || rtt > 20*time.Millisecond {
		t.Fatalf("RTT %v over a 10 ms path", rtt)
	}
	slow := transport.Impairment{Latency: 60 * time.Millisecond}
	*sp.up, *sp.down = *transport.NewNetsim(slow, 2), *transport.NewNetsim(slow, 3)
	n.run(5 * time.Second)
	m := sp.c.Metrics()
	if m.RTT < 100*time.Millisecond || m.RTT > 140*time.Millisecond {
		t.Fatalf("RTT %v after the path became 120 ms: the spectator's RTT does not follow the link", m.RTT)
	}
	if m.InputLead != 0 {
		t.Fatalf("a spectator shows an input lead of %d ticks", m.InputLead)
	}
}
