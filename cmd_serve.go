package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/term"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/internal/sshfront"
	"ttytanks/known"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
	"ttytanks/tui/sshterm"
)

// serverFlags are the flags that configure an authoritative server.
type serverFlags struct {
	addr         string
	trust        []string
	seatsPerAddr int
	players      int
	bots         int
	maze         mazeSize
	stateEvery   int
	rooms        int
	maxRooms     int
	rounds       int
	specDelay    time.Duration
	startWait    time.Duration
	botLevel     bot.Level
	sim          simFlags
}

func (f *serverFlags) register(fs *pflag.FlagSet) {
	f.maze = mazeSize{game.DefaultMazeW, game.DefaultMazeH}
	fs.StringVar(&f.addr, "addr", ":7777", "UDP address to listen on")
	fs.IntVar(&f.players, "players", 2, "seats in a new room, bots included (1-8); its match starts when all are taken")
	fs.IntVar(&f.bots, "bots", 0, "seats of a new room the server fills with bots")
	fs.IntVar(&f.rooms, "rooms", 1, "public rooms to open at start and keep open (named a, b, c, …)")
	fs.IntVar(&f.maxRooms, "max-rooms", 64, "most rooms open at once; more open on demand and close when empty for a minute")
	fs.IntVar(&f.rounds, "rounds", 5, "round wins that win the match (0: rounds go on forever)")
	fs.DurationVar(&f.startWait, "start-wait", 5*time.Second, "start a room's match this long after two players are in it, without waiting for every seat (0: only when full)")
	fs.DurationVar(&f.specDelay, "spectator-delay", 2*time.Second, "how far behind the match spectators watch (0-10s)")
	fs.Var(&f.maze, "maze", mazeUsage)
	fs.IntVar(&f.stateEvery, "state-every", 2, "send a full State every N ticks (1-60), an Ack on the others")
	fs.StringArrayVar(&f.trust, "trust", nil, "exempt this address range (CIDR, like 192.168.1.0/24) from the per-address limits; repeatable")
	fs.IntVar(&f.seatsPerAddr, "seats-per-addr", netcode.DefaultSeatsPerAddr, "most seats (and, apart, spectator places) the players of one IP address may hold")
	f.botLevel = bot.Normal
	registerBotLevel(fs, &f.botLevel, "how well the server's bots play")
	f.sim.register(fs)
}

func (f *serverFlags) check() error {
	if _, err := net.ResolveUDPAddr("udp", f.addr); err != nil {
		return fmt.Errorf("--addr %q is not a UDP address like :7777 or 127.0.0.1:7777", f.addr)
	}
	if f.players < 1 || f.players > game.MaxPlayers {
		return fmt.Errorf("--players must be 1..%d", game.MaxPlayers)
	}
	if f.bots < 0 || f.bots > f.players {
		return fmt.Errorf("--bots must be 0..--players (%d)", f.players)
	}
	if f.stateEvery < 1 || f.stateEvery > 60 {
		return fmt.Errorf("--state-every must be 1..60")
	}
	if f.maxRooms < 1 || f.maxRooms > 255 {
		return fmt.Errorf("--max-rooms must be 1..255")
	}
	if f.rooms < 1 || f.rooms > f.maxRooms {
		return fmt.Errorf("--rooms must be 1..--max-rooms (%d)", f.maxRooms)
	}
	if f.rounds < 0 || f.rounds > 255 {
		return fmt.Errorf("--rounds must be 0..255")
	}
	if f.startWait < 0 {
		return fmt.Errorf("--start-wait must not be negative")
	}
	if f.specDelay < 0 || f.specDelay > 10*time.Second {
		return fmt.Errorf("--spectator-delay must be 0s..10s")
	}
	if f.seatsPerAddr < 1 {
		return fmt.Errorf("--seats-per-addr must be at least 1")
	}
	for _, c := range f.trust {
		if _, err := netip.ParsePrefix(c); err != nil {
			return fmt.Errorf("--trust %q is not an address range like 192.168.1.0/24", c)
		}
	}
	if (f.maze.w/2)*(f.maze.h/2) < f.players*2 {
		return fmt.Errorf("--maze %s is too small for %d players", f.maze.String(), f.players)
	}
	return f.sim.check()
}

