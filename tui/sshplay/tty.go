package sshplay

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

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

// ErrDrained is what Read returns once Drain has been called, until the
// next Start.
var ErrDrained = errors.New("sshplay: tty drained")

// ChannelTty is a tcell.Tty on an SSH session channel, so that
// tcell.NewTerminfoScreenFromTty draws into the channel and reads keys
// from it.
//
// Input: Pump, run in a goroutine of its own, reads the channel and hands
// each chunk to Read over a Go channel. Read waits for a chunk, for Drain
// or for Close, so a Read blocked on a quiet player wakes up when tcell
// shuts down: Drain (which tcell calls before Stop, from Fini or Suspend)
// makes every Read return ErrDrained until Start is called again, and
// Close makes them return io.EOF. Pump stops handing chunks over after
// Close; it returns once the channel's Read fails (the channel closed).
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
// tcell registered with NotifyResize; tcell then asks WindowSize.
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
	chunks chan []byte
	closed chan struct{}

	mu       sync.Mutex
	pending  []byte // the rest of a chunk Read could not take at once
	drain    chan struct{}
	drained  bool
	isClosed bool
	size     tcell.WindowSize
	onResize func()

	base      time.Time    // when the Tty was made, with its monotonic reading
	lastInput atomic.Int64 // nanoseconds since base
	stalled   atomic.Bool
	gone      atomic.Bool
}

// NewChannelTty returns a Tty on ch with the client's initial window size
// in cells. The caller must run Pump.
func NewChannelTty(ch io.ReadWriter, width, height int) *ChannelTty {
	t := &ChannelTty{ch: ch, chunks: make(chan []byte), closed: make(chan struct{}), drain: make(chan struct{})}
	t.size = clampSize(width, height)
	t.base = time.Now()
	return t
}

func clampSize(w, h int) tcell.WindowSize {
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	return tcell.WindowSize{Width: min(w, MaxWidth), Height: min(h, MaxHeight)}
}

// Pump copies the channel's input to Read until the channel's Read fails
// or, after Close, until the next chunk arrives. It records the time of
// each chunk for LastInput.
func (t *ChannelTty) Pump() {
	for {
		buf := make([]byte, 256)
		n, err := t.ch.Read(buf)
		if n > 0 {
			t.lastInput.Store(int64(time.Since(t.base)))
			select {
			case t.chunks <- buf[:n]:
			case <-t.closed:
				return
			}
		}
		if err != nil {
			t.goneOnce()
			return
		}
	}
}

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
	t.mu.Lock()
	if len(t.pending) > 0 {
		n := copy(p, t.pending)
		t.pending = t.pending[n:]
		t.mu.Unlock()
		return n, nil
	}
	drain := t.drain
	t.mu.Unlock()
	select {
	case b := <-t.chunks:
		n := copy(p, b)
		if n < len(b) {
			t.mu.Lock()
			t.pending = b[n:]
			t.mu.Unlock()
		}
		return n, nil
	case <-drain:
		return 0, ErrDrained
	case <-t.closed:
		return 0, io.EOF
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

// Resize records a new window size in cells (clamped to MaxWidth x
// MaxHeight) and tells tcell.
func (t *ChannelTty) Resize(width, height int) {
	t.mu.Lock()
	t.size = clampSize(width, height)
	cb := t.onResize
	t.mu.Unlock()
	if cb != nil {
		cb()
	}
}

var _ tcell.Tty = (*ChannelTty)(nil)
