package tests

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/sshfront"
	"ttytanks/internal/syncbuf"
)

// sshConnect opens an SSH connection to the rig as user, closed at the
// end of the test.
func (r *sshRig) sshConnect(user string) *gossh.Client {
	r.t.Helper()
	c, err := gossh.Dial("tcp", r.addr, r.clientConfig(user))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { c.Close() })
	return c
}

// ptyReq is the payload of a pty-req for an xterm-256color of w x h.
func ptyReq(w, h int) []byte {
	return gossh.Marshal(struct {
		Term         string
		W, H, PW, PH uint32
		Modes        string
	}{"xterm-256color", uint32(w), uint32(h), 0, 0, ""})
}

// winch is the payload of a window-change to w x h.
func winch(w, h int) []byte {
	return gossh.Marshal(struct{ W, H, PW, PH uint32 }{uint32(w), uint32(h), 0, 0})
}

// within runs f and fails the test if it takes longer than d.
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s: no answer within %v", what, d)
		return nil
	}
}

// TestSSHWindowChangeBeforeShell: a client that pipelines pty-req,
// window-change and shell (as a terminal resized while ssh connects does)
// gets its shell and the game, at the latest size, and the server closes
// cleanly with nothing left behind.
func TestSSHWindowChangeBeforeShell(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r := startSSHRig(t, nil)
	client := r.sshConnect("early")
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	vt := newVT(120, 40)
	sess.Stdout = vt
	if _, err := sess.StdinPipe(); err != nil { // no stdin would be an EOF: the player gone
		t.Fatal(err)
	}
	if _, err := sess.SendRequest("pty-req", false, ptyReq(100, 30)); err != nil {
		t.Fatal(err)
	}
	for _, h := range []int{31, 35, 40} {
		if _, err := sess.SendRequest("window-change", false, winch(120, h)); err != nil {
			t.Fatal(err)
		}
	}
	if err := within(t, 3*time.Second, "the shell request", sess.Shell); err != nil {
		t.Fatalf("shell: %v", err)
	}
	p := &sshPlayer{t: t, vt: vt, stderr: &syncbuf.Buffer{}}
	s := p.waitScreen(10*time.Second, "the match", sshPlaying)
	// At 120 columns the sidebar sits further right than at 100.
	if c := sidebarCol(s); c < 70 {
		t.Errorf("sidebar at column %d: the window-change to 120x40 was not applied; screen:\n%s", c, s)
	}
	client.Close()
	waitFor(t, 3*time.Second, "the seat to be freed", r.seatFree)
	if err := within(t, 3*time.Second, "the server's Close", r.ssh.Close); err != nil {
		t.Errorf("Close: %v", err)
	}
	r.close()
}

// TestSSHWindowChangeAfterRefusal: window-changes pipelined after an exec
// with a PTY (refused, so nothing reads the session's window sizes) do
// not jam the connection: a new session opens on it, and the server
// closes cleanly with nothing left behind.
func TestSSHWindowChangeAfterRefusal(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r := startSSHRig(t, nil)
	client := r.sshConnect("eve")
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	// Pipelined: none waits for an answer, so all of them are queued
	// before the refusal closes the channel.
	if _, err := sess.SendRequest("exec", false, gossh.Marshal(struct{ V string }{"sh"})); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		_, _ = sess.SendRequest("window-change", false, winch(100, 30+i))
	}
	// Enough requests to fill the channel's request queue, and so stall
	// the whole connection, if the server stopped reading them.
	for range 40 {
		_, _ = sess.SendRequest("x-junk@example.com", false, nil)
	}
	err = within(t, 3*time.Second, "a new session on the same connection", func() error {
		s2, err := client.NewSession()
		if err == nil {
			s2.Close()
		}
		return err
	})
	if err != nil {
		t.Errorf("new session on the connection: %v", err)
	}
	sess.Close()
	if err := within(t, 3*time.Second, "the server's Close", r.ssh.Close); err != nil {
		t.Errorf("Close: %v", err)
	}
	client.Close()
	r.close()
}

// TestSSHChannelCloseFreesSeat: a client that closes its session channel
// but keeps the connection open leaves the game at once, not at the idle
// timeout.
func TestSSHChannelCloseFreesSeat(t *testing.T) {
	r := startSSHRig(t, func(c *sshRigConfig) { c.Idle = time.Minute })
	p := r.dial("zombie", 100, 30)
	p.waitScreen(10*time.Second, "the match", sshPlaying)
	closed := time.Now()
	p.sess.Close() // the channel only: the connection stays up
	waitFor(t, 3*time.Second, "the seat to be freed after the channel closed", r.seatFree)
	waitFor(t, 3*time.Second, "no SSH session running", func() bool { return r.ssh.Sessions() == 0 })
	t.Logf("channel close to free seat: %v", time.Since(closed).Round(time.Millisecond))
	// The connection is still usable.
	s2, err := p.client.NewSession()
	if err != nil {
		t.Fatalf("new session after the channel closed: %v", err)
	}
	s2.Close()
}

