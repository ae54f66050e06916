package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"ttytanks/netcode"
)

// sgr matches the colour and attribute sequences lipgloss writes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// dashLines splits a Dashboard into its lines, without escape sequences.
func dashLines(out string) []string {
	return strings.Split(sgr.ReplaceAllString(out, ""), "\r\n")
}

// checkFits fails when out has more than h lines or a line wider than w.
func checkFits(t *testing.T, what, out string, w, h int) {
	t.Helper()
	if strings.HasSuffix(out, "\n") {
		t.Errorf("%s: ends in a newline (a full screen would scroll)", what)
	}
	if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Errorf("%s: a bare newline", what)
	}
	lines := dashLines(out)
	if len(lines) > h {
		t.Errorf("%s: %d lines for %d rows", what, len(lines), h)
	}
	for i, l := range lines {
		if tw := textWidth(l); tw > w {
			t.Errorf("%s: line %d is %d cells wide (max %d): %q", what, i, tw, w, l)
		}
		for _, c := range []byte(l) {
			if c < 0x20 || c == 0x7f {
				t.Errorf("%s: line %d has control byte %#x: %q", what, i, c, l)
				break
			}
		}
	}
}

func TestDashboardContent(t *testing.T) {
	st := busyServer(2, 2)
	// p0-1 plays over SSH: the operator sees where from.
	p := &st.Rooms[0].Players[1]
	p.Addr, p.SSHFrom = "127.0.77.1:10003", "203.0.113.9"
	info := testDashInfo
	info.Note = "kicked p1-1"
	out := RenderDashboard(st, info, testLogs(3), 120, 40, true)
	text := strings.Join(dashLines(out), "\n")
	for _, want := range []string{
		"ttytanks server · 2 rooms · 4 players (2 bots) · 1 watching",
		"join with ttytanks join host:7777 · or ssh -p 2222 host",
		"key " + testFingerprint,
		"in 12.1 KiB · out 66.3 KiB · datagrams 99 · tick p50/p99 40 µs / 310 µs (budget 17 ms) · faults 1",
		"drops 17 (wrong-addr 17)",
		"room0 - 2/2 1 0 playing 3 (to 5) 200 µs 4242 00abc000",
		"room1 K3YC0DE 2/2 1 0 playing 3 (to 5) 201 µs 4242 00abc001",
		"room0 0 p0-0 (bot) 0 - 3 1 2 -",
		"room1 1 p1-1 1 12ms 3 1 2 10.0.1.1:5000",
		"room0 1 p0-1 1 12ms 3 1 2 ssh 203.0.113.9",
		"kicked p1-1",
		`msg="log line 1"`, `msg="log line 3"`,
		"Ctrl-C",
	} {
		if !strings.Contains(squeeze(text), want) {
			t.Errorf("dashboard lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("no-colour dashboard contains escape sequences")
	}
	if colour := RenderDashboard(st, info, nil, 80, 40, false); !strings.Contains(colour, "\x1b[") {
		t.Error("colour dashboard has no colour")
	}
	// The log pane is at the bottom, above the keys, newest last.
	lines := dashLines(out)
	if n := len(lines); !strings.Contains(lines[n-2], "log line 3") || !strings.Contains(lines[n-1], "Ctrl-C") {
		t.Errorf("bottom lines %q", lines[n-2:])
	}
}

// TestDashboardFits: never more lines than the height nor a line wider
// than the width, with and without colour, busy or idle.
func TestDashboardFits(t *testing.T) {
	hostile := busyServer(3, 3)
	hostile.Rooms[0].Name = "\x1b[2Jroom\u202e" + strings.Repeat("é", 40)
	hostile.Rooms[1].Code = "\x1b]0;x\x07" + strings.Repeat("C", 30)
	hostile.Rooms[2].Players[1].Name = "\x1b[31mmal\x00lory\r\n" + strings.Repeat("宽", 30)
	fixtures := map[string]*netcode.ServerStats{
		"busy":    busyServer(8, 8),
		"idle":    {},
		"hostile": hostile,
	}
	logs := append(testLogs(50), "\x1b[2J"+strings.Repeat("long ", 100))
	info := testDashInfo
	info.Share = "\x1b[5m" + strings.Repeat("h", 300)
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {200, 60}, {40, 10}, {120, 5}, {30, 3}, {80, 1}, {20, 40}} {
		for name, st := range fixtures {
			for _, noColor := range []bool{true, false} {
				what := fmt.Sprintf("%s %dx%d noColor=%v", name, sz[0], sz[1], noColor)
				checkFits(t, what, RenderDashboard(st, info, logs, sz[0], sz[1], noColor), sz[0], sz[1])
			}
		}
	}
}

// TestDashboard80x24Busy: eight full rooms on 80x24 keep the header and
// cut the tables.
func TestDashboard80x24Busy(t *testing.T) {
	out := RenderDashboard(busyServer(8, 8), testDashInfo, testLogs(30), 80, 24, true)
	lines := dashLines(out)
	if len(lines) != 24 {
		t.Errorf("%d lines, want all 24 rows used", len(lines))
	}
	head := []string{"ttytanks server · 8 rooms", "join with ttytanks join host:7777", "key " + testFingerprint}
	for i, want := range head {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d %q, want it to start with %q", i, lines[i], want)
		}
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"+3 more rooms", "+59 more players", "── log ", `msg="log line 30"`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `msg="log line 27"`) {
		t.Errorf("the log pane shows more than its share:\n%s", text)
	}
}

