package cli

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"ttytanks/internal/admin"
	"ttytanks/internal/sshfront"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
)

// Serve is "ttytanks serve": it runs the authoritative game server on
// UDP (and, with --ssh, over SSH) until SIGINT or SIGTERM, and with
// --play also plays in this terminal. version is the binary's, for the
// recordings (--record). It returns the exit code: 0 on success, 1 on a
// runtime failure, 2 on a usage error.
func Serve(version string, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [flags]", stdout)
	var f serveFlags
	f.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if err := f.svc.load(fs, os.Getenv); err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	name, err := f.check(fs)
	if err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	if f.svc.printConfig {
		writeConfig(fs)
		return 0
	}
	if f.ladder.backup != "" {
		if err := f.ladder.writeBackup(stdout); err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
			return 1
		}
		return 0
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: --cpuprofile: %v\n", err)
			return 1
		}
		defer stop()
	}
	return f.run(version, name, stdout, stderr)
}

// serveFlags are serve's flags: the server's, and what serve does around
// it.
type serveFlags struct {
	server     serverFlags
	play       bool
	name       string
	statsFile  string
	cpuProfile string
	batchIO    bool
	statsEvery time.Duration
	ui         uiFlags
	ssh        sshFlags
	record     recordFlags
	svc        serviceFlags
	fleet      fleetFlags
	agones     agonesFlags
	ladder     ladderFlags
}

func (f *serveFlags) register(fs *pflag.FlagSet) {
	f.server.register(fs)
	fs.BoolVar(&f.play, "play", false, "also play in this terminal (the two-terminal demo: serve --play here, join there)")
	fs.StringVar(&f.name, "name", hostName(), "your player name with --play")
	fs.StringVar(&f.statsFile, "stats-json", "", "at exit, write the server's figures as JSON to this file: per player real, held and neutral ticks, drops by reason, tick p50/p99, its CPU and datagrams per second")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	fs.BoolVar(&f.batchIO, "batch-io", true, "receive and send many datagrams per system call where the system has it (Linux); false: one per call, to compare")
	fs.DurationVar(&f.statsEvery, "stats-every", 0, "with --stats-json, also rewrite the file this often while serving (e.g. 1s; 0: only at exit)")
	f.ui.register(fs)
	f.ssh.register(fs)
	f.record.register(fs)
	f.svc.register(fs)
	f.fleet.register(fs)
	f.agones.register(fs)
	f.ladder.register(fs)
}

// check returns the --play player's name, or the first usage error.
func (f *serveFlags) check(fs *pflag.FlagSet) (string, error) {
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := f.server.check(); err != nil {
		return "", err
	}
	if f.statsEvery < 0 || (f.statsEvery > 0 && f.statsEvery < 100*time.Millisecond) {
		return "", fmt.Errorf("--stats-every must be 0 or at least 100ms")
	}
	if f.statsEvery > 0 && f.statsFile == "" {
		return "", fmt.Errorf("--stats-every needs --stats-json FILE")
	}
	if f.play && !fs.Changed("idle") {
		f.server.idle = 0 // the host waiting for friends keeps the seat
	}
	if f.play && f.server.bots >= f.server.players {
		return "", fmt.Errorf("--play takes a seat: with --players %d, --bots must be 0..%d", f.server.players, f.server.players-1)
	}
	if err := f.ssh.check(fs); err != nil {
		return "", err
	}
	if err := f.ui.check(); err != nil {
		return "", err
	}
	if err := f.record.check(); err != nil {
		return "", err
	}
	if err := f.svc.check(); err != nil {
		return "", err
	}
	if err := f.fleet.check(); err != nil {
		return "", err
	}
	if err := f.agones.check(f.play, os.Getenv); err != nil {
		return "", err
	}
	if err := f.ladder.check(); err != nil {
		return "", err
	}
	return playerName(f.name)
}

