package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/pflag"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/known"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
	"ttytanks/tui"
)

// uiFlags configure the terminal client.
type uiFlags struct {
	ascii    bool
	fps      int
	controls string
	spectate bool
	// room is where to play; lobby is set when the player picks it in the
	// lobby screen instead (join without --quick, --room or --code, on a
	// terminal).
	room  netcode.RoomRequest
	lobby bool
	// confirmQuit, humanSeats and shareKey: see tui.Options (serve --play
	// sets them).
	confirmQuit bool
	humanSeats  int
	shareKey    string
}

func (f *uiFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.ascii, "ascii", false, "draw with ASCII only (for terminals without box drawing)")
	fs.IntVar(&f.fps, "fps", 60, "display frames per second (10-240)")
	fs.StringVar(&f.controls, "controls", "hold", "movement keys: hold (move while keys repeat) or sticky (move until another direction key or x)")
}

func (f *uiFlags) check() error {
	if f.fps < 10 || f.fps > 240 {
		return fmt.Errorf("--fps must be 10..240")
	}
	if _, err := tui.ParseControlMode(f.controls); err != nil {
		return fmt.Errorf("--controls %q is not a control mode: use hold (move while keys repeat) or sticky (move until another direction key or x)", f.controls)
	}
	return nil
}

func (f *uiFlags) options(share string) tui.Options {
	mode, _ := tui.ParseControlMode(f.controls)
	return tui.Options{ASCII: f.ascii, NoColor: os.Getenv("NO_COLOR") != "", Controls: mode, FPS: f.fps, ShareAddr: share,
		ShareKey: f.shareKey, ConfirmQuit: f.confirmQuit, HumanSeats: f.humanSeats}
}

func runJoin(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("join", "join [HOST:PORT] [flags]   (default localhost:7777)", stdout)
	name := fs.String("name", defaultName(), "player name shown to others (control characters are stripped)")
	var uf uiFlags
	uf.register(fs)
	fs.BoolVar(&uf.spectate, "spectate", false, "watch without taking a seat")
	quick := fs.Bool("quick", false, "skip the lobby: take a seat in the fullest public room with a free seat, or a new room")
	roomName := fs.String("room", "", "skip the lobby: join the room of this name, or create it")
	code := fs.String("code", "", "skip the lobby: join a private room by its join code")
	var sim simFlags
	sim.register(fs)
	registerDesync(fs)
	useBot := fs.Bool("bot", false, "let the built-in bot play for you")
	serverKey := fs.String("server-key", "", "connect only if the server's key has this fingerprint (SHA256:…, as serve logs it), and remember it in known_servers ($XDG_STATE_HOME/ttytanks/); without it, a server's first key is remembered there and a changed one refused")
	level := bot.Normal
	registerBotLevel(fs, &level, "with --bot: how well your bot plays")
	headless := fs.Bool("headless", false, "no screen: play (with --bot) for --duration and print or write metrics")
	duration := fs.Duration("duration", 20*time.Second, "with --headless: how long to play")
	statsJSON := fs.String("stats-json", "", "with --headless: write the final metrics as JSON to this file")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(stderr, "join", fmt.Sprintf("unexpected argument %q", fs.Arg(1)))
	}
	addr := "localhost:7777"
	if fs.NArg() == 1 {
		addr = fs.Arg(0)
	}
	nm, err := playerName(*name)
	if err == nil {
		err = uf.check()
	}
	if err == nil {
		err = sim.check()
	}
	if err == nil && *duration <= 0 {
		err = fmt.Errorf("--duration must be positive")
	}
	if err == nil && fs.Changed("bot-level") && !*useBot {
		err = fmt.Errorf("--bot-level needs --bot")
	}
	if err == nil {
		uf.room, err = roomRequest(*quick, fs.Changed("room"), *roomName, fs.Changed("code"), *code)
		uf.room.Spectate = uf.spectate
		// With a terminal and no room named, the player picks in the
		// lobby; scripts (--headless) quick-match.
		uf.lobby = !*headless && !*quick && !fs.Changed("room") && !fs.Changed("code")
	}
	if err == nil && !*headless && (fs.Changed("stats-json") || fs.Changed("duration")) {
		err = fmt.Errorf("--stats-json and --duration need --headless")
	}
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	host, port, err := splitServer(addr)
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks join: %v\n", err)
		return 1
	}
	if fs.Changed("server-key") && *serverKey == "" {
		return usageError(stderr, "join", "--server-key needs a fingerprint like SHA256:… (an empty one would pin nothing)")
	}
	trust, err := serverTrust(net.JoinHostPort(host, strconv.Itoa(int(port))), *serverKey)
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A key that is refused ends the command, whatever screen is up (the
	// lobby, a match): the whole warning goes to stderr, as OpenSSH's does.
	// Headless, the session's end says it already.
	sim.trust = func(key ed25519.PublicKey) error {
		err := trust.check(key)
		if err != nil && !*headless {
			stop()
		}
		return err
	}
	exit := func() int {
		var botLevel *bot.Level // nil: no bot
		if *useBot {
			botLevel = &level
		}
		if *headless {
			return runHeadless(ctx, target, nm, botLevel, uf.room, sim, *duration, *statsJSON, stdout, stderr)
		}
		return runClientUI(ctx, target, nm, botLevel, uf, sim, target.String(), stderr)
	}()
	if err := trust.refused(); err != nil {
		if !*headless {
			fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		}
		return 1
	}
	if note := trust.note(); note != "" {
		fmt.Fprintln(stderr, note)
	}
	return exit
}

