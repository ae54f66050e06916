package tests

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/game"
	"ttytanks/internal/sshfront"
	"ttytanks/internal/syncbuf"
)

// TestSSHPlay plays over SSH end to end: a real SSH client with a 100x30
// xterm-256color PTY against the real listener; the emulated terminal
// shows the maze, both tanks and the netcode sidebar; a window-change to
// 80x24 re-lays the screen out; keys move the player's tank on the server;
// q ends the session promptly and frees the seat. The user name carries
// an OSC and a CSI sequence, which never reach the player's terminal.
func TestSSHPlay(t *testing.T) {
	r := startSSHRig(t, nil)
	p := r.dial("alice\x1b]2;pwned\x07\x1b[5n", 100, 30) // the name is sanitised
	s := p.waitScreen(10*time.Second, "the match at 100x30", sshPlaying)
	if !strings.Contains(s, "alice") || strings.Contains(s, "pwned") {
		t.Errorf("the sidebar should list the player as alice; screen:\n%s", s)
	}
	defer func() {
		raw := p.raw.String()
		for _, bad := range []string{"\x1b]2;", "pwned", "\x1b[5n"} {
			if strings.Contains(raw, bad) {
				t.Errorf("the output carries %q from the user name", bad)
			}
		}
	}()
	names, _ := r.humans()
	if len(names) != 1 || names[0] != "alice" {
		t.Fatalf("seated players %q, want [alice]", names)
	}
	wide := sidebarCol(s)
	if wide < 50 {
		t.Fatalf("sidebar at column %d at 100 columns; screen:\n%s", wide, s)
	}

	p.resize(80, 24)
	s = p.waitScreen(5*time.Second, "the re-layout at 80x24", func(s string) bool {
		c := sidebarCol(s)
		return c >= 0 && c < wide && sshPlaying(s)
	})
	if n := strings.Count(s, "\n") + 1; n != 24 {
		t.Errorf("screen has %d rows, want 24", n)
	}

	// The round's countdown ignores every key: wait for its end.
	p.waitScreen(5*time.Second, "the end of the round's countdown", func(s string) bool {
		return sshPlaying(s) && !strings.Contains(s, "get ready")
	})

	// Hold each direction in turn, at auto-repeat pace, until one moves
	// the tank that way on the server: a maze tile has an open side.
	dirs := []struct {
		key    string
		dx, dy int32
	}{{"d", 1, 0}, {"\x1b[B", 0, 1}, {"a", -1, 0}, {"\x1b[A", 0, -1}}
	moved := ""
	for _, d := range dirs {
		p.keys("x") // stop
		from, ok := r.tank("alice")
		if !ok {
			t.Fatal("alice has no tank on the server")
		}
		for range 15 {
			p.keys(d.key)
			time.Sleep(40 * time.Millisecond) // typing pace: a held key's auto-repeat
		}
		to, _ := r.tank("alice")
		if d.dx*(to.X-from.X)+d.dy*(to.Y-from.Y) > game.SubTile/2 {
			moved = d.key
			if (d.dx != 0 && to.AimX != int8(d.dx)) || (d.dy != 0 && to.AimY != int8(d.dy)) {
				t.Errorf("after %q the tank aims (%d,%d)", d.key, to.AimX, to.AimY)
			}
			break
		}
	}
	if moved == "" {
		t.Fatalf("no key moved the tank; screen:\n%s", p.vt.Screen())
	}

	// The bounds are loose (CI: 2 cores, -race, packages in parallel);
	// the log shows the time taken, well under a second on a quiet host.
	p.keys("q")
	quit := time.Now()
	if err := p.waitExit(3 * time.Second); exitStatus(err) != 0 {
		t.Errorf("session after q: %v, want exit status 0; stderr %q", err, p.stderr.String())
	}
	waitFor(t, 3*time.Second-time.Since(quit), "the seat to be freed after q", r.seatFree)
	t.Logf("q to session end and free seat: %v (moved with %q)", time.Since(quit).Round(time.Millisecond), moved)
}

