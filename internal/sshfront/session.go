package sshfront

import (
	"fmt"
	"io"
	"net"
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
	var release func()
	select {
	case s.seats <- struct{}{}:
		release = sync.OnceFunc(func() { <-s.seats })
		defer release()
		if tc := connOf(sess.Context()); tc != nil {
			s.progress(tc, stageAdmitted) // a player: no setup deadline, never dropped for room
		}
	default:
		s.refuse(sess, "busy", fmt.Sprintf("ttytanks: server busy (%d players over ssh); try again later", cap(s.seats)))
		return
	}

	name := proto.SanitizeName(sess.User())
	if name == "" {
		name = DefaultName
	}
	p := &Session{s: s, sess: sess, st: st, pty: pty.Window, term: pty.Term, name: name,
		log: s.log.With("user", name, "remote", sess.RemoteAddr().String())}
	code, msg, gone := s.cfg.Play(sess.Context(), p)
	release() // the SSH seat too, before the goodbye
	if gone {
		return
	}
	goodbye(sess, func() {
		if msg != "" {
			_, _ = io.WriteString(sess, msg+"\n")
		}
		_ = sess.Exit(code)
	})
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
	s.log.Info("ssh session refused", "reason", reason, "user", proto.SanitizeName(sess.User()), "remote", sess.RemoteAddr().String())
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
