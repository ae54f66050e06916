package sshplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	errGone     = errors.New("the session channel is closed")
)

// handle runs one SSH session: the checks, then the game. A panic in it
// is logged and drops the session's connection; the server goes on.
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
		panic("sshplay: a session without its channel state")
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

	ctx, cancel := context.WithCancelCause(sess.Context())
	defer cancel(nil)
	stop := context.AfterFunc(s.ctx, func() { cancel(errShutdown) })
	defer stop()

	// The first size is the pty-req's, later ones the window-change
	// requests the channel's filter kept (gliderlabs never sees those).
	w := pty.Window
	if nw, ok := st.window(); ok {
		w = nw
	}
	tty := NewChannelTty(sess, w.Width, w.Height)
	tty.WriteTimeout = WriteStall
	tty.OnWriteTimeout = func() { dropConn(sess) }
	tty.OnGone = func() { cancel(errGone) }
	defer tty.Close()
	s.spawn(tty.Pump)
	s.spawn(func() {
		for {
			select {
			case <-st.notify:
				if w, ok := st.window(); ok {
					tty.Resize(w.Width, w.Height)
				}
			case <-st.done: // the channel is closed: the player is gone
				cancel(errGone)
				return
			case <-ctx.Done():
				return
			}
		}
	})

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

	// The screen first: the player joins the game only once there is a
	// terminal to play in.
	var v netcode.View
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	cause := context.Cause(ctx) // nil while the session runs
	if err == nil && s.cfg.Lobby {
		err = s.playLobby(ctx, cancel, tty, screen, sess, name, opts)
		cause = context.Cause(ctx)
		cancel(nil)
	} else if err == nil {
		err = screen.Init()
	}
	if err == nil && !s.cfg.Lobby {
		mem := s.cfg.Net.Listen()
		s.enlist(mem.LocalAddr(), sess)
		defer s.delist(mem.LocalAddr())
		client := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: s.cfg.Game, Name: name}), mem)
		defer client.Close() // after a panic too
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			s.watchIdle(ctx, cancel, tty, func() bool {
				var st netcode.Status
				client.Do(func(c *netcode.Client) { st = c.Status() })
				return st == netcode.StatusPlaying || st == netcode.StatusReconnecting
			})
		}()
		err = tui.Run(ctx, initedScreen{screen}, client, opts)
		cause = context.Cause(ctx)
		client.View(&v) // before Close, which closes the view with "quit"
		client.Close()  // the game seat is free from here on
		cancel(nil)
		<-watched
	}
	release() // the SSH seat too, before the goodbye

	code, msg, reason := 0, "", "quit"
	switch {
	case errors.Is(cause, errIdle):
		code, reason = 1, "idle"
		msg = fmt.Sprintf("ttytanks: no key pressed for %v, session closed", s.cfg.Idle)
	case errors.Is(cause, errShutdown):
		code, reason = 1, "shutdown"
		msg = "ttytanks: " + errShutdown.Error()
	case cause != nil: // errGone, or the connection closed
		reason = "disconnected"
	case err != nil:
		code, reason = 1, "error"
		msg = "ttytanks: " + err.Error()
	case v.Status == netcode.StatusClosed && v.Message != "":
		code, reason = 1, "closed"
		msg = "ttytanks: " + v.Message
	}
	log.Info("ssh session ended", "reason", reason, "after", time.Since(began).Round(time.Millisecond),
		"input_dropped", tty.Dropped())
	if reason == "disconnected" {
		return
	}
	goodbye(sess, func() {
		if msg != "" {
			_, _ = io.WriteString(sess, msg+"\n")
		}
		_ = sess.Exit(code)
	})
}