// TestDashboard60x20: nothing wraps, and what the operator must read is
// whole: the fingerprint, a private room's code.
func TestDashboard60x20(t *testing.T) {
	out := RenderDashboard(busyServer(8, 8), testDashInfo, testLogs(30), 60, 20, true)
	checkFits(t, "60x20", out, 60, 20)
	text := squeeze(strings.Join(dashLines(out), "\n"))
	for _, want := range []string{"key " + testFingerprint, "room1 K3YC0DE 8/8 playing", "more rooms", "more players", `msg="log line 30"`, "Ctrl-C"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, strings.Join(dashLines(out), "\n"))
		}
	}
}

// TestDashboard200x60: every room shows, with the columns a narrow
// screen leaves out, and the log pane grows.
func TestDashboard200x60(t *testing.T) {
	out := RenderDashboard(busyServer(8, 8), testDashInfo, testLogs(30), 200, 60, true)
	checkFits(t, "200x60", out, 200, 60)
	lines := dashLines(out)
	text := strings.Join(lines, "\n")
	if strings.Contains(text, "more rooms") || !strings.Contains(squeeze(text), "room7 - 8/8 1 0 playing 3 (to 5) 207 µs 4242 00abc007") {
		t.Errorf("not every room shows:\n%s", text)
	}
	if !strings.Contains(text, "address") || !strings.Contains(text, "10.0.3.7:5000") {
		t.Errorf("no addresses at 200 columns:\n%s", text)
	}
	if !strings.Contains(text, `msg="log line 20"`) {
		t.Errorf("the log pane did not grow with the screen:\n%s", text)
	}
}

// TestDashboardFewLogs: a short log leaves its lines to the tables.
func TestDashboardFewLogs(t *testing.T) {
	lines := dashLines(RenderDashboard(busyServer(2, 8), testDashInfo, testLogs(1), 80, 24, true))
	text := strings.Join(lines, "\n")
	if strings.Contains(text, "more rooms") || !strings.Contains(text, `msg="log line 1"`) {
		t.Errorf("80x24, 2 rooms, 1 log line:\n%s", text)
	}
	if got := dashLines(RenderDashboard(busyServer(1, 2), testDashInfo, nil, 80, 24, true)); len(got) > 12 {
		t.Errorf("a small server fills %d lines:\n%s", len(got), strings.Join(got, "\n"))
	}
}

// TestDashboardSingleMatch: a server without rooms shows its match as
// one room.
func TestDashboardSingleMatch(t *testing.T) {
	st := &netcode.ServerStats{Match: 0xabcdef, Running: true, Tick: 4242, Spectators: 1, Need: 1,
		TickP50: 40 * time.Microsecond, TickP99: 310 * time.Microsecond}
	st.Players = []netcode.PlayerStats{
		{Slot: 0, Name: "alice", Connected: true, MarginMs: 12, HeldTicks: 3, NeutralTicks: 1, Score: 2},
		{Slot: 1, Name: "bot2", Bot: true, Connected: true, Score: 5},
		{Slot: 2, Name: "carol", MarginMs: -4},
	}
	text := squeeze(strings.Join(dashLines(RenderDashboard(st, DashboardInfo{Share: "h:1"}, nil, 120, 40, true)), "\n"))
	for _, want := range []string{"1 room · 3 players (1 bot) · 1 watching", "match - 3/4 1 1 playing - 310 µs 4242 00abcdef",
		"match 0 alice 2 12ms", "match 1 bot2 (bot) 5 -", "match 2 carol (lost) 0 -4ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "host key") || strings.Contains(text, " or ") {
		t.Errorf("SSH lines without SSH:\n%s", text)
	}
	if strings.Contains(text, "── log") {
		t.Errorf("a log pane without a log:\n%s", text)
	}
	idle := strings.Join(dashLines(RenderDashboard(&netcode.ServerStats{}, DashboardInfo{Share: "h:1"}, []string{"serving"}, 80, 24, true)), "\n")
	for _, want := range []string{"0 rooms", "(no rooms yet)", "(no one yet)", "── log", "serving"} {
		if !strings.Contains(idle, want) {
			t.Errorf("idle dashboard lacks %q:\n%s", want, idle)
		}
	}
}