// roomRequest turns --quick, --room and --code into where to join; at
// most one of them may be given.
func roomRequest(quick, hasRoom bool, room string, hasCode bool, code string) (netcode.RoomRequest, error) {
	n := 0
	for _, b := range []bool{quick, hasRoom, hasCode} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return netcode.RoomRequest{}, fmt.Errorf("give at most one of --quick, --room and --code")
	case hasRoom:
		name := proto.SanitizeName(room)
		if name == "" || name != room {
			return netcode.RoomRequest{}, fmt.Errorf("--room %q: a room name is 1 to %d printable characters", room, proto.MaxNameLen)
		}
		return netcode.RoomRequest{Kind: netcode.RoomNamed, Name: name}, nil
	case hasCode:
		c := strings.ToUpper(strings.TrimSpace(code))
		if c == "" || len(c) > proto.MaxNameLen || proto.SanitizeName(c) != c {
			return netcode.RoomRequest{}, fmt.Errorf("--code %q is not a join code like K7QPM2XD", code)
		}
		return netcode.RoomRequest{Kind: netcode.RoomCode, Name: c}, nil
	}
	return netcode.RoomRequest{Kind: netcode.RoomQuick}, nil
}

// splitServer checks the form of HOST:PORT (or HOST, port 7777; IPv6 in
// brackets) without looking anything up: a malformed address is a usage
// error.
func splitServer(addr string) (host string, port uint16, err error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil { // no port: HOST, or [IPv6]
		h, p = addr, "7777"
		if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
			h = h[1 : len(h)-1]
		}
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 || h == "" || strings.ContainsAny(h, " /[]") {
		return "", 0, fmt.Errorf("%q is not a server address like host:7777", addr)
	}
	return h, uint16(n), nil
}

// resolveServer looks the host up; failing that is a runtime error.
func resolveServer(host string, port uint16) (netip.AddrPort, error) {
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", host)
	if err != nil || len(ips) == 0 {
		return netip.AddrPort{}, fmt.Errorf("cannot resolve %q: %v", host, err)
	}
	ip := ips[0]
	for _, a := range ips {
		if a.Is4() {
			ip = a
			break
		}
	}
	return netip.AddrPortFrom(ip.Unmap(), port), nil
}