// run serves until told to stop (or, with --play, until the host quits)
// and returns the exit code; name is the --play player's.
func (f *serveFlags) run(version, name string, stdout, stderr io.Writer) int {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sigs := notifySignals()
	defer signal.Stop(sigs)
	tr, udp, mux, err := f.transport()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	// On a terminal the dashboard (or, with --play, the game) owns the
	// screen: log lines go to a ring, the dashboard's log pane, and the
	// last of them to stderr at exit, not over the screen.
	tty := term.IsTerminal(int(os.Stdout.Fd()))
	logger, logRing, flushLog := serveLog(tty, stderr, f.svc.logFormat)
	defer flushLog()
	cfg := f.server.config()
	cfg.Logger = logger
	rec, err := f.record.open(logger, version)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	if rec != nil {
		cfg.NewRecorder = rec.forRoom
		defer rec.Close()
	}
	var sshFront atomic.Pointer[sshfront.Server]
	cfg.Origin = sshOrigin(&sshFront)
	key, fingerprint, err := loadServerKey(f.ssh.hostKey, logger)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	cfg.Key = key
	board, closeLadder, err := f.ladder.open(f.fleet.url, f.fleet.password, logger)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	defer closeLadder()
	cfg.Ladder = board != nil
	srv, err := netcode.NewServer(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	sd := netcode.NewServerDriver(srv, tr)
	if board != nil {
		sd.SetLadder(board)
	}
	served := make(chan error, 1)
	go func() { served <- sd.Run(ctx) }()
	s := &serving{f: f, ctx: ctx, stop: stop, sd: sd, served: served, stats: &statsSampler{sd: sd},
		logger: logger, logRing: logRing, tty: tty, drainAsked: make(chan struct{}, 1)}
	if f.statsFile != "" {
		defer s.stats.writeAtExit(f.statsFile, stderr)
	}
	port := udp.LocalAddr().Port()
	share := shareAddr(f.server.addr, port)
	s.dash = tui.DashboardInfo{Share: share, Fingerprint: fingerprint}
	if mux != nil {
		sshLog := logger
		if f.play {
			sshLog = slog.New(slog.DiscardHandler) // the screen is ours
		}
		s.ssh, s.dash.SSH, err = f.ssh.start(mux, key, f.ui.options(share), f.ssh.sessionIdle(f.server.idle), f.fleet.url != "", sshLog)
		if err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: --ssh: %v\n", err)
			stop()
			<-served
			return 1
		}
		sshFront.Store(s.ssh)
		defer s.ssh.Close()
	}
	if f.fleet.url != "" {
		public, err := f.fleet.publicUDP(udp.LocalAddr())
		if err == nil {
			s.fleet, err = f.fleet.join(sd, public, f.ssh.addr, key.Public().(ed25519.PublicKey), logger)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
			stop()
			<-served
			return 1
		}
		defer s.fleet.close()
	}
	if f.svc.admin != "" && !f.play {
		var stopAdmin func()
		if s.admin, stopAdmin, err = s.startAdmin(f.svc.admin, rec); err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
			stop()
			<-served
			return 1
		}
		defer stopAdmin()
	}
	go s.signals(sigs)
	if f.play {
		return s.hostPlays(name, port, share, stderr)
	}
	logger.Info("serving", "addr", udp.LocalAddr().String(), "fingerprint", fingerprint, "players", f.server.players, "bots", f.server.bots,
		"maze", f.server.maze.String(), "state_every", f.server.stateEvery, "share", "ttytanks join "+share)
	s.notify("READY=1\nSTATUS=serving on " + udp.LocalAddr().String())
	defer s.startAgones(s.fleetName())() // Shutdown once stopped: after a drain, or any stop
	return s.watch(stdout)
}

// transport opens the server's socket: with the simulator around it if
// asked, one datagram per call with --batch-io=false, and (with --ssh)
// the mux that puts the SSH sessions' in-memory network beside it, which
// is then returned too.
func (f *serveFlags) transport() (transport.Transport, *transport.UDP, *transport.MuxTransport, error) {
	tr, udp, err := f.server.listen()
	if err != nil {
		return nil, nil, nil, err
	}
	if !f.batchIO {
		tr = plainIO{tr}
	}
	var mux *transport.MuxTransport
	if f.ssh.addr != "" {
		// One server driver on both the UDP socket and the in-memory
		// network of the SSH sessions' clients.
		mux = transport.NewMuxTransport(tr)
		tr = mux
	}
	return tr, udp, mux, nil
}

// plainIO hides a transport's batch calls (serve --batch-io=false).
type plainIO struct{ transport.Transport }

// serving is a server up and running, as serve's last part sees it.
type serving struct {
	f       *serveFlags
	ctx     context.Context
	stop    context.CancelFunc // stops the server (and ends ctx)
	sd      *netcode.ServerDriver
	served  <-chan error // the driver's end
	ssh     *sshfront.Server
	stats   *statsSampler
	logger  *slog.Logger
	logRing *tui.LogRing // the dashboard's log pane; nil without a dashboard
	tty     bool         // stdout is a terminal: the dashboard, not status lines
	dash    tui.DashboardInfo
	admin   *admin.Server // serve --admin; nil without
	fleet   *fleetMember  // serve --fleet; nil without
	// drainAsked gets a value when SIGTERM asks for a drain; drain is
	// the drain under way (zero before).
	drainAsked chan struct{}
	drain      drainClock
	// last is the dashboard's last sample, and shown its player list:
	// the numbers the operator reads and types.
	last  netcode.ServerStats
	shown []netcode.PlayerStats
}

// hostPlays is serve --play: the host plays as name in this terminal
// against the server on port, and the server stops when the host quits.
func (s *serving) hostPlays(name string, port uint16, share string, stderr io.Writer) int {
	uf := s.f.ui
	uf.confirmQuit, uf.humanSeats = true, s.f.server.players-s.f.server.bots // the host's q ends the match for all
	uf.shareKey = s.dash.Fingerprint                                         // the players the host tells pin the key
	cs := &clientSetup{target: loopback(port), name: name, cmd: "serve --play"}
	// The host plays as their player key on their own ladder, as join
	// would; without one (no state directory) as a guest.
	var id identityFlags
	if key, err := id.load(stderr); err == nil {
		cs.identify = signer(key)
	}
	code := runClientUI(s.ctx, cs, uf, share, stderr)
	s.stop()
	if s.ssh != nil {
		s.ssh.Close()
	}
	<-s.served
	return code
}
