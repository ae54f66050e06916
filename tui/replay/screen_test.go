package replay

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/proto/recording/resim"
	"ttytanks/tui"
)

// botsPlayer is a Player of the recording a real server made of two bots
// (two kills, two rounds, bot1 wins).
func botsPlayer(t *testing.T) *Player {
	t.Helper()
	b, err := os.ReadFile("../../proto/recording/resim/testdata/serve-2bots.ttrec")
	if err != nil {
		t.Fatal(err)
	}
	tl, err := resim.Load(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return NewPlayer(tl)
}

// session is Play running on a 100x30 simulation screen, driven by the
// test: frames and keys are handed in, and each returns once Play has
// drawn (or returned).
type session struct {
	t      *testing.T
	scr    tcell.SimulationScreen
	frames chan time.Time
	drawn  chan struct{}
	done   chan error
	now    time.Time
	quit   bool
}

func startSession(t *testing.T, p *Player) *session {
	t.Helper()
	s := &session{t: t, scr: tcell.NewSimulationScreen("UTF-8"), frames: make(chan time.Time), drawn: make(chan struct{}, 16), done: make(chan error, 1), now: time.Unix(0, 0)}
	go func() {
		s.done <- Play(context.Background(), s.scr, p, tui.Options{}, Hooks{Frames: s.frames, AfterDraw: func() { s.drawn <- struct{}{} }})
	}()
	s.wait()
	s.scr.SetSize(100, 30) // Play's Init made it 80x25
	if err := s.scr.PostEvent(tcell.NewEventResize(100, 30)); err != nil {
		t.Fatal(err)
	}
	s.wait()
	s.frames <- s.now // the clock's first reading
	s.wait()
	t.Cleanup(func() {
		if !s.quit {
			s.scr.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone)
			<-s.done
		}
	})
	return s
}

// wait waits for a draw or for Play to return.
func (s *session) wait() {
	s.t.Helper()
	select {
	case <-s.drawn:
	case err := <-s.done:
		if err != nil {
			s.t.Fatal(err)
		}
		s.quit = true
	case <-time.After(5 * time.Second):
		s.t.Fatal("Play neither drew nor returned in 5 s")
	}
}

// key presses k and waits for Play to draw or return.
func (s *session) key(k tcell.Key, r rune) {
	s.t.Helper()
	s.scr.InjectKey(k, r, tcell.ModNone)
	s.wait()
}

// frame hands Play a frame d after the last.
func (s *session) frame(d time.Duration) {
	s.t.Helper()
	s.now = s.now.Add(d)
	s.frames <- s.now
	s.wait()
}

// text returns the screen's rows.
func (s *session) text() []string {
	cells, w, h := s.scr.GetContents()
	lines := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := range w {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteString(string(r))
			} else {
				b.WriteByte(' ')
			}
		}
		lines[y] = b.String()
	}
	return lines
}

func (s *session) screen() string { return strings.Join(s.text(), "\n") }

// TestReplayFeedFollowsPosition plays the recording into round 2 (at 8x,
// in frames of 50 ms), then seeks: after Home the screen shows none of
// the match's events; after a seek to 0:15 without playing, it shows
// round 1's kill and result but not the match's end.
func TestReplayFeedFollowsPosition(t *testing.T) {
	p := botsPlayer(t)
	p.Speed = len(Speeds) - 1
	s := startSession(t, p)
	for p.TL.Round() < 2 || p.TL.Tick().Diff(p.TL.Start()) < 12*60 {
		s.frame(50 * time.Millisecond)
	}
	if scr := s.screen(); !strings.Contains(scr, "round 1: bot1 wins") {
		t.Fatalf("at tick %d, the feed does not show round 1's result:\n%s", p.TL.Tick(), scr)
	}
	s.key(tcell.KeyHome, 0)
	if scr := s.screen(); strings.Contains(scr, "round 1:") || strings.Contains(scr, "destroyed") || strings.Contains(scr, "match over") {
		t.Fatalf("after Home (tick %d), the feed shows later events:\n%s", p.TL.Tick(), scr)
	}
	for range 3 { // 15 s: round 2 has begun, its kill is to come
		s.key(tcell.KeyRight, 0)
	}
	scr := s.screen()
	if !strings.Contains(scr, "bot1 destroyed bot2") || !strings.Contains(scr, "round 1: bot1 wins") || strings.Contains(scr, "match over") {
		t.Fatalf("after seeking to tick %d, want round 1's kill and result and not the match's end:\n%s", p.TL.Tick(), scr)
	}
}