// hostName is the default name of the player of serve --play: the login
// name with "-host", so that in the two-terminal demo it differs from the
// player who joins.
func hostName() string { return defaultName() + "-host" }

// defaultName is the login name, or "player".
func defaultName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "player"
}

// playerName sanitises a --name value.
func playerName(s string) (string, error) {
	n := proto.SanitizeName(s)
	if n == "" {
		return "", fmt.Errorf("--name %q has no printable characters", s)
	}
	return n, nil
}

func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "ttytanks %s: %s\nRun 'ttytanks %s --help' for usage.\n", cmd, msg, cmd)
	return 2
}

// botInput is the bot policy at level l as a client's LocalInput.
func botInput(seed uint64, l bot.Level) func(w *game.World, slot int) game.Input {
	b := bot.NewLevel(seed, l)
	return func(w *game.World, slot int) game.Input { return b.Input(w.State(), w.Maze(), slot) }
}

// startClient opens a UDP socket and starts a client session on it; with
// a botLevel, that bot plays for the player.
func startClient(target netip.AddrPort, name string, botLevel *bot.Level, room netcode.RoomRequest, sim simFlags) (*netcode.ClientDriver, error) {
	ct, err := transport.ListenUDP(":0")
	if err != nil {
		return nil, err
	}
	cfg := netcode.ClientConfig{Server: target, Name: name, Spectate: room.Spectate, Room: room, OnDesync: desyncHook(), TrustKey: sim.trust}
	if botLevel != nil {
		cfg.LocalInput = botInput(rand.Uint64(), *botLevel)
	}
	return netcode.StartClient(netcode.NewClient(cfg), sim.wrap(ct)), nil
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

// udpHost is a server over UDP as the lobby sees it: a lobby client on a
// socket of its own for the room list, and a new client session (with its
// own socket) for each room joined.
type udpHost struct {
	lobby    *netcode.Lobby
	target   netip.AddrPort
	name     string
	botLevel *bot.Level
	sim      simFlags
}

func (h *udpHost) Rooms(dst *netcode.RoomList) { h.lobby.Rooms(dst) }

func (h *udpHost) Join(req netcode.RoomRequest) (tui.Seat, error) {
	d, err := startClient(h.target, h.name, h.botLevel, req, h.sim)
	if err != nil {
		return nil, err
	}
	return leavingClient{d}, nil
}

// leavingClient is a client session as a lobby seat: Leave waits (a
// moment) for the server to acknowledge.
type leavingClient struct{ *netcode.ClientDriver }

func (c leavingClient) Leave() { c.Close() }

// openGameScreen opens the terminal, or says why it cannot (and, for a
// bot, how to play without one).
func openGameScreen(bot bool, stderr io.Writer) (tcell.Screen, error) {
	screen, err := newScreen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: cannot open the terminal: %v\n", err)
		if bot {
			fmt.Fprintln(stderr, "ttytanks: to let the bot play without a terminal, add --headless (and --duration)")
		}
	}
	return screen, err
}

// runLobbyUI shows the server's lobby and plays in the rooms the player
// picks, until the player quits; it returns the exit code.
func runLobbyUI(ctx context.Context, target netip.AddrPort, name string, botLevel *bot.Level, uf uiFlags, sim simFlags, share string, stderr io.Writer) int {
	lt, err := transport.ListenUDP(":0")
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	lobby, err := netcode.StartLobby(target, sim.wrap(lt), nil)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	defer lobby.Close()
	screen, err := openGameScreen(botLevel != nil, stderr)
	if err != nil {
		return 1
	}
	opts := uf.options(share)
	opts.Server = target.String()
	host := &udpHost{lobby: lobby, target: target, name: name, botLevel: botLevel, sim: sim}
	err = tui.Play(ctx, screen, host, opts, tui.LobbyOptions{Options: opts, Name: name})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	return 0
}

