package sshfront

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/proto"
)

// DefaultName is the player name of an SSH user whose name has nothing
// printable.
const DefaultName = "ssh-player"

// handle runs one SSH session: the checks, then the game (Config.Play),
// then the goodbye. A panic in it is logged and drops the session's
// connection; the server goes on.
func (s *Server) handle(sess ssh.Session) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("ssh session panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()),
				"remote", sess.RemoteAddr().String())
			dropConn(sess)
		}
	}()
	if !s.enter(&s.sessions) {
		s.refuse(sess, "shutdown", "ttytanks: the server is shutting down")
		return
	}
	defer s.sessions.Done()
	hint := connectHint(sess.LocalAddr())
	if cmd := sess.RawCommand(); cmd != "" {
		s.refuse(sess, "command", fmt.Sprintf("ttytanks: this server runs the game, not commands (got %q); connect without one: %s", clip(cmd, 40), hint))
		return
	}
	pty, _, ok := sess.Pty()
	if !ok {
		s.refuse(sess, "no pty", "ttytanks needs a terminal: "+hint)
		return
	}
	st := stateOf(sess)
	if st == nil {
		panic("sshfront: a session without its channel state")
	}
	tc := connOf(sess.Context())
	var ip netip.Addr
	if ap, err := netip.ParseAddrPort(sess.RemoteAddr().String()); err == nil {
		ip = ap.Addr().Unmap()
	}
	s.mu.Lock()
	key := tc.keyLocked()
	s.mu.Unlock()
	if s.cfg.Bans.banned(ip) || key != nil && s.cfg.Bans.keyBanned(key) {
		s.refuse(sess, "banned", "ttytanks: "+errBanned.Error())
		dropConn(sess)
		return
	}
	if left := s.heldOut(ip, key, time.Now()); left > 0 {
		s.refuse(sess, "kicked", "ttytanks: "+kickedFor(left).Error())
		dropConn(sess)
		return
	}
	p := &Session{s: s, sess: sess, st: st, tc: tc, ip: ip, pty: pty.Window, term: pty.Term, key: key}
	p.ctx, p.cancel = context.WithCancelCause(s.ctx)
	defer p.cancel(nil)
	release, why := s.seat(p)
	if why != "" {
		s.refuse(sess, "busy", why)
		return
	}
	defer release()
	if tc != nil {
		s.progress(tc, stageAdmitted) // a player: no setup deadline, never dropped for room
	}

	name := proto.SanitizeName(sess.User())
	if name == "" {
		name = DefaultName
	}
	p.name = name
	p.log = s.log.With("user", name, "remote", sess.RemoteAddr().String())
	code, msg, gone := s.cfg.Play(sess.Context(), p)
	release() // the SSH seat too, before the goodbye
	if gone {
		return
	}
	if isEvicted(context.Cause(p.ctx)) {
		defer dropConn(sess) // after the goodbye: a banned or kicked player's connection goes
	}
	goodbye(sess, func() {
		if msg != "" {
			_, _ = io.WriteString(sess, msg+"\n")
		}
		_ = sess.Exit(code)
	})
}

// seat takes one of the MaxSessions seats and one of the prefix's
// MaxSessionsPerPrefix for p, and registers p as live (for Ban and
// KickPlayer); release gives them back, once however often it is
// called. Refused, it says why, for the player.
func (s *Server) seat(p *Session) (release func(), why string) {
	key := prefixOf(p.ip)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seats) >= cap(s.seats) {
		return nil, fmt.Sprintf("ttytanks: server busy (%d players over ssh); try again later", cap(s.seats))
	}
	if s.perPrefix[key] >= s.cfg.MaxSessionsPerPrefix {
		return nil, fmt.Sprintf("ttytanks: %d players over ssh from your address already (the most one address may have); try again later", s.cfg.MaxSessionsPerPrefix)
	}
	s.seats <- struct{}{} // room checked above, under s.mu, which every send holds
	s.perPrefix[key]++
	s.live[p] = struct{}{}
	return sync.OnceFunc(func() {
		<-s.seats
		s.mu.Lock()
		if s.perPrefix[key]--; s.perPrefix[key] <= 0 {
			delete(s.perPrefix, key)
		}
		delete(s.live, p)
		s.mu.Unlock()
	}), ""
}

// goodbye runs write, the last words to a session, and drops the session's
// connection if that takes longer than goodbyeTimeout (a client that
// stopped reading).
func goodbye(sess ssh.Session, write func()) {
	t := time.AfterFunc(goodbyeTimeout, func() { dropConn(sess) })
	defer t.Stop()
	write()
}

// refuse tells the client why on stderr, ends the session with exit
// status 1 and logs the reason.
func (s *Server) refuse(sess ssh.Session, reason, msg string) {
	var ip netip.Addr
	if ap, err := netip.ParseAddrPort(sess.RemoteAddr().String()); err == nil {
		ip = ap.Addr()
	}
	s.tally("session refused: "+reason, ip)
	if _, _, pty := sess.Pty(); pty {
		msg += "\r"
	}
	goodbye(sess, func() {
		_, _ = io.WriteString(sess.Stderr(), msg+"\n")
		_ = sess.Exit(1)
	})
}

// dropConn closes the session's whole SSH connection, which fails any
// write blocked on it.
func dropConn(sess ssh.Session) {
	if c, ok := sess.Context().Value(ssh.ContextKeyConn).(*gossh.ServerConn); ok {
		_ = c.Close()
	}
}

// connectHint is the command that connects properly, for messages.
func connectHint(local net.Addr) string {
	port := ""
	if a, ok := local.(*net.TCPAddr); ok && a.Port != 22 {
		port = " -p " + strconv.Itoa(a.Port)
	}
	return "ssh -t" + port + " HOST"
}

// clip bounds s to n bytes for a message, and quotes nothing itself.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
