package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

func TestTitleRow(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(v *netcode.View)
		want  string
		style tcell.AttrMask
	}{
		{"playing", func(v *netcode.View) {}, "ROUND 7  ·  01:23", tcell.AttrBold},
		{"full time", func(v *netcode.View) { v.World.Round.Timer = game.RoundTicks }, "ROUND 7  ·  01:30", tcell.AttrBold},
		{"last second", func(v *netcode.View) { v.World.Round.Timer = 59 }, "ROUND 7  ·  00:00", tcell.AttrBold},
		{"won", func(v *netcode.View) {
			v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 2
		}, "ROUND 7 OVER — carol wins", tcell.AttrBold},
		{"draw", func(v *netcode.View) {
			v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, -1
		}, "ROUND 7 OVER — draw", tcell.AttrBold},
	}
	for _, tt := range tests {
		v := testView(t)
		tt.edit(v)
		scr := drawTest(t, 80, 24, v, Options{})
		title := strings.TrimSpace(string([]rune(screenLines(scr)[testOY-1])[:50])) // right above the maze
		if title != tt.want {
			t.Errorf("%s: title row %q, want %q", tt.name, title, tt.want)
		}
	}
}

func TestRoundOverPanelShowsScores(t *testing.T) {
	v := testView(t)
	v.World.Round.Phase, v.World.Round.Winner = game.PhaseOver, 1
	scr := drawTest(t, 80, 24, v, Options{})
	text := playText(scr, 80-SidebarMinW)
	for _, want := range []string{"ROUND 7 OVER — bob wins", "bob wins", "alice 2", "bob 5", "carol 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("round-over screen lacks %q:\n%s", want, text)
		}
	}
}

func TestStatusScreens(t *testing.T) {
	tests := []struct {
		name string
		edit func(v *netcode.View)
		opts Options
		want []string
		maze bool // whether the maze is still drawn
	}{
		{"connecting", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusConnecting, "dialling 10.0.0.1:7777"
		}, Options{}, []string{"connecting…", "dialling 10.0.0.1:7777"}, false},
		{"waiting", func(v *netcode.View) {
			v.Status, v.Need = netcode.StatusWaiting, 2
		}, Options{ShareAddr: "10.0.0.1:7777"}, []string{"waiting for 2 more players — share the command below", "ttytanks join 10.0.0.1:7777",
			"players so far: • alice • bob (you) • carol"}, false},
		{"waiting for one", func(v *netcode.View) {
			v.Status, v.Need = netcode.StatusWaiting, 1
		}, Options{}, []string{"waiting for 1 more player", "players so far:"}, false},
		{"reconnecting", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusReconnecting, "no reply for 3s"
		}, Options{}, []string{"reconnecting…", "no reply for 3s", "ROUND 7"}, true},
		{"closed", func(v *netcode.View) {
			v.Status, v.Message = netcode.StatusClosed, "server shut down"
		}, Options{}, []string{"session closed", "server shut down"}, false},
	}
	for _, tt := range tests {
		v := testView(t)
		tt.edit(v)
		scr := drawTest(t, 80, 24, v, tt.opts)
		text := playText(scr, 80-SidebarMinW)
		for _, want := range tt.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s: play area lacks %q:\n%s", tt.name, want, strings.Join(screenLines(scr), "\n"))
			}
		}
		if row := findRow(t, scr, SidebarMinW, "status"); !strings.Contains(row, v.Status.String()) {
			t.Errorf("%s: sidebar status row %q", tt.name, row)
		}
		// The maze's bottom-left corner is outside every panel.
		got, _ := cellAt(scr, testOX, testOY+6)
		if (got == "█") != tt.maze {
			t.Errorf("%s: maze drawn = %v, want %v", tt.name, got == "█", tt.maze)
		}
	}
}