// TestDashboardHostileNames: names and log lines from players cannot
// reach the terminal as escape sequences or control characters.
func TestDashboardHostileNames(t *testing.T) {
	st := busyServer(1, 2)
	st.Rooms[0].Name = "\x1b[2Jevil\x1b]0;t\x07room"
	st.Rooms[0].Players[1].Name = "mal\x1b[31mlory\x07\x08"
	logs := []string{"user=\x1b[H\x1b[2Jeve\x9b joined"}
	out := RenderDashboard(st, DashboardInfo{Share: "h:1\x1b[2J", Note: "kicked \x1b[5mx"}, logs, 100, 30, true)
	if strings.ContainsAny(out, "\x1b\x07\x08") {
		t.Errorf("escape or control bytes in %q", out)
	}
	text := strings.Join(dashLines(out), "\n")
	for _, want := range []string{"evilroom", "mallory", "user=eve joined", "kicked x", "join h:1"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

func TestShortLogTime(t *testing.T) {
	tests := []struct{ in, want string }{
		{`time=2026-12-01T07:58:33.527Z level=INFO msg=serving`, `07:58:33 level=INFO msg=serving`},
		{`time=2026-12-01T07:58:33+02:00 level=WARN msg=x`, `07:58:33 level=WARN msg=x`},
		{`time=12:00:01 level=INFO msg="log line 1"`, `time=12:00:01 level=INFO msg="log line 1"`},
		{`time=2026-12-01T07:58`, `time=2026-12-01T07:58`},
		{`time=2026-12-01T0 x`, `time=2026-12-01T0 x`},
		{`level=INFO msg=plain`, `level=INFO msg=plain`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := shortLogTime(tt.in); got != tt.want {
			t.Errorf("shortLogTime(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDashboardShowsSlipsAndIdleSeats: a clock that fell behind and seats
// freed for idleness are on the dashboard when they happened, not before.
func TestDashboardShowsSlipsAndIdleSeats(t *testing.T) {
	st := busyServer(1, 2)
	quiet := squeeze(strings.Join(dashLines(RenderDashboard(st, testDashInfo, nil, 120, 40, true)), "\n"))
	if strings.Contains(quiet, "clock slipped") || strings.Contains(quiet, "idle seats") {
		t.Fatalf("a server without slips or idle seats shows them:\n%s", quiet)
	}
	st.Slips, st.SkippedTicks, st.Idled = 2, 37, 5
	text := squeeze(strings.Join(dashLines(RenderDashboard(st, testDashInfo, nil, 120, 40, true)), "\n"))
	for _, want := range []string{"clock slipped 2 times, 37 ticks lost", "idle seats freed 5"} {
		if !strings.Contains(text, want) {
			t.Errorf("dashboard lacks %q:\n%s", want, text)
		}
	}
}

// TestDashboardShowsTheDrain: a draining server's dashboard says so with
// its countdown, above the operator's note, and still fits.
func TestDashboardShowsTheDrain(t *testing.T) {
	st := busyServer(2, 2)
	info := testDashInfo
	info.Note = "kicked p1-1"
	info.Drain = "draining: 2 matches to end · exits in 9m41s at the latest"
	out := RenderDashboard(st, info, testLogs(3), 100, 30, true)
	lines := dashLines(out)
	drain, note := -1, -1
	for i, l := range lines {
		if strings.Contains(squeeze(l), "draining: 2 matches to end · exits in 9m41s at the latest") {
			drain = i
		}
		if strings.Contains(l, "kicked p1-1") {
			note = i
		}
	}
	if drain < 0 || note < 0 || drain > note {
		t.Errorf("drain line %d, note line %d; want both, the drain first:\n%s", drain, note, strings.Join(lines, "\n"))
	}
	if len(lines) > 30 {
		t.Errorf("%d lines on a 30-line terminal", len(lines))
	}
}