func (f *serverFlags) config() netcode.ServerConfig {
	cfg := netcode.ServerConfig{Players: f.players, Bots: f.bots, MazeW: f.maze.w, MazeH: f.maze.h,
		StateEvery: f.stateEvery, NewBot: newBot(f.botLevel), MaxSeatsPerAddr: f.seatsPerAddr,
		MaxSpectatorsPerAddr: f.seatsPerAddr, Rooms: f.rooms, MaxRooms: f.maxRooms, Rounds: f.rounds,
		SpectatorDelay: f.specDelay, StartWait: f.startWait}
	for _, c := range f.trust {
		cfg.Trusted = append(cfg.Trusted, netip.MustParsePrefix(c)) // checked by check
	}
	return cfg
}

// sshFlags configure serve --ssh: the game served to ssh clients.
type sshFlags struct {
	addr           string
	hostKey        string
	idle           time.Duration
	max            int
	fps            int
	authorizedKeys string
}

func (f *sshFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "ssh", "", "also serve the game over SSH on this TCP address, e.g. :2222 (players run: ssh -p 2222 host)")
	fs.StringVar(&f.hostKey, "key", "", "the server's key file (Ed25519, created on first start): it signs every handshake and is the SSH host key (default $XDG_STATE_HOME/ttytanks/ssh_host_ed25519 or ~/.local/state/ttytanks/ssh_host_ed25519)")
	fs.StringVar(&f.hostKey, "ssh-host-key", "", "the same as --key")
	fs.DurationVar(&f.idle, "ssh-idle", sshfront.DefaultIdle, "end an SSH session after this long without a key press")
	fs.IntVar(&f.max, "ssh-max", sshfront.DefaultMaxSessions, "most concurrent SSH sessions; the next one is told the server is busy")
	fs.IntVar(&f.fps, "ssh-fps", sshterm.DefaultFPS, "display frames per second of SSH sessions (10-60)")
	fs.StringVar(&f.authorizedKeys, "ssh-authorized-keys", "", "admit only the public keys in this OpenSSH authorized_keys file (default: anyone, no password)")
}

func (f *sshFlags) check(fs *pflag.FlagSet) error {
	if f.addr == "" {
		for _, n := range []string{"ssh-idle", "ssh-max", "ssh-fps", "ssh-authorized-keys"} {
			if fs.Changed(n) {
				return fmt.Errorf("--%s is for SSH play: give --ssh ADDR too", n)
			}
		}
	}
	if f.idle <= 0 {
		return fmt.Errorf("--ssh-idle must be positive")
	}
	if f.max < 1 || f.max > 100000 {
		return fmt.Errorf("--ssh-max must be 1..100000")
	}
	if f.fps < 10 || f.fps > 60 {
		return fmt.Errorf("--ssh-fps must be 10..60")
	}
	return nil
}

// start opens the SSH listener for the game server behind mux, with the
// server's key as its host key; the returned server is serving. It also
// returns the ssh command players use, for the dashboard.
func (f *sshFlags) start(mux *transport.MuxTransport, priv ed25519.PrivateKey, ui tui.Options, logger *slog.Logger) (s *sshfront.Server, share string, err error) {
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, "", err
	}
	var keys *sshfront.AuthorizedKeys
	if f.authorizedKeys != "" {
		if keys, err = sshfront.LoadAuthorizedKeys(f.authorizedKeys); err != nil {
			return nil, "", err
		}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, "", fmt.Errorf("cannot listen on %s: %w", f.addr, err)
	}
	ui.Share = sshShare(f.addr, ln.Addr().(*net.TCPAddr).Port) // SSH players share the ssh command
	ui.FPS = f.fps
	sshGame, err := sshterm.NewGame(sshterm.Config{Net: mux.Network(), Game: mux.MemAddr(), UI: ui, Lobby: true})
	if err == nil {
		s, err = sshfront.NewServer(sshfront.Config{HostKey: key, AuthorizedKeys: keys, Idle: f.idle, MaxSessions: f.max, Logger: logger,
			Play: func(ctx context.Context, p *sshfront.Session) (int, string, bool) { return sshGame.Play(ctx, p) }})
	}
	if err != nil {
		ln.Close()
		return nil, "", err
	}
	go func() {
		if err := s.Serve(ln); err != nil {
			logger.Error("ssh server stopped", "err", err)
		}
	}()
	access := "anyone"
	if keys != nil {
		access = fmt.Sprintf("%d authorized keys", keys.Len())
	}
	logger.Info("ssh listening", "addr", ln.Addr().String(), "fingerprint", gossh.FingerprintSHA256(key.PublicKey()),
		"access", access, "idle", f.idle, "max", f.max, "fps", f.fps)
	return s, ui.Share, nil
}

