package sshterm

import (
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"go.uber.org/goleak"
)

// pipeChannel stands in for an SSH channel: the test writes the client's
// keys into in, and the screen's output is drained from out.
type pipeChannel struct {
	io.Reader
	io.Writer
}

func newPipeChannel(t *testing.T) (ch pipeChannel, keys *io.PipeWriter, closeAll func()) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(io.Discard, outR)
	}()
	return pipeChannel{inR, outW}, inW, func() {
		inW.Close()
		outW.Close()
		<-drained
	}
}

func readAsync(tty *ChannelTty, p []byte) chan error {
	done := make(chan error, 1)
	go func() {
		n, err := tty.Read(p)
		if err == nil && n == 0 {
			err = errors.New("empty read")
		}
		done <- err
	}()
	return done
}

func within(t *testing.T, d time.Duration, ch chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(d):
		t.Fatalf("%s: still blocked after %v", what, d)
		return nil
	}
}

// newTtyScreen starts a ChannelTty of w x h cells on ch, its Pump (pumped
// is closed when Pump returns) and an xterm-256color tcell screen on it.
func newTtyScreen(t *testing.T, ch pipeChannel, w, h int) (*ChannelTty, tcell.Screen, chan struct{}) {
	t.Helper()
	tty := NewChannelTty(ch, w, h)
	pumped := make(chan struct{})
	go func() { defer close(pumped); tty.Pump() }()
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	return tty, screen, pumped
}

// TestTtyDrainWakesReader: a Read blocked on a quiet client returns when
// Drain is called; after Start, Read gets input again; Close ends reads.
func TestTtyDrainWakesReader(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ch, keys, closeAll := newPipeChannel(t)
	defer closeAll()
	tty := NewChannelTty(ch, 80, 24)
	pumped := make(chan struct{})
	go func() { defer close(pumped); tty.Pump() }()
	if err := tty.Start(); err != nil {
		t.Fatal(err)
	}
	blocked := readAsync(tty, make([]byte, 8))
	if err := tty.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := within(t, time.Second, blocked, "Read after Drain"); !errors.Is(err, ErrDrained) {
		t.Errorf("Read after Drain: %v, want ErrDrained", err)
	}
	if err := tty.Start(); err != nil {
		t.Fatal(err)
	}
	before := tty.LastInput()
	p := make([]byte, 4)
	got := readAsync(tty, p)
	if _, err := keys.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := within(t, time.Second, got, "Read of input"); err != nil || string(p) != "hell" {
		t.Fatalf("Read: %q, %v; want \"hell\"", p, err)
	}
	if n, err := tty.Read(p); err != nil || string(p[:n]) != "o" {
		t.Errorf("Read of the rest: %q, %v; want \"o\"", p[:n], err)
	}
	if !tty.LastInput().After(before) {
		t.Error("LastInput did not move on input")
	}
	blocked = readAsync(tty, p)
	tty.Close()
	if err := within(t, time.Second, blocked, "Read after Close"); !errors.Is(err, io.EOF) {
		t.Errorf("Read after Close: %v, want io.EOF", err)
	}
	keys.Close() // the channel ends: Pump returns
	<-pumped
}

// TestTtyScreenFiniNeverHangs: a tcell screen on a ChannelTty starts,
// reports a window-change as a resize event, and finishes at once although
// the client sends nothing: Drain wakes tcell's reader.
func TestTtyScreenFiniNeverHangs(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ch, keys, closeAll := newPipeChannel(t)
	defer closeAll()
	tty, screen, pumped := newTtyScreen(t, ch, 100, 30)
	if w, h := screen.Size(); w != 100 || h != 30 {
		t.Errorf("screen %dx%d, want the client's 100x30", w, h)
	}
	screen.SetContent(0, 0, '█', nil, tcell.StyleDefault)
	screen.Show()

	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	go screen.ChannelEvents(events, quit)
	tty.Resize(120, 40)
	key := make(chan struct{})
	go func() { _, _ = keys.Write([]byte("q")); close(key) }()
	var resized, pressed bool
	deadline := time.After(2 * time.Second)
	for !resized || !pressed {
		select {
		case ev := <-events:
			switch ev := ev.(type) {
			case *tcell.EventResize:
				if w, h := ev.Size(); w == 120 && h == 40 {
					resized = true
				}
			case *tcell.EventKey:
				pressed = pressed || ev.Rune() == 'q'
			}
		case <-deadline:
			t.Fatalf("events: resize to 120x40 %v, key q %v", resized, pressed)
		}
	}
	<-key
	close(quit)

	finished := make(chan error, 1)
	go func() { screen.Fini(); finished <- nil }()
	within(t, time.Second, finished, "Fini")
	keys.Close()
	<-pumped
}

// blockingWriter blocks every Write until released.
type blockingWriter struct{ release chan struct{} }

func (w blockingWriter) Write(p []byte) (int, error) {
	<-w.release
	return 0, io.ErrClosedPipe
}

