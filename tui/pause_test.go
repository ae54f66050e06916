package tui

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// pauses records what Run told Options.Pause.
type pauses struct {
	mu   sync.Mutex
	says []bool
}

func (p *pauses) pause(on bool) {
	p.mu.Lock()
	p.says = append(p.says, on)
	p.mu.Unlock()
}

func (p *pauses) said() []bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.says)
}

// TestRunPauses: with Options.Pause (ttytanks play), p pauses and p again
// plays on, the help overlay and a terminal too small pause while they
// are up, "paused" is on the screen each time, and Run leaves the game
// running when it returns. Without it (a game with others) p pauses
// nothing.
func TestRunPauses(t *testing.T) {
	var p pauses
	l := startLoop(t, testView(t), Options{Pause: p.pause})
	l.scr.SetSize(80, 24)
	resize := func(w, h int) {
		t.Helper()
		for len(l.drawn) > 0 { // the frames drawn after keys
			<-l.drawn
		}
		l.scr.SetSize(w, h)
		if err := l.scr.PostEvent(tcell.NewEventResize(w, h)); err != nil {
			t.Fatal(err)
		}
		l.waitDraw()
	}
	resize(80, 24)
	key := func(k tcell.Key, r rune) {
		t.Helper()
		l.scr.InjectKey(k, r, tcell.ModNone)
		l.waitKeys(1)
	}
	shows := func(what string, want bool) {
		t.Helper()
		text := strings.Join(screenLines(l.scr), "\n")
		if strings.Contains(text, "paused") != want {
			t.Fatalf("%s: \"paused\" on the screen is %v, want %v:\n%s", what, !want, want, text)
		}
	}
	steps := []struct {
		what string
		do   func()
		says []bool
	}{
		{"p", func() { key(tcell.KeyRune, 'p') }, []bool{true}},
		{"p again", func() { key(tcell.KeyRune, 'p') }, []bool{true, false}},
		{"help", func() { key(tcell.KeyRune, '?') }, []bool{true, false, true}},
		{"help closed", func() { key(tcell.KeyEscape, 0) }, []bool{true, false, true, false}},
		{"too small", func() { resize(12, 5) }, []bool{true, false, true, false, true}},
		{"large again", func() { resize(80, 24) }, []bool{true, false, true, false, true, false}},
		{"P", func() { key(tcell.KeyRune, 'P') }, []bool{true, false, true, false, true, false, true}},
	}
	for _, s := range steps {
		s.do()
		if got := p.said(); !slices.Equal(got, s.says) {
			t.Fatalf("after %s, Pause was told %v, want %v", s.what, got, s.says)
		}
		shows(s.what, s.says[len(s.says)-1])
	}
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := l.wait(); err != nil {
		t.Fatal(err)
	}
	if got := p.said(); got[len(got)-1] {
		t.Fatalf("Run returned with the game paused: %v", got)
	}

	m := startLoop(t, testView(t), Options{})
	m.scr.InjectKey(tcell.KeyRune, 'p', tcell.ModNone)
	m.frame()
	if text := strings.Join(screenLines(m.scr), "\n"); strings.Contains(text, "paused") {
		t.Fatalf("a game without Pause shows paused after p:\n%s", text)
	}
}
