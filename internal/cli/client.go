package cli

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/netip"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
	"ttytanks/tui"
)

// clientSetup is what every client session a command starts is made
// of: the server, the player, who plays, and the network between.
type clientSetup struct {
	target netip.AddrPort
	name   string
	// botLevel is the level of the bot that plays for the player; nil:
	// the player plays.
	botLevel *bot.Level
	// sim is the network simulator around the client's socket.
	sim simFlags
	// trust checks the server's key for join (known_servers or
	// --server-key); nil trusts any key (play, serve --play: our own
	// server).
	trust func(ed25519.PublicKey) error
	// desyncDir is join's --desync-dir: where the client writes desync
	// evidence ("" for nowhere).
	desyncDir string
	// pause, for play, is the clock the client shares with its embedded
	// server, so that the game pauses (nil: the wall clock; nothing
	// pauses).
	pause *netcode.PauseClock
	// identify proves who the player is to the server's ladder (nil: a
	// guest).
	identify func([32]byte) proto.Identity
	// defaultName says name is only the login name, not one the player
	// gave: a key that holds a name on the server's ladder keeps it.
	defaultName bool
	// cmd is the command the player ran ("play", "join", "serve --play"),
	// for messages; "" is join.
	cmd string
}

// command is the command the player ran, for messages.
func (cs *clientSetup) command() string {
	if cs.cmd == "" {
		return "join"
	}
	return cs.cmd
}

// botInput is the bot policy at level l as a client's LocalInput.
func botInput(seed uint64, l bot.Level) func(w *game.World, slot int) game.Input {
	b := bot.NewLevel(seed, l)
	return func(w *game.World, slot int) game.Input { return b.Input(w.State(), w.Maze(), slot) }
}

// startClient opens a UDP socket and starts a client session on it, in
// room; with a botLevel, that bot plays for the player.
func startClient(cs *clientSetup, room netcode.RoomRequest) (*netcode.ClientDriver, error) {
	ct, err := transport.ListenUDP(":0")
	if err != nil {
		return nil, err
	}
	cfg := netcode.ClientConfig{Server: cs.target, Name: cs.name, DefaultName: cs.defaultName, Spectate: room.Spectate, Room: room,
		OnDesync: desyncHook(cs.desyncDir), TrustKey: cs.trust, Identify: cs.identify}
	if cs.botLevel != nil {
		cfg.LocalInput = botInput(rand.Uint64(), *cs.botLevel)
	}
	if cs.pause != nil {
		return netcode.StartClientClock(netcode.NewClient(cfg), cs.sim.wrap(ct), cs.pause), nil
	}
	return netcode.StartClient(netcode.NewClient(cfg), cs.sim.wrap(ct)), nil
}

// endMessage says why a session ended, with the way out where there is
// one: a full server can still be watched.
func endMessage(d *netcode.ClientDriver, target netip.AddrPort) string {
	var v netcode.View
	d.View(&v)
	if errors.Is(d.Err(), netcode.ErrServerFull) {
		return fmt.Sprintf("%s: try again later, or watch: ttytanks join %v --spectate", v.Message, target)
	}
	return v.Message
}

// runClientUI plays in the terminal until the player quits or the session
// ends; it returns the exit code. With uf.lobby it opens the lobby first.
// share is the address the sidebar tells others to join.
func runClientUI(ctx context.Context, cs *clientSetup, uf uiFlags, share string, stderr io.Writer) int {
	if uf.lobby {
		return runLobbyUI(ctx, cs, uf, share, stderr)
	}
	d, err := startClient(cs, uf.room)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	defer func() {
		if ctx.Err() != nil {
			d.CloseNow() // told to stop (our own server may be stopping too): no waiting
		} else {
			d.Close() // the player quit: the seat is free when we exit
		}
	}()
	screen, err := openGameScreen(cs.command(), cs.botLevel != nil, stderr)
	if err != nil {
		return 1
	}
	opts := uf.options(share)
	opts.Server = cs.target.String()
	if cs.pause != nil {
		opts.Pause = cs.pause.SetPaused
	}
	err = tui.Run(ctx, screen, d, opts)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	var v netcode.View
	d.View(&v)
	if v.Notice != "" {
		fmt.Fprintf(stderr, "ttytanks: %s\n", v.Notice) // a seat lost to this computer's sleep, a new one taken
	}
	var ended *netcode.EndedError
	switch {
	case errors.As(d.Err(), &ended) && ended.Reason == proto.LeaveMatchOver:
		fmt.Fprintf(stderr, "ttytanks: %s\n", v.Message) // the match ended without a rematch for us: not an error
	case v.Status == netcode.StatusClosed && v.Message != "":
		fmt.Fprintf(stderr, "ttytanks: %s\n", endMessage(d, cs.target))
		return 1
	}
	return 0
}