// TestSSHDropFreesSeat: a player whose TCP connection drops mid-game
// leaves the game at once (the session's context ends, the client sends
// Leave), and the server counts no session.
func TestSSHDropFreesSeat(t *testing.T) {
	r := startSSHRig(t, nil)
	p := r.dial("bob", 100, 30)
	p.waitScreen(10*time.Second, "the match", sshPlaying)
	if r.seatFree() {
		t.Fatal("bob is not seated")
	}
	dropped := time.Now()
	p.conn.Close()
	waitFor(t, 3*time.Second, "the seat to be freed after the drop", r.seatFree)
	waitFor(t, 3*time.Second, "no SSH session running", func() bool { return r.ssh.Sessions() == 0 })
	t.Logf("drop to free seat: %v", time.Since(dropped).Round(time.Millisecond))
}

// TestSSHCyclesLeakNothing: 50 connect, play, disconnect cycles (10
// under -short; q or a dropped connection, alternately) leave no seat taken and, once the
// servers are closed, no goroutine behind.
func TestSSHCyclesLeakNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r := startSSHRig(t, nil)
	cycles := 50
	if testing.Short() {
		cycles = 10 // a goroutine left behind shows after one cycle as after fifty
	}
	for i := range cycles {
		p := r.dial(fmt.Sprintf("cycle%d", i), 100, 30)
		p.waitScreen(10*time.Second, fmt.Sprintf("the match in cycle %d", i), sshPlaying)
		p.keys("d ")
		if i%2 == 0 {
			p.keys("q")
			if err := p.waitExit(time.Second); exitStatus(err) != 0 {
				t.Fatalf("cycle %d: session after q: %v", i, err)
			}
		} else {
			p.conn.Close()
		}
		waitFor(t, 3*time.Second, fmt.Sprintf("the seat to be freed in cycle %d", i), r.seatFree)
		p.close()
	}
	waitFor(t, 3*time.Second, "no SSH session running", func() bool { return r.ssh.Sessions() == 0 })
	r.close()
}

