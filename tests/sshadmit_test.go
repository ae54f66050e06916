package tests

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// All of 127.0.0.0/8 is loopback on Linux: binding a client socket to
// 127.0.x.y gives the server another source address.

// dialFrom opens a TCP connection to the rig from the source address src.
func (r *sshRig) dialFrom(src string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", r.addr)
}

// sshFrom opens an SSH connection to the rig from src as user.
func (r *sshRig) sshFrom(src, user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	conn, err := r.dialFrom(src)
	if err != nil {
		return nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, r.addr, r.clientConfig(user, auth...))
	if err != nil {
		conn.Close()
		return nil, err
	}
	return gossh.NewClient(cc, chans, reqs), nil
}

// tryPlay is one attempt of a real player from src: an SSH connection, a
// session with a PTY, its shell, and the game on the screen, all within
// d. It reports what failed, or nil; the connection is closed
// before it returns.
func (r *sshRig) tryPlay(src, user string, d time.Duration, auth ...gossh.AuthMethod) error {
	type result struct {
		client *gossh.Client
		err    error
	}
	done := make(chan result, 1)
	frame := make(chan struct{})
	go func() {
		client, err := r.sshFrom(src, user, auth...)
		if err != nil {
			done <- result{err: fmt.Errorf("connect: %w", err)}
			return
		}
		fail := func(what string, err error) { done <- result{client, fmt.Errorf("%s: %w", what, err)} }
		sess, err := client.NewSession()
		if err != nil {
			fail("session", err)
			return
		}
		if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
			fail("pty", err)
			return
		}
		out, err := sess.StdoutPipe()
		if err != nil {
			fail("stdout", err)
			return
		}
		if _, err := sess.StdinPipe(); err != nil {
			fail("stdin", err)
			return
		}
		if err := sess.Shell(); err != nil {
			fail("shell", err)
			return
		}
		done <- result{client: client}
		vt := newVT(100, 30)
		buf := make([]byte, 4096)
		for !sshPlaying(vt.Screen()) {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			_, _ = vt.Write(buf[:n])
		}
		close(frame)
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	var res result
	select {
	case res = <-done:
	case <-timer.C:
		go func() {
			if res := <-done; res.client != nil {
				res.client.Close()
			}
		}()
		return errors.New("no shell in time")
	}
	if res.client == nil {
		return res.err
	}
	defer res.client.Close()
	if res.err != nil {
		return res.err
	}
	select {
	case <-frame:
		return nil
	case <-timer.C:
		return errors.New("no game on the screen in time")
	}
}