// TestTooSmall: below the compact layout's size (the maze whole and a
// status row: 26x8 for the 13x7 test maze; MinWidth×MinHeight for a maze
// too large for it) only the message is drawn, saying what is needed.
func TestTooSmall(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		v     *netcode.View
		needW int
		needH int
	}{
		{25, 24, testView(t), 26, 8},
		{80, 7, testView(t), 26, 8},
		{20, 5, testView(t), 26, 8},
		{79, 24, bigView(t), 80, 24},
		{80, 23, bigView(t), 80, 24},
	} {
		scr := drawTest(t, c.w, c.h, c.v, Options{})
		lines := screenLines(scr)
		var words []string
		for _, l := range lines {
			words = append(words, strings.Fields(l)...)
		}
		want := fmt.Sprintf("terminal too small (need %dx%d, have %dx%d)", c.needW, c.needH, c.w, c.h)
		if got := strings.Join(words, " "); got != want {
			t.Errorf("%dx%d: screen reads %q, want only %q", c.w, c.h, got, want)
		}
	}
	// Narrower than the message, it breaks between its phrases, not
	// inside the parenthesis (40x15, an SSH window, for the default maze).
	var got []string
	for _, l := range screenLines(drawTest(t, 40, 15, defaultView(t), Options{})) {
		if l = strings.TrimSpace(l); l != "" {
			got = append(got, l)
		}
	}
	if want := []string{"terminal too small", "(need 50x22, have 40x15)"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("40x15 reads %q, want %q", got, want)
	}
	// 80×24 itself is big enough, and so is the compact layout's least.
	for _, sz := range [][2]int{{80, 24}, {26, 8}} {
		scr := drawTest(t, sz[0], sz[1], testView(t), Options{})
		if text := strings.Join(screenLines(scr), ""); strings.Contains(text, "too small") {
			t.Errorf("%dx%d is reported too small", sz[0], sz[1])
		}
	}
}

// allStates are views in every state the renderer draws, for tests that
// check every cell.
func allStates(t *testing.T) map[string]*netcode.View {
	states := map[string]*netcode.View{"playing": testView(t), "big": bigView(t)}
	for _, st := range []netcode.Status{netcode.StatusConnecting, netcode.StatusWaiting, netcode.StatusReconnecting, netcode.StatusClosed} {
		v := testView(t)
		v.Status, v.Message, v.Need = st, "a message", 1
		states[st.String()] = v
	}
	over := testView(t)
	over.World.Round.Phase, over.World.Round.Winner = game.PhaseOver, 0
	states["round over"] = over
	dead := testView(t)
	dead.World.Tanks[0].Alive = false
	states["dead tank"] = dead
	return states
}

var testSizes = [][2]int{{80, 24}, {79, 24}, {120, 40}, {200, 60}}

// TestASCIIOnly: with ASCII, every screen is ASCII only, in a game opened
// from the lobby too (as every SSH session's is: its key hints are a copy
// of the glyph set).
func TestASCIIOnly(t *testing.T) {
	for _, lobby := range []bool{false, true} {
		for name, v := range allStates(t) {
			for _, size := range testSizes {
				scr := drawTest(t, size[0], size[1], v, Options{ASCII: true, ShareAddr: "host:7777", Lobby: lobby})
				cells, w, _ := scr.GetContents()
				for i, c := range cells {
					for _, r := range c.Runes {
						if r >= 0x80 {
							t.Fatalf("%s at %dx%d (lobby %v): cell (%d,%d) = %q is not ASCII", name, size[0], size[1], lobby, i%w, i/w, string(c.Runes))
						}
					}
				}
			}
		}
	}
}

