package tests

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"ttytanks/game"
	"ttytanks/internal/sshfront"
	"ttytanks/internal/syncbuf"
	"ttytanks/known"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
	"ttytanks/tui/sshterm"
)

// sshRig is serve --ssh in-process: a game server with 2 seats, one taken
// by a server bot that sits still (so nothing but the player moves the
// player's tank), on a MuxTransport over UDP 127.0.0.1:0, and the SSH
// listener on TCP 127.0.0.1:0.
type sshRig struct {
	t       testing.TB
	sd      *netcode.ServerDriver
	ssh     *sshfront.Server
	addr    string
	udp     netip.AddrPort // the game server's UDP address, for clients that join over UDP
	hostKey gossh.PublicKey
	cancel  context.CancelFunc
	served  chan error
	sshDone chan error
	once    sync.Once
}

// sitter is a server bot that never moves or fires.
type sitter struct{}

func (sitter) Input(*game.Snapshot, *game.Maze, int) game.Input { return game.Input{} }

// sshRigConfig is the rig's configuration, for a test to change: the
// SSH front end's, in Game the game's on each session, and in Server the
// game server's. With Origin the game server counts SSH players by their
// SSH client's address, as serve does.
type sshRigConfig struct {
	sshfront.Config
	Game   sshterm.Config
	Server netcode.ServerConfig
	Origin bool
}

func startSSHRig(t *testing.T, tweak func(*sshRigConfig)) *sshRig {
	t.Helper()
	return startSSHRigN(t, 2, tweak)
}

// startSSHRigN is startSSHRig with a game of the given number of seats,
// one of them the sitting bot.
func startSSHRigN(t testing.TB, players int, tweak func(*sshRigConfig)) *sshRig {
	t.Helper()
	udp, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := transport.NewMuxTransport(udp)
	priv, _, err := known.LoadOrCreateKey(filepath.Join(t.TempDir(), "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	// Tests connect from 127.0.0.1 again and again: no key-exchange
	// rate limit unless a test sets one (sshfront.KexLimits{} is the
	// defaults).
	cfg := sshRigConfig{Config: sshfront.Config{HostKey: key, Kex: sshfront.KexLimits{Rate: -1, Global: -1, Reserve: -1}},
		Game: sshterm.Config{Net: mux.Network(), Game: mux.MemAddr(), UI: tui.Options{FPS: 30}},
		Server: netcode.ServerConfig{Players: players, Bots: 1, MaxRooms: 1, // one match: a full one refuses
			NewBot: func(int, uint64) netcode.InputSource { return sitter{} }}}
	if tweak != nil {
		tweak(&cfg)
	}
	var front atomic.Pointer[sshfront.Server]
	if cfg.Origin {
		cfg.Server.Origin = func(mem netip.AddrPort) (netip.Addr, bool) {
			if s := front.Load(); s != nil {
				return s.Origin(mem)
			}
			return netip.Addr{}, false
		}
	}
	srv, err := netcode.NewServer(cfg.Server)
	if err != nil {
		t.Fatal(err)
	}
	sg, err := sshterm.NewGame(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Play = func(ctx context.Context, s *sshfront.Session) (int, string, bool) { return sg.Play(ctx, s) }
	ss, err := sshfront.NewServer(cfg.Config)
	if err != nil {
		t.Fatal(err)
	}
	front.Store(ss)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &sshRig{t: t, sd: netcode.NewServerDriver(srv, mux), ssh: ss, addr: ln.Addr().String(), udp: udp.LocalAddr(),
		hostKey: key.PublicKey(), cancel: cancel, served: make(chan error, 1), sshDone: make(chan error, 1)}
	go func() { r.served <- r.sd.Run(ctx) }()
	go func() { r.sshDone <- ss.Serve(ln) }()
	t.Cleanup(r.close)
	return r
}

// close stops the SSH server and the game server and waits for both.
func (r *sshRig) close() {
	r.once.Do(func() {
		if err := r.ssh.Close(); err != nil {
			r.t.Errorf("ssh server Close: %v", err)
		}
		if err := <-r.sshDone; err != nil {
			r.t.Errorf("ssh server Serve: %v", err)
		}
		r.cancel()
		if err := <-r.served; err != nil {
			r.t.Errorf("game server: %v", err)
		}
	})
}

// humans returns the names of the seated network players.
func (r *sshRig) humans() (names []string, need int) {
	r.sd.Do(func(s *netcode.Server) {
		st := s.Stats()
		need = st.Need
		for _, p := range st.Players {
			if !p.Bot {
				names = append(names, p.Name)
			}
		}
	})
	return names, need
}

// seatFree reports whether no human is seated and the lobby needs one
// player again.
func (r *sshRig) seatFree() bool {
	names, need := r.humans()
	return len(names) == 0 && need == 1
}

// tank returns the server's tank of the player called name.
func (r *sshRig) tank(name string) (game.Tank, bool) {
	var tk game.Tank
	found := false
	r.sd.Do(func(s *netcode.Server) {
		st := s.Stats()
		if !st.Running {
			return
		}
		for _, p := range st.Players {
			if p.Name == name && !p.Bot {
				tk, found = s.World().State().Tanks[p.Slot], true
			}
		}
	})
	return tk, found
}

// noQuestions is the keyboard-interactive answer of a client without a
// key: the server asks nothing.
var noQuestions = gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })

// clientConfig is an SSH client config that pins the rig's host key; it
// offers the keys of auth, then keyboard-interactive (as OpenSSH does).
func (r *sshRig) clientConfig(user string, auth ...gossh.AuthMethod) *gossh.ClientConfig {
	auth = append(auth, noQuestions)
	return &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.FixedHostKey(r.hostKey),
		Timeout: 5 * time.Second}
}

