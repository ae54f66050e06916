package sshterm

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// Window size bounds: a client's pty-req or window-change is clamped to
// them, so that neither a hostile size nor a huge window makes tcell
// allocate (and redraw every frame) a huge cell buffer. The game is drawn
// in the top-left MaxWidth x MaxHeight cells of a larger window, and the
// rest stays blank. A zero size (unknown) means the default 80x24.
const (
	MaxWidth  = 256
	MaxHeight = 100
)

// Input bounds of a ChannelTty: the keystroke bytes per second passed on
// to tcell, and the most passed on at once (also the most queued). A held
// arrow key repeats about 30 times a second at 3 bytes a press; a 30 fps
// frame sees at most InputBurst bytes of input, about 136 on average.
const (
	InputRate  = 4096
	InputBurst = 1024
)

// pumpBuf is the size of Pump's reads once a read has filled a buffer
// of pumpStart: large, so that a paste costs few reads (and few window
// adjustments sent back to the client). A player who only types never
// needs more than pumpStart, which is what most sessions keep.
const (
	pumpStart = 1 << 10
	pumpBuf   = 32 << 10
)

// ErrDrained is what Read returns once Drain has been called, until the
// next Start.
var ErrDrained = errors.New("sshterm: tty drained")

// ChannelTty is a tcell.Tty on an SSH session channel, so that
// tcell.NewTerminfoScreenFromTty draws into the channel and reads keys
// from it.
//
// Input: Pump, run in a goroutine of its own, reads the channel and queues
// what it read for Read, at most InputRate bytes a second (with bursts of
// InputBurst): what a player can type. Input beyond that (a paste of
// megabytes) is read and discarded at once, counted by Dropped, so it
// never reaches tcell's key parser or the game, and the channel never
// stops being read: a paste costs its decryption and little else. Read
// waits for queued input, for Drain or for Close, so a Read blocked on a
// quiet player wakes up when tcell shuts down: Drain (which tcell calls
// before Stop, from Fini or Suspend) makes every Read return ErrDrained
// (once the queue is empty) until Start is called again, and Close makes
// them return io.EOF. Pump returns once the channel's Read fails (the
// channel closed), or at the first input after Close.
//
// Output: Write writes to the channel. If WriteTimeout is set and a Write
// stays blocked longer than that (a client that stopped reading leaves
// the channel's window shut), OnWriteTimeout is called once, from a timer
// goroutine: the server uses it to drop the connection, which fails the
// blocked Write, so Fini never hangs on a vanished player.
//
// End: OnGone, if set, is called once when the channel's input ends (its
// Read fails, io.EOF included) or a Write fails with io.EOF (the channel
// was closed), so the server ends a session whose channel is gone even
// while its connection stays up.
//
// Size: Resize records the client's window-change and calls the callback
// registered with NotifyResize (a streamScreen's, or tcell's screen's),
// which then asks WindowSize.
//
// Start and Stop change no terminal modes: the client's ssh has put its
// own terminal in raw mode. A ChannelTty is safe for concurrent use.
type ChannelTty struct {
	// WriteTimeout bounds one blocked Write (0: no bound); set it before
	// use.
	WriteTimeout time.Duration
	// OnWriteTimeout is called when a Write exceeds WriteTimeout.
	OnWriteTimeout func()
	// OnGone is called once when the channel's input ends or a Write
	// fails with io.EOF; set it before Pump runs.
	OnGone func()

	ch     io.ReadWriter
	ready  chan struct{} // a token when input is queued
	closed chan struct{}

	mu        sync.Mutex
	in        []byte        // queued input, at most InputBurst bytes, whole UTF-8 sequences only
	pend      []byte        // the start of a UTF-8 sequence the last channel read cut, at most 3 bytes
	clean     []byte        // scratch: a read's bytes with invalid UTF-8 removed
	tokens    float64       // bytes Pump may still queue now
	refilled  time.Duration // when tokens was last topped up, since base
	drain     chan struct{}
	drained   bool
	isClosed  bool
	size      tcell.WindowSize // the size tcell was told
	newest    tcell.WindowSize // the size the client sent last
	onResize  func()
	told      bool          // tcell was told a size at toldAt
	toldAt    time.Duration // since base
	resizeDue bool          // a tell is scheduled
	holdUntil time.Duration // input read before then (since base) is dropped (Hold)

	clock     ttyClock
	base      time.Time    // when the Tty was made, with its monotonic reading
	lastInput atomic.Int64 // nanoseconds since base
	dropped   atomic.Int64 // input bytes discarded
	stalled   atomic.Bool
	gone      atomic.Bool
}

// NewChannelTty returns a Tty on ch with the client's initial window size
// in cells. The caller must run Pump.
func NewChannelTty(ch io.ReadWriter, width, height int) *ChannelTty {
	return newChannelTty(ch, width, height, wallClock{})
}

