package sshfront

import (
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
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// ErrShutdown is the cause of a session's Closing context when the
// server closes.
var ErrShutdown = errors.New("the server is shutting down")

// Defaults for Config.
const (
	DefaultIdle        = 2 * time.Minute
	DefaultMaxSessions = 32
	// DefaultHandshakeTimeout is how long a new connection has to finish
	// the SSH handshake, authenticate and open its first channel.
	DefaultHandshakeTimeout = 20 * time.Second
	// DefaultMaxConnsPerIP bounds the concurrent connections from one
	// client address prefix (an IPv4 address, an IPv6 /64), handshakes
	// and connections without a session included: a household behind
	// one NAT, each with a spare connection.
	DefaultMaxConnsPerIP = 8
	// DefaultSessionsPerPrefix bounds the game sessions of one prefix: a
	// household behind one NAT (netcode.DefaultSeatsPerAddr, the game
	// server's seats per address).
	DefaultSessionsPerPrefix = 4
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
	// Play plays the game on each admitted session (required).
	Play Handler
	// HostKey is the server's host key (see known.LoadOrCreateKey).
	HostKey gossh.Signer
	// AuthorizedKeys, if non-nil, admits only these public keys. When nil
	// anyone may play, without a prompt: any public key the client
	// offers is accepted (so that a key can be banned), and a client
	// with none gets in by keyboard-interactive with no question.
	AuthorizedKeys *AuthorizedKeys
	// Idle ends a session whose player showed no intent for this long (a
	// move, a shot, a lobby or results action; waiting in a room counts),
	// the game server's rule for its seats (default DefaultIdle; negative:
	// never): Play watches for it (Session.Idle), and a connection with no
	// traffic at all for Idle (at least DefaultIdle) + ConnIdleSlack is
	// closed.
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
	// MaxSessionsPerPrefix bounds the game sessions of one address prefix
	// (an IPv4 address, an IPv6 /64); the next one is told so (default
	// DefaultSessionsPerPrefix, and at most MaxSessions/4, so that no
	// fewer than 4 prefixes can fill the server). MaxConnsPerIP defaults
	// to at most MaxConns/4 (at least 2) for the same reason.
	MaxSessionsPerPrefix int
	// Kex rations the key exchanges of new connections, per prefix and
	// overall (zero fields: DefaultKexLimits).
	Kex KexLimits
	// Unused closes an admitted connection that has had no session open
	// for this long (default SetupTimeout): a connection left over after
	// its game, kept up by keep-alives, would count against its prefix
	// for ever.
	Unused time.Duration
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
	// Bans refuses address prefixes and public keys; the server adds to
	// it with Ban and BanKey (nil: the server makes its own). A key is
	// known when the client offers one: OpenSSH offers its keys before
	// keyboard-interactive.
	Bans *BanList
	// Logger receives, every TallyEvery, one line counting the
	// connections refused, dropped and closed and the sessions refused
	// in the interval (by what happened, with the prefix seen most); and
	// a line per ban or kick. Play gets it too, for a line per session
	// start and end (Session.Logger) (nil: discarded).
	Logger *slog.Logger
}

// Server serves the game over SSH: each session with a PTY that asks for
// a shell, once it has a seat, is handed to Config.Play, which plays the
// game in it. Shell commands, subsystems, port forwarding and agent
// forwarding are refused. Its methods are safe for concurrent use.
type Server struct {
	cfg    Config
	ssh    *ssh.Server
	log    *slog.Logger
	ctx    context.Context // cancelled by Close: sessions end
	cancel context.CancelCauseFunc
	seats  chan struct{} // one token per running session

	mu       sync.Mutex
	closed   bool
	ln       net.Listener
	sessions sync.WaitGroup // session handlers
	wg       sync.WaitGroup // every other goroutine of ours
	gate     *gate
	conns    map[*slot]*trackedConn
	// players maps each SSH player's address on the game's in-memory
	// network to who they are, so the operator can ban them by the seat
	// the game shows.
	players map[netip.AddrPort]sshPlayer
	// perPrefix counts the game sessions by prefix (MaxSessionsPerPrefix).
	perPrefix map[netip.Addr]int
	// holds and keyHolds keep kicked players out until then, by prefix
	// and by key (Kick).
	holds    map[netip.Addr]time.Time
	keyHolds map[string]time.Time
	// live are the running game sessions, for Ban and Kick to end.
	live map[*Session]struct{}
	// tally counts the refusals of the current interval (TallyEvery).
	tallies tally
}

// sshPlayer is who plays behind a game address: the SSH client's IP, its
// key if it offered one, and its session.
type sshPlayer struct {
	ip   netip.Addr
	key  gossh.PublicKey
	sess *Session
}

// NewServer checks cfg and returns a server; Serve starts it.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Play == nil {
		return nil, errors.New("sshfront: Config.Play is required")
	}
	if cfg.HostKey == nil {
		return nil, errors.New("sshfront: Config.HostKey is required")
	}
	if cfg.Idle == 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxSessions > 100000 || cfg.MaxConns > 400000 {
		return nil, fmt.Errorf("sshfront: MaxSessions %d or MaxConns %d beyond 100000 and 400000", cfg.MaxSessions, cfg.MaxConns)
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 4 * cfg.MaxSessions
	}
	if cfg.MaxConnsPerIP <= 0 {
		cfg.MaxConnsPerIP = min(DefaultMaxConnsPerIP, max(cfg.MaxConns/4, 2))
	}
	if cfg.MaxSessionsPerPrefix <= 0 {
		cfg.MaxSessionsPerPrefix = min(DefaultSessionsPerPrefix, max(cfg.MaxSessions/4, 1))
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
	if cfg.Unused <= 0 {
		cfg.Unused = cfg.SetupTimeout
	}
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
		conns: map[*slot]*trackedConn{}, players: map[netip.AddrPort]sshPlayer{},
		gate: newGate(gateLimits{maxConns: cfg.MaxConns, maxConnsPerIP: cfg.MaxConnsPerIP, startups: cfg.Startups,
			penalty: cfg.Penalty, penaltyMax: cfg.PenaltyMax, kex: cfg.Kex}, rand.New(cfg.Rand), cfg.Bans),
		perPrefix: map[netip.Addr]int{}, live: map[*Session]struct{}{}, holds: map[netip.Addr]time.Time{}, keyHolds: map[string]time.Time{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
	s.ssh = &ssh.Server{
		Handler:      s.handle,
		HostSigners:  []ssh.Signer{cfg.HostKey},
		Version:      "ttytanks",
		IdleTimeout:  max(cfg.Idle, DefaultIdle) + ConnIdleSlack,
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
	s.ssh.ServerConfigCallback = s.authConfig
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
	s.cancel(ErrShutdown)
	s.flushTally()
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
		return errors.New("sshfront: sessions did not end in time")
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
