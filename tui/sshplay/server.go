package sshplay

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
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
	// DefaultHandshakeTimeout is how long a new connection has to finish
	// the SSH handshake, authenticate and open its first channel.
	DefaultHandshakeTimeout = 20 * time.Second
	// DefaultMaxConnsPerIP bounds the concurrent connections from one
	// client address.
	DefaultMaxConnsPerIP = 8
	// MaxChannelsPerConn bounds the session channels open at once on one
	// connection; the next one is rejected.
	MaxChannelsPerConn = 2
	// DefaultSetupTimeout is how long a new connection has from TCP
	// accept to a session with a PTY and a shell (OpenSSH's
	// LoginGraceTime, for the whole setup).
	DefaultSetupTimeout = 20 * time.Second
	// DefaultChannelSetupTimeout is how long a session channel has to ask
	// for a shell (or a command) before it is closed.
	DefaultChannelSetupTimeout = 5 * time.Second
	// DefaultPenaltyMax bounds the time a source is refused for wasting
	// setup slots.
	DefaultPenaltyMax = 10 * time.Minute
)

// MaxStartups is OpenSSH's MaxStartups start:rate:full for the
// connections not yet admitted (startups: from TCP accept until a session
// with a PTY has its shell and a seat). Up to Start startups nothing is
// dropped; beyond, each new connection drops a startup with probability
// Rate percent, rising linearly to 100 at Full, which is also the most
// startups there can be. The one dropped is the startup that has gone
// longest without progress (one that has sent nothing counts a second
// more), never an admitted player.
type MaxStartups struct {
	Start, Rate, Full int
}

