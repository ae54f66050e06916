package sshplay

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
	"ttytanks/netcode/transport"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// eofWriter fails every Write with io.EOF, as a closed SSH channel does.
type eofWriter struct{}

func (eofWriter) Write([]byte) (int, error) { return 0, io.EOF }

// TestTtyOnGone: OnGone is called, once, when the channel's input ends
// and when a Write finds the channel closed.
func TestTtyOnGone(t *testing.T) {
	t.Run("input ends", func(t *testing.T) {
		ch, keys, closeAll := newPipeChannel(t)
		defer closeAll()
		tty := NewChannelTty(ch, 80, 24)
		gone := make(chan error, 2)
		tty.OnGone = func() { gone <- nil }
		pumped := make(chan struct{})
		go func() { defer close(pumped); tty.Pump() }()
		keys.Close()
		within(t, time.Second, gone, "OnGone after the input ended")
		<-pumped
	})
	t.Run("write EOF", func(t *testing.T) {
		tty := NewChannelTty(pipeChannel{Writer: eofWriter{}}, 80, 24)
		calls := 0
		tty.OnGone = func() { calls++ }
		for range 2 {
			if _, err := tty.Write([]byte("frame")); err != io.EOF {
				t.Fatalf("Write: %v, want io.EOF", err)
			}
		}
		if calls != 1 {
			t.Errorf("OnGone called %d times, want 1", calls)
		}
	})
}

// panickySession is an ssh.Session whose User panics, standing in for any
// bug in a session; the rest is what handle needs to get there. Its
// input ends when the test closes in.
type panickySession struct {
	ssh.Session
	ctx ssh.Context
	in  *io.PipeReader
}

func (p panickySession) User() string         { panic("boom") }
func (p panickySession) RawCommand() string   { return "" }
func (p panickySession) Context() ssh.Context { return p.ctx }
func (p panickySession) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 4242}
}
func (p panickySession) LocalAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 2), Port: 2222}
}
func (p panickySession) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p panickySession) Write(b []byte) (int, error) { return len(b), nil }
func (p panickySession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	return ssh.Pty{Term: "xterm", Window: ssh.Window{Width: 80, Height: 24}}, nil, true
}

// fakeContext is an ssh.Context that is only a context.Context.
type fakeContext struct {
	ssh.Context
	ctx context.Context
}

func (c fakeContext) Deadline() (time.Time, bool) { return c.ctx.Deadline() }
func (c fakeContext) Done() <-chan struct{}       { return c.ctx.Done() }
func (c fakeContext) Err() error                  { return c.ctx.Err() }
func (c fakeContext) Value(key any) any           { return c.ctx.Value(key) }

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestSessionPanicIsContained: a panic in a session is logged and ends
// that session only: the server goes on and its seat is free.
func TestSessionPanicIsContained(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	mnet := transport.NewMemNetwork()
	game := mnet.Listen()
	defer game.Close()
	var logs syncBuffer
	s, err := NewServer(Config{Net: mnet, Game: game.LocalAddr(), HostKey: key,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, inW := io.Pipe()
	defer inW.Close()
	st := &chanState{notify: make(chan struct{}, 1), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sess := panickySession{ctx: chanContext{Context: fakeContext{ctx: ctx}, st: st}, in: in}
	s.handle(sess) // must not panic
	if !strings.Contains(logs.String(), "panicked") || !strings.Contains(logs.String(), "boom") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
	if n := s.Sessions(); n != 0 {
		t.Errorf("%d sessions after the panic, want the seat freed", n)
	}
}

// TestWatchIdle: the idle time counts only while the game is on, and a
// tiny Idle works too.
func TestWatchIdle(t *testing.T) {
	for _, idle := range []time.Duration{2, 50 * time.Millisecond} {
		s := &Server{cfg: Config{Idle: idle}}
		tty := NewChannelTty(pipeChannel{}, 80, 24)
		var mu sync.Mutex
		on := false
		active := func() bool { mu.Lock(); defer mu.Unlock(); return on }
		ctx, cancel := context.WithCancelCause(context.Background())
		done := make(chan error, 1)
		go func() { s.watchIdle(ctx, cancel, tty, active); done <- nil }()
		time.Sleep(max(4*idle, 20*time.Millisecond))
		if ctx.Err() != nil {
			t.Fatalf("Idle %v: idle while the game was not on", idle)
		}
		mu.Lock()
		on = true
		mu.Unlock()
		within(t, 2*time.Second, done, "watchIdle")
		if cause := context.Cause(ctx); cause != errIdle {
			t.Errorf("Idle %v: cause %v, want errIdle", idle, cause)
		}
	}
}