// runClientUI plays in the terminal until the player quits or the session
// ends; it returns the exit code. With uf.lobby it opens the lobby first.
func runClientUI(ctx context.Context, target netip.AddrPort, name string, botLevel *bot.Level, uf uiFlags, sim simFlags, share string, stderr io.Writer) int {
	if uf.lobby {
		return runLobbyUI(ctx, target, name, botLevel, uf, sim, share, stderr)
	}
	d, err := startClient(target, name, botLevel, uf.room, sim)
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
	screen, err := openGameScreen(botLevel != nil, stderr)
	if err != nil {
		return 1
	}
	opts := uf.options(share)
	opts.Server = target.String()
	err = tui.Run(ctx, screen, d, opts)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	var v netcode.View
	d.View(&v)
	var ended *netcode.EndedError
	switch {
	case errors.As(d.Err(), &ended) && ended.Reason == proto.LeaveMatchOver:
		fmt.Fprintf(stderr, "ttytanks: %s\n", v.Message) // the match ended without a rematch for us: not an error
	case v.Status == netcode.StatusClosed && v.Message != "":
		fmt.Fprintf(stderr, "ttytanks: %s\n", endMessage(d, target))
		return 1
	}
	return 0
}

// headlessStats is what join --headless --stats-json writes.
type headlessStats struct {
	Status          string  `json:"status"`
	Message         string  `json:"message,omitempty"`
	Slot            int     `json:"slot"`
	Seconds         float64 `json:"seconds"`
	Rollbacks       uint64  `json:"rollbacks"`
	ReplayMaxTicks  int     `json:"replay_max_ticks"`
	ReplayP99Micros float64 `json:"replay_cost_p99_us"`
	RTTMillis       float64 `json:"rtt_ms"`
	LossUp          float64 `json:"loss_up"`
	LossDown        float64 `json:"loss_down"`
	InputLead       int32   `json:"input_lead_ticks"`
	MarginP5Millis  float64 `json:"arrival_margin_p5_ms"`
	MarginP50Millis float64 `json:"arrival_margin_p50_ms"`
	StateDelay      int32   `json:"state_delay_ticks"`
	GuessedTicks    uint64  `json:"guessed_ticks"`
	Redundancy      int     `json:"redundancy"`
	HashMismatches  uint64  `json:"hash_mismatches"`
	Resyncs         uint64  `json:"resyncs"`
	Dropped         uint64  `json:"dropped"`
	BytesUpPerSec   float64 `json:"bytes_up_per_s"`
	BytesDownPerSec float64 `json:"bytes_down_per_s"`
	FinalTick       uint32  `json:"final_tick"`
	FinalHash       string  `json:"final_hash"`
	Scores          []int   `json:"scores"`
	RoundsPlayed    int     `json:"rounds"`
	RoundsWithKill  int     `json:"rounds_with_kill"`
	// Room is the room played in; Players every name seen seated in it
	// while playing, in the order they were first seen.
	Room    string   `json:"room"`
	Players []string `json:"players"`
	// MatchesEnded counts the matches seen to their end (a rematch
	// starts another); Winner and Results are the last one's.
	MatchesEnded int `json:"matches_ended"`
	// Rematches counts the new matches seen to start in the room after
	// one ended.
	Rematches int             `json:"rematches"`
	Winner    string          `json:"winner,omitempty"`
	Results   []playerResults `json:"results,omitempty"`

	// The rounds of the matches seen to their end, for RoundsPlayed and
	// RoundsWithKill.
	endedRounds, endedKills int
}

// roundsOf returns the rounds of v's match finished so far and how many
// ended with a kill: a round's winner scores only by a kill (a round that
// runs out of time is a draw).
func roundsOf(v *netcode.View) (played, withKill int) {
	if r := v.World.Round; r.Number > 0 {
		played = int(r.Number) - 1
		if r.Phase == game.PhaseOver || r.Phase == game.PhaseMatchOver {
			played++
		}
	}
	for i := 0; i < int(v.World.Slots); i++ {
		withKill += int(v.World.Tanks[i].Score)
	}
	return played, withKill
}