// defaultStartups scales OpenSSH's 10:30:100 to maxConns connections,
// leaving a quarter of them to admitted players.
func defaultStartups(maxConns int) MaxStartups {
	full := max(maxConns*3/4, 1)
	return MaxStartups{Start: min(max(maxConns/8, 1), full), Rate: 30, Full: full}
}

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
	// goodbyeTimeout bounds the writing of a goodbye or refusal message
	// (and the exit status): a client that does not take it in time has
	// its connection dropped.
	goodbyeTimeout = 2 * time.Second
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
	// MaxConns bounds the concurrent SSH connections, handshakes included
	// (default 4 x MaxSessions), and MaxConnsPerIP those from one client
	// address (default DefaultMaxConnsPerIP). A connection beyond either
	// is closed at once.
	MaxConns      int
	MaxConnsPerIP int
	// HandshakeTimeout is how long a connection has to complete the SSH
	// handshake and authentication and open its first channel before it
	// is closed (default DefaultHandshakeTimeout).
	HandshakeTimeout time.Duration
	// SetupTimeout is how long a connection has from TCP accept to a
	// session with a PTY that has its shell and a game seat; opening a
	// channel does not stop it (default DefaultSetupTimeout).
	SetupTimeout time.Duration
	// ChannelSetupTimeout is how long a session channel has to ask for a
	// shell (or a command, which is refused) before the server closes it
	// (default DefaultChannelSetupTimeout).
	ChannelSetupTimeout time.Duration
	// Startups bounds and sheds the connections not yet admitted (default
	// MaxConns/8 : 30 : MaxConns*3/4; Full is at most MaxConns).
	Startups MaxStartups
	// Rand is the randomness of the early drop (nil: seeded from
	// crypto/rand). It is used under the server's lock.
	Rand rand.Source
	// Penalty is how long a source address is refused from its second
	// wasted setup slot (a connection that reached the setup or handshake
	// deadline, or was dropped for room after a second without progress),
	// doubling with each further one; a source's strikes are forgotten
	// after PenaltyMax without one, and no refusal is longer (defaults
	// SetupTimeout and DefaultPenaltyMax).
	Penalty    time.Duration
	PenaltyMax time.Duration
	// Bans refuses addresses and public keys; the server adds to it with
	// Ban and BanKey (nil: the server makes its own). A key can only be
	// refused when keys are asked for, that is with AuthorizedKeys.
	Bans *BanList
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
	gate     *gate
	conns    map[*slot]*trackedConn
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
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 4 * cfg.MaxSessions
	}
	if cfg.MaxConnsPerIP <= 0 {
		cfg.MaxConnsPerIP = DefaultMaxConnsPerIP
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.SetupTimeout <= 0 {
		cfg.SetupTimeout = DefaultSetupTimeout
	}
	if cfg.ChannelSetupTimeout <= 0 {
		cfg.ChannelSetupTimeout = DefaultChannelSetupTimeout
	}
	if cfg.Startups == (MaxStartups{}) {
		cfg.Startups = defaultStartups(cfg.MaxConns)
	}
	st := &cfg.Startups
	st.Full = min(max(st.Full, 1), cfg.MaxConns)
	st.Start = min(max(st.Start, 0), st.Full)
	st.Rate = min(max(st.Rate, 0), 100)
	if cfg.Penalty <= 0 {
		cfg.Penalty = cfg.SetupTimeout
	}
	if cfg.PenaltyMax <= 0 {
		cfg.PenaltyMax = max(DefaultPenaltyMax, cfg.Penalty)
	}
	if cfg.Rand == nil {
		var seed [16]byte
		_, _ = crand.Read(seed[:])
		cfg.Rand = rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:]))
	}
	if cfg.Bans == nil {
		cfg.Bans = &BanList{}
	}
	s := &Server{cfg: cfg, log: cfg.Logger, seats: make(chan struct{}, cfg.MaxSessions),
		conns: map[*slot]*trackedConn{},
		gate: newGate(gateLimits{maxConns: cfg.MaxConns, maxConnsPerIP: cfg.MaxConnsPerIP, startups: cfg.Startups,
			penalty: cfg.Penalty, penaltyMax: cfg.PenaltyMax}, rand.New(cfg.Rand), cfg.Bans)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ssh = &ssh.Server{
		Handler:      s.handle,
		HostSigners:  []ssh.Signer{cfg.HostKey},
		Version:      "ttytanks",
		IdleTimeout:  cfg.Idle + ConnIdleSlack,
		ConnCallback: s.admitConn,
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
		keys, bans := cfg.AuthorizedKeys, cfg.Bans
		s.ssh.PublicKeyHandler = func(ctx ssh.Context, key ssh.PublicKey) bool {
			if bans.keyBanned(key) || !keys.Allows(key) {
				return false
			}
			if tc := connOf(ctx); tc != nil {
				s.authed(tc, key)
			}
			return true
		}
	} else {
		s.ssh.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig {
			return &gossh.ServerConfig{NoClientAuthCallback: func(gossh.ConnMetadata) (*gossh.Permissions, error) {
				if tc := connOf(ctx); tc != nil {
					s.authed(tc, nil)
				}
				return nil, nil
			}}
		}
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
	// gliderlabs closes the connections past their handshake; these are
	// the others.
	s.mu.Lock()
	conns := make([]*trackedConn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
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
// the channel's requests filtered first (filteredChannel), at most
// MaxChannelsPerConn at once on a connection.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	tc := connOf(ctx)
	if tc != nil {
		tc.handshook()
		s.progress(tc, stageChannel)
	}
	if !s.enter(&s.wg) {
		_ = nc.Reject(gossh.ResourceShortage, "ttytanks: the server is shutting down")
		return
	}
	defer s.wg.Done()
	if tc != nil {
		if tc.channels.Add(1) > MaxChannelsPerConn {
			tc.channels.Add(-1)
			_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("ttytanks: at most %d sessions per connection", MaxChannelsPerConn))
			return
		}
		defer tc.channels.Add(-1)
	}
	st := &chanState{notify: make(chan struct{}, 1), done: make(chan struct{})}
	ssh.DefaultSessionHandler(srv, conn, filteredChannel{NewChannel: nc, s: s, st: st, tc: tc}, chanContext{Context: ctx, st: st})
}

// Bounds on the "env" requests of one session: how many, and the bytes of
// one and of all.
const (
	maxEnv      = 64
	maxEnvBytes = 1024
	maxEnvTotal = 16 << 10
)

// chanState is what the request filter of one session channel tells its
// session handler: the client's latest window size, and when the channel
// is gone.
type chanState struct {
	mu     sync.Mutex
	win    ssh.Window
	hasWin bool
	notify chan struct{} // a token after each new window size
	done   chan struct{} // closed when the channel's requests end
}

func (st *chanState) setWindow(w ssh.Window) {
	st.mu.Lock()
	st.win, st.hasWin = w, true
	st.mu.Unlock()
	select {
	case st.notify <- struct{}{}:
	default:
	}
}

// window is the latest window-change's size, if any came.
func (st *chanState) window() (ssh.Window, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.win, st.hasWin
}

// chanContext is the session's context: the connection's, plus the
// channel's chanState (found by stateOf).
type chanContext struct {
	ssh.Context
	st *chanState
}

type chanStateKey struct{}

func (c chanContext) Value(key any) any {
	if key == (chanStateKey{}) {
		return c.st
	}
	return c.Context.Value(key)
}

// stateOf is the chanState of a session, nil if it has none.
func stateOf(sess ssh.Session) *chanState {
	st, _ := sess.Context().Value(chanStateKey{}).(*chanState)
	return st
}

// filteredChannel is a session channel whose requests pass a filter
// before gliderlabs sees them: refused ones (refusedRequest, too many or
// too large env requests) are answered no, and window-change requests are
// answered and kept in the chanState, never forwarded. gliderlabs would
// push each into a channel of one slot that only a running handler reads,
// from its request loop: a window-change before the shell request, or
// after a refusal, or a second one before the handler read the first,
// would block that loop, and with it every request of the channel and its
// close, for good.
//
// The filter also closes a channel that asks for no shell (nor command,
// nor subsystem) within Config.ChannelSetupTimeout, and tells the
// connection's admission of a pty-req.
type filteredChannel struct {
	gossh.NewChannel
	s  *Server
	st *chanState
	tc *trackedConn // nil in tests that make channels by hand
}

func (c filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		close(c.st.done)
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	if !c.s.enter(&c.s.wg) {
		ch.Close()
		go func() {
			gossh.DiscardRequests(reqs)
			close(c.st.done)
		}()
		close(out)
		return ch, out, nil
	}
	setup := time.AfterFunc(c.s.cfg.ChannelSetupTimeout, func() {
		c.s.log.Info("ssh channel closed", "reason", "no shell request", "after", c.s.cfg.ChannelSetupTimeout)
		_ = ch.Close()
	})
	go func() {
		defer c.s.wg.Done()
		defer close(out)
		defer close(c.st.done)
		defer setup.Stop()
		env, envBytes := 0, 0
		for r := range reqs {
			switch r.Type {
			case "pty-req":
				if c.tc != nil {
					c.s.progress(c.tc, stagePty)
				}
			case "shell", "exec", "subsystem":
				setup.Stop()
			case "window-change":
				w, ok := parseWindow(r.Payload)
				if ok {
					c.st.setWindow(w)
				}
				_ = r.Reply(ok, nil)
				continue
			case "env":
				env++
				envBytes += len(r.Payload)
				if env > maxEnv || len(r.Payload) > maxEnvBytes || envBytes > maxEnvTotal {
					_ = r.Reply(false, nil)
					continue
				}
			}
			if refusedRequest(r.Type) {
				_ = r.Reply(false, nil)
				continue
			}
			out <- r
		}
	}()
	return ch, out, nil
}

// parseWindow parses a window-change request: columns, rows, width and
// height in pixels.
func parseWindow(payload []byte) (ssh.Window, bool) {
	var m struct{ W, H, PW, PH uint32 }
	if err := gossh.Unmarshal(payload, &m); err != nil {
		return ssh.Window{}, false
	}
	return ssh.Window{Width: int(min(m.W, 1<<16)), Height: int(min(m.H, 1<<16))}, true
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
func refuseForwarding(_ *ssh.Server, _ *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if tc := connOf(ctx); tc != nil {
		tc.handshook()
	}
	_ = nc.Reject(gossh.Prohibited, fmt.Sprintf("ttytanks: port forwarding is not allowed (%s)", nc.ChannelType()))
}

// trackedConn is an accepted TCP connection, with its slot in the
// server's admission gate until it is closed: closed if it opens no
// channel within Config.HandshakeTimeout, or is not admitted (a session
// with a PTY, its shell and a seat) within Config.SetupTimeout, or when
// the gate drops it to make room.
type trackedConn struct {
	net.Conn
	s         *Server
	slot      *slot // the gate's; guarded by s.mu
	ip        netip.Addr
	key       gossh.PublicKey // the authenticated key, if any; guarded by s.mu
	handshake *time.Timer
	setup     *time.Timer
	reads     atomic.Int32 // reads with bytes, counted up to handshakeReads
	channels  atomic.Int32 // open session channels
	once      sync.Once
}

type trackedConnKey struct{}

// connOf is the trackedConn of a connection's context, or nil.
func connOf(ctx ssh.Context) *trackedConn {
	tc, _ := ctx.Value(trackedConnKey{}).(*trackedConn)
	return tc
}

// admitConn is gliderlabs' ConnCallback: it asks the gate, closes the
// connections the gate drops to make room, and counts the new one, or
// refuses it (nil).
func (s *Server) admitConn(ctx ssh.Context, nc net.Conn) net.Conn {
	var ip netip.Addr
	if ap, err := netip.ParseAddrPort(nc.RemoteAddr().String()); err == nil {
		ip = ap.Addr().Unmap()
	}
	now := time.Now()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	sl, drop, refused := s.gate.admit(ip, now)
	type victim struct {
		c     *trackedConn
		stage connStage
		idle  time.Duration
	}
	victims := make([]victim, 0, len(drop))
	for _, v := range drop {
		victims = append(victims, victim{s.conns[v], v.droppedAt, v.droppedIdle})
		delete(s.conns, v)
	}
	var tc *trackedConn
	if refused == "" {
		tc = &trackedConn{Conn: nc, s: s, slot: sl, ip: ip}
		s.conns[sl] = tc
		// On a deadline the raw connection is closed; gliderlabs then
		// closes tc.
		tc.handshake = time.AfterFunc(s.cfg.HandshakeTimeout, func() { tc.expire("handshake deadline") })
		tc.setup = time.AfterFunc(s.cfg.SetupTimeout, func() { tc.expire("setup deadline") })
	}
	s.mu.Unlock()
	for _, v := range victims {
		if v.c != nil {
			s.log.Info("ssh connection dropped", "reason", "room for a new connection", "stage", v.stage.String(),
				"idle", v.idle, "remote", v.c.RemoteAddr().String())
			_ = v.c.Conn.Close()
		}
	}
	if refused != "" {
		s.log.Info("ssh connection refused", "reason", refused, "remote", nc.RemoteAddr().String())
		return nil
	}
	ctx.SetValue(trackedConnKey{}, tc)
	return tc
}

// expire closes a connection that is not admitted at a deadline, and
// counts it against its source.
func (c *trackedConn) expire(why string) {
	s := c.s
	s.mu.Lock()
	stage := c.slot.stage
	if stage >= stageAdmitted {
		s.mu.Unlock()
		return
	}
	s.gate.close(c.slot, time.Now(), true)
	delete(s.conns, c.slot)
	s.mu.Unlock()
	s.log.Info("ssh connection closed", "reason", why, "stage", stage.String(), "remote", c.RemoteAddr().String())
	_ = c.Conn.Close()
}

// progress moves c's admission forward to stage; admitted, it has no
// setup deadline any more.
func (s *Server) progress(c *trackedConn, stage connStage) {
	s.mu.Lock()
	moved := s.gate.advance(c.slot, stage, time.Now())
	s.mu.Unlock()
	if moved && stage == stageAdmitted {
		c.setup.Stop()
	}
}

// authed records c's authentication, with its key if one was asked.
func (s *Server) authed(c *trackedConn, key gossh.PublicKey) {
	s.mu.Lock()
	if key != nil {
		c.key = key
	}
	s.mu.Unlock()
	s.progress(c, stageAuthed)
}

// Read is the connection's Read; its first reads (the client's version
// line and key exchange, up to handshakeReads) are progress of its setup.
func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.reads.Load() < handshakeReads && c.reads.Add(1) <= handshakeReads {
		c.s.mu.Lock()
		c.s.gate.touch(c.slot, time.Now())
		c.s.mu.Unlock()
	}
	return n, err
}

// handshook stops the handshake deadline: the connection opened a channel.
func (c *trackedConn) handshook() { c.handshake.Stop() }

// Close closes the connection and frees its slot.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.handshake.Stop()
		c.setup.Stop()
		c.s.mu.Lock()
		c.s.gate.close(c.slot, time.Now(), false)
		if c.s.conns[c.slot] == c {
			delete(c.s.conns, c.slot)
		}
		c.s.mu.Unlock()
	})
	return err
}

// Ban refuses addr from now on, for the server's life, and closes the
// connections from it (players' included).
func (s *Server) Ban(addr netip.Addr) {
	addr = addr.Unmap()
	s.cfg.Bans.Ban(addr)
	s.dropWhere(func(c *trackedConn) bool { return c.ip == addr })
}

// BanKey refuses key from now on, for the server's life, and closes the
// connections authenticated with it. Keys are only asked for with
// Config.AuthorizedKeys: without, a key cannot be refused.
func (s *Server) BanKey(key gossh.PublicKey) {
	s.cfg.Bans.BanKey(key)
	wire := key.Marshal()
	s.dropWhere(func(c *trackedConn) bool { return c.key != nil && bytes.Equal(c.key.Marshal(), wire) })
}

// dropWhere closes the connections for which match holds (called under
// s.mu).
func (s *Server) dropWhere(match func(*trackedConn) bool) {
	s.mu.Lock()
	var drop []*trackedConn
	for _, c := range s.conns {
		if match(c) {
			drop = append(drop, c)
		}
	}
	s.mu.Unlock()
	for _, c := range drop {
		s.log.Info("ssh connection dropped", "reason", "banned", "remote", c.RemoteAddr().String())
		_ = c.Conn.Close()
	}
}