// newBot makes the server's bots, at level l.
func newBot(l bot.Level) func(slot int, seed uint64) netcode.InputSource {
	return func(slot int, seed uint64) netcode.InputSource { return bot.NewLevel(seed, l) }
}

// listen opens the server's socket, with the simulator around it if asked.
func (f *serverFlags) listen() (transport.Transport, *transport.UDP, error) {
	u, err := transport.ListenUDP(f.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot listen on %s: %w", f.addr, err)
	}
	return f.sim.wrap(u), u, nil
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [flags]", stdout)
	var f serverFlags
	f.register(fs)
	play := fs.Bool("play", false, "also play in this terminal (the two-terminal demo: serve --play here, join there)")
	name := fs.String("name", hostName(), "your player name with --play")
	statsFile := fs.String("stats-json", "", "at exit, write the server's figures as JSON to this file: per player real, held and neutral ticks, drops by reason, tick p50/p99, its CPU and datagrams per second")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	batchIO := fs.Bool("batch-io", true, "receive and send many datagrams per system call where the system has it (Linux); false: one per call, to compare")
	statsEvery := fs.Duration("stats-every", 0, "with --stats-json, also rewrite the file this often while serving (e.g. 1s; 0: only at exit)")
	var uf uiFlags
	uf.register(fs)
	var sf sshFlags
	sf.register(fs)
	var rf recordFlags
	rf.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "serve", fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := f.check(); err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	if *statsEvery < 0 || (*statsEvery > 0 && *statsEvery < 100*time.Millisecond) {
		return usageError(stderr, "serve", "--stats-every must be 0 or at least 100ms")
	}
	if *statsEvery > 0 && *statsFile == "" {
		return usageError(stderr, "serve", "--stats-every needs --stats-json FILE")
	}
	if *play && f.bots >= f.players {
		return usageError(stderr, "serve", fmt.Sprintf("--play takes a seat: with --players %d, --bots must be 0..%d", f.players, f.players-1))
	}
	if err := sf.check(fs); err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	if err := uf.check(); err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	if err := rf.check(); err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	nm, err := playerName(*name)
	if err != nil {
		return usageError(stderr, "serve", err.Error())
	}
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: --cpuprofile: %v\n", err)
			return 1
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: --cpuprofile: %v\n", err)
			return 1
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = pf.Close()
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tr, udp, err := f.listen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	if !*batchIO {
		tr = plainIO{tr}
	}
	var mux *transport.MuxTransport
	if sf.addr != "" {
		// One server driver on both the UDP socket and the in-memory
		// network of the SSH sessions' clients.
		mux = transport.NewMuxTransport(tr)
		tr = mux
	}
	// On a terminal the dashboard owns the screen: log lines go to its
	// log pane (and the last of them to stderr at exit), not over it.
	tty := term.IsTerminal(int(os.Stdout.Fd()))
	var logOut io.Writer = stderr
	var logRing *tui.LogRing
	if tty && !*play {
		logRing = tui.NewLogRing(256)
		logOut = logRing
		defer func() {
			for _, l := range logRing.Lines(20) {
				fmt.Fprintln(stderr, l)
			}
		}()
	}
	logger := slog.New(slog.NewTextHandler(logOut, nil))
	cfg := f.config()
	cfg.Logger = logger
	rec, err := rf.open(logger)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	if rec != nil {
		cfg.NewRecorder = rec.forRoom
		defer rec.Close()
	}
	// SSH players count against their SSH client's address's limits; the
	// SSH server starts after the game server, so the lookup goes through
	// a pointer set once it does.
	var sshFront atomic.Pointer[sshfront.Server]
	cfg.Origin = func(mem netip.AddrPort) (netip.Addr, bool) {
		if s := sshFront.Load(); s != nil {
			return s.Origin(mem)
		}
		return netip.Addr{}, false
	}
	keyPath := sf.hostKey
	if keyPath == "" {
		if keyPath, err = known.DefaultKeyPath(); err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
			return 1
		}
	}
	key, created, err := known.LoadOrCreateKey(keyPath)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: --key: %v\n", err)
		return 1
	}
	cfg.Key = key
	fingerprint := known.Fingerprint(key.Public().(ed25519.PublicKey))
	logger.Info("server key", "file", keyPath, "created", created, "fingerprint", fingerprint)
	srv, err := netcode.NewServer(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: %v\n", err)
		return 1
	}
	sd := netcode.NewServerDriver(srv, tr)
	served := make(chan error, 1)
	go func() { served <- sd.Run(ctx) }()
	var meter loadMeter
	sample := func() netcode.ServerStats {
		var st netcode.ServerStats
		sd.Do(func(s *netcode.Server) { st = s.Stats() })
		meter.add(time.Now(), st.DatagramsIn, st.DatagramsOut)
		return st
	}
	if *statsFile != "" {
		defer func() {
			st := sample()
			if err := writeServerStats(*statsFile, st, meter.load(&st)); err != nil {
				fmt.Fprintf(stderr, "ttytanks serve: --stats-json: %v\n", err)
			}
		}()
	}
	addr := udp.LocalAddr()
	share := shareAddr(f.addr, addr.Port())
	dash := tui.DashboardInfo{Share: share, Fingerprint: fingerprint}
	var sshSrv *sshfront.Server
	if mux != nil {
		sshLog := logger
		if *play {
			sshLog = slog.New(slog.DiscardHandler) // the screen is ours
		}
		sshSrv, dash.SSH, err = sf.start(mux, key, uf.options(share), sshLog)
		if err != nil {
			fmt.Fprintf(stderr, "ttytanks serve: --ssh: %v\n", err)
			stop()
			<-served
			return 1
		}
		sshFront.Store(sshSrv)
		defer sshSrv.Close()
	}

	if *play {
		target := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), addr.Port())
		uf.confirmQuit, uf.humanSeats = true, f.players-f.bots // the host's q ends the match for all
		uf.shareKey = fingerprint                              // the players the host tells pin the key
		code := runClientUI(ctx, target, nm, nil, uf, simFlags{}, share, stderr)
		stop()
		if sshSrv != nil {
			sshSrv.Close()
		}
		<-served
		return code
	}

	logger.Info("serving", "addr", addr.String(), "fingerprint", fingerprint, "players", f.players, "bots", f.bots,
		"maze", f.maze.String(), "state_every", f.stateEvery, "share", "ttytanks join "+share)
	every := 5 * time.Second
	if tty {
		every = 500 * time.Millisecond
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	// The load meter samples once a second; --stats-every rewrites the
	// file on its own beat.
	meterTick := time.NewTicker(time.Second)
	defer meterTick.Stop()
	var statsTick <-chan time.Time
	if *statsEvery > 0 {
		t := time.NewTicker(*statsEvery)
		defer t.Stop()
		statsTick = t.C
	}
	// On a terminal the operator can kick and ban from the dashboard.
	var keys <-chan byte
	restore := func() {}
	if tty {
		keys, restore = rawKeys(os.Stdin)
	}
	defer restore()
	var ops operatorKeys
	var note string
	for {
		select {
		case b, ok := <-keys:
			if !ok {
				keys = nil
				continue
			}
			switch a, slot := ops.key(b); a {
			case opStop:
				stop()
			case opKick, opBan:
				note = operate(sd, sshSrv, a, slot)
				logger.Info("operator", "action", note)
			}
		case err := <-served:
			if err != nil {
				logger.Error("server stopped", "err", err)
				return 1
			}
			return 0
		case <-ctx.Done():
			// The driver sends every client a Leave and returns; the SSH
			// server ends its sessions and connections meanwhile.
			sshClosed := make(chan struct{})
			go func() {
				if sshSrv != nil {
					sshSrv.Close()
				}
				close(sshClosed)
			}()
			deadline := time.After(time.Second)
			select {
			case <-served:
			case <-deadline:
			}
			select {
			case <-sshClosed:
			case <-deadline:
			}
			restore() // the terminal is ours again before the last words
			if !tty {
				logger.Info("shut down")
			} else {
				fmt.Fprint(stdout, "\x1b[H\x1b[2J")
				fmt.Fprintln(stdout, "ttytanks server shut down")
			}
			return 0
		case <-meterTick.C:
			sample()
		case <-statsTick:
			st := sample()
			if err := writeServerStats(*statsFile, st, meter.load(&st)); err != nil {
				logger.Error("--stats-json", "err", err)
			}
		case <-tick.C:
			st := sample()
			if tty {
				w, h, _ := term.GetSize(int(os.Stdout.Fd()))
				dash.Note = note
				dash.Load = meter.load(&st).String()
				out := tui.RenderDashboard(&st, dash, logRing.Lines(h), w, h, os.Getenv("NO_COLOR") != "")
				// Redraw in place (no clear: no flicker), erasing each line's
				// rest; no newline after the last line, so nothing scrolls.
				fmt.Fprint(stdout, "\x1b[H"+strings.ReplaceAll(out, "\r\n", "\x1b[K\r\n")+"\x1b[K\x1b[J")
			} else {
				logStatus(logger, &st, meter.load(&st))
			}
		}
	}
}