// playerResults is one player's line of a finished match.
type playerResults struct {
	Name      string `json:"name"`
	RoundWins int    `json:"round_wins"`
	Kills     int    `json:"kills"`
	Deaths    int    `json:"deaths"`
	Shots     int    `json:"shots"`
	Hits      int    `json:"hits"`
}

// noteResults records the results of a match that has just ended in v.
func (h *headlessStats) noteResults(v *netcode.View) {
	w := &v.World
	h.MatchesEnded++
	played, kills := roundsOf(v)
	h.endedRounds += played
	h.endedKills += kills
	h.Winner, h.Results = "", h.Results[:0]
	if win := int(w.Round.Winner); win >= 0 && win < int(w.Slots) {
		h.Winner = v.Names[win]
	}
	for i := 0; i < int(w.Slots); i++ {
		t := &w.Tanks[i]
		if !t.Seated {
			continue
		}
		h.Results = append(h.Results, playerResults{Name: v.Names[i], RoundWins: int(t.Score), Kills: int(t.Stats.Kills),
			Deaths: int(t.Stats.Deaths), Shots: int(t.Stats.Shots), Hits: int(t.Stats.Hits)})
	}
}

// runHeadless plays without a screen for d and reports the metrics.
func runHeadless(ctx context.Context, target netip.AddrPort, name string, botLevel *bot.Level, room netcode.RoomRequest, sim simFlags, d time.Duration, file string, stdout, stderr io.Writer) int {
	cd, err := startClient(target, name, botLevel, room, sim)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	defer func() {
		if ctx.Err() != nil {
			cd.CloseNow() // told to stop: exit at once
		} else {
			cd.Close() // the duration is up: the seat is free when we exit
		}
	}()
	var (
		start      time.Time
		firstBytes [2]uint64
		results    headlessStats // the finished matches' figures
		over       bool          // the match in view is over
		seen       []string      // the names seen seated
	)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var v netcode.View
	deadline := time.NewTimer(d + 10*time.Second) // the match must also start
	defer deadline.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-cd.Done():
			break loop
		case <-deadline.C:
			break loop
		case <-tick.C:
		}
		cd.View(&v)
		if ended := v.World.Round.Phase == game.PhaseMatchOver && v.Status == netcode.StatusPlaying; ended != over {
			if over = ended; ended {
				results.noteResults(&v)
			} else if v.Status == netcode.StatusPlaying || v.Status == netcode.StatusWaiting {
				results.Rematches++
			}
		}
		if v.Status != netcode.StatusPlaying {
			continue
		}
		for _, n := range v.Names {
			if n != "" && !slices.Contains(seen, n) {
				seen = append(seen, n)
			}
		}
		if start.IsZero() {
			start = time.Now()
			firstBytes = [2]uint64{v.Metrics.BytesUp, v.Metrics.BytesDown}
			deadline.Reset(d)
		}
	}
	cd.View(&v)
	m := v.Metrics
	secs := time.Since(start).Seconds()
	if start.IsZero() {
		secs = 0
	}
	out := headlessStats{Status: v.Status.String(), Message: v.Message, Slot: v.Slot, Seconds: secs,
		Rollbacks: m.Rollbacks, ReplayMaxTicks: m.ReplayMax, ReplayP99Micros: float64(m.ReplayCostP99) / 1e3,
		RTTMillis: float64(m.RTT) / 1e6, LossUp: m.LossUp, LossDown: m.LossDown, HashMismatches: m.HashMismatches,
		InputLead: m.InputLead, MarginP5Millis: float64(m.ArrivalMarginP5) / 1e6, MarginP50Millis: float64(m.ArrivalMarginP50) / 1e6,
		StateDelay: m.StateDelay, GuessedTicks: m.Guessed, Redundancy: m.Redundancy,
		Resyncs: m.Resyncs, Dropped: m.Dropped, FinalTick: uint32(v.World.Tick), FinalHash: fmt.Sprintf("%016x", game.Hash(&v.World)),
		Room: v.Room, Players: append([]string{}, seen...), MatchesEnded: results.MatchesEnded, Rematches: results.Rematches,
		Winner: results.Winner, Results: results.Results}
	// Rounds finished in every match played, the one in view included
	// unless it is the last one seen to its end.
	out.RoundsPlayed, out.RoundsWithKill = results.endedRounds, results.endedKills
	if !over {
		played, kills := roundsOf(&v)
		out.RoundsPlayed += played
		out.RoundsWithKill += kills
	}
	if secs > 0 {
		out.BytesUpPerSec = float64(m.BytesUp-firstBytes[0]) / secs
		out.BytesDownPerSec = float64(m.BytesDown-firstBytes[1]) / secs
	}
	for i := 0; i < int(v.World.Slots); i++ {
		out.Scores = append(out.Scores, int(v.World.Tanks[i].Score))
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	if file != "" {
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "ttytanks: %v\n", err)
			return 1
		}
	} else {
		fmt.Fprintln(stdout, string(b))
	}
	switch {
	case start.IsZero():
		msg := endMessage(cd, target)
		switch {
		case ctx.Err() != nil:
			msg = "interrupted before the match started"
		case msg == "":
			msg = "the match did not start in time"
		}
		fmt.Fprintf(stderr, "ttytanks: %s\n", msg)
		return 1
	case v.Status == netcode.StatusClosed:
		fmt.Fprintf(stderr, "ttytanks: %s\n", v.Message) // the session ended early
		return 1
	}
	return 0
}

