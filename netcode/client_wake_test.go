package netcode

import (
	"strings"
	"testing"
	"time"

	"ttytanks/netcode/transport"
)

// wakeNet is a 2-seat match of two bot-driven players on a path of 30 ms
// with a little loss, played until the first of them has scored, so that
// a lost seat shows as a lost score. It returns the net and the player
// with a score (the one to freeze) and its seat.
func wakeNet(t *testing.T) (n *simnet, p *simClient, slot int, score uint16) {
	t.Helper()
	n = newSimnet(t, ServerConfig{Players: 2, Seed: 5})
	path := transport.Impairment{Latency: 30 * time.Millisecond, Loss: 0.02}
	a := n.addClient(botClient("a", 1), path, path, 1)
	b := n.addClient(botClient("b", 2), path, path, 2)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("no match")
	}
	if !n.runUntil(5*time.Minute, func() bool {
		for _, ps := range n.server.Stats().Players {
			if ps.Score > 0 {
				return true
			}
		}
		return false
	}) {
		t.Fatal("nobody scored in 5 minutes")
	}
	for _, ps := range n.server.Stats().Players {
		if ps.Score > 0 {
			p = a
			if ps.Name == "b" {
				p = b
			}
			return n, p, ps.Slot, ps.Score
		}
	}
	panic("unreachable")
}

// seatOf returns the server's figures of the seat slot.
func seatOf(n *simnet, slot int) (PlayerStats, bool) {
	for _, ps := range n.server.Stats().Players {
		if ps.Slot == slot {
			return ps, true
		}
	}
	return PlayerStats{}, false
}

// TestFrozenClientKeepsItsSeat: a client whose process is stopped for 8,
// 10 or 15 s (shorter than the server's FreeAfter of 20 s) while the
// server plays on wakes, jumps its clock to the server's, and its inputs
// are on time again at once: it keeps its seat and its score, and is not
// timed out 20 s after the freeze began.
func TestFrozenClientKeepsItsSeat(t *testing.T) {
	for _, d := range []time.Duration{8 * time.Second, 10 * time.Second, 15 * time.Second} {
		t.Run(d.String(), func(t *testing.T) {
			n, p, slot, score := wakeNet(t)
			before, _ := seatOf(n, slot)
			n.freeze(p, d)
			n.run(d)
			// Within a second of waking its inputs count again.
			if !n.runUntil(time.Second, func() bool {
				ps, ok := seatOf(n, slot)
				return ok && ps.RealTicks > before.RealTicks+30
			}) {
				ps, _ := seatOf(n, slot)
				t.Fatalf("after waking, the server uses none of its inputs: %+v (before the freeze %+v)", ps, before)
			}
			late, _ := seatOf(n, slot)
			n.run(FreeAfter + 5*time.Second - d) // past the timeout counted from the freeze
			ps, ok := seatOf(n, slot)
			if !ok || ps.Name != before.Name || ps.Score < score || p.c.Status() != StatusPlaying || p.c.Slot() != slot {
				t.Fatalf("after a %v freeze: seat %+v (held %v), client %v in slot %d; want %s's seat kept with its score %d",
					d, ps, ok, p.c.Status(), p.c.Slot(), before.Name, score)
			}
			if ps.LateInputs > late.LateInputs+5 {
				t.Errorf("%d late inputs after the catch-up", ps.LateInputs-late.LateInputs)
			}
			t.Logf("%v freeze: %d late inputs in all, score %d → %d", d, ps.LateInputs, score, ps.Score)
		})
	}
}

// TestClientFrozenPastTheTimeout: a client stopped for 25 s, longer than
// the server holds a seat, checks with the (live) server when it wakes
// instead of saying the server is gone, and takes a seat again as a new
// player, saying so.
func TestClientFrozenPastTheTimeout(t *testing.T) {
	n, p, slot, _ := wakeNet(t)
	n.freeze(p, 25*time.Second)
	n.run(25 * time.Second)
	if _, ok := seatOf(n, slot); ok {
		t.Fatalf("the seat is still held 25 s into the freeze")
	}
	var checking string
	if !n.runUntil(5*time.Second, func() bool {
		var v View
		p.c.View(&v)
		if v.Status == StatusReconnecting && checking == "" {
			checking = v.Message
		}
		return v.Status == StatusPlaying && v.Notice != ""
	}) {
		var v View
		p.c.View(&v)
		t.Fatalf("after waking: %v %q %q; want playing again with a notice", v.Status, v.Message, v.Notice)
	}
	var v View
	p.c.View(&v)
	if !strings.Contains(v.Notice, "joined again as a new player") || !strings.Contains(checking, "checking with the server") {
		t.Fatalf("notice %q, message while checking %q", v.Notice, checking)
	}
	if ps, ok := seatOf(n, p.c.Slot()); !ok || ps.Score != 0 {
		t.Fatalf("the server holds %+v (%v) for the new player", ps, ok)
	}
	t.Log(checking)
	t.Log(v.Notice)
}
