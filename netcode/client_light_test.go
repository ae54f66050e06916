package netcode

import (
	"testing"
	"time"

	"ttytanks/game"
)

// A light client (ClientConfig.Light, the load generator's) plays the
// protocol without stepping a world: its inputs arrive in time, the States
// it checks are genuine, and its clock follows the server's.
func TestLightClientPlays(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 3})
	var ticks [2]game.Tick
	light := n.addClient(ClientConfig{Name: "light", Light: true, LocalInput: func(_ *game.World, slot int) game.Input {
		ticks[0]++
		return scripted(5, slot, ticks[0])
	}}, roomLink, roomLink, 1)
	full := n.addClient(ClientConfig{Name: "full"}, roomLink, roomLink, 2)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatalf("not playing: light %v %v, full %v %v", light.c.Status(), errText(light.c), full.c.Status(), errText(full.c))
	}
	first := light.c.World().Tick()
	n.run(5 * time.Second)

	var lv, fv View
	light.c.View(&lv)
	full.c.View(&fv)
	if lv.Status != StatusPlaying {
		t.Fatalf("light client: %v %q", lv.Status, lv.Message)
	}
	if got := light.c.World().Tick(); got != first {
		t.Errorf("a light client stepped its world: tick %d, it held %d", got, first)
	}
	sw := n.server.World()
	if d := lv.Metrics.LocalTick.Diff(sw.Tick()); d < 0 || d > 10 {
		t.Errorf("light client's tick %d, the server's %d: a lead of %d ticks", lv.Metrics.LocalTick, sw.Tick(), d)
	}
	if lv.Metrics.HashMismatches != 0 || lv.Metrics.Resyncs != 0 {
		t.Errorf("light client: %d hash mismatches, %d resyncs", lv.Metrics.HashMismatches, lv.Metrics.Resyncs)
	}
	st := n.server.Stats()
	for _, p := range st.Players {
		total := p.RealTicks + p.HeldTicks + p.NeutralTicks
		if total < 250 || p.RealTicks*100 < total*99 {
			t.Errorf("%s: %d real of %d ticks: the server guessed its inputs", p.Name, p.RealTicks, total)
		}
	}
	if lv.Metrics.Guessed != 0 {
		t.Errorf("light client: the server guessed %d of its ticks", lv.Metrics.Guessed)
	}
	if st.DatagramsOut == 0 || st.DatagramsIn == 0 {
		t.Errorf("server counts %d datagrams in, %d out", st.DatagramsIn, st.DatagramsOut)
	}
}
