package sshterm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"time"
	"ttytanks/proto"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
)

// DefaultFPS is a session's frame rate when Config.UI.FPS is not set:
// half the tick rate. A tank crosses a cell in 8 ticks at top speed and
// a bullet in 4.3, so a frame every 2 ticks still shows every cell each
// passes through, and a session costs the server about half of what 60
// frames cost (its frames and their SSH writes are most of it).
const DefaultFPS = 30

// WriteStall is how long one write to a session may stay blocked before
// its connection is dropped (Session.Drop).
const WriteStall = 30 * time.Second

// Why a session's game ended, as the cause of its context.
var (
	errIdle = errors.New("idle")
	errGone = errors.New("the session channel is closed")
)

// closedBy is the cause of a session the SSH server ends (it closes, or
// the operator bans or kicks the player): the line to tell the player is
// the Closing context's cause.
type closedBy struct{ why error }

func (c closedBy) Error() string { return c.why.Error() }

// closingCause is the cause of a done Closing context, for the player.
func closingCause(ctx context.Context) error {
	why := context.Cause(ctx)
	if why == nil || errors.Is(why, context.Canceled) {
		why = errors.New("the server is shutting down")
	}
	return closedBy{why}
}

// Session is an SSH session as the game needs it: the channel, what the
// client said of its terminal, and the SSH server's part in the
// session's life. The SSH front end's sessions are ones
// (internal/sshfront.Session documents each method); the command that
// serves hands them to Game.Play.
type Session interface {
	io.ReadWriter // the player's keys in, the screen out
	Name() string // the player name
	Term() string // the client's TERM
	Environ() []string
	Window() (width, height int) // the newest size, in cells
	Resized() <-chan struct{}    // a token after each window-change
	Closed() <-chan struct{}     // closed once the channel is gone
	Closing() context.Context    // done once the server is closing or ends this session; its cause says why
	Idle() time.Duration         // how long without a sign of intent ends a session (≤ 0: never)
	Logger() *slog.Logger
	Drop()                      // close the whole connection
	Go(f func())                // run f in a goroutine the server waits for
	Enlist(game netip.AddrPort) // this player plays at game
	Delist(game netip.AddrPort) // ... no longer
	// Fingerprint is the SHA-256 of the player's SSH public key (false:
	// the player offered none), who they are to the ladder.
	Fingerprint() ([32]byte, bool)
}

// Config configures a Game.
type Config struct {
	// Net is the in-memory network the sessions' clients attach to, and
	// Game the game server's address on it (MuxTransport's Network and
	// MemAddr).
	Net  *transport.MemNetwork
	Game netip.AddrPort
	// Lobby lands each session in the room list (the player picks, plays,
	// and comes back to it); without it a session quick-matches straight
	// into a game and ends with it.
	Lobby bool
	// UI is the base screen options of every session. Per session, ASCII
	// is added when the client's locale is not UTF-8 and NoColor when it
	// sends NO_COLOR. UI.FPS zero means DefaultFPS.
	UI tui.Options
	// Outside, for a front end of a fleet, opens the network socket a
	// session's client plays on the fleet's other servers with (a
	// Redirect sends it there); nil: the front end's own server only.
	Outside func() (transport.Transport, error)
	// Vouch, if set, vouches for a player known by their SSH key's
	// fingerprint on a handshake of transcript (proto.VouchIdentity with
	// the front end's server key), so the game server's ladder knows
	// them; nil, or a player with no key, plays as a guest.
	Vouch func(id, transcript [32]byte) proto.Identity
}

// identify returns the Identify of s's clients: vouched for by their SSH
// key, or nil (a guest).
func (g *Game) identify(s Session) func([32]byte) proto.Identity {
	fp, ok := s.Fingerprint()
	if g.cfg.Vouch == nil || !ok {
		return nil
	}
	vouch := g.cfg.Vouch
	return func(t [32]byte) proto.Identity { return vouch(fp, t) }
}

// clientTransport returns the transport of one session's client: an
// address of its own on Net, joined to an Outside socket when the game is
// a fleet's front end; mem is the address on Net (Session.Enlist).
func (g *Game) clientTransport() (t transport.Transport, mem netip.AddrPort, err error) {
	m := g.cfg.Net.ListenQueue(clientQueue)
	if g.cfg.Outside == nil {
		return m, m.LocalAddr(), nil
	}
	out, err := g.cfg.Outside()
	if err != nil {
		_ = m.Close()
		return nil, netip.AddrPort{}, err
	}
	return transport.JoinMem(out, m), m.LocalAddr(), nil
}

// Game plays ttytanks on SSH sessions: each gets its own predicting
// netcode.Client, connected through Config.Net to the game server, and
// the tcell UI of "ttytanks join", drawn into the session by a
// ChannelTty. It is safe for concurrent use: each Play is one session.
type Game struct {
	cfg Config
	// tweak, if set, changes the configuration of every client a session
	// starts, after clientConfig's own settings: tests watch the clients
	// through it.
	tweak func(*netcode.ClientConfig)
	// onClient, if set, is told every game client a session starts.
	onClient func(*netcode.ClientDriver)
	heap     *heapRelease
}