// keyTrust checks a server's key for join: with a pin (--server-key),
// the key must have that fingerprint, and known_servers remembers it;
// without, known_servers decides as OpenSSH's known_hosts does: a key seen
// before passes, a first key is remembered, a changed key is refused with
// the warning. The file lives under $XDG_STATE_HOME/ttytanks/. It is safe
// for concurrent use: the client's goroutine checks, the command reads
// the outcome at exit.
type keyTrust struct {
	server, pin string
	store       *known.Store

	mu     sync.Mutex
	added  string // a note for the player: a first key was remembered
	refuse error  // the first refusal
}

// serverTrust returns the check of the server's key for a join of server
// (HOST:PORT as the player typed it), pinned to pin unless it is empty.
func serverTrust(server, pin string) (*keyTrust, error) {
	if pin != "" {
		if _, err := known.ParseFingerprint(pin); err != nil {
			return nil, fmt.Errorf("--server-key: %w", err)
		}
	}
	if _, err := known.CanonicalServer(server); err != nil {
		return nil, err
	}
	path, err := known.DefaultPath()
	if err != nil {
		return nil, err
	}
	return &keyTrust{server: server, pin: pin, store: known.Open(path)}, nil
}

// check is the client's TrustKey.
func (k *keyTrust) check(key ed25519.PublicKey) error {
	var err error
	if k.pin != "" {
		err = k.store.CheckPinned(k.server, key, k.pin)
	} else {
		var v known.Verdict
		v, err = k.store.Check(k.server, key)
		if v == known.Added {
			k.mu.Lock()
			k.added = fmt.Sprintf("ttytanks: remembered the key of server %s, %s, in %s", k.server, known.Fingerprint(key), k.store.Path())
			k.mu.Unlock()
		}
	}
	if err != nil {
		k.mu.Lock()
		if k.refuse == nil {
			k.refuse = err
		}
		k.mu.Unlock()
	}
	return err
}

// refused returns the first refusal of a key, or nil.
func (k *keyTrust) refused() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.refuse
}

// note returns what to tell the player at exit about the key (a first
// key remembered), or "".
func (k *keyTrust) note() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.added
}