// serverStatsJSON is what serve --stats-json writes at exit.
type serverStatsJSON struct {
	Match        uint32            `json:"match"`
	Tick         uint32            `json:"tick"`
	Players      []playerStatsJSON `json:"players"`
	Departed     []playerStatsJSON `json:"departed"`
	Spectators   int               `json:"spectators"`
	Drops        map[string]uint64 `json:"drops"`
	TickP50us    float64           `json:"tick_p50_us"`
	TickP99us    float64           `json:"tick_p99_us"`
	DatagramsIn  uint64            `json:"datagrams_in"`
	DatagramsOut uint64            `json:"datagrams_out"`
	Load         serverLoad        `json:"load"`
	Accepted     uint64            `json:"accepted"`
	BytesIn      uint64            `json:"bytes_in"`
	BytesOut     uint64            `json:"bytes_out"`
	Reconnects   uint64            `json:"reconnects"`
	Timeouts     uint64            `json:"timeouts"`
	Faults       uint64            `json:"faults"`
	Connections  int               `json:"connections"`
	Migrations   uint64            `json:"migrations"`
	PathLimited  uint64            `json:"path_limited"`
	Rooms        []roomStatsJSON   `json:"rooms"`
}

type roomStatsJSON struct {
	Name        string            `json:"name"`
	Private     bool              `json:"private,omitempty"`
	Code        string            `json:"code,omitempty"`
	Match       uint32            `json:"match"`
	Seats       int               `json:"seats"`
	Players     int               `json:"players"`
	Bots        int               `json:"bots"`
	Spectators  int               `json:"spectators"`
	State       string            `json:"state"`
	Round       int               `json:"round"`
	RoundsToWin int               `json:"rounds_to_win"`
	Leader      string            `json:"leader,omitempty"`
	LeaderScore int               `json:"leader_score"`
	TickP50us   float64           `json:"tick_p50_us"`
	TickP99us   float64           `json:"tick_p99_us"`
	Seated      []playerStatsJSON `json:"seated"`
}