func TestNoColor(t *testing.T) {
	for name, v := range allStates(t) {
		for _, size := range testSizes {
			scr := drawTest(t, size[0], size[1], v, Options{NoColor: true})
			cells, w, _ := scr.GetContents()
			for i, c := range cells {
				fg, bg, _ := c.Style.Decompose()
				if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
					t.Fatalf("%s at %dx%d: cell (%d,%d) %q has colours %v on %v", name, size[0], size[1], i%w, i/w, string(c.Runes), fg, bg)
				}
			}
		}
	}
	// Without colour the local tank is still marked.
	scr := drawTest(t, 80, 24, testView(t), Options{NoColor: true})
	_, st := cellAt(scr, testOX+11, testOY+3)
	if _, _, a := st.Decompose(); a&tcell.AttrReverse == 0 {
		t.Errorf("local tank is not in reverse video without colour")
	}
}

// TestShareAndServerText: the waiting screen shares the whole command
// when one is given (an SSH session's "ssh -p PORT HOST"), and the
// connecting box names the server.
func TestShareAndServerText(t *testing.T) {
	tests := []struct {
		name      string
		status    netcode.Status
		opts      Options
		want, not string
	}{
		{"ssh share", netcode.StatusWaiting, Options{ShareAddr: "vm:7777", Share: "ssh -p 2222 vm"}, "share: ssh -p 2222 vm", "ttytanks join"},
		{"udp share", netcode.StatusWaiting, Options{ShareAddr: "vm:7777"}, "ttytanks join vm:7777", "ssh"},
		{"connecting", netcode.StatusConnecting, Options{Server: "10.1.2.3:7777"}, "connecting to 10.1.2.3:7777", "\x00"},
	}
	for _, tt := range tests {
		v := testView(t)
		v.Status, v.Need = tt.status, 1
		scr := drawTest(t, 100, 30, v, tt.opts)
		text := playText(scr, computeLayout(100, 30, v).play.w)
		if !strings.Contains(text, tt.want) || strings.Contains(text, tt.not) {
			t.Errorf("%s: play area lacks %q or has %q:\n%s", tt.name, tt.want, tt.not, text)
		}
	}
}

// TestShareLineCopiesWhole: serve --play's waiting screen shows the join
// command (room and server key included) on one row of its own, without
// a box border and unwrapped, so that selecting the row copies the whole
// command; on a screen narrower than the command it is cut with an
// ellipsis and the row below says how wide a window shows it whole.
func TestShareLineCopiesWhole(t *testing.T) {
	const key = "SHA256:TbFypyD3KKhpEHhKtTvAdcyT+JCTEn6dqyYPbjlJRAc"
	cmd := "ttytanks join 203.0.113.7:7777 --room a --server-key " + key
	v := testView(t)
	v.Status, v.Need, v.Room = netcode.StatusWaiting, 1, "a"
	opts := Options{ShareAddr: "203.0.113.7:7777", ShareKey: key}
	for _, size := range [][2]int{{120, 30}, {160, 40}} {
		lines := screenLines(drawTest(t, size[0], size[1], v, opts))
		n := 0
		for _, l := range lines {
			if strings.Contains(l, "ttytanks join") {
				n++
				if strings.TrimSpace(l) != cmd {
					t.Errorf("%dx%d: the command's row is %q, want the command alone: %q", size[0], size[1], l, cmd)
				}
			}
		}
		if n != 1 {
			t.Errorf("%dx%d: %d rows show the join command, want 1:\n%s", size[0], size[1], n, strings.Join(lines, "\n"))
		}
	}
	lines := screenLines(drawTest(t, 80, 24, v, opts))
	for i, l := range lines {
		if strings.Contains(l, "ttytanks join") {
			if !strings.HasPrefix(strings.TrimSpace(l), "ttytanks join 203.0.113.7:7777 --room a --server-key SHA256:") ||
				strings.Contains(l, "│") || i+1 >= len(lines) || !strings.Contains(lines[i+1], "columns wide shows the whole command") {
				t.Errorf("80x24: the command's rows are %q, %q", l, lines[min(i+1, len(lines)-1)])
			}
			return
		}
	}
	t.Errorf("80x24: no row shows the join command:\n%s", strings.Join(lines, "\n"))
}
