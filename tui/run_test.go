package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// fakeSession serves a fixed view and records the inputs it is given.
type fakeSession struct {
	mu     sync.Mutex
	view   netcode.View
	inputs []game.Input
	done   chan struct{}
	panics bool
}

func newFakeSession(v *netcode.View) *fakeSession {
	return &fakeSession{view: *v, done: make(chan struct{})}
}

func (s *fakeSession) View(dst *netcode.View) {
	if s.panics {
		panic("view exploded")
	}
	s.mu.Lock()
	*dst = s.view
	s.mu.Unlock()
}

func (s *fakeSession) SetInput(in game.Input) {
	s.mu.Lock()
	s.inputs = append(s.inputs, in)
	s.mu.Unlock()
}

func (s *fakeSession) Done() <-chan struct{} { return s.done }

func (s *fakeSession) lastInput() game.Input {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.inputs) == 0 {
		return game.Input{}
	}
	return s.inputs[len(s.inputs)-1]
}

// finiScreen records Fini and Beep calls.
type finiScreen struct {
	tcell.SimulationScreen
	mu    sync.Mutex
	finis int
	beeps int
}

func (f *finiScreen) Beep() error {
	f.mu.Lock()
	f.beeps++
	f.mu.Unlock()
	return f.SimulationScreen.Beep()
}

func (f *finiScreen) beepCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.beeps
}

func (f *finiScreen) Fini() {
	f.mu.Lock()
	f.finis++
	f.mu.Unlock()
	f.SimulationScreen.Fini()
}

func (f *finiScreen) finiCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.finis
}

// loop is a Run in a goroutine, driven frame by frame.
type loop struct {
	t      *testing.T
	scr    *finiScreen
	s      *fakeSession
	frames chan time.Time
	drawn  chan struct{}
	keys   chan struct{}
	result chan error
	cancel context.CancelFunc
	now    time.Time
	mu     sync.Mutex
}

func startLoop(t *testing.T, v *netcode.View, opts Options) *loop {
	t.Helper()
	s := newFakeSession(v)
	return startLoopOn(t, s, s, opts)
}

// startLoopOn is startLoop on session run, whose views and inputs fs
// serves and records.
func startLoopOn(t *testing.T, fs *fakeSession, runOn Session, opts Options) *loop {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &loop{
		t:      t,
		scr:    &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")},
		s:      fs,
		frames: make(chan time.Time),
		drawn:  make(chan struct{}, 64),
		keys:   make(chan struct{}, 64),
		result: make(chan error, 1),
		cancel: cancel,
		now:    t0,
	}
	hooks := loopHooks{
		frames:    l.frames,
		now:       l.clock,
		afterDraw: func() { l.drawn <- struct{}{} },
		afterKey:  func() { l.keys <- struct{}{} },
	}
	go func() { l.result <- run(ctx, l.scr, runOn, opts, hooks) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-l.result:
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after the test")
		}
	})
	l.waitDraw() // the first frame is drawn at once
	return l
}

func (l *loop) clock() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.now
}

func (l *loop) advance(d time.Duration) {
	l.mu.Lock()
	l.now = l.now.Add(d)
	l.mu.Unlock()
}

// waitDraw waits for the loop to finish drawing a frame.
func (l *loop) waitDraw() {
	l.t.Helper()
	select {
	case <-l.drawn:
	case err := <-l.result:
		l.t.Fatalf("Run returned %v while a frame was expected", err)
	case <-time.After(5 * time.Second):
		l.t.Fatal("no frame drawn within 5s")
	}
}

// waitKeys waits for the loop to handle n key events.
func (l *loop) waitKeys(n int) {
	l.t.Helper()
	for range n {
		select {
		case <-l.keys:
		case <-time.After(5 * time.Second):
			l.t.Fatal("key not handled within 5s")
		}
	}
}

// frame ticks the frame clock and waits for the frame.
func (l *loop) frame() {
	l.t.Helper()
	l.frames <- l.clock()
	l.waitDraw()
}

// wait waits for Run to return and returns its error.
func (l *loop) wait() error {
	l.t.Helper()
	select {
	case err := <-l.result:
		l.result <- err // for the cleanup
		return err
	case <-time.After(5 * time.Second):
		l.t.Fatal("Run did not return within 5s")
		return nil
	}
}

