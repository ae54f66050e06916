package cli

import (
	"context"
	"fmt"
	"io"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
)

// Play is "ttytanks play", the one-command game: an embedded server on a
// loopback port, bot opponents, and you. It returns the exit code: 0 on
// success, 1 on a runtime failure, 2 on a usage error.
func Play(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("play", "play [flags]", stdout)
	bots := fs.Int("bots", 1, "bot opponents (1-7)")
	rounds := fs.Int("rounds", 5, "round wins that win the match (0: rounds go on forever)")
	level := bot.Normal
	registerBotLevel(fs, &level, "how well the bots play")
	name := fs.String("name", defaultName(), "your player name")
	maze := mazeSize{game.DefaultMazeW, game.DefaultMazeH}
	fs.Var(&maze, "maze", mazeUsage)
	var uf uiFlags
	uf.register(fs)
	uf.registerBell(fs)
	var sim simFlags
	sim.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "play", fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *bots < 1 || *bots > game.MaxPlayers-1 {
		return usageError(stderr, "play", fmt.Sprintf("--bots must be 1..%d", game.MaxPlayers-1))
	}
	nm, err := playerName(*name)
	if err == nil {
		err = uf.check()
	}
	if err == nil {
		err = sim.check()
	}
	if err == nil && (*rounds < 0 || *rounds > 255) {
		err = fmt.Errorf("--rounds must be 0..255")
	}
	if err == nil && (maze.w/2)*(maze.h/2) < 2*(*bots+1) {
		err = fmt.Errorf("--maze %s is too small for %d tanks", maze.String(), *bots+1)
	}
	if err != nil {
		return usageError(stderr, "play", err.Error())
	}
	ctx, stop := signalContext()
	defer stop()
	sf := serverFlags{addr: "127.0.0.1:0", chat: true, players: *bots + 1, bots: *bots, maze: maze, stateEvery: 2, botLevel: level,
		rooms: 1, maxRooms: 1, rounds: *rounds}
	tr, udp, err := sf.listen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks play: %v\n", err)
		return 1
	}
	srv, err := netcode.NewServer(playConfig(sf))
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks play: %v\n", err)
		return 1
	}
	sctx, stopServer := context.WithCancel(ctx)
	served := make(chan error, 1)
	// One clock for the server, its bots and the client: p, the help and
	// a terminal too small pause them all.
	clk := netcode.NewPauseClock()
	sd := netcode.NewServerDriver(srv, tr)
	sd.SetClock(clk)
	go func() { served <- sd.Run(sctx) }()
	target := loopback(udp.LocalAddr().Port())
	code := runClientUI(ctx, &clientSetup{target: target, name: nm, sim: sim, pause: clk, cmd: "play"}, uf, target.String(), stderr)
	stopServer()
	<-served
	return code
}

// playConfig is the embedded server's configuration for play: sf's, with
// results that wait for the player's r or q (a game against bots has
// nobody else to make wait).
func playConfig(sf serverFlags) netcode.ServerConfig {
	cfg := sf.config()
	cfg.ResultsFor = -1
	return cfg
}
