package loadtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// sshLoadClient is one SSH player of a load test.
type sshLoadClient struct {
	id        int
	connectD  time.Duration
	inGameD   time.Duration
	connected bool
	inGame    atomic.Bool
	bytes     atomic.Int64
	keys      int64
	err       string
}

// gameMarker is a word the game screen's sidebar shows and the lobby
// does not: seeing it in the stream means the session reached a game.
const gameMarker = "rollbacks"

// run is one session from src (the host's own address when invalid),
// until ctx ends.
func (lc *sshLoadClient) run(ctx context.Context, target netip.AddrPort, src netip.Addr, w, h int) {
	start := time.Now()
	d := net.Dialer{Timeout: 10 * time.Second}
	if src.IsValid() {
		d.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
	}
	nc, err := d.DialContext(ctx, "tcp", target.String())
	if err != nil {
		lc.err = "dial: " + errWord(err)
		return
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()
	p, failed := openPTY(nc, target, fmt.Sprintf("load%d", lc.id), w, h)
	if p == nil {
		lc.err = failed
		return
	}
	defer p.Close()
	lc.connected = true
	lc.connectD = time.Since(start)
	readDone := make(chan struct{})
	go lc.watch(p.stdout, start, readDone)
	lc.steer(ctx, p.stdin, readDone)
}

// ptySession is an SSH session with a PTY and a shell.
type ptySession struct {
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer
	stdout io.Reader
}

// openPTY opens the SSH connection over nc as user, and in it a session
// with a w x h PTY and a shell. On failure it closes what it opened and
// returns what failed, for the report.
func openPTY(nc net.Conn, target netip.AddrPort, user string, w, h int) (*ptySession, string) {
	// A load test connects to the server it was pointed at: its host key
	// is not checked.
	// The server asks a client without a key nothing, by
	// keyboard-interactive.
	noQuestions := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	cfg := &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{noQuestions}, HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout: 10 * time.Second}
	cc, chans, reqs, err := gossh.NewClientConn(nc, target.String(), cfg)
	if err != nil {
		return nil, "ssh handshake: " + errWord(err)
	}
	p := &ptySession{client: gossh.NewClient(cc, chans, reqs)}
	fail := func(what string, err error) (*ptySession, string) {
		p.Close()
		return nil, what + ": " + errWord(err)
	}
	if p.sess, err = p.client.NewSession(); err != nil {
		return fail("session", err)
	}
	if err := p.sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		return fail("pty", err)
	}
	if p.stdin, err = p.sess.StdinPipe(); err != nil {
		return fail("stdin", err)
	}
	if p.stdout, err = p.sess.StdoutPipe(); err != nil {
		return fail("stdout", err)
	}
	if err := p.sess.Shell(); err != nil {
		return fail("shell", err)
	}
	return p, ""
}

// Close closes the session, then the connection.
func (p *ptySession) Close() {
	if p.sess != nil {
		p.sess.Close()
	}
	p.client.Close()
}

// watch reads every byte of the screen from stdout, noting when the
// game's sidebar shows, until the stream ends; then it closes done.
func (lc *sshLoadClient) watch(stdout io.Reader, start time.Time, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 32<<10)
	var tail []byte
	for {
		n, err := stdout.Read(buf)
		lc.bytes.Add(int64(n))
		if !lc.inGame.Load() && n > 0 {
			tail = append(tail, buf[:n]...)
			if bytes.Contains(tail, []byte(gameMarker)) {
				lc.inGameD = time.Since(start)
				lc.inGame.Store(true)
				tail = nil
			} else if len(tail) > len(gameMarker) {
				tail = append(tail[:0], tail[len(tail)-len(gameMarker):]...)
			}
		}
		if err != nil {
			return
		}
	}
}

// steer types at the session until ctx ends (then q) or the screen's
// stream does (readDone): the lobby's quick match until a game shows,
// then random arrows and fire, ten keys a second.
func (lc *sshLoadClient) steer(ctx context.Context, stdin io.Writer, readDone <-chan struct{}) {
	rng := rand.New(rand.NewPCG(uint64(lc.id), 7))
	keys := [...]string{"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", " "}
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	ask := time.Now().Add(300 * time.Millisecond) // after the lobby's first list
	for {
		select {
		case <-ctx.Done():
			_, _ = stdin.Write([]byte("q"))
			return
		case <-readDone:
			if ctx.Err() == nil {
				lc.err = "the session ended"
			}
			return
		case <-tk.C:
		}
		switch {
		case !lc.inGame.Load():
			if time.Now().After(ask) {
				_, _ = stdin.Write([]byte("n")) // the lobby's quick match
				lc.keys++
				ask = time.Now().Add(2 * time.Second) // again, should it not take
			}
		default:
			if _, err := stdin.Write([]byte(keys[rng.IntN(len(keys))])); err == nil {
				lc.keys++
			}
		}
	}
}

// errWord is an error's message cut to its first clause, for counting.
func errWord(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		s = s[i+2:]
	}
	return s
}