func TestRunQuitKeys(t *testing.T) {
	tests := []struct {
		name string
		send func(s tcell.SimulationScreen)
	}{
		{"q", func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone) }},
		{"Q", func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyRune, 'Q', tcell.ModNone) }},
		{"Ctrl-C", func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyCtrlC, 0, tcell.ModCtrl) }},
		// The raw byte 3, as tcell decodes it outside a terminal (KeyETX).
		// (SimulationScreen.InjectKeyBytes loops forever on control bytes in
		// tcell v2.13.10, so the event is built directly.)
		{"Ctrl-C byte", func(s tcell.SimulationScreen) { s.PostEvent(tcell.NewEventKey(tcell.KeyRune, 3, tcell.ModNone)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t, testView(t), Options{})
			tt.send(l.scr)
			if err := l.wait(); err != nil {
				t.Errorf("Run returned %v, want nil", err)
			}
			if n := l.scr.finiCount(); n != 1 {
				t.Errorf("Fini called %d times, want 1", n)
			}
		})
	}
}

func TestRunContextCancel(t *testing.T) {
	l := startLoop(t, testView(t), Options{})
	l.cancel()
	if err := l.wait(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if n := l.scr.finiCount(); n != 1 {
		t.Errorf("Fini called %d times, want 1", n)
	}
}

func TestRunSessionDone(t *testing.T) {
	l := startLoop(t, testView(t), Options{})
	close(l.s.done)
	if err := l.wait(); err != nil {
		t.Errorf("Run returned %v after the session ended, want nil", err)
	}
	if n := l.scr.finiCount(); n != 1 {
		t.Errorf("Fini called %d times, want 1", n)
	}
}

// TestRunPanicRestoresScreen: a panic while drawing still finalises the
// screen (restoring the terminal), then propagates.
func TestRunPanicRestoresScreen(t *testing.T) {
	scr := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	s := newFakeSession(testView(t))
	s.panics = true
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		Run(context.Background(), scr, s, Options{})
	}()
	if recovered != "view exploded" {
		t.Fatalf("recovered %v, want the session's panic", recovered)
	}
	if n := scr.finiCount(); n != 1 {
		t.Errorf("Fini called %d times after a panic, want 1", n)
	}
	if _, w, h := scr.GetContents(); w != 0 || h != 0 {
		t.Errorf("simulation screen still %dx%d after the panic, want finalised (0x0)", w, h)
	}
}

// TestRunInputs: keys reach the session at once and on each frame, and a
// held key stops at its deadline on the injected clock.
func TestRunInputs(t *testing.T) {
	l := startLoop(t, testView(t), Options{})
	l.scr.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	l.scr.InjectKey(tcell.KeyRune, ' ', tcell.ModNone)
	l.waitKeys(2)
	// A key hands the new input over at once, before the next frame.
	if in := l.s.lastInput(); in.MoveX != 1 || in.MoveY != 0 || !in.Fire() {
		t.Fatalf("after Right and space: input %+v, want right and fire", in)
	}
	l.frame()
	if in := l.s.lastInput(); in.MoveX != 1 || !in.Fire() {
		t.Fatalf("on the next frame: input %+v, want right and fire", in)
	}
	l.advance(HoldFire)
	l.frame()
	if in := l.s.lastInput(); in.MoveX != 1 || in.Fire() {
		t.Fatalf("after %v: input %+v, want right without fire", HoldFire, in)
	}
	l.advance(HoldFirst - HoldFire)
	l.frame()
	if in := l.s.lastInput(); in != (game.Input{}) {
		t.Fatalf("after %v: input %+v, want neutral", HoldFirst, in)
	}
}