// newChannelTty is NewChannelTty on the clock clock.
func newChannelTty(ch io.ReadWriter, width, height int, clock ttyClock) *ChannelTty {
	t := &ChannelTty{ch: ch, ready: make(chan struct{}, 1), closed: make(chan struct{}), drain: make(chan struct{}),
		in: make([]byte, 0, InputBurst), tokens: InputBurst}
	t.size = clampSize(width, height)
	t.newest = t.size
	t.clock = clock
	t.base = clock.Now()
	return t
}

// ttyClock is the clock the window-size rule reads and schedules on:
// the wall clock, or a test's.
type ttyClock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func())
}

// wallClock is the real ttyClock.
type wallClock struct{}

func (wallClock) Now() time.Time                      { return time.Now() }
func (wallClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// since returns the time since the Tty was made, by its clock.
func (t *ChannelTty) since() time.Duration { return t.clock.Now().Sub(t.base) }

func clampSize(w, h int) tcell.WindowSize {
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	return tcell.WindowSize{Width: min(w, MaxWidth), Height: min(h, MaxHeight)}
}

// Pump reads the channel until its Read fails or, after Close, until the
// next input arrives, and queues for Read what the input budget allows
// (InputRate, InputBurst); the rest is discarded. It records the time of
// each read for LastInput.
func (t *ChannelTty) Pump() {
	buf := make([]byte, pumpStart)
	for {
		n, err := t.ch.Read(buf)
		if n > 0 {
			now := t.since()
			t.lastInput.Store(int64(now))
			if !t.queue(buf[:n], now) {
				return
			}
		}
		if n == len(buf) && n < pumpBuf {
			buf = make([]byte, pumpBuf) // a paste: read it in large pieces
		}
		if err != nil {
			t.goneOnce()
			return
		}
	}
}

// queue adds what the budget allows of b, read at now, to the input
// queue and discards the rest. It reports false once the Tty is closed.
func (t *ChannelTty) queue(b []byte, now time.Duration) bool {
	t.mu.Lock()
	if t.isClosed {
		t.mu.Unlock()
		return false
	}
	t.tokens = min(InputBurst, t.tokens+(now-t.refilled).Seconds()*InputRate)
	t.refilled = now
	if now < t.holdUntil {
		t.mu.Unlock()
		t.dropped.Add(int64(len(b)))
		return true
	}
	// Only what the budget may take is looked at: the rest of a paste is
	// dropped unread, and a sequence it cut is dropped with it.
	rest := 0
	if limit := max(0, min(int(t.tokens), InputBurst-len(t.in))) + utf8.UTFMax; len(b) > limit {
		b, rest = b[:limit], len(b)-limit
	}
	c, invalid := t.cleanUTF8(b)
	if rest > 0 {
		invalid += len(t.pend)
		t.pend = nil
	}
	take := min(len(c), int(t.tokens), InputBurst-len(t.in))
	for take > 0 && take < len(c) && !utf8.RuneStart(c[take]) {
		take-- // never queue part of a character
	}
	t.tokens -= float64(take)
	t.in = append(t.in, c[:take]...)
	t.mu.Unlock()
	if n := invalid + len(c) - take + rest; n > 0 {
		t.dropped.Add(int64(n))
	}
	if take > 0 {
		select {
		case t.ready <- struct{}{}:
		default:
		}
	}
	return true
}

// cleanUTF8 returns b, after the start of a sequence the last read cut,
// as whole UTF-8 sequences only: the bytes of invalid sequences are
// removed (and counted in invalid), and a sequence b cuts at its end is
// kept for the next read. tcell's input scanner spins for ever on a byte
// that starts no valid sequence, so none may reach it. t.mu is held.
func (t *ChannelTty) cleanUTF8(b []byte) (c []byte, invalid int) {
	c = t.clean[:0]
	if len(t.pend) > 0 {
		b = append(t.pend, b...) // pend is at most 3 bytes: this copies the read once
		t.pend = nil
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			c = append(c, b[i])
			i++
			continue
		}
		if !utf8.FullRune(b[i:]) { // cut at the end of this read
			t.pend = append(t.pend[:0:0], b[i:]...)
			break
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
		} else {
			c = append(c, b[i:i+size]...)
		}
		i += size
	}
	t.clean = c
	return c, invalid
}

// Hold drops the input queued and the input that comes in the next d,
// counted by Dropped: the session refused what the player typed (a join
// past its budget), and the keys typed on are not to be acted on one by
// one.
func (t *ChannelTty) Hold(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dropped.Add(int64(len(t.in)))
	t.in = t.in[:0]
	t.holdUntil = max(t.holdUntil, t.since()+d)
}

// Dropped is the number of input bytes discarded as beyond what a player
// can type, or as not UTF-8.
func (t *ChannelTty) Dropped() int64 { return t.dropped.Load() }

