package tui

import (
	"strings"
	"testing"
	"time"

	"ttytanks/netcode"
)

func TestDashboard(t *testing.T) {
	st := &netcode.ServerStats{Match: 0xabcdef, Running: true, Tick: 4242, Spectators: 1,
		TickP50: 40 * time.Microsecond, TickP99: 310 * time.Microsecond, BytesIn: 12345, BytesOut: 67890, DatagramsIn: 99}
	st.Players = []netcode.PlayerStats{
		{Slot: 0, Name: "alice", Connected: true, MarginMs: 12, HeldTicks: 3, NeutralTicks: 1, Score: 2},
		{Slot: 1, Name: "bot2", Bot: true, Connected: true, Score: 5},
	}
	st.Drops[netcode.DropWrongAddr] = 17
	out := Dashboard(st, "host:7777", 120, 40, true)
	for _, want := range []string{"ttytanks join host:7777", "00abcdef", "tick 4242", "alice", "12ms", "bot2 (bot)",
		"wrong-addr", "17", "310µs", "Ctrl-C"} {
		if !strings.Contains(out, want) {
			t.Errorf("dashboard lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("no-colour dashboard contains escape sequences")
	}
	if colour := Dashboard(st, "host:7777", 80, 40, false); !strings.Contains(colour, "\x1b[") {
		t.Error("colour dashboard has no colour")
	}
	if short := Dashboard(st, "host:7777", 80, 5, true); strings.Count(short, "\n") > 5 {
		t.Errorf("dashboard for 5 rows has %d lines", strings.Count(short, "\n"))
	}
	if idle := Dashboard(&netcode.ServerStats{Need: 2}, "h:1", 80, 40, true); !strings.Contains(idle, "waiting for players") || !strings.Contains(idle, "no one yet") {
		t.Errorf("idle dashboard:\n%s", idle)
	}
}
