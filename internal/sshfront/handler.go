package sshfront

import (
	"context"
	"crypto/sha256"
	gossh "golang.org/x/crypto/ssh"
	"log/slog"
	"net/netip"
	"time"

	"github.com/gliderlabs/ssh"
)

// Handler plays the game on one session the front end admitted: one with
// a PTY that asked for a shell and got a seat among Config.MaxSessions.
// It runs in the session's goroutine, and ctx is the session's: done when
// its connection closes. It returns when the game ends, with the
// session's exit status and the last line to tell the player (none if
// msg is empty), or gone when the player is no longer there to tell:
// then nothing more is sent. A panic in it is recovered at the session:
// logged, and that session's connection dropped.
type Handler func(ctx context.Context, s *Session) (code int, msg string, gone bool)

// Session is an admitted SSH session as Config.Play sees it: the channel
// to read the player's keys from and draw into, what the client said of
// its terminal, and the front end's part in the session's life. Its
// methods are safe for concurrent use.
type Session struct {
	s      *Server
	sess   ssh.Session
	tc     *trackedConn // nil in tests that make sessions by hand
	ip     netip.Addr   // the client's address
	ctx    context.Context
	cancel context.CancelCauseFunc
	st     *chanState
	pty    ssh.Window // the pty-req's size
	term   string
	name   string
	log    *slog.Logger
	// key is the SSH public key the player authenticated with (nil:
	// none, keyboard-interactive).
	key gossh.PublicKey
}

// Read reads what the player types from the session channel.
func (p *Session) Read(b []byte) (int, error) { return p.sess.Read(b) }

// Write writes to the player's terminal through the session channel.
func (p *Session) Write(b []byte) (int, error) { return p.sess.Write(b) }

// Name is the player name: the SSH user name through proto.SanitizeName,
// or DefaultName when nothing printable is left of it.
func (p *Session) Name() string { return p.name }

// Fingerprint is the SHA-256 of the SSH public key the player
// authenticated with, in SSH wire form (the bytes of ssh-keygen -l's
// SHA256:…), and false for a player who offered no key: who the player
// is to the server's ladder (PROTOCOL.md §4.15).
func (p *Session) Fingerprint() ([32]byte, bool) {
	if p.key == nil {
		return [32]byte{}, false
	}
	return sha256.Sum256(p.key.Marshal()), true
}

// Term is the client's TERM, from its pty-req ("" if it sent none).
func (p *Session) Term() string { return p.term }

// Environ is the environment the client sent, as "KEY=value" strings.
func (p *Session) Environ() []string { return p.sess.Environ() }

// Window is the client's newest window size, in cells: its pty-req's
// until a window-change comes (those the channel's filter kept;
// gliderlabs never sees them), then the latest one's.
func (p *Session) Window() (width, height int) {
	if w, ok := p.st.window(); ok {
		return w.Width, w.Height
	}
	return p.pty.Width, p.pty.Height
}

// Resized receives a token after each window-change; several in a row
// may leave one token, and Window then has the newest size.
func (p *Session) Resized() <-chan struct{} { return p.st.notify }

// Closed is closed when the session channel's requests end: the channel
// is closed and the player gone.
func (p *Session) Closed() <-chan struct{} { return p.st.done }

// Closing is done once the server is closing (Server.Close) or the
// operator ends this session (a ban, a kick): the game should end, and
// tell the player the line context.Cause gives (ErrShutdown, or an
// *Evicted). Close leaves the sessions a short grace time for that
// before it drops every connection; a ban or kick, evictGrace.
func (p *Session) Closing() context.Context { return p.ctx }

// evict ends the session with why, as the line to tell its player.
func (p *Session) evict(why error) { p.cancel(why) }

// Idle is Config.Idle: how long a player may go without a sign of
// intent (a move, a shot, a lobby or results action; waiting in a room
// counts) before the session ends; zero or less: never.
func (p *Session) Idle() time.Duration { return p.s.cfg.Idle }

// Logger is Config.Logger with the session's user and remote address.
func (p *Session) Logger() *slog.Logger { return p.log }

// Drop closes the session's whole SSH connection, which fails any write
// blocked on it.
func (p *Session) Drop() { dropConn(p.sess) }

// Go runs f in a goroutine that Server.Close waits for; once the server
// is closed it does not run f.
func (p *Session) Go(f func()) { p.s.spawn(f) }

// Enlist records that this session's player plays at game, its client's
// address on the game's in-memory network, so that the operator can ban
// the player by the seat the game shows (Server.BanPlayer) and the game
// server can count the player by the SSH client's address
// (Server.Origin). Delist forgets game.
func (p *Session) Enlist(game netip.AddrPort) { p.s.enlist(game, p) }

// Delist forgets what Enlist recorded for game.
func (p *Session) Delist(game netip.AddrPort) { p.s.delist(game) }