// goneOnce calls OnGone the first time.
func (t *ChannelTty) goneOnce() {
	if t.OnGone != nil && t.gone.CompareAndSwap(false, true) {
		t.OnGone()
	}
}

// LastInput is when the client last sent anything (a key press, mostly),
// or when the Tty was made. It carries a monotonic clock reading, so
// time.Since(LastInput()) ignores changes of the wall clock.
func (t *ChannelTty) LastInput() time.Time {
	return t.base.Add(time.Duration(t.lastInput.Load()))
}

// Start implements tcell.Tty: it re-arms Read after a Drain.
func (t *ChannelTty) Start() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.isClosed {
		return io.ErrClosedPipe
	}
	if t.drained {
		t.drain, t.drained = make(chan struct{}), false
	}
	return nil
}

// Drain implements tcell.Tty: it wakes a blocked Read, and later Reads
// return ErrDrained at once, until Start.
func (t *ChannelTty) Drain() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.drained {
		close(t.drain)
		t.drained = true
	}
	return nil
}

// Stop implements tcell.Tty. There is no terminal mode to restore.
func (t *ChannelTty) Stop() error { return nil }

// Close implements tcell.Tty: Read returns io.EOF from now on and Pump
// stops delivering. It does not close the SSH channel.
func (t *ChannelTty) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.isClosed {
		t.isClosed = true
		close(t.closed)
	}
	return nil
}

// Read implements tcell.Tty.
func (t *ChannelTty) Read(p []byte) (int, error) {
	for {
		t.mu.Lock()
		if len(t.in) > 0 {
			n := copy(p, t.in)
			for m := n; m > 0 && m < len(t.in); m-- {
				if utf8.RuneStart(t.in[m]) {
					n = m // end the read between characters
					break
				}
			}
			t.in = t.in[:copy(t.in, t.in[n:])]
			t.mu.Unlock()
			return n, nil
		}
		drain := t.drain
		t.mu.Unlock()
		select {
		case <-t.ready:
		case <-drain:
			return 0, ErrDrained
		case <-t.closed:
			return 0, io.EOF
		}
	}
}

// Write implements tcell.Tty.
func (t *ChannelTty) Write(p []byte) (int, error) {
	n, err := t.write(p)
	if errors.Is(err, io.EOF) {
		t.goneOnce()
	}
	return n, err
}

func (t *ChannelTty) write(p []byte) (int, error) {
	if t.WriteTimeout <= 0 || t.OnWriteTimeout == nil {
		return t.ch.Write(p)
	}
	timer := time.AfterFunc(t.WriteTimeout, func() {
		if t.stalled.CompareAndSwap(false, true) {
			t.OnWriteTimeout()
		}
	})
	n, err := t.ch.Write(p)
	timer.Stop()
	return n, err
}

// NotifyResize implements tcell.Tty.
func (t *ChannelTty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.onResize = cb
	t.mu.Unlock()
}

// WindowSize implements tcell.Tty.
func (t *ChannelTty) WindowSize() (tcell.WindowSize, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size, nil
}

// ResizeEvery is the least time between two window sizes a ChannelTty
// tells tcell: each makes the session lay out and send its whole screen
// again, so a client sending window-changes as fast as it can cost the
// server a core (at 10 a second, still a quarter of one). A person
// dragging a window's corner sees it follow four times a second, and it
// always ends at the size they let go at.
const ResizeEvery = 250 * time.Millisecond

// Resize records a new window size in cells (clamped to MaxWidth x
// MaxHeight) and tells tcell: at once when it was last told at least
// ResizeEvery ago, else when that time is up, of the newest size then.
// Until told, WindowSize keeps giving the size told before (tcell also
// asks it on every Show).
func (t *ChannelTty) Resize(width, height int) {
	t.mu.Lock()
	t.newest = clampSize(width, height)
	if t.resizeDue {
		t.mu.Unlock()
		return // the pending tell will give the newest size
	}
	now := t.since()
	if wait := t.toldAt + ResizeEvery - now; t.told && wait > 0 {
		t.resizeDue = true
		t.clock.AfterFunc(wait, t.tellResize)
		t.mu.Unlock()
		return
	}
	t.told, t.toldAt, t.size = true, now, t.newest
	cb := t.onResize
	t.mu.Unlock()
	if cb != nil {
		cb()
	}
}

// tellResize tells tcell the size a coalesced Resize left.
func (t *ChannelTty) tellResize() {
	t.mu.Lock()
	t.resizeDue = false
	t.toldAt, t.size = t.since(), t.newest
	cb := t.onResize
	if t.isClosed {
		cb = nil
	}
	t.mu.Unlock()
	if cb != nil {
		cb()
	}
}

var _ tcell.Tty = (*ChannelTty)(nil)