// sshPlayer is an SSH client in a terminal: a PTY session whose output
// feeds a vt.
type sshPlayer struct {
	t      testing.TB
	conn   net.Conn
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.WriteCloser
	vt     *vt
	raw    *syncbuf.Buffer // every byte of the session's output
	stderr *syncbuf.Buffer
	done   chan error // the session's Wait
}

// dial connects user with a w x h xterm-256color PTY and starts the shell.
func (r *sshRig) dial(user string, w, h int) *sshPlayer {
	r.t.Helper()
	p, err := r.dialFromAs("", user, w, h)
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

// dialFromAs is dial from the source address src ("": the system's
// choice) offering the keys of auth first; it fails only if the
// connection, its session or its shell does.
func (r *sshRig) dialFromAs(src, user string, w, h int, auth ...gossh.AuthMethod) (*sshPlayer, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	if src != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	conn, err := d.Dial("tcp", r.addr)
	if err != nil {
		return nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, r.addr, r.clientConfig(user, auth...))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("ssh handshake: %w", err)
	}
	p := &sshPlayer{t: r.t, conn: conn, client: gossh.NewClient(cc, chans, reqs), vt: newVT(w, h),
		raw: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	r.t.Cleanup(p.close)
	if p.sess, err = p.client.NewSession(); err != nil {
		return nil, err
	}
	if err := p.sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		return nil, err
	}
	p.sess.Stdout, p.sess.Stderr = io.MultiWriter(p.vt, p.raw), p.stderr
	if p.stdin, err = p.sess.StdinPipe(); err != nil {
		return nil, err
	}
	if err := p.sess.Shell(); err != nil {
		return nil, err
	}
	go func() { p.done <- p.sess.Wait() }()
	return p, nil
}

func (p *sshPlayer) close() { p.client.Close() }

// keys types s.
func (p *sshPlayer) keys(s string) {
	if _, err := io.WriteString(p.stdin, s); err != nil {
		p.t.Fatalf("typing %q: %v", s, err)
	}
}

// resize changes the terminal's size, as a terminal window does: the
// emulator first, then the window-change request.
func (p *sshPlayer) resize(w, h int) {
	p.vt.Resize(w, h)
	if err := p.sess.WindowChange(h, w); err != nil {
		p.t.Fatal(err)
	}
}

// waitScreen polls the emulated screen until ok holds, for at most d.
func (p *sshPlayer) waitScreen(d time.Duration, what string, ok func(string) bool) string {
	p.t.Helper()
	return pollScreen(p.t, d, 20*time.Millisecond, what, p.vt.Screen, ok, func() string { return "\nstderr: " + p.stderr.String() })
}

// waitExit waits at most d for the session to end and returns Wait's
// error.
func (p *sshPlayer) waitExit(d time.Duration) error {
	p.t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(d):
		p.t.Fatalf("the session did not end within %v; screen:\n%s", d, p.vt.Screen())
		return nil
	}
}

// exitStatus is the remote exit status in a session's Wait error.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *gossh.ExitError
	if errors.As(err, &ee) {
		return ee.ExitStatus()
	}
	return -1
}

// newClientKey returns a fresh ed25519 key as an SSH signer.
func newClientKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sshPlaying: the maze, two tanks and the netcode sidebar are drawn.
func sshPlaying(s string) bool {
	return strings.Contains(fieldText(s), "██") && len(tanks(s)) >= 2 &&
		strings.Contains(s, "RTT") && strings.Contains(s, "rollbacks") && strings.Contains(s, "playing")
}
