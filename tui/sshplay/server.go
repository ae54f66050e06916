package sshplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/netcode"
	"ttytanks/tui"
)

// Defaults for Config.
const (
	DefaultIdle        = 2 * time.Minute
	DefaultMaxSessions = 32
)

// Timeouts of the SSH layer.
const (
	// ConnIdleSlack is added to Config.Idle to make the connection-level
	// timeout: a connection with no traffic either way for that long (a
	// stalled handshake, a vanished peer) is closed.
	ConnIdleSlack = 30 * time.Second
	// WriteStall is how long one write to a session may stay blocked
	// before the connection is dropped.
	WriteStall = 30 * time.Second
	// closeGrace is how long Close lets sessions say goodbye before it
	// drops every connection, and then how long it waits for them.
	closeGrace = 400 * time.Millisecond
)

// Config configures a Server.
type Config struct {
	// Net is the in-memory network the sessions' clients attach to, and
	// Game the game server's address on it (MuxTransport's Network and
	// MemAddr).
	Net  *netcode.MemNetwork
	Game netip.AddrPort
	// HostKey is the server's host key (see LoadOrCreateHostKey).
	HostKey gossh.Signer
	// AuthorizedKeys, if non-nil, admits only these public keys. When nil
	// anyone may play: no authentication is asked for at all (the "none"
	// method succeeds), so "ssh -p 2222 host" works without a prompt.
	AuthorizedKeys *AuthorizedKeys
	// Idle ends a session after this long without a key press (default
	// DefaultIdle).
	Idle time.Duration
	// MaxSessions bounds the concurrent game sessions; the next one is
	// told the server is busy and closed (default DefaultMaxSessions).
	MaxSessions int
	// UI is the base screen options of every session. Per session, ASCII
	// is added when the client's locale is not UTF-8 and NoColor when it
	// sends NO_COLOR.
	UI tui.Options
	// Logger receives a line per session start and end (nil: discarded).
	Logger *slog.Logger
}

// Server serves the game over SSH: each session with a PTY gets its own
// predicting netcode.Client, connected through Config.Net to the game
// server, and the tcell UI of "ttytanks join", drawn into the session.
// Shell commands, subsystems, port forwarding and agent forwarding are
// refused. Its methods are safe for concurrent use.
type Server struct {
	cfg    Config
	ssh    *ssh.Server
	log    *slog.Logger
	ctx    context.Context // cancelled by Close: sessions end
	cancel context.CancelFunc
	seats  chan struct{} // one token per running session

	mu       sync.Mutex
	closed   bool
	ln       net.Listener
	sessions sync.WaitGroup // session handlers
	wg       sync.WaitGroup // every other goroutine of ours
}

// NewServer checks cfg and returns a server; Serve starts it.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Net == nil || !cfg.Game.IsValid() {
		return nil, errors.New("sshplay: Config.Net and Config.Game are required")
	}
	if cfg.HostKey == nil {
		return nil, errors.New("sshplay: Config.HostKey is required")
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	s := &Server{cfg: cfg, log: cfg.Logger, seats: make(chan struct{}, cfg.MaxSessions)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ssh = &ssh.Server{
		Handler:     s.handle,
		HostSigners: []ssh.Signer{cfg.HostKey},
		Version:     "ttytanks",
		IdleTimeout: cfg.Idle + ConnIdleSlack,
		ChannelHandlers: map[string]ssh.ChannelHandler{
			"session":                        s.sessionChannel,
			"direct-tcpip":                   refuseForwarding,
			"direct-streamlocal@openssh.com": refuseForwarding,
		},
		// No global request is served: tcpip-forward and
		// streamlocal-forward (remote forwarding) get a failure reply.
		RequestHandlers:   map[string]ssh.RequestHandler{},
		SubsystemHandlers: map[string]ssh.SubsystemHandler{},
	}
	if cfg.AuthorizedKeys != nil {
		keys := cfg.AuthorizedKeys
		s.ssh.PublicKeyHandler = func(_ ssh.Context, key ssh.PublicKey) bool { return keys.Allows(key) }
	}
	return s, nil
}

// Serve accepts SSH connections on ln until Close, then returns nil (or
// the listener's error if it fails first). It closes ln.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.ln = ln
	s.mu.Unlock()
	err := s.ssh.Serve(ln)
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed || errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the server: every session is ended (its player leaves the
// game and is told the server is shutting down), then the listener and
// every connection are closed. It waits for the server's goroutines, at
// most about a second in all, and is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	ln := s.ln
	s.mu.Unlock()
	if ln != nil {
		ln.Close() // no new connections while the sessions end
	}
	s.cancel()
	waitTimeout(&s.sessions, closeGrace)
	err := s.ssh.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	if !waitTimeout(&s.sessions, closeGrace) || !waitTimeout(&s.wg, closeGrace) {
		return errors.New("sshplay: sessions did not end in time")
	}
	return err
}

// Sessions is the number of game sessions running.
func (s *Server) Sessions() int { return len(s.seats) }

// waitTimeout waits for wg at most d and reports whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// enter counts one goroutine in wg unless the server is closed.
func (s *Server) enter(wg *sync.WaitGroup) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	wg.Add(1)
	return true
}

// spawn runs f in a goroutine counted in s.wg (unless closed).
func (s *Server) spawn(f func()) {
	if !s.enter(&s.wg) {
		return
	}
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// sessionChannel is the "session" channel handler: gliderlabs' own, with
// the channel's requests filtered first (refusedRequest).
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if !s.enter(&s.wg) {
		_ = nc.Reject(gossh.ResourceShortage, "ttytanks: the server is shutting down")
		return
	}
	defer s.wg.Done()
	ssh.DefaultSessionHandler(srv, conn, filteredChannel{NewChannel: nc, s: s}, ctx)
}

// maxEnv bounds the "env" requests one session may make.
const maxEnv = 64

// filteredChannel is a session channel whose requests pass refusedRequest
// before gliderlabs sees them.
type filteredChannel struct {
	gossh.NewChannel
	s *Server
}

func (c filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	if !c.s.enter(&c.s.wg) {
		ch.Close()
		go gossh.DiscardRequests(reqs)
		close(out)
		return ch, out, nil
	}
	go func() {
		defer c.s.wg.Done()
		defer close(out)
		env := 0
		for r := range reqs {
			if r.Type == "env" {
				env++
			}
			if refusedRequest(r.Type) || env > maxEnv {
				_ = r.Reply(false, nil)
				continue
			}
			out <- r
		}
	}()
	return ch, out, nil
}

// refusedRequest lists the session requests refused before gliderlabs
// would accept them: agent forwarding (gliderlabs says yes to it by
// default) and X11 forwarding.
func refusedRequest(typ string) bool {
	switch typ {
	case "auth-agent-req@openssh.com", "auth-agent-req", "x11-req":
		return true
	}
	return false
}

// refuseForwarding rejects a port-forwarding channel with a message the
// client shows.
func refuseForwarding(_ *ssh.Server, _ *gossh.ServerConn, nc gossh.NewChannel, _ ssh.Context) {
	_ = nc.Reject(gossh.Prohibited, fmt.Sprintf("ttytanks: port forwarding is not allowed (%s)", nc.ChannelType()))
}