// playLobby runs the lobby and the games the player picks on screen, until
// the player quits or the session ends. Every game client is enlisted
// under its address while it plays (so the operator can ban the player);
// idle time counts in the lobby and in a game alike.
func (s *Server) playLobby(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty, screen tcell.Screen,
	sess ssh.Session, name string, opts tui.Options) error {
	lobby, err := netcode.StartLobby(s.cfg.Game, s.cfg.Net.Listen(), nil)
	if err != nil {
		return err
	}
	defer lobby.Close()
	host := &sshHost{s: s, sess: sess, name: name, lobby: lobby}
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		// Idle time counts in the room list and in a match, not while a
		// room waits for players.
		s.watchIdle(watchCtx, cancel, tty, func() bool {
			seat := host.seat.Load()
			if seat == nil {
				return true
			}
			var st netcode.Status
			seat.Do(func(c *netcode.Client) { st = c.Status() })
			return st == netcode.StatusPlaying || st == netcode.StatusReconnecting
		})
	}()
	defer func() {
		stopWatch()
		<-watched
	}()
	return tui.Play(ctx, screen, host, opts, tui.LobbyOptions{Options: opts, Name: name})
}

// sshHost is the game server as an SSH player's lobby sees it, over the
// in-memory network.
type sshHost struct {
	s     *Server
	sess  ssh.Session
	name  string
	lobby *netcode.Lobby
	seat  atomic.Pointer[sshSeat] // the room the player is in (nil: the list)
}

func (h *sshHost) Rooms(dst *netcode.RoomList) { h.lobby.Rooms(dst) }

func (h *sshHost) Join(req netcode.RoomRequest) (tui.Seat, error) {
	mem := h.s.cfg.Net.Listen()
	addr := mem.LocalAddr()
	h.s.enlist(addr, h.sess)
	c := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: h.s.cfg.Game, Name: h.name, Spectate: req.Spectate, Room: req}), mem)
	seat := &sshSeat{ClientDriver: c}
	seat.leave = func() {
		h.s.delist(addr)
		h.seat.CompareAndSwap(seat, nil)
	}
	h.seat.Store(seat)
	return seat, nil
}

// sshSeat is an SSH player's game client; Leave frees the seat and the
// address's entry.
type sshSeat struct {
	*netcode.ClientDriver
	leave func()
}

func (s *sshSeat) Leave() {
	s.Close()
	s.leave()
}

// initedScreen is a screen already initialised: tui.Run's Init is a no-op.
type initedScreen struct{ tcell.Screen }

func (initedScreen) Init() error { return nil }

// goodbye runs write, the last words to a session, and drops the session's
// connection if that takes longer than goodbyeTimeout (a client that
// stopped reading).
func goodbye(sess ssh.Session, write func()) {
	t := time.AfterFunc(goodbyeTimeout, func() { dropConn(sess) })
	defer t.Stop()
	write()
}

// watchIdle cancels ctx with errIdle once the client has sent nothing for
// Config.Idle while active says the game is on (time waiting in the lobby
// or connecting does not count); it returns when ctx is done.
func (s *Server) watchIdle(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty, active func() bool) {
	poll := max(min(s.cfg.Idle/4, time.Second), time.Millisecond)
	t := time.NewTicker(poll)
	defer t.Stop()
	since := time.Now() // the start of the quiet time that counts
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if !active() {
			since = now
			continue
		}
		if last := tty.LastInput(); last.After(since) {
			since = last
		}
		if now.Sub(since) >= s.cfg.Idle {
			cancel(errIdle)
			return
		}
	}
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

// lookupTerm finds the terminfo entry for the client's TERM in tcell's
// built-in set (never by running infocmp on a name a client chose), or
// FallbackTerm's.
//
// The entry is a copy of its own: tcell's entries are shared, and a
// screen made from one writes to it (XTermLike).
func lookupTerm(term string) (string, *terminfo.Terminfo) {
	if term != "" {
		if ti, err := lookupTerminfo(term); err == nil {
			return term, ti
		}
	}
	ti, err := lookupTerminfo(FallbackTerm)
	if err != nil {
		panic("sshplay: no terminfo for " + FallbackTerm) // linked in by the extended import
	}
	return FallbackTerm, ti
}

// terminfoMu serialises the lookups and copies of tcell's shared entries.
var terminfoMu sync.Mutex

func lookupTerminfo(term string) (*terminfo.Terminfo, error) {
	terminfoMu.Lock()
	defer terminfoMu.Unlock()
	ti, err := terminfo.LookupTerminfo(term)
	if err != nil {
		return nil, err
	}
	c := *ti
	return &c, nil
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