// TestReplaySidebarIsReplays: the sidebar shows the replay's figures
// (match, round, score, speed, position and, following a player, their
// kills, deaths, shots and hits), not a live client's netcode figures.
func TestReplaySidebarIsReplays(t *testing.T) {
	p := botsPlayer(t)
	s := startSession(t, p)
	for range 3 {
		s.key(tcell.KeyRight, 0)
	}
	s.key(tcell.KeyRune, '1')
	scr := s.screen()
	side := sidebarOf(s.text())
	for _, want := range []string{"match", "#3132760485", "round", "2 of 2", "score", "1 - 0", "speed", "position", "0:15 / 0:28", "following bot1", "kills", "deaths", "shots", "hits", "REPLAY"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
	if v := value(side, "kills"); v != "1" {
		t.Errorf("bot1's kills at 0:15: %q, want 1", v)
	}
	if v := value(side, "shots"); v != "3" {
		t.Errorf("bot1's shots at 0:15: %q, want 3", v)
	}
	for _, not := range []string{"RTT", "rollbacks", "input lead", "hash mismatches", "SPECTATING", "move"} {
		if strings.Contains(scr, not) {
			t.Errorf("the screen shows %q", not)
		}
	}
	if t.Failed() {
		t.Log("\n" + scr)
	}
}

// sidebarOf returns the rows of the sidebar box: the text right of the
// first "│" of each row that has one.
func sidebarOf(rows []string) []string {
	var out []string
	for _, r := range rows {
		if i := strings.Index(r, "│"); i >= 0 {
			out = append(out, strings.Trim(r[i:], "│ "))
		}
	}
	return out
}

// value returns the value on the sidebar row labelled label.
func value(side []string, label string) string {
	for _, r := range side {
		if strings.HasPrefix(r, label+" ") {
			return strings.TrimSpace(r[len(label):])
		}
	}
	return ""
}

var footerKeysRE = regexp.MustCompile(`\d+:\d\d/\d+:\d\d\s+(.*)$`)

// listedKeys returns the keys the screen lists: the status line's after
// the time, the sidebar's key hints (the first word of each part), and
// the help overlay's key column.
func listedKeys(t *testing.T, s *session) []string {
	t.Helper()
	rows := s.text()
	m := footerKeysRE.FindStringSubmatch(strings.TrimRight(rows[len(rows)-1], " "))
	if m == nil {
		t.Fatalf("no keys on the status line %q", rows[len(rows)-1])
	}
	keys := strings.Fields(m[1])
	side := sidebarOf(rows)
	for i, r := range side {
		if !strings.HasPrefix(r, "── keys") {
			continue
		}
		for _, hint := range side[i+1:] {
			if strings.HasPrefix(hint, "──") || hint == "" || strings.HasPrefix(hint, "╰") {
				break
			}
			for _, part := range strings.Split(hint, "·") {
				if f := strings.Fields(part); len(f) > 0 {
					keys = append(keys, f[0])
				}
			}
		}
	}
	s.key(tcell.KeyRune, '?')
	help := s.screen()
	if !strings.Contains(help, "help") {
		t.Errorf("? shows no help overlay:\n%s", help)
	}
	for _, r := range s.text() {
		// A key row: the key right after the box's padding, two spaces,
		// its meaning.
		if i := strings.Index(r, "│   "); i >= 0 && r[i+len("│   ")] != ' ' {
			f := strings.Split(strings.TrimSpace(r[i+len("│   "):]), "  ")
			if len(f) > 1 && f[0] != "" && !strings.HasPrefix(f[0], "│") {
				for _, k := range strings.Split(f[0], " / ") {
					keys = append(keys, strings.Split(k, ", ")...)
				}
			}
		}
	}
	if strings.Contains(help, "help") {
		s.key(tcell.KeyRune, '?') // closes it
	}
	return keys
}

// keyEvents returns the key presses a listed key name stands for.
func keyEvents(name string) ([][2]int, bool) {
	r := func(rs ...rune) [][2]int {
		var out [][2]int
		for _, c := range rs {
			out = append(out, [2]int{int(tcell.KeyRune), int(c)})
		}
		return out
	}
	k := func(ks ...tcell.Key) [][2]int {
		var out [][2]int
		for _, c := range ks {
			out = append(out, [2]int{int(c), 0})
		}
		return out
	}
	switch name {
	case "space":
		return r(' '), true
	case "+-", "+", "-":
		return r([]rune(name)...), true
	case "←→":
		return k(tcell.KeyLeft, tcell.KeyRight), true
	case "←":
		return k(tcell.KeyLeft), true
	case "→":
		return k(tcell.KeyRight), true
	case "[]", "[", "]":
		return r([]rune(name)...), true
	case "1-8":
		return r('1', '2'), true // the recording has two players
	case "Home":
		return k(tcell.KeyHome), true
	case "End":
		return k(tcell.KeyEnd), true
	case "Esc":
		return k(tcell.KeyEscape), true
	case "Tab":
		return k(tcell.KeyTab), true
	case "?", "q", "n", "x":
		return r([]rune(name)...), true
	}
	return nil, false
}

// TestReplayListsOnlyItsKeys walks every key the replay screen lists (on
// the status line, in the sidebar's hints and in the help overlay): each,
// pressed in a fresh replay paused at 0:10, changes the screen or quits.
func TestReplayListsOnlyItsKeys(t *testing.T) {
	p := botsPlayer(t)
	s := startSession(t, p)
	keys := listedKeys(t, s)
	if len(keys) < 8 {
		t.Fatalf("only %d keys listed: %q", len(keys), keys)
	}
	seen := map[string]bool{}
	for _, name := range keys {
		if seen[name] {
			continue
		}
		seen[name] = true
		evs, ok := keyEvents(name)
		if !ok {
			t.Errorf("the screen lists %q, which is no key of the replay's", name)
			continue
		}
		for _, ev := range evs {
			p := botsPlayer(t)
			p.TL.Seek(p.TL.Start().Add(10 * 60))
			p.Paused = true
			s := startSession(t, p)
			before := s.screen()
			s.key(tcell.Key(ev[0]), rune(ev[1]))
			if !s.quit && s.screen() == before {
				t.Errorf("listed key %q (%v) changes nothing on the screen", name, ev)
			}
		}
	}
	t.Logf("walked %d listed keys: %q", len(seen), keys)
}
