package netcode

import (
	"math"
	"testing"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestRTTThroughUpstreamGap: after a second and a half in which none of
// our inputs reach the server (its echo delay saturates), the smoothed RTT
// is not polluted by the meaningless samples.
func TestRTTThroughUpstreamGap(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 1})
	path := transport.Impairment{Latency: 25 * time.Millisecond}
	sc := n.addClient(ClientConfig{}, path, path, 3)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	n.run(3 * time.Second)
	sc.up.Impairment = transport.Impairment{Loss: 1}
	n.run(1500 * time.Millisecond)
	sc.up.Impairment = path
	n.run(500 * time.Millisecond)
	if rtt := sc.c.Metrics().RTT; rtt < 40*time.Millisecond || rtt > 60*time.Millisecond {
		t.Fatalf("RTT %v after an upstream gap; true RTT 50ms", rtt)
	}
}

// TestLossMetricsAfterServerRestart: a new server starts its sequence
// numbers and receive counts over; the client's loss estimates follow it
// instead of reading nonsense.
func TestLossMetricsAfterServerRestart(t *testing.T) {
	n, _ := hardeningMatch(t)
	n.run(20 * time.Second)
	s, err := NewServer(ServerConfig{Players: 2, Seed: 78, Secret: []byte("another secret, another server")})
	if err != nil {
		t.Fatal(err)
	}
	n.server = s
	if !n.runUntil(SilenceReconnecting+3*time.Second, func() bool { return n.playing() && n.clients[0].c.sess.match == s.Match() }) {
		t.Fatal("no rejoin")
	}
	for _, c := range n.clients {
		c.down.Impairment = transport.Impairment{Latency: 20 * time.Millisecond, Loss: 0.10}
	}
	n.run(30 * time.Second)
	m := n.clients[0].c.Metrics()
	if math.Abs(m.LossDown-0.10) > 0.03 || m.LossUp > 0.02 {
		t.Fatalf("after the restart: loss down %.3f (true 0.10), loss up %.3f (true 0)", m.LossDown, m.LossUp)
	}
}

// TestSpoofedHellosDoNotSkewLoss: Hellos for other sessions from a player's
// address (an off-path spoofer) do not use up that player's sequence
// numbers, so its loss estimate stays true.
func TestSpoofedHellosDoNotSkewLoss(t *testing.T) {
	n, _ := hardeningMatch(t)
	victim := n.clients[0]
	hello := (&proto.Hello{Header: proto.Header{Session: 424242}}).Append(nil)
	n.onServerTick = func() {
		if n.now.Sub(simEpoch).Milliseconds()/50%2 == 0 { // 10 a second, under the rate limit
			n.server.Receive(n.now, victim.addr, hello)
		}
	}
	n.run(20 * time.Second)
	n.onServerTick = nil
	if m := victim.c.Metrics(); m.LossDown > 0.02 {
		t.Fatalf("loss down %.3f with no loss: the spoofed Hellos used the victim's sequence numbers", m.LossDown)
	}
}

// TestLinkLossMeasuring: the loss-up estimate is not called measured until
// it spans LossMinSamples datagrams: a start-up burst of 16 lost among the
// first 60 (27%) is not shown as the link's loss; LossMinSamples clean
// datagrams later it is, at its true weight.
func TestLinkLossMeasuring(t *testing.T) {
	l := newLinkStats()
	var m Metrics
	recv := uint16(0)
	ack := func(sent uint32, got bool) {
		if got {
			recv++
		}
		l.noteReceived(sent, recv)
	}
	for s := uint32(1); s <= 60; s++ {
		ack(s, s == 1 || s > 16) // datagrams 2..16 lost
	}
	l.fill(&m)
	if m.LossUpMeasured {
		t.Fatalf("after 60 datagrams the loss up (%.3f) is called measured", m.LossUp)
	}
	for s := uint32(61); s <= LossMinSamples+1; s++ {
		ack(s, true)
	}
	l.fill(&m)
	if want := 15.0 / LossMinSamples; !m.LossUpMeasured || math.Abs(m.LossUp-want) > 1e-9 {
		t.Fatalf("after %d datagrams: measured %v, loss up %.4f, want measured, %.4f", LossMinSamples+1, m.LossUpMeasured, m.LossUp, want)
	}
	for s := uint32(0); s < LossMinSamples; s++ {
		l.noteSeq(s)
	}
	if l.fill(&m); !m.LossDownMeasured || m.LossDown != 0 {
		t.Fatalf("after %d datagrams down: measured %v, loss down %.4f", LossMinSamples, m.LossDownMeasured, m.LossDown)
	}
}