// clientConfig completes the configuration of a session's client: the
// game server's address and the history an in-process client needs
// (clientHistory).
func (g *Game) clientConfig(c netcode.ClientConfig) netcode.ClientConfig {
	c.Server = g.cfg.Game
	c.History = clientHistory
	if g.tweak != nil {
		g.tweak(&c)
	}
	return c
}

// NewGame checks cfg and returns a Game.
func NewGame(cfg Config) (*Game, error) {
	if cfg.Net == nil || !cfg.Game.IsValid() {
		return nil, errors.New("sshterm: Config.Net and Config.Game are required")
	}
	if cfg.UI.FPS <= 0 {
		cfg.UI.FPS = DefaultFPS
	}
	return &Game{cfg: cfg, heap: newHeapRelease()}, nil
}

// Play plays the game on s until the player quits, the game ends, the
// player goes idle (s.Idle without a key press while a match is on), the
// channel goes or ctx is done, or the server closes. It returns the
// session's exit status and what to tell the player, or gone when the
// player has gone (Handler in internal/sshfront). It logs a line as the
// game starts and one as it ends.
func (g *Game) Play(ctx context.Context, s Session) (code int, msg string, gone bool) {
	g.heap.begin()
	defer g.heap.end() // last: the session's memory is garbage by then
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(s.Closing(), func() { cancel(closingCause(s.Closing())) })
	defer stop()

	w, h := s.Window()
	tty := NewChannelTty(s, w, h)
	tty.WriteTimeout = WriteStall
	tty.OnWriteTimeout = s.Drop
	tty.OnGone = func() { cancel(errGone) }
	defer tty.Close()
	s.Go(tty.Pump)
	s.Go(func() {
		for {
			select {
			case <-s.Resized():
				tty.Resize(s.Window())
			case <-s.Closed(): // the channel is closed: the player is gone
				cancel(errGone)
				return
			case <-ctx.Done():
				return
			}
		}
	})

	name := s.Name()
	env := s.Environ()
	opts := g.cfg.UI
	opts.ASCII = opts.ASCII || !localeUTF8(env) || !localeUTF8(nil)
	opts.NoColor = opts.NoColor || envValue(env, "NO_COLOR") != ""
	term, ti := lookupTerm(s.Term())
	began := time.Now()
	log := s.Logger()
	size, _ := tty.WindowSize()
	log.Info("ssh session", "term", term, "size", fmt.Sprintf("%dx%d", size.Width, size.Height), "ascii", opts.ASCII)

	// The screen first: the player joins the game only once there is a
	// terminal to play in.
	var v netcode.View
	var screen tcell.Screen
	ss, err := newStreamScreen(tty, ti)
	if err == nil {
		screen = ss
	}
	cause := context.Cause(ctx) // nil while the session runs
	if err == nil && g.cfg.Lobby {
		err = g.playLobby(ctx, cancel, tty, screen, s, name, opts)
		cause = context.Cause(ctx)
		cancel(nil)
	} else if err == nil {
		err = screen.Init()
	}
	var ct transport.Transport
	var mem netip.AddrPort
	if err == nil && !g.cfg.Lobby {
		ct, mem, err = g.clientTransport()
	}
	if err == nil && !g.cfg.Lobby {
		s.Enlist(mem)
		defer s.Delist(mem)
		in := newIntent(time.Now())
		client := netcode.StartClient(netcode.NewClient(g.clientConfig(netcode.ClientConfig{Name: name, Identify: g.identify(s)})), ct)
		defer client.Close() // after a panic too
		if g.onClient != nil {
			g.onClient(client)
		}
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			watchIdle(ctx, cancel, s.Idle(), in.last)
		}()
		seat := &sshSeat{ClientDriver: client, intent: in}
		err = tui.Run(ctx, initedScreen{screen}, seat, opts)
		cause = context.Cause(ctx)
		client.View(&v) // before Close, which closes the view with "quit"
		client.Close()  // the game seat is free from here on
		cancel(nil)
		<-watched
	}

	code, reason := 0, "quit"
	switch {
	case errors.Is(cause, errIdle):
		code, reason = 1, "idle"
		msg = fmt.Sprintf("ttytanks: no move, shot or choice for %v, session closed", s.Idle())
	case errors.As(cause, new(closedBy)):
		code, reason = 1, "ended by the server"
		msg = "ttytanks: " + cause.Error()
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
	return code, msg, reason == "disconnected"
}

// initedScreen is a screen already initialised: tui.Run's Init is a no-op.
type initedScreen struct{ tcell.Screen }

func (initedScreen) Init() error { return nil }