// TestTtyWriteStall: a Write blocked longer than WriteTimeout calls
// OnWriteTimeout once (the server drops the connection there, which fails
// the Write).
func TestTtyWriteStall(t *testing.T) {
	w := blockingWriter{release: make(chan struct{})}
	tty := NewChannelTty(pipeChannel{Writer: w}, 80, 24)
	tty.WriteTimeout = 20 * time.Millisecond
	calls := 0
	tty.OnWriteTimeout = func() { calls++; close(w.release) }
	done := make(chan error, 1)
	go func() { _, err := tty.Write([]byte("frame")); done <- err }()
	if err := within(t, 2*time.Second, done, "stalled Write"); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("stalled Write: %v, want the channel's error", err)
	}
	if _, err := tty.Write([]byte("again")); err == nil {
		t.Error("Write on a dropped channel succeeded")
	}
	if calls != 1 {
		t.Errorf("OnWriteTimeout called %d times, want 1", calls)
	}
}

func TestTtyResizeClamps(t *testing.T) {
	if ws, _ := NewChannelTty(pipeChannel{}, 0, 0).WindowSize(); ws.Width != 80 || ws.Height != 24 {
		t.Errorf("an unknown size starts as %dx%d, want 80x24", ws.Width, ws.Height)
	}
	for _, tc := range []struct{ w, h, ww, wh int }{
		{0, 0, 80, 24},
		{132, 43, 132, 43},
		{1 << 20, 1 << 20, MaxWidth, MaxHeight},
		{-5, 10, 80, 24},
	} {
		tty := NewChannelTty(pipeChannel{}, 80, 24) // a first window-change is told at once
		tty.Resize(tc.w, tc.h)
		if ws, _ := tty.WindowSize(); ws.Width != tc.ww || ws.Height != tc.wh {
			t.Errorf("Resize(%d, %d): %dx%d, want %dx%d", tc.w, tc.h, ws.Width, ws.Height, tc.ww, tc.wh)
		}
	}
}

// fakeClock is a ttyClock a test moves by hand: its timers fire, in
// order, when Advance passes their time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = append(c.timers, fakeTimer{c.now.Add(d), f})
}

// Advance moves the clock by d and runs the timers due by then.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	keep := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t.f)
		} else {
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// TestTtyResizeCoalesced: a storm of window-changes tells tcell the first
// at once and then at most one size per ResizeEvery (WindowSize, which
// tcell also reads on every frame, changes only when told), and the last
// told is the last the client sent; once quiet for ResizeEvery, the next
// is told at once. The clock is the test's, so the rule is checked to
// the tick.
func TestTtyResizeCoalesced(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	tty := newChannelTty(pipeChannel{}, 80, 24, clock)
	var told []tcell.WindowSize
	tty.NotifyResize(func() {
		ws, _ := tty.WindowSize()
		told = append(told, ws)
	})
	for i := range 1000 {
		tty.Resize(20+i%200, 5+i%90)
		if i%100 == 0 {
			clock.Advance(ResizeEvery / 20) // the storm lasts half a coalescing window
		}
	}
	tty.Resize(77, 33)
	if len(told) != 1 || told[0] != (tcell.WindowSize{Width: 20, Height: 5}) {
		t.Fatalf("during the storm tcell was told %v, want only the first size, 20x5", told)
	}
	// tcell asks the size on every frame: until told, it is the old one.
	if ws, _ := tty.WindowSize(); ws.Width != 20 || ws.Height != 5 {
		t.Errorf("WindowSize right after the storm is %dx%d, want the size told, 20x5", ws.Width, ws.Height)
	}
	clock.Advance(ResizeEvery)
	if len(told) != 2 || told[1] != (tcell.WindowSize{Width: 77, Height: 33}) {
		t.Fatalf("after ResizeEvery tcell was told %v, want 20x5 then the last size sent, 77x33", told)
	}
	clock.Advance(10 * ResizeEvery)
	if len(told) != 2 {
		t.Fatalf("%d sizes told for 1001 window-changes, want 2", len(told))
	}
	// Once quiet for ResizeEvery, the next one is told at once.
	tty.Resize(100, 30)
	if len(told) != 3 || told[2] != (tcell.WindowSize{Width: 100, Height: 30}) {
		t.Errorf("after a quiet spell tcell was told %v, want 100x30 at once", told)
	}
}

// TestTtyHold: Hold drops what is queued and what comes within the hold,
// counted, and input after it is queued again.
func TestTtyHold(t *testing.T) {
	clk := &fakeClock{now: time.Unix(100, 0)}
	tty := newChannelTty(pipeChannel{}, 80, 24, clk)
	tty.queue([]byte("ab"), tty.since())
	tty.Hold(time.Second)
	tty.queue([]byte("cd"), tty.since())
	clk.Advance(time.Second)
	tty.queue([]byte("e"), tty.since())
	buf := make([]byte, 8)
	n, err := tty.Read(buf)
	if err != nil || string(buf[:n]) != "e" {
		t.Errorf("read %q, %v; want only the input after the hold", buf[:n], err)
	}
	if d := tty.Dropped(); d != 4 {
		t.Errorf("dropped %d bytes, want 4", d)
	}
}