// TestSSHChannelsPerConnection: one connection holds at most
// MaxChannelsPerConn session channels at once.
func TestSSHChannelsPerConnection(t *testing.T) {
	r := startSSHRig(t, nil)
	client := r.sshConnect("hydra")
	var open []*gossh.Session
	for range sshfront.MaxChannelsPerConn {
		s, err := client.NewSession()
		if err != nil {
			t.Fatalf("session %d: %v", len(open)+1, err)
		}
		open = append(open, s)
	}
	if s, err := client.NewSession(); err == nil {
		s.Close()
		t.Fatalf("session %d on one connection was opened", len(open)+1)
	} else if !strings.Contains(err.Error(), "sessions per connection") {
		t.Errorf("refused with %q, want a clear message", err)
	}
	open[0].Close()
	// The slot is free once the server has seen the close.
	waitFor(t, 3*time.Second, "a session slot after a close", func() bool {
		s, err := client.NewSession()
		if err == nil {
			s.Close()
		}
		return err == nil
	})
}

// readUntilClosed reads conn until it fails and reports what came and
// how long it took; it fails the test if conn is still open after d.
func readUntilClosed(t *testing.T, conn net.Conn, d time.Duration) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	_ = conn.SetReadDeadline(start.Add(d))
	got, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection is still open after %v (read %q)", d, got)
	}
	return string(got), time.Since(start)
}

// TestSSHHandshakeDeadline: a connection that never completes the
// handshake is closed after Config.HandshakeTimeout.
func TestSSHHandshakeDeadline(t *testing.T) {
	r := startSSHRig(t, func(c *sshRigConfig) { c.HandshakeTimeout = 300 * time.Millisecond })
	conn, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got, took := readUntilClosed(t, conn, 3*time.Second) // says nothing
	if !strings.HasPrefix(got, "SSH-2.0-ttytanks") {
		t.Errorf("read %q, want the server's version line", got)
	}
	if took < 250*time.Millisecond {
		t.Errorf("closed after %v, before the handshake timeout", took)
	}
	t.Logf("silent connection closed after %v", took.Round(time.Millisecond))
	// A connection that completes the handshake and opens a session
	// outlives the deadline.
	client := r.sshConnect("slowpoke")
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	time.Sleep(600 * time.Millisecond)
	if _, err := sess.SendRequest("env", true, gossh.Marshal(struct{ K, V string }{"A", "b"})); err != nil {
		t.Errorf("the session's connection died after the handshake deadline: %v", err)
	}
}

// TestSSHConnectionsPerIP: beyond Config.MaxConnsPerIP connections from
// one address the next is closed at once, and once one closes another
// gets in.
func TestSSHConnectionsPerIP(t *testing.T) {
	r := startSSHRig(t, func(c *sshRigConfig) { c.MaxConnsPerIP = 2 })
	var conns []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", r.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for _, c := range conns { // both are being served: the version line came
		_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
		buf := make([]byte, 8)
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "SSH-2.0-" {
			t.Fatalf("an admitted connection: %q, %v", buf, err)
		}
	}
	extra, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if got, _ := readUntilClosed(t, extra, 3*time.Second); got != "" {
		t.Errorf("the connection over the limit got %q, want it closed at once", got)
	}
	conns[0].Close()
	waitFor(t, 3*time.Second, "a connection admitted after one closed", func() bool {
		c, err := gossh.Dial("tcp", r.addr, r.clientConfig("later"))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

// TestSSHWaitingIsIdle: a player waiting in a room for others shows no
// intent: the session ends once Idle has passed (not before), with a
// message, and the seat it waited in is free.
func TestSSHWaitingIsIdle(t *testing.T) {
	const idle = 800 * time.Millisecond
	r := startSSHRigN(t, 3, func(c *sshRigConfig) { c.Idle = idle }) // two humans needed
	p := r.dial("patient", 100, 30)
	p.waitScreen(5*time.Second, "the waiting room", func(s string) bool { return strings.Contains(s, "waiting for") })
	waiting := time.Now()
	err := p.waitExit(idle + 3*time.Second)
	if after := time.Since(waiting); after < idle-100*time.Millisecond {
		t.Errorf("the waiting session ended after %v, before Idle %v", after, idle)
	}
	if exitStatus(err) != 1 || !strings.Contains(p.vt.Screen(), "no move, shot or choice for 800ms") {
		t.Errorf("the waiting session ended with %v; screen:\n%s", err, p.vt.Screen())
	}
	waitFor(t, 3*time.Second, "the waiting seat to be freed", func() bool { names, _ := r.humans(); return len(names) == 0 })
}
