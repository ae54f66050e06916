package sshfront

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
	"ttytanks/internal/syncbuf"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

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
	var logs syncbuf.Buffer
	play := func(context.Context, *Session) (int, string, bool) {
		t.Error("the game started for a session whose checks panicked")
		return 0, "", false
	}
	s, err := NewServer(Config{Play: play, HostKey: key, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
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
