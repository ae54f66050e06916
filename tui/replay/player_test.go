package replay

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/proto/recording/rectest"
	"ttytanks/proto/recording/resim"
	"ttytanks/tui"
)

func samplePlayer(t *testing.T) *Player {
	t.Helper()
	tl, err := resim.Load(bytes.NewReader(rectest.Sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	return NewPlayer(tl)
}

func key(r rune) *tcell.EventKey { return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) }

// TestPlayerKeys: each key does what the help says, within its bounds.
func TestPlayerKeys(t *testing.T) {
	p := samplePlayer(t)
	start := p.TL.Start()
	p.Advance(time.Second)
	if got := p.TL.Tick().Diff(start); got != 60 {
		t.Fatalf("1 s at 1x stepped %d ticks, want 60", got)
	}
	for range 10 {
		p.Key(key('+'))
	}
	if Speeds[p.Speed] != 8 {
		t.Fatalf("speed after many +: %gx, want 8x", Speeds[p.Speed])
	}
	p.Advance(time.Second)
	if got := p.TL.Tick().Diff(start); got != 60+480 {
		t.Fatalf("1 s more at 8x: at +%d, want +540", got)
	}
	for range 10 {
		p.Key(key('-'))
	}
	if Speeds[p.Speed] != 0.25 {
		t.Fatalf("speed after many -: %gx, want 0.25x", Speeds[p.Speed])
	}
	p.Key(key(' '))
	at := p.TL.Tick()
	p.Advance(time.Minute)
	if !p.Paused || p.TL.Tick() != at {
		t.Fatalf("paused: moved from %d to %d", at, p.TL.Tick())
	}
	p.Key(tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone))
	if p.TL.Tick() != at.Add(SeekStep) {
		t.Fatalf("→ from %d: at %d, want %d", at, p.TL.Tick(), at.Add(SeekStep))
	}
	for range 5 {
		p.Key(tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone))
	}
	if p.TL.Tick() != start {
		t.Fatalf("many ← : at %d, want the start %d", p.TL.Tick(), start)
	}
	p.Key(key(']'))
	if p.TL.Round() != 2 {
		t.Fatalf("] from round 1: round %d", p.TL.Round())
	}
	p.Key(key('['))
	if p.TL.Round() != 1 || p.TL.Tick() != start {
		t.Fatalf("[ just after round 2 began: round %d at %d, want round 1 at the start", p.TL.Round(), p.TL.Tick())
	}
	p.Key(key('3'))
	if p.Follow != 2 {
		t.Fatalf("3: following %d, want seat 2", p.Follow)
	}
	p.Key(key('3'))
	p.Key(key('9'))
	p.Key(key('5')) // a 4-seat match has no player 5
	if p.Follow != -1 {
		t.Fatalf("3 again, 9, 5: following %d, want nobody", p.Follow)
	}
	p.Key(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone))
	p.Key(key(' '))
	if p.TL.Tick() != start || p.Paused {
		t.Fatalf("space at the end: at %d paused %v, want playing from the start", p.TL.Tick(), p.Paused)
	}
	if !p.Key(key('q')) || !p.Key(tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone)) {
		t.Fatal("q and Esc do not quit")
	}
}

// TestStatusLineFits: the status line is exactly the width asked for (or
// its essentials when narrower) and shows the state, tick and round.
func TestStatusLineFits(t *testing.T) {
	p := samplePlayer(t)
	p.Paused = true
	for _, w := range []int{80, 100, 200} {
		s := p.StatusLine(w, false)
		if n := len([]rune(s)); n != w || !strings.Contains(s, "PAUSE 1x  tick 77  round 1/") {
			t.Errorf("width %d: %d runes: %q", w, n, s)
		}
	}
}

// TestPlayDrawsAndQuits drives Play on a simulation screen: the first
// frame shows the maze, the round title and the status line; frames
// advance the replay; q returns nil.
func TestPlayDrawsAndQuits(t *testing.T) {
	p := samplePlayer(t)
	scr := tcell.NewSimulationScreen("UTF-8")
	frames := make(chan time.Time)
	drawn := make(chan struct{}, 16)
	done := make(chan error, 1)
	go func() {
		done <- Play(context.Background(), scr, p, tui.Options{}, Hooks{Frames: frames, AfterDraw: func() { drawn <- struct{}{} }})
	}()
	<-drawn
	t0 := time.Unix(0, 0)
	frames <- t0
	<-drawn
	frames <- t0.Add(500 * time.Millisecond)
	<-drawn
	cells, w, h := scr.GetContents()
	var lines []string
	for y := range h {
		var b strings.Builder
		for x := range w {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteString(string(r))
			} else {
				b.WriteByte(' ')
			}
		}
		lines = append(lines, b.String())
	}
	screen := strings.Join(lines, "\n")
	if !strings.Contains(screen, "██") || !strings.Contains(screen, "ROUND 1") || !strings.Contains(lines[h-1], "PLAY 1x  tick 107") {
		t.Fatalf("screen after 0.5 s:\n%s", screen)
	}
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Play did not return on q")
	}
}
