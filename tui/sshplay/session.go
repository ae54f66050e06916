package sshplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	// The extended terminfo set: every terminal tcell knows, looked up by
	// the client's TERM without running infocmp.
	_ "github.com/gdamore/tcell/v2/terminfo/extended"
	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/netcode"
	"ttytanks/proto"
	"ttytanks/tui"
)

// DefaultName is the player name of an SSH user whose name has nothing
// printable.
const DefaultName = "ssh-player"

// FallbackTerm is the terminal type used when the client's TERM is empty
// or unknown.
const FallbackTerm = "xterm-256color"

// Why a session ended, as the cause of its context.
var (
	errIdle     = errors.New("idle")
	errShutdown = errors.New("the server is shutting down")
)

// handle runs one SSH session: the checks, then the game.
func (s *Server) handle(sess ssh.Session) {
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
	pty, winch, ok := sess.Pty()
	if !ok {
		s.refuse(sess, "no pty", "ttytanks needs a terminal: "+hint)
		return
	}
	select {
	case s.seats <- struct{}{}:
		defer func() { <-s.seats }()
	default:
		s.refuse(sess, "busy", fmt.Sprintf("ttytanks: server busy (%d players over ssh); try again later", cap(s.seats)))
		return
	}
	// The first window is queued with the pty-req; later ones are
	// window-change requests, read until the channel closes (gliderlabs
	// blocks the channel's requests until they are taken).
	w := <-winch
	tty := NewChannelTty(sess, w.Width, w.Height)
	s.spawn(tty.Pump)
	s.spawn(func() {
		for w := range winch {
			tty.Resize(w.Width, w.Height)
		}
	})
	tty.WriteTimeout = WriteStall
	tty.OnWriteTimeout = func() { dropConn(sess) }
	defer tty.Close()

	name := proto.SanitizeName(sess.User())
	if name == "" {
		name = DefaultName
	}
	env := sess.Environ()
	opts := s.cfg.UI
	opts.ASCII = opts.ASCII || !localeUTF8(env) || !localeUTF8(nil)
	opts.NoColor = opts.NoColor || envValue(env, "NO_COLOR") != ""
	term, ti := lookupTerm(pty.Term)
	began := time.Now()
	log := s.log.With("user", name, "remote", sess.RemoteAddr().String())
	size, _ := tty.WindowSize()
	log.Info("ssh session", "term", term, "size", fmt.Sprintf("%dx%d", size.Width, size.Height), "ascii", opts.ASCII)

	ctx, cancel := context.WithCancelCause(sess.Context())
	defer cancel(nil)
	stop := context.AfterFunc(s.ctx, func() { cancel(errShutdown) })
	defer stop()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.watchIdle(ctx, cancel, tty)
	}()
	defer func() { <-watched }() // after cancel(nil): the watcher returns
	defer cancel(nil)

	mem := s.cfg.Net.Listen()
	client := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: s.cfg.Game, Name: name}), mem)
	defer client.Close()
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err == nil {
		err = tui.Run(ctx, screen, client, opts)
	}
	var v netcode.View
	client.View(&v) // before Close, which closes the view with "quit"
	client.Close()  // the seat is free from here on

	code, msg, reason := 0, "", "quit"
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errIdle):
		code, reason = 1, "idle"
		msg = fmt.Sprintf("ttytanks: no key pressed for %v, session closed", s.cfg.Idle)
	case errors.Is(cause, errShutdown):
		code, reason = 1, "shutdown"
		msg = "ttytanks: " + errShutdown.Error()
	case ctx.Err() != nil:
		reason = "disconnected"
	case err != nil:
		code, reason = 1, "error"
		msg = "ttytanks: " + err.Error()
	case v.Status == netcode.StatusClosed && v.Message != "":
		code, reason = 1, "closed"
		msg = "ttytanks: " + v.Message
	}
	log.Info("ssh session ended", "reason", reason, "after", time.Since(began).Round(time.Millisecond))
	if reason == "disconnected" {
		return
	}
	if msg != "" {
		_, _ = io.WriteString(sess, msg+"\n")
	}
	_ = sess.Exit(code)
}

// watchIdle cancels ctx with errIdle once the client has sent nothing for
// Config.Idle; it returns when ctx is done.
func (s *Server) watchIdle(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty) {
	t := time.NewTimer(s.cfg.Idle)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		quiet := time.Since(tty.LastInput())
		if quiet >= s.cfg.Idle {
			cancel(errIdle)
			return
		}
		t.Reset(s.cfg.Idle - quiet)
	}
}

// refuse tells the client why on stderr, ends the session with exit
// status 1 and logs the reason.
func (s *Server) refuse(sess ssh.Session, reason, msg string) {
	s.log.Info("ssh session refused", "reason", reason, "user", proto.SanitizeName(sess.User()), "remote", sess.RemoteAddr().String())
	if _, _, pty := sess.Pty(); pty {
		msg += "\r"
	}
	_, _ = io.WriteString(sess.Stderr(), msg+"\n")
	_ = sess.Exit(1)
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

// lookupTerm finds the terminfo entry for the client's TERM in tcell's
// built-in set (never by running infocmp on a name a client chose), or
// FallbackTerm's.
func lookupTerm(term string) (string, *terminfo.Terminfo) {
	if term != "" {
		if ti, err := terminfo.LookupTerminfo(term); err == nil {
			return term, ti
		}
	}
	ti, err := terminfo.LookupTerminfo(FallbackTerm)
	if err != nil {
		panic("sshplay: no terminfo for " + FallbackTerm) // linked in by the extended import
	}
	return FallbackTerm, ti
}

// envValue is key's value in env ("KEY=value" strings), or "".
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// localeUTF8 reports whether the locale in env (the server process's own
// when env is nil) says UTF-8, by the rule tcell applies to the process's
// environment when it picks the output encoding: LC_ALL, else LC_CTYPE,
// else LANG; "C" and "POSIX" are ASCII, a charset after the '.' counts,
// and no charset (or no locale at all) means UTF-8.
func localeUTF8(env []string) bool {
	get := envValue
	if env == nil {
		get = func(_ []string, key string) string { return os.Getenv(key) }
	}
	loc := get(env, "LC_ALL")
	if loc == "" {
		loc = get(env, "LC_CTYPE")
	}
	if loc == "" {
		loc = get(env, "LANG")
	}
	if loc == "C" || loc == "POSIX" {
		return false
	}
	loc, _, _ = strings.Cut(loc, "@")
	_, cs, ok := strings.Cut(loc, ".")
	if !ok {
		return true
	}
	cs = strings.ToLower(strings.ReplaceAll(cs, "-", ""))
	return cs == "utf8"
}