// TestRunResize: the layout re-flows on a live resize from 120×40 to
// 80×24 and to too small, and back.
func TestRunResize(t *testing.T) {
	l := startLoop(t, testView(t), Options{})
	resize := func(w, h int) {
		l.scr.SetSize(w, h)
		if err := l.scr.PostEvent(tcell.NewEventResize(w, h)); err != nil {
			t.Fatal(err)
		}
		l.waitDraw()
	}
	// sidebarAt reports whether the sidebar's "rollbacks" figure ends at the
	// screen's right edge.
	rollbacksRow := func() (row string, w int) {
		lines := screenLines(l.scr)
		for _, line := range lines {
			if i := indexOf(line, "rollbacks"); i >= 0 {
				return line, len([]rune(line))
			}
		}
		return "", 0
	}

	resize(120, 40)
	row, w := rollbacksRow()
	if w != 120 || !hasSuffixTrim(row, "4567") {
		t.Fatalf("at 120x40 the rollbacks row is %q (width %d), want it to end at column 120", row, w)
	}
	lay := computeLayout(120, 40, testView(t))
	if got := runeIndex(row, "rollbacks"); got != lay.side.x+1 { // inside the box's border
		t.Errorf("at 120x40 the sidebar's labels start at column %d, want %d", got, lay.side.x+1)
	}

	resize(80, 24)
	row, w = rollbacksRow()
	if w != 80 || !hasSuffixTrim(row, "4567") {
		t.Fatalf("at 80x24 the rollbacks row is %q (width %d), want it to end at column 80", row, w)
	}
	if got := runeIndex(row, "rollbacks"); got != 80-SidebarMinW+2 { // after the rule and a space
		t.Errorf("at 80x24 the sidebar's labels start at column %d, want %d", got, 80-SidebarMinW+2)
	}
	if got, _ := cellAt(l.scr, testOX, testOY); got != "█" {
		t.Errorf("at 80x24 the maze's corner is %q, want a wall at (%d,%d)", got, testOX, testOY)
	}

	resize(24, 6)
	if text := playText(l.scr, 24); text != "terminal too small (need 26x8, have 24x6)" {
		t.Errorf("at 24x6 the screen reads %q", text)
	}

	resize(80, 24)
	if row, _ := rollbacksRow(); !hasSuffixTrim(row, "4567") {
		t.Errorf("back at 80x24 the rollbacks row is %q", row)
	}

	// Away and back between two frames: the screen crops its cells to
	// 20x5 and regrows them blank at the very size of the last frame; the
	// frame after the resize event still draws every cell.
	l.scr.SetSize(20, 5)
	resize(80, 24)
	if row, _ := rollbacksRow(); !hasSuffixTrim(row, "4567") {
		t.Errorf("after 20x5 and back to 80x24 between frames the rollbacks row is %q", row)
	}
	if got, _ := cellAt(l.scr, testOX, testOY); got != "█" {
		t.Errorf("after 20x5 and back between frames the maze's corner is %q, want a wall", got)
	}
}

func indexOf(s, sub string) int { return runeIndex(s, sub) }

// runeIndex is the column of sub in s, or -1.
func runeIndex(s, sub string) int {
	r := []rune(s)
	n := []rune(sub)
	for i := 0; i+len(n) <= len(r); i++ {
		if string(r[i:i+len(n)]) == sub {
			return i
		}
	}
	return -1
}

func hasSuffixTrim(s, suffix string) bool {
	r := []rune(s)
	for len(r) > 0 && (r[len(r)-1] == ' ' || r[len(r)-1] == '│') {
		r = r[:len(r)-1]
	}
	return len(r) >= len([]rune(suffix)) && string(r[len(r)-len([]rune(suffix)):]) == suffix
}

// TestRunConfirmQuit: with ConfirmQuit (the host of serve --play), q asks
// before ending the match while another person is connected; n plays on,
// y quits. With only bots besides us, q quits at once.
func TestRunConfirmQuit(t *testing.T) {
	l := startLoop(t, testView(t), Options{ConfirmQuit: true, HumanSeats: 3})
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	l.waitKeys(1)
	if !strings.Contains(strings.Join(screenLines(l.scr), "\n"), "quitting ends the match for everyone") {
		t.Fatalf("q did not ask:\n%s", strings.Join(screenLines(l.scr), "\n"))
	}
	l.scr.InjectKey(tcell.KeyRune, 'n', tcell.ModNone)
	l.waitKeys(1)
	if strings.Contains(strings.Join(screenLines(l.scr), "\n"), "quit?") {
		t.Fatal("n did not close the question")
	}
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	l.waitKeys(1)
	l.scr.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	if err := l.wait(); err != nil {
		t.Errorf("Run returned %v after q, y; want nil", err)
	}

	// We are alice, in the one human seat; bob and carol are bots.
	v := testView(t)
	v.Slot = 0
	bots := startLoop(t, v, Options{ConfirmQuit: true, HumanSeats: 1})
	bots.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := bots.wait(); err != nil {
		t.Errorf("Run returned %v after q with only bots, want nil", err)
	}
}