// TestSSHRefusals: what the server does not do is refused, with a message
// where SSH can carry one.
func TestSSHRefusals(t *testing.T) {
	r := startSSHRig(t, nil)
	// Each case has a connection of its own: a session closed by the
	// client is released by the server a moment later, and the next
	// case's on the same connection could meet the limit of
	// sshfront.MaxChannelsPerConn.
	dial := func(t *testing.T) *gossh.Client {
		t.Helper()
		client, err := gossh.Dial("tcp", r.addr, r.clientConfig("carol"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		return client
	}

	t.Run("no pty", func(t *testing.T) {
		sess, err := dial(t).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		var stderr syncbuf.Buffer
		sess.Stderr = &stderr
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		err = sess.Wait()
		if exitStatus(err) != 1 || !strings.Contains(stderr.String(), "ttytanks needs a terminal: ssh -t") {
			t.Errorf("shell without a pty: %v, stderr %q; want exit status 1 and the hint", err, stderr.String())
		}
	})
	t.Run("exec", func(t *testing.T) {
		sess, err := dial(t).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		var stderr syncbuf.Buffer
		sess.Stderr = &stderr
		err = sess.Run("cat /etc/passwd")
		if exitStatus(err) != 1 || !strings.Contains(stderr.String(), "runs the game, not commands") {
			t.Errorf("exec: %v, stderr %q; want exit status 1 and a refusal", err, stderr.String())
		}
	})
	t.Run("exec with pty", func(t *testing.T) {
		sess, err := dial(t).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
		var out syncbuf.Buffer
		sess.Stderr = &out
		err = sess.Run("sh")
		if exitStatus(err) != 1 || !strings.Contains(out.String(), "not commands") {
			t.Errorf("exec with a pty: %v, output %q", err, out.String())
		}
	})
	t.Run("subsystem", func(t *testing.T) {
		sess, err := dial(t).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		if err := sess.RequestSubsystem("sftp"); err == nil {
			t.Error("the sftp subsystem was accepted")
		}
	})
	t.Run("agent forwarding", func(t *testing.T) {
		sess, err := dial(t).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		ok, err := sess.SendRequest("auth-agent-req@openssh.com", true, nil)
		if err != nil || ok {
			t.Errorf("agent forwarding request: ok=%v err=%v, want refused", ok, err)
		}
	})
	t.Run("local port forwarding", func(t *testing.T) {
		c, err := dial(t).Dial("tcp", "127.0.0.1:7")
		if err == nil {
			c.Close()
			t.Fatal("a direct-tcpip channel was opened")
		}
		if !strings.Contains(err.Error(), "port forwarding is not allowed") {
			t.Errorf("direct-tcpip refused with %q, want a clear message", err)
		}
	})
	t.Run("remote port forwarding", func(t *testing.T) {
		ln, err := dial(t).Listen("tcp", "127.0.0.1:0")
		if err == nil {
			ln.Close()
			t.Fatal("tcpip-forward was accepted")
		}
	})
	if n := r.ssh.Sessions(); n != 0 {
		t.Errorf("%d game sessions after refusals", n)
	}
	if !r.seatFree() {
		t.Error("a refused session took a seat")
	}
}

// TestSSHBusy: beyond --ssh-max the next session is told and closed.
func TestSSHBusy(t *testing.T) {
	r := startSSHRig(t, func(c *sshRigConfig) { c.MaxSessions = 1 })
	first := r.dial("first", 100, 30)
	first.waitScreen(10*time.Second, "the first player's match", sshPlaying)
	second := r.dial("second", 100, 30)
	err := second.waitExit(2 * time.Second)
	if exitStatus(err) != 1 || !strings.Contains(second.stderr.String(), "server busy") {
		t.Errorf("second session: %v, stderr %q; want exit status 1 and \"server busy\"", err, second.stderr.String())
	}
	if names, _ := r.humans(); len(names) != 1 || names[0] != "first" {
		t.Errorf("seated %q, want [first]", names)
	}
}

// TestSSHIdle: no sign of intent for Config.Idle ends the session with
// a message and frees the seat.
func TestSSHIdle(t *testing.T) {
	const idle = 800 * time.Millisecond
	r := startSSHRig(t, func(c *sshRigConfig) { c.Idle = idle })
	p := r.dial("sleepy", 100, 30)
	p.waitScreen(5*time.Second, "the match", sshPlaying)
	err := p.waitExit(idle + 2*time.Second)
	if exitStatus(err) != 1 {
		t.Errorf("idle session ended with %v, want exit status 1", err)
	}
	if s := p.vt.Screen(); !strings.Contains(s, "no move, shot or choice for 800ms, session closed") {
		t.Errorf("no idle message; screen:\n%s", s)
	}
	waitFor(t, time.Second, "the seat to be freed", r.seatFree)
}

// TestSSHAuthorizedKeys: with an authorized_keys file only its keys get
// in; other keys and no authentication at all fail.
func TestSSHAuthorizedKeys(t *testing.T) {
	good, bad := newClientKey(t), newClientKey(t)
	keys, err := sshfront.ParseAuthorizedKeys(append([]byte("# players\n"), gossh.MarshalAuthorizedKey(good.PublicKey())...))
	if err != nil {
		t.Fatal(err)
	}
	r := startSSHRig(t, func(c *sshRigConfig) { c.AuthorizedKeys = keys })
	for _, tc := range []struct {
		name string
		auth []gossh.AuthMethod
		ok   bool
	}{
		{"authorized key", []gossh.AuthMethod{gossh.PublicKeys(good)}, true},
		{"other key", []gossh.AuthMethod{gossh.PublicKeys(bad)}, false},
		{"no authentication", nil, false},
		{"password", []gossh.AuthMethod{gossh.Password("hunter2")}, false},
	} {
		c, err := gossh.Dial("tcp", r.addr, r.clientConfig("dave", tc.auth...))
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case !tc.ok && err == nil:
			t.Errorf("%s: admitted", tc.name)
		case !tc.ok && !strings.Contains(err.Error(), "unable to authenticate"):
			t.Errorf("%s: failed with %v, want an authentication failure", tc.name, err)
		}
		if c != nil {
			c.Close()
		}
	}
}

// TestSSHGameFull: when the game has no seat left, the SSH player gets the
// game server's answer, as "ttytanks join" would, and exit status 1.
func TestSSHGameFull(t *testing.T) {
	r := startSSHRig(t, nil) // 2 seats, one a bot
	first := r.dial("first", 100, 30)
	first.waitScreen(10*time.Second, "the first player's match", sshPlaying)
	late := r.dial("late", 100, 30)
	err := late.waitExit(3 * time.Second)
	if s := late.vt.Screen(); exitStatus(err) != 1 || !strings.Contains(s, "ttytanks: the server is full") {
		t.Errorf("second player: %v; screen:\n%s\nwant exit status 1 and the server's answer", err, s)
	}
	if names, _ := r.humans(); len(names) != 1 || names[0] != "first" {
		t.Errorf("seated %q, want [first]", names)
	}
}
