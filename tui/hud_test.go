package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestHUDKeys(t *testing.T) {
	key := func(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }
	cases := []struct {
		name       string
		keys       []*tcell.EventKey
		spectating bool
		want       HUD
		handled    bool // whether the last key was a display key
	}{
		{"n hides names", []*tcell.EventKey{runeKey('n')}, false, HUD{HideNames: true}, true},
		{"n twice shows them", []*tcell.EventKey{runeKey('n'), runeKey('N')}, false, HUD{}, true},
		{"? opens help", []*tcell.EventKey{runeKey('?')}, false, HUD{Help: true}, true},
		{"F1 opens help", []*tcell.EventKey{key(tcell.KeyF1)}, false, HUD{Help: true}, true},
		{"Esc closes help", []*tcell.EventKey{runeKey('?'), key(tcell.KeyEscape)}, false, HUD{}, true},
		{"Esc without help is not ours", []*tcell.EventKey{key(tcell.KeyEscape)}, false, HUD{}, false},
		{"Tab: middle", []*tcell.EventKey{key(tcell.KeyTab)}, false, HUD{Detail: SidebarMiddle}, true},
		{"Tab twice: scores", []*tcell.EventKey{key(tcell.KeyTab), key(tcell.KeyTab)}, false, HUD{Detail: SidebarScores}, true},
		{"Tab thrice: full", []*tcell.EventKey{key(tcell.KeyTab), key(tcell.KeyTab), key(tcell.KeyTab)}, false, HUD{}, true},
		{"3 follows slot 2 when spectating", []*tcell.EventKey{runeKey('3')}, true, HUD{Follow: 3}, true},
		{"3 again stops following", []*tcell.EventKey{runeKey('3'), runeKey('3')}, true, HUD{}, true},
		{"digits are not ours when playing", []*tcell.EventKey{runeKey('3')}, false, HUD{}, false},
		{"movement is not ours", []*tcell.EventKey{runeKey('w')}, false, HUD{}, false},
		{"q is not ours", []*tcell.EventKey{runeKey('q')}, false, HUD{}, false},
	}
	for _, c := range cases {
		var h HUD
		var handled bool
		for _, k := range c.keys {
			handled = h.Key(k, c.spectating)
		}
		if h != c.want || handled != c.handled {
			t.Errorf("%s: HUD %+v, handled %v; want %+v, %v", c.name, h, handled, c.want, c.handled)
		}
	}
}

// TestNamesOnMap: each tank has its name by it (on its row or the next
// one up or down; shortened with the ellipsis where the room is short)
// unless the HUD hides names.
func TestNamesOnMap(t *testing.T) {
	v := testView(t)
	v.World.NumBullets = 0 // bullets fly over labels
	for _, hide := range []bool{false, true} {
		scr := drawTest(t, 80, 24, v, Options{HUD: HUD{HideNames: hide}})
		runs := labelRuns(scr)
		if hide && len(runs) > 0 {
			t.Errorf("names hidden, but labels %v", runs)
		}
		if hide {
			continue
		}
		for i, name := range []string{"alice", "bob", "carol"} {
			tk := &v.World.Tanks[i]
			row := testOY + tileRow(tk.Y)
			found := false
			for _, r := range runs {
				pre := strings.TrimSuffix(r.text, "…")
				if r.y >= row-1 && r.y <= row+1 && pre != "" && strings.HasPrefix(name, pre) && (pre == name || pre != r.text) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s's label is not by the tank (row %d): labels %v\n%s", name, row, runs, strings.Join(screenLines(scr), "\n"))
			}
		}
	}
}

// TestHelpOverlay: the overlay lists the keys and, where there is room,
// the sidebar figures.
func TestHelpOverlay(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {100, 30}} {
		scr := drawTest(t, sz[0], sz[1], testView(t), Options{HUD: HUD{Help: true}})
		text := strings.Join(screenLines(scr), "\n")
		want := []string{"help — Esc closes", "names on the map", "sidebar: full, middle, scores",
			"round trip to the server", "States that corrected our own tank", "full resynchronisations"}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%dx%d: help overlay lacks %q:\n%s", sz[0], sz[1], w, text)
			}
		}
	}
}

// TestSidebarDetail: each level of the sidebar shows its figures and not
// the others.
func TestSidebarDetail(t *testing.T) {
	cases := []struct {
		d         SidebarDetail
		has, lack []string
	}{
		{SidebarFull, []string{"server tick", "replay p99", "RTT", "alice"}, []string{"events"}},
		{SidebarMiddle, []string{"RTT", "loss up/down", "rollbacks", "alice"}, []string{"server tick", "replay p99", "events"}},
		{SidebarScores, []string{"players", "events", "alice"}, []string{"RTT", "rollbacks"}},
	}
	for _, c := range cases {
		scr := drawTest(t, 100, 30, testView(t), Options{HUD: HUD{Detail: c.d}})
		var side []string
		for _, l := range screenLines(scr) {
			side = append(side, string([]rune(l)[100-SidebarMaxW:]))
		}
		text := strings.Join(side, "\n")
		for _, w := range c.has {
			if !strings.Contains(text, w) {
				t.Errorf("%v: sidebar lacks %q:\n%s", c.d, w, text)
			}
		}
		for _, w := range c.lack {
			if strings.Contains(text, w) {
				t.Errorf("%v: sidebar has %q:\n%s", c.d, w, text)
			}
		}
	}
}

// TestSpectatorView: a spectator's screen says so, hints no movement
// keys, and marks the player it follows in the title and the roster.
func TestSpectatorView(t *testing.T) {
	v := testView(t)
	v.Slot = -1
	scr := drawTest(t, 100, 30, v, Options{HUD: HUD{Follow: 3}})
	lines := screenLines(scr)
	text := strings.Join(lines, "\n")
	for _, want := range []string{"SPECTATING", "following carol", "1-8 follow a player"} {
		if !strings.Contains(text, want) {
			t.Errorf("spectator screen lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "WASD") || strings.Contains(text, "space fire") {
		t.Errorf("spectator screen hints movement keys:\n%s", text)
	}
	marked := false
	for _, l := range lines {
		if strings.Contains(l, "│*") && strings.Contains(l, "carol") {
			marked = true
		}
	}
	if !marked {
		t.Errorf("the roster does not mark carol, who is followed:\n%s", text)
	}
}
