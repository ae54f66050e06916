package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// playText returns the words in the w columns left of the sidebar, row by
// row, leaving out box-drawing borders: wrapped text reads as one line.
func playText(scr tcell.SimulationScreen, w int) string {
	var words []string
	for _, l := range screenLines(scr) {
		for _, f := range strings.Fields(string([]rune(l)[:w])) {
			if strings.Trim(f, "│╭╮╰╯─█") != "" {
				words = append(words, f)
			}
		}
	}
	return strings.Join(words, " ")
}

// sidebarText returns the rightmost w columns of each screen row.
func sidebarText(scr tcell.SimulationScreen, w int) []string {
	lines := screenLines(scr)
	out := make([]string, len(lines))
	for i, l := range lines {
		r := []rune(l)
		out[i] = string(r[max(len(r)-w, 0):])
	}
	return out
}

// findRow returns the sidebar row (of width w) containing label.
func findRow(t *testing.T, scr tcell.SimulationScreen, w int, label string) string {
	t.Helper()
	for _, row := range sidebarText(scr, w) {
		if strings.Contains(row, label) {
			return row
		}
	}
	t.Errorf("no sidebar row contains %q:\n%s", label, strings.Join(sidebarText(scr, w), "\n"))
	return ""
}

func TestSidebarFigures(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			v := testView(t)
			scr := drawTest(t, size[0], size[1], v, Options{})
			l := computeLayout(size[0], size[1], v)
			figures := []struct{ label, value string }{
				{"status", "playing"},
				{"tick", "12345"},
				{"server tick", "12339"},
				{"RTT", "123 ms"},
				{"input lead", "6 ticks"},
				{"arrival margin", "+17 ms"},
				{"loss up/down", "2.5% / 12.5%"},
				{"state delay", "9 ticks"},
				{"bandwidth KB/s", "↑2.3 ↓5.7"},
				{"rollbacks", "4567"},
				{"replay ticks", "6 (max 19)"},
				{"replay cost", "41 µs"},
				{"replay p95", "88 µs"},
				{"replay p99", "97 µs"},
				{"hash mismatches", "31"},
				{"resyncs", "2"},
				{"alice", "♥♥♥"},
				{"bob", "♥♥♡"},
				{"carol", "♥♡♡"},
			}
			rows := sidebarText(scr, l.side.w)
			for _, f := range figures {
				found := false
				for _, row := range rows {
					li := strings.Index(row, f.label+" ")
					if li >= 0 && strings.LastIndex(row, f.value) > li+len(f.label) &&
						strings.HasSuffix(strings.TrimRight(row, " │"), f.value) == (f.label != "alice" && f.label != "bob" && f.label != "carol") {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("no sidebar row has %q with %q right-aligned after it:\n%s", f.label, f.value, strings.Join(rows, "\n"))
				}
			}
			scores := map[string]string{"alice": "2", "bob": "5", "carol": "0"}
			for name, score := range scores {
				row := strings.TrimRight(findRow(t, scr, l.side.w, name), " │")
				if !strings.HasSuffix(row, " "+score) {
					t.Errorf("roster row %q does not end in score %s", row, score)
				}
			}
			if row := findRow(t, scr, l.side.w, "bob"); !strings.Contains(row, "›") {
				t.Errorf("local player's roster row %q lacks the › marker", row)
			}
			findRow(t, scr, l.side.w, "space fire")
			findRow(t, scr, l.side.w, "q quit")
			// The sparklines sit under RTT and replay p99.
			for _, label := range []string{"RTT", "replay p99"} {
				for i, row := range rows {
					if strings.Contains(row, label+" ") {
						if i+1 >= len(rows) || !strings.Contains(rows[i+1], "▁") || !strings.Contains(rows[i+1], "█") {
							t.Errorf("no sparkline under %s", label)
						}
						break
					}
				}
			}
		})
	}
}

// TestRosterShowsLostConnection: a seated player whose connection is lost
// is marked "lost" in the roster instead of their HP.
func TestRosterShowsLostConnection(t *testing.T) {
	v := testView(t)
	v.Connected[2] = false
	scr := drawTest(t, 80, 24, v, Options{})
	l := computeLayout(80, 24, v)
	if row := findRow(t, scr, l.side.w, "carol"); !strings.Contains(row, "lost") || strings.Contains(row, "♥") {
		t.Errorf("carol's row %q should say lost", row)
	}
	if row := findRow(t, scr, l.side.w, "alice"); strings.Contains(row, "lost") {
		t.Errorf("alice's row %q says lost but she is connected", row)
	}
}

// TestWaitingRosterShowsTanks: before the match no tank is alive, and the
// roster shows each player with their tank glyph, not the wreck.
func TestWaitingRosterShowsTanks(t *testing.T) {
	v := testView(t)
	v.Status, v.Need = netcode.StatusWaiting, 1
	for i := range v.World.Tanks {
		v.World.Tanks[i] = game.Tank{}
	}
	v.World.Tanks[1].Seated = true
	scr := drawTest(t, 80, 24, v, Options{})
	l := computeLayout(80, 24, v)
	for _, name := range []string{"alice", "bob", "carol"} {
		row := findRow(t, scr, l.side.w, name)
		glyph := []rune(strings.TrimLeft(row, "│› "))[0]
		if !strings.ContainsRune("↑↗→↘↓↙←↖", glyph) {
			t.Errorf("%s's waiting row %q shows %q, not a tank", name, row, glyph)
		}
	}
}

// TestLossMeasuring: a loss estimate that spans fewer than
// netcode.LossMinSamples datagrams reads "measuring", not a percentage
// (27% from a start-up burst on a clean link); once measured it shows.
func TestLossMeasuring(t *testing.T) {
	v := testView(t)
	v.Metrics.LossUp, v.Metrics.LossDown = 16.0/60, 0
	v.Metrics.LossUpMeasured, v.Metrics.LossDownMeasured = false, false
	scr := drawTest(t, 80, 24, v, Options{})
	l := computeLayout(80, 24, v)
	if row := findRow(t, scr, l.side.w, "loss up/down"); !strings.Contains(row, "measuring") || strings.Contains(row, "%") {
		t.Errorf("an early loss estimate reads %q, want measuring", row)
	}
	v.Metrics.LossUpMeasured, v.Metrics.LossDownMeasured = true, true
	scr = drawTest(t, 80, 24, v, Options{})
	if row := findRow(t, scr, l.side.w, "loss up/down"); !strings.Contains(row, "26.7% / 0.0%") {
		t.Errorf("a measured loss reads %q, want 26.7%% / 0.0%%", row)
	}
}