// TestSSHChannelOnlyAttack: 128 connections from 16 addresses, each
// opening two session channels and never asking for a PTY or shell, with
// keep-alives, are all closed within the setup deadline (their channels
// sooner), a real player gets in while they are up and stays in past the
// deadline, and the attacking addresses are then refused at once.
func TestSSHChannelOnlyAttack(t *testing.T) {
	const (
		addrs   = 16
		perAddr = 8
	)
	// Under the race detector 128 handshakes at once take seconds: the
	// deadlines scale.
	scale := time.Duration(1)
	if raceDetector {
		scale = 3
	}
	setup, chSetup, slack := 2*time.Second*scale, 500*time.Millisecond*scale, time.Second*scale
	r := startSSHRig(t, func(c *sshRigConfig) {
		c.SetupTimeout, c.ChannelSetupTimeout = setup, chSetup
		c.Rand = rand.NewPCG(16, 4)
	})
	type attack struct {
		src           string
		dialed, ended time.Time
		chLife        time.Duration // the longest a channel of it was open
		channels      int
		err           error
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		attacks []*attack
		up      atomic.Int32
	)
	for a := range addrs {
		for range perAddr {
			at := &attack{src: fmt.Sprintf("127.0.2.%d", a+1)}
			attacks = append(attacks, at)
			wg.Add(1)
			go func() {
				defer wg.Done()
				at.dialed = time.Now()
				client, err := r.sshFrom(at.src, "squatter")
				if err != nil {
					at.err, at.ended = err, time.Now()
					return
				}
				defer client.Close()
				var chans sync.WaitGroup
				for range 2 {
					opened := time.Now()
					sess, err := client.NewSession()
					if err != nil {
						break
					}
					out, err := sess.StdoutPipe()
					if err != nil {
						break
					}
					at.channels++
					chans.Add(1)
					go func() {
						defer chans.Done()
						_, _ = io.Copy(io.Discard, out) // until the channel closes
						mu.Lock()
						at.chLife = max(at.chLife, time.Since(opened))
						mu.Unlock()
					}()
				}
				up.Add(1)
				for {
					if _, _, err := client.SendRequest("keepalive@openssh.com", true, nil); err != nil {
						break
					}
					time.Sleep(100 * time.Millisecond) // the attacker's keep-alive pace
				}
				at.ended = time.Now()
				chans.Wait()
			}()
		}
	}
	defer wg.Wait() // on failure too: the attackers end by the setup deadline
	waitFor(t, setup, "the attack's connections to be up", func() bool { return up.Load() >= addrs*perAddr/4 })

	// A real player, during the attack.
	p := r.dial("player", 100, 30)
	p.waitScreen(10*time.Second, "the player's match during the attack", sshPlaying)
	joined := time.Now()

	wg.Wait()
	var longest, longestCh time.Duration
	refusedEarly := 0
	timedOut := map[string]int{} // connections that met the setup deadline, by address
	for _, at := range attacks {
		if at.err != nil {
			refusedEarly++
		}
		life := at.ended.Sub(at.dialed)
		if at.err == nil && life >= setup-100*time.Millisecond {
			timedOut[at.src]++
		}
		longest = max(longest, life)
		if life > setup+slack {
			t.Errorf("a channel-only connection from %s lived %v, past the setup deadline %v", at.src, life, setup)
		}
		if at.channels > 0 {
			chLife := at.chLife
			longestCh = max(longestCh, chLife)
			if chLife > chSetup+slack {
				t.Errorf("a session channel without a shell from %s lived %v, want at most %v", at.src, chLife, chSetup)
			}
		}
	}
	t.Logf("%d attacking connections: the longest lived %v (deadline %v), its channels %v; %d refused or dropped at once",
		len(attacks), longest.Round(time.Millisecond), setup, longestCh.Round(time.Millisecond), refusedEarly)

	// The player, admitted, outlives the setup deadline.
	if wait := setup + 200*time.Millisecond - time.Since(joined); wait > 0 {
		select {
		case err := <-p.done:
			t.Fatalf("the admitted player's session ended: %v", err)
		case <-time.After(wait):
		}
	}
	p.waitScreen(3*time.Second, "the player still playing after the setup deadline", sshPlaying)
	if _, _, err := p.client.SendRequest("keepalive@openssh.com", true, nil); err != nil {
		t.Errorf("the admitted player's connection was closed: %v", err)
	}

	// An attacking address whose connections wasted slots until the
	// deadline more than once is refused now.
	worst := ""
	for a := range addrs {
		if src := fmt.Sprintf("127.0.2.%d", a+1); timedOut[src] > timedOut[worst] {
			worst = src
		}
	}
	t.Logf("connections that met the deadline, by address: %v", timedOut)
	if timedOut[worst] < 2 {
		t.Fatalf("no attacking address had two connections meet the deadline: %v", timedOut)
	}
	conn, err := r.dialFrom(worst)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, _ := readUntilClosed(t, conn, 3*time.Second); got != "" {
		t.Errorf("an attacking address got %q, want to be refused at once", got)
	}
	c, err := r.sshFrom("127.0.2.200", "bystander")
	if err != nil {
		t.Errorf("another address: %v", err)
	} else {
		c.Close()
	}
}

// TestSSHChannelDoesNotStopSetupDeadline: opening a session channel does
// not cancel the setup deadline; a channel that asks for nothing is
// closed after ChannelSetupTimeout, and the connection at the setup
// deadline.
func TestSSHChannelDoesNotStopSetupDeadline(t *testing.T) {
	const setup, chSetup = 1500 * time.Millisecond, 300 * time.Millisecond
	r := startSSHRig(t, func(c *sshRigConfig) { c.SetupTimeout, c.ChannelSetupTimeout = setup, chSetup })
	began := time.Now()
	client, err := r.sshFrom("127.0.0.1", "lurker")
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, out); waited <- err }() // until the channel closes
	select {
	case <-waited:
	case <-time.After(chSetup + 2*time.Second):
		t.Fatalf("a session channel without a shell request still open after %v", time.Since(began))
	}
	chClosed := time.Since(began)
	if chClosed < chSetup {
		t.Errorf("the channel was closed after %v, before ChannelSetupTimeout %v", chClosed, chSetup)
	}
	ended := make(chan error, 1)
	go func() { ended <- client.Wait() }()
	select {
	case <-ended:
	case <-time.After(setup + 2*time.Second):
		t.Fatalf("the connection is still open %v after it began, past the setup deadline %v", time.Since(began), setup)
	}
	connClosed := time.Since(began)
	if connClosed < setup-100*time.Millisecond {
		t.Errorf("the connection was closed after %v, before the setup deadline %v", connClosed, setup)
	}
	t.Logf("channel closed after %v, connection after %v", chClosed.Round(time.Millisecond), connClosed.Round(time.Millisecond))
}