type playerStatsJSON struct {
	Room    string `json:"room"`
	Slot    int    `json:"slot"`
	Name    string `json:"name"`
	Bot     bool   `json:"bot"`
	Addr    string `json:"addr,omitempty"`
	SSHFrom string `json:"ssh_from,omitempty"` // an SSH player's client address (addr is then in-process)
	Real    uint64 `json:"real_ticks"`
	Held    uint64 `json:"held_ticks"`
	Neutral uint64 `json:"neutral_ticks"`
	Late    uint64 `json:"late_inputs"`
	Score   uint16 `json:"score"`
}

// writeServerStats writes the server's figures to file as JSON.
func writeServerStats(file string, st netcode.ServerStats, load serverLoad) error {
	conv := func(ps []netcode.PlayerStats) []playerStatsJSON {
		out := make([]playerStatsJSON, 0, len(ps))
		for _, p := range ps {
			out = append(out, playerStatsJSON{Room: p.Room, Slot: p.Slot, Name: p.Name, Bot: p.Bot, Addr: p.Addr, SSHFrom: p.SSHFrom, Real: p.RealTicks,
				Held: p.HeldTicks, Neutral: p.NeutralTicks, Late: p.LateInputs, Score: p.Score})
		}
		return out
	}
	out := serverStatsJSON{Match: st.Match, Tick: uint32(st.Tick), Players: conv(st.Players), Departed: conv(st.Departed),
		Spectators: st.Spectators, Drops: map[string]uint64{}, TickP50us: float64(st.TickP50) / 1e3,
		TickP99us: float64(st.TickP99) / 1e3, DatagramsIn: st.DatagramsIn, Accepted: st.Accepted, BytesIn: st.BytesIn,
		BytesOut: st.BytesOut, Reconnects: st.Reconnects, Timeouts: st.Timeouts, Faults: st.Faults,
		Connections: st.Connections, Migrations: st.Migrations, PathLimited: st.PathLimited,
		DatagramsOut: st.DatagramsOut, Load: load}
	for r, n := range st.Drops {
		if n > 0 {
			out.Drops[netcode.DropReason(r).String()] = n
		}
	}
	out.Rooms = []roomStatsJSON{}
	for _, r := range st.Rooms {
		out.Rooms = append(out.Rooms, roomStatsJSON{Name: r.Name, Private: r.Private, Code: r.Code, Match: r.Match, Seats: r.Seats,
			Players: r.RoomInfo.Players, Bots: r.Bots, Spectators: r.Spectators, State: r.State.String(), Round: r.Round,
			RoundsToWin: r.RoundsToWin, Leader: r.Leader, LeaderScore: r.LeaderScore, TickP50us: float64(r.TickP50) / 1e3,
			TickP99us: float64(r.TickP99) / 1e3, Seated: conv(r.Players)})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(file, append(b, '\n'))
}

// writeFileAtomic replaces file with data, mode 0600 (the server's figures
// hold private rooms' join codes and players' addresses): written to a
// temporary file beside it and renamed over it, so a reader (loadtest
// --server-stats, every second) never sees half a file.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is left to remove
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// logStatus writes the operator's periodic status line.
func logStatus(l *slog.Logger, st *netcode.ServerStats, load serverLoad) {
	attrs := []any{"load", load.String(), "match", st.Match, "running", st.Running, "tick", uint32(st.Tick), "need", st.Need,
		"rooms", len(st.Rooms), "players", len(st.Players), "spectators", st.Spectators, "tick_p99", st.TickP99.Round(time.Microsecond),
		"in_bytes", st.BytesIn, "out_bytes", st.BytesOut, "dropped", st.DroppedTotal()}
	// Each player's figures while they fit a line; a host with more
	// players has --stats-json for them.
	for _, p := range st.Players[:min(len(st.Players), maxStatusPlayers)] {
		key := "p" + strconv.Itoa(p.Slot)
		if len(st.Rooms) > 1 {
			key = p.Room + "." + key // slots repeat from room to room
		}
		attrs = append(attrs, key, fmt.Sprintf("%s margin=%dms real=%d held=%d neutral=%d",
			p.Name, p.MarginMs, p.RealTicks, p.HeldTicks, p.NeutralTicks))
	}
	if len(st.Players) > maxStatusPlayers {
		attrs = append(attrs, "more_players", len(st.Players)-maxStatusPlayers)
	}
	l.Info("status", attrs...)
}

// maxStatusPlayers is how many players a status line details.
const maxStatusPlayers = 16

// shareAddr is the address other players should join: the host's name
// when listening on all interfaces.
func shareAddr(listen string, port uint16) string {
	host, _, err := net.SplitHostPort(listen)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		} else {
			host = "localhost"
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// sshShare is the command other players run to join over SSH: "ssh -p
// PORT HOST", with the host as shareAddr names it.
func sshShare(listen string, port int) string {
	host, _, _ := net.SplitHostPort(shareAddr(listen, uint16(port)))
	if port == 22 {
		return "ssh " + host
	}
	return "ssh -p " + strconv.Itoa(port) + " " + host
}

// newScreen opens the terminal for tcell (see openScreen).
func newScreen() (tcell.Screen, error) { return openScreen(os.Getenv("TERM"), os.Stderr) }

// serverLoad is the server's own cost over the last seconds, from its
// process's rusage and its datagram counters (serve --stats-json "load").
type serverLoad struct {
	// WindowS is the span the rates cover (up to 10 s; 0: not yet known).
	WindowS float64 `json:"window_s"`
	// CPUPerS is CPU seconds used per wall second: 1 is one whole core.
	CPUPerS          float64 `json:"cpu_per_s"`
	DatagramsInPerS  float64 `json:"datagrams_in_per_s"`
	DatagramsOutPerS float64 `json:"datagrams_out_per_s"`
	// Players and Rooms are counted at the end of the window; the tick
	// quantiles cover every room stepped together, over the last 10 s.
	Players   int     `json:"players"`
	Rooms     int     `json:"rooms"`
	TickP50us float64 `json:"tick_p50_us"`
	TickP99us float64 `json:"tick_p99_us"`
}

// String is the dashboard's load line.
func (l serverLoad) String() string {
	if l.WindowS == 0 {
		return "measuring…"
	}
	return fmt.Sprintf("cpu %.1f%% of a core · %.0f datagrams/s in · %.0f out", 100*l.CPUPerS, l.DatagramsInPerS, l.DatagramsOutPerS)
}

// loadMeter keeps a second's samples of the process's CPU time and the
// server's datagram counters over the last 10 s.
type loadMeter struct {
	samples [11]loadSample
	n       int // samples taken
}

type loadSample struct {
	at      time.Time
	cpu     time.Duration
	in, out uint64
}

// add takes a sample; samples closer than half a second to the last
// replace it.
func (m *loadMeter) add(at time.Time, in, out uint64) {
	cpu, _ := processCPU()
	s := loadSample{at: at, cpu: cpu, in: in, out: out}
	if m.n > 0 && at.Sub(m.samples[(m.n-1)%len(m.samples)].at) < 500*time.Millisecond {
		m.samples[(m.n-1)%len(m.samples)] = s
		return
	}
	m.samples[m.n%len(m.samples)] = s
	m.n++
}

// load returns the rates between the oldest and the newest sample, with
// st's players, rooms and tick quantiles.
func (m *loadMeter) load(st *netcode.ServerStats) serverLoad {
	l := serverLoad{Players: len(st.Players), Rooms: len(st.Rooms), TickP50us: float64(st.TickP50) / 1e3, TickP99us: float64(st.TickP99) / 1e3}
	if m.n < 2 {
		return l
	}
	newest := m.samples[(m.n-1)%len(m.samples)]
	oldest := m.samples[max(0, m.n-len(m.samples))%len(m.samples)]
	span := newest.at.Sub(oldest.at).Seconds()
	if span <= 0 {
		return l
	}
	l.WindowS = span
	l.CPUPerS = (newest.cpu - oldest.cpu).Seconds() / span
	l.DatagramsInPerS = float64(newest.in-oldest.in) / span
	l.DatagramsOutPerS = float64(newest.out-oldest.out) / span
	return l
}

// readServerLoad reads the "load" of a serve --stats-json file, which must
// have been written since the given time: a file left by an earlier server
// would report that server's figures.
func readServerLoad(file string, since time.Time) (*serverLoad, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if fi.ModTime().Before(since) {
		return nil, fmt.Errorf("%s was last written at %s, before this run began: is a serve --stats-json %s --stats-every 1s running?",
			file, fi.ModTime().Format(time.TimeOnly), file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var st struct {
		Load *serverLoad `json:"load"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if st.Load == nil || st.Load.WindowS == 0 {
		return nil, fmt.Errorf("%s holds no load figures yet (serve --stats-json FILE --stats-every 1s)", file)
	}
	return st.Load, nil
}

// plainIO hides a transport's batch calls (serve --batch-io=false).
type plainIO struct{ transport.Transport }
