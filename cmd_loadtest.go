package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// loadFlags configure a load test.
type loadFlags struct {
	clients  int
	duration time.Duration
	ramp     float64
	predict  bool
	policy   string
	perAddr  int
	jsonFile string
	srvStats string
	room     netcode.RoomRequest
	sim      simFlags
}

func runLoadtest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("loadtest", "loadtest HOST[:PORT] [flags]   or   loadtest --ssh HOST:PORT [flags]", stdout)
	var f loadFlags
	fs.IntVar(&f.clients, "clients", 100, "protocol clients to run (1-20000; SSH sessions with --ssh: 1-2000)")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "how long to run, ramp included; the test then stops by itself")
	fs.Float64Var(&f.ramp, "ramp", 100, "clients started per second")
	fs.BoolVar(&f.predict, "predict", false, "run full predicting client cores (and count hash mismatches) instead of light ones")
	fs.StringVar(&f.policy, "policy", "random", "how the clients play: random, or bot (with --predict)")
	fs.IntVar(&f.perAddr, "per-addr", netcode.DefaultSeatsPerAddr, "clients per loopback source address (the server's seats per address)")
	fs.StringVar(&f.jsonFile, "json", "", "also write the report as JSON to this file")
	fs.StringVar(&f.srvStats, "server-stats", "", "the file a local serve --stats-json --stats-every writes: its figures join the report")
	quick := fs.Bool("quick", false, "clients quick-match (the default)")
	roomName := fs.String("room", "", "every client joins the room of this name")
	sshAddr := fs.String("ssh", "", "open SSH sessions with PTYs to this serve --ssh address instead of UDP clients: each quick-matches from the lobby and steers with random keys")
	size := termSize{w: 80, h: 24}
	fs.Var(&size, "size", "with --ssh, the PTY's size in cells")
	f.sim.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if *sshAddr != "" {
		// An SSH session quick-matches from the lobby and steers with
		// random keys over its TCP connection: the UDP clients' choices
		// do not apply, and are refused rather than ignored.
		for _, name := range []string{"predict", "policy", "quick", "room"} {
			if fs.Changed(name) {
				return usageError(stderr, "loadtest", fmt.Sprintf("--%s is for UDP clients, not with --ssh", name))
			}
		}
		if f.sim.changed(fs) {
			return usageError(stderr, "loadtest", "the --sim-* flags are for UDP clients, not with --ssh")
		}
		return runLoadSSH(&f, fs, *sshAddr, size, stdout, stderr)
	}
	if fs.Changed("size") {
		return usageError(stderr, "loadtest", "--size is the PTY of --ssh sessions: give it with --ssh")
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "loadtest", "give the server's address: loadtest HOST[:PORT]")
	}
	host, port, err := splitServer(fs.Arg(0))
	if err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	if err := f.checkRun("--clients must be 1..20000", 20000); err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	switch {
	case f.policy != "random" && f.policy != "bot":
		return usageError(stderr, "loadtest", fmt.Sprintf("--policy %q: use random or bot", f.policy))
	case f.policy == "bot" && !f.predict:
		return usageError(stderr, "loadtest", "--policy bot needs --predict: a light client has no world to look at")
	}
	if err := f.sim.check(); err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	if *quick && fs.Changed("room") {
		return usageError(stderr, "loadtest", "give --quick or --room, not both")
	}
	f.room, err = roomRequest(*quick, fs.Changed("room"), *roomName, false, "")
	if err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := runLoad(ctx, target, &f, progressWriter(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	if code := emitReport(stdout, stderr, rep, f.jsonFile, rep.ServerStatsErr); code != 0 {
		return code
	}
	if rep.Connected < rep.Clients || rep.errorsTotal() > 0 || rep.HashMismatches > 0 {
		return 1
	}
	return 0
}

// checkRun checks the flags every load test has: --clients (at most
// most, else the error tooMany), --duration, --ramp and --per-addr.
func (f *loadFlags) checkRun(tooMany string, most int) error {
	switch {
	case f.clients < 1 || f.clients > most:
		return errors.New(tooMany)
	case f.duration <= 0 || f.duration > 24*time.Hour:
		return errors.New("--duration must be positive (at most 24h)")
	case !(f.ramp > 0):
		return errors.New("--ramp must be a positive rate of clients per second")
	case f.perAddr < 1:
		return errors.New("--per-addr must be at least 1")
	}
	return nil
}

// progressWriter is where a load test draws its progress line: stderr
// when it is a terminal, else nowhere.
func progressWriter(stderr io.Writer) io.Writer {
	if fd, ok := stderr.(*os.File); ok && term.IsTerminal(int(fd.Fd())) {
		return stderr
	}
	return nil
}

// showProgress redraws a progress line on w twice a second until ctx
// ends, then erases it: a bar of the time passed out of d since began,
// and what counts says.
func showProgress(ctx context.Context, w io.Writer, began time.Time, d time.Duration, counts func() string) {
	tk := time.NewTicker(500 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprint(w, "\r\x1b[K")
			return
		case <-tk.C:
		}
		frac := min(1, float64(time.Since(began))/float64(d))
		bar := strings.Repeat("█", int(frac*30)) + strings.Repeat("░", 30-int(frac*30))
		fmt.Fprintf(w, "\r%s %5.1fs of %v  %s\x1b[K", bar, time.Since(began).Seconds(), d, counts())
	}
}

// emitReport prints a load test's report, writes it as JSON to jsonFile
// (when given) and then says why the server's figures are missing (when
// statsErr is set, the exit code is 1).
func emitReport(stdout, stderr io.Writer, rep interface{ print(io.Writer) }, jsonFile, statsErr string) int {
	rep.print(stdout)
	if jsonFile != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(jsonFile, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "ttytanks loadtest: --json: %v\n", err)
			return 1
		}
	}
	if statsErr != "" {
		fmt.Fprintf(stderr, "ttytanks loadtest: --server-stats: %s\n", statsErr)
		return 1
	}
	return 0
}

// loadClient is one protocol client of a load test: its socket, its core
// and what it saw. mu serialises the core between the receiving goroutine
// and the shard that ticks it.
type loadClient struct {
	mu   sync.Mutex
	id   int
	src  netip.Addr
	t    transport.Transport
	c    *netcode.Client
	rng  *rand.Rand
	held game.Input
	hold int
	bot  *bot.Bot

	startedAt   time.Time // of the current attempt
	firstTry    time.Time
	retryAt     time.Time // a refused attempt tries again then
	backoff     time.Duration
	connected   bool // has played at some point
	handshake   time.Duration
	retries     int
	sessions    int // sessions that reached a match
	err         string
	states      uint64
	firstState  game.Tick
	lastState   game.Tick
	stateEvery  int32
	firstTick   game.Tick
	done        netcode.Metrics // the figures of sessions already over
	doneTicks   int64
	doneStates  [2]int64 // States received, and sent, in sessions over
	rttSamples  []float64
	lastSample  time.Time
	recvStopped chan struct{}
}

// loadSource returns the source address of client i: toward a loopback
// server, perAddr clients per address of 127.1.0.0/16 and up (127.0.0.0/8
// is all loopback on Linux, and 127.0.x.x holds the server and the SSH
// players' range); elsewhere the host's own address.
func loadSource(target netip.AddrPort, i, perAddr int) netip.Addr {
	if !target.Addr().IsLoopback() || !target.Addr().Is4() {
		return netip.Addr{}
	}
	k := i / perAddr
	return netip.AddrFrom4([4]byte{127, byte(1 + k/(254*256)), byte(k / 254 % 256), byte(k%254 + 1)})
}

// policyInput is a random player: a direction held for 20-60 ticks,
// sometimes none, firing now and then.
func (lc *loadClient) policyInput() game.Input {
	if lc.hold <= 0 {
		lc.hold = 20 + lc.rng.IntN(41)
		moves := [...][2]int8{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}}
		m := moves[lc.rng.IntN(len(moves))]
		lc.held = game.Input{MoveX: m[0], MoveY: m[1]}
	}
	lc.hold--
	in := lc.held
	if lc.rng.IntN(20) == 0 {
		in.Buttons |= game.ButtonFire
	}
	return in
}

// start opens a new session (a first try or a retry). Call with mu held.
func (lc *loadClient) start(now time.Time, target netip.AddrPort, f *loadFlags) {
	cfg := netcode.ClientConfig{Server: target, Name: fmt.Sprintf("load%d", lc.id), Room: f.room, Light: !f.predict,
		Entropy: lc.entropy(), OnState: lc.noteState}
	if lc.bot != nil {
		cfg.LocalInput = func(w *game.World, slot int) game.Input { return lc.bot.Input(w.State(), w.Maze(), slot) }
	} else {
		cfg.LocalInput = func(*game.World, int) game.Input { return lc.policyInput() }
	}
	lc.c = netcode.NewClient(cfg)
	lc.startedAt = now
	lc.states, lc.stateEvery = 0, 0
	lc.firstTick = 0
}

// entropy is the client core's randomness: session ids and the handshake's
// ephemeral keys, from the load client's seeded generator (a load
// generator's keys need not be secret, and a run repeats).
func (lc *loadClient) entropy() io.Reader { return rngReader{lc.rng} }

type rngReader struct{ r *rand.Rand }

func (r rngReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(r.r.Uint32())
	}
	return len(b), nil
}

// retryable reports whether a session that ended with err should be
// tried again: refusals an admission limit gives, and silence (a shed
// handshake is not answered).
func retryable(err error) bool {
	var refused *netcode.RefusedError
	if errors.As(err, &refused) {
		switch refused.Reason {
		case proto.RejectFull, proto.RejectRoomFull, proto.RejectSlowDown, proto.RejectAddrLimit, proto.RejectBadCookie:
			return true
		}
		return false
	}
	var none *netcode.NoAnswerError
	return errors.As(err, &none)
}

// errKind names an error for the report.
func errKind(err error) string {
	var refused *netcode.RefusedError
	var ended *netcode.EndedError
	var gone *netcode.GoneError
	switch {
	case errors.As(err, &refused):
		return "refused: " + refused.Reason.String()
	case errors.As(err, &ended):
		return "ended: " + ended.Error()
	case errors.As(err, &gone):
		return "lost the server"
	case err == nil:
		return "closed"
	}
	return strings.SplitN(err.Error(), ":", 2)[0]
}

// account folds a finished session's figures into the client's. Call
// with mu held.
func (lc *loadClient) account() {
	if lc.c == nil {
		return
	}
	var v netcode.View
	lc.c.View(&v)
	m := &v.Metrics
	lc.done.Guessed += m.Guessed
	lc.done.HashMismatches += m.HashMismatches
	lc.done.Resyncs += m.Resyncs
	lc.done.BytesUp += m.BytesUp
	lc.done.BytesDown += m.BytesDown
	lc.done.DatagramsUp += m.DatagramsUp
	got, want := lc.statesSeen()
	lc.doneStates[0] += got
	lc.doneStates[1] += want
	if lc.firstTick != 0 {
		lc.doneTicks += int64(m.LocalTick.Diff(lc.firstTick))
	}
	lc.firstTick = 0
}

// advance runs the client's core when it is due, and manages its life:
// the handshake's end, retries with backoff, a new session after a match
// ends. Call with mu held.
func (lc *loadClient) advance(now time.Time, target netip.AddrPort, f *loadFlags, retryUntil time.Time) {
	if lc.c == nil {
		if !lc.retryAt.IsZero() && !now.Before(lc.retryAt) && now.Before(retryUntil) {
			lc.retryAt = time.Time{}
			lc.retries++
			lc.start(now, target, f)
		}
		return
	}
	if now.Before(lc.c.Deadline()) {
		return
	}
	for _, d := range lc.c.Advance(now, game.Input{}) {
		_ = lc.t.Send(d.Addr, d.Data)
	}
	lc.observe(now)
}

// observe notes what changed in the client: connected, ticks, RTT, end.
// Call with mu held.
func (lc *loadClient) observe(now time.Time) {
	c := lc.c
	if st := c.Status(); !lc.connected && (st == netcode.StatusWaiting || st == netcode.StatusPlaying) {
		// Seated (or placed in a running match): the handshake is over.
		lc.connected = true
		lc.handshake = now.Sub(lc.startedAt)
		lc.err = ""
	}
	switch c.Status() {
	case netcode.StatusPlaying:
		if lc.firstTick == 0 && c.World() != nil {
			var v netcode.View
			c.View(&v)
			lc.firstTick = v.Metrics.LocalTick
			lc.sessions++
		}
		if now.Sub(lc.lastSample) >= time.Second && lc.firstTick != 0 {
			var v netcode.View
			c.View(&v)
			if v.Metrics.RTT > 0 {
				lc.rttSamples = append(lc.rttSamples, float64(v.Metrics.RTT)/float64(time.Millisecond))
			}
			lc.lastSample = now
		}
	case netcode.StatusClosed:
		err := c.Err()
		lc.account()
		lc.c = nil
		var ended *netcode.EndedError
		switch {
		case errors.As(err, &ended) && lc.connected:
			// The match ended (or the room closed): join again, as a
			// player would from the results screen.
			lc.retryAt, lc.backoff = now, 0
		case retryable(err):
			lc.backoff = min(max(2*lc.backoff, 250*time.Millisecond), 4*time.Second)
			lc.retryAt = now.Add(lc.backoff/2 + time.Duration(lc.rng.Int64N(int64(lc.backoff/2)+1)))
			if !lc.connected {
				lc.err = "never connected (" + errKind(err) + ")"
			}
		default:
			lc.err = errKind(err)
		}
	}
}

// receive reads the client's socket until it closes.
func (lc *loadClient) receive() {
	defer close(lc.recvStopped)
	buf := make([]byte, 2048)
	for {
		n, from, err := lc.t.Recv(buf)
		if err != nil {
			return
		}
		now := time.Now()
		lc.mu.Lock()
		if lc.c != nil {
			for _, d := range lc.c.Receive(now, from, buf[:n]) {
				_ = lc.t.Send(d.Addr, d.Data)
			}
			lc.observe(now)
		}
		lc.mu.Unlock()
	}
}

// noteState counts a State by its tick, to compare with the States the
// server should have sent over the ticks they span. The client core calls
// it (ClientConfig.OnState) inside Receive, with mu held.
func (lc *loadClient) noteState(t game.Tick) {
	if lc.states == 0 {
		lc.firstState, lc.lastState = t, t
	} else {
		if d := t.Diff(lc.lastState); d > 0 && (lc.stateEvery == 0 || d < lc.stateEvery) {
			lc.stateEvery = d
		}
		if t.After(lc.lastState) {
			lc.lastState = t
		}
	}
	lc.states++
}

// statesSeen returns the States the current session received and the
// number the server sent over the ticks they span. Call with mu held.
func (lc *loadClient) statesSeen() (got, want int64) {
	if lc.states == 0 {
		return 0, 0
	}
	want = 1
	if lc.stateEvery > 0 {
		want += int64(lc.lastState.Diff(lc.firstState)) / int64(lc.stateEvery)
	}
	return int64(lc.states), max(want, int64(lc.states))
}

// loadReport is what a load test reports, as a table and as JSON.
type loadReport struct {
	Server          string         `json:"server"`
	Clients         int            `json:"clients"`
	Predict         bool           `json:"predict"`
	DurationS       float64        `json:"duration_s"`
	Connected       int            `json:"connected"`
	PlayingAtEnd    int            `json:"playing_at_end"`
	Retries         int            `json:"retries"`
	HandshakeP50ms  float64        `json:"handshake_p50_ms"`
	HandshakeP99ms  float64        `json:"handshake_p99_ms"`
	StatesReceived  int64          `json:"states_received"`
	StatesExpected  int64          `json:"states_expected"`
	RTTP50ms        float64        `json:"rtt_p50_ms"`
	RTTP99ms        float64        `json:"rtt_p99_ms"`
	TicksPlayed     int64          `json:"ticks_played"`
	InputsGuessed   uint64         `json:"inputs_guessed"`
	HashMismatches  uint64         `json:"hash_mismatches"`
	Resyncs         uint64         `json:"resyncs"`
	BytesUpPerS     float64        `json:"bytes_up_per_s_per_client"`
	BytesDownPerS   float64        `json:"bytes_down_per_s_per_client"`
	DatagramsUpPerS float64        `json:"datagrams_up_per_s"`
	Errors          map[string]int `json:"errors"`
	LoadCPUPerS     float64        `json:"loadgen_cpu_per_s"`
	ServerLoad      *serverLoad    `json:"server_load,omitempty"`
	ServerStatsErr  string         `json:"server_stats_error,omitempty"` // why --server-stats gave no figures
}

func (r *loadReport) errorsTotal() int {
	n := 0
	for _, v := range r.Errors {
		n += v
	}
	return n
}

func (r *loadReport) print(w io.Writer) {
	pct := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return 100 * a / b
	}
	mode := "light"
	if r.Predict {
		mode = "predicting"
	}
	fmt.Fprintf(w, "load test of %s: %d %s clients for %.1fs\n", r.Server, r.Clients, mode, r.DurationS)
	row := func(k, v string, a ...any) { fmt.Fprintf(w, "  %-22s "+v+"\n", append([]any{k}, a...)...) }
	row("connected", "%d of %d (%d playing at the end, %d retries after a refusal)", r.Connected, r.Clients, r.PlayingAtEnd, r.Retries)
	row("handshake", "p50 %.1f ms, p99 %.1f ms", r.HandshakeP50ms, r.HandshakeP99ms)
	row("States", "%d of %d received (%.2f%%)", r.StatesReceived, r.StatesExpected, pct(float64(r.StatesReceived), float64(r.StatesExpected)))
	row("RTT", "p50 %.2f ms, p99 %.2f ms", r.RTTP50ms, r.RTTP99ms)
	row("inputs guessed", "%d of %d ticks (%.3f%%)", r.InputsGuessed, r.TicksPlayed, pct(float64(r.InputsGuessed), float64(r.TicksPlayed)))
	if r.Predict {
		row("hash mismatches", "%d (%d resyncs)", r.HashMismatches, r.Resyncs)
	}
	row("bandwidth per client", "%.0f B/s up, %.0f B/s down", r.BytesUpPerS, r.BytesDownPerS)
	row("errors", "%s", fmtErrors(r.Errors))
	row("load generator CPU", "%.1f%% of a core", 100*r.LoadCPUPerS)
	if s := r.ServerLoad; s != nil {
		perPlayer := ""
		if s.Players > 0 {
			perPlayer = fmt.Sprintf(": %.3f%% per player", 100*s.CPUPerS/float64(s.Players))
		}
		row("server CPU", "%.1f%% of a core for %d players in %d rooms%s", 100*s.CPUPerS, s.Players, s.Rooms, perPlayer)
		row("server tick", "p50 %.0f µs, p99 %.0f µs (%.1f%% of the 16.7 ms tick)", s.TickP50us, s.TickP99us, s.TickP99us/166.67)
		row("server datagrams", "%.0f/s in, %.0f/s out", s.DatagramsInPerS, s.DatagramsOutPerS)
	}
}

func fmtErrors(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

// runLoad runs the load test: it starts f.clients clients at f.ramp per
// second, ticks them until f.duration has passed (or ctx ends), closes
// them and reports.
func runLoad(ctx context.Context, target netip.AddrPort, f *loadFlags, progress io.Writer) (*loadReport, error) {
	began := time.Now()
	cpu0, _ := processCPU()
	end := began.Add(f.duration)
	var (
		mu      sync.Mutex // guards clients while the ramp adds to it
		clients []*loadClient
		openErr error
	)
	snapshot := func() []*loadClient {
		mu.Lock()
		defer mu.Unlock()
		return clients
	}
	runCtx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	var wg sync.WaitGroup
	// The ramp: one client every 1/ramp seconds.
	wg.Add(1)
	go func() {
		defer wg.Done()
		every := time.Duration(float64(time.Second) / f.ramp)
		for i := 0; i < f.clients; i++ {
			if d := time.Until(began.Add(time.Duration(i) * every)); d > 0 {
				select {
				case <-runCtx.Done():
					return
				case <-time.After(d):
				}
			}
			lc, err := openLoadClient(i, target, f)
			if err != nil {
				mu.Lock()
				openErr = fmt.Errorf("client %d: %w", i, err)
				mu.Unlock()
				cancel()
				return
			}
			lc.mu.Lock()
			lc.firstTry = time.Now()
			lc.start(lc.firstTry, target, f)
			lc.mu.Unlock()
			go lc.receive()
			mu.Lock()
			clients = append(clients, lc)
			mu.Unlock()
		}
	}()
	// The ticking: one goroutine per core, each over its share of clients,
	// every millisecond.
	shards := max(1, min(4, runtime.GOMAXPROCS(0)))
	for s := 0; s < shards; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			tk := time.NewTicker(time.Millisecond)
			defer tk.Stop()
			for {
				select {
				case <-runCtx.Done():
					return
				case <-tk.C:
				}
				now := time.Now()
				cs := snapshot()
				for i := s; i < len(cs); i += shards {
					lc := cs[i]
					lc.mu.Lock()
					lc.advance(now, target, f, end)
					lc.mu.Unlock()
				}
			}
		}(s)
	}
	if progress != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			showProgress(runCtx, progress, began, f.duration, func() string {
				playing := 0
				for _, lc := range snapshot() {
					lc.mu.Lock()
					if lc.c != nil && lc.c.Status() == netcode.StatusPlaying {
						playing++
					}
					lc.mu.Unlock()
				}
				return fmt.Sprintf("%d of %d clients playing", playing, f.clients)
			})
		}()
	}
	<-runCtx.Done()
	wg.Wait()
	wall := time.Since(began)
	cpu1, _ := processCPU()
	if openErr != nil {
		closeLoadClients(snapshot())
		return nil, openErr
	}
	rep := collect(snapshot(), f, target, wall)
	rep.LoadCPUPerS = float64(cpu1-cpu0) / float64(wall)
	closeLoadClients(snapshot())
	if f.srvStats != "" {
		s, err := readServerLoad(f.srvStats, began)
		if err != nil {
			rep.ServerStatsErr = err.Error()
		}
		rep.ServerLoad = s
	}
	return rep, nil
}

// openLoadClient opens client i's socket.
func openLoadClient(i int, target netip.AddrPort, f *loadFlags) (*loadClient, error) {
	bind := ":0"
	if src := loadSource(target, i, f.perAddr); src.IsValid() {
		bind = netip.AddrPortFrom(src, 0).String()
	}
	u, err := transport.ListenUDP(bind)
	if err != nil {
		return nil, err
	}
	seed := f.sim.seed + uint64(i)*0x9e3779b97f4a7c15
	lc := &loadClient{id: i, src: u.LocalAddr().Addr(), t: f.sim.wrapSeeded(u, seed),
		rng: rand.New(rand.NewPCG(seed, uint64(i))), recvStopped: make(chan struct{})}
	if f.policy == "bot" {
		lc.bot = bot.New(seed)
	}
	return lc, nil
}

// closeLoadClients sends every client's Leave once and closes its socket.
func closeLoadClients(cs []*loadClient) {
	for _, lc := range cs {
		lc.mu.Lock()
		if lc.c != nil && lc.c.Status() != netcode.StatusClosed {
			for _, d := range lc.c.Close() {
				_ = lc.t.Send(d.Addr, d.Data)
			}
		}
		lc.mu.Unlock()
		_ = lc.t.Close()
	}
	for _, lc := range cs {
		<-lc.recvStopped
	}
}

// collect sums the clients' figures into a report.
func collect(cs []*loadClient, f *loadFlags, target netip.AddrPort, wall time.Duration) *loadReport {
	rep := &loadReport{Server: target.String(), Clients: f.clients, Predict: f.predict, DurationS: wall.Seconds(), Errors: map[string]int{}}
	var hs, rtt []float64
	var up, down, dgUp uint64
	for _, lc := range cs {
		lc.mu.Lock()
		playing := lc.c != nil && lc.c.Status() == netcode.StatusPlaying
		if lc.c != nil {
			lc.account() // the live session's figures join the ended ones'
		}
		if playing {
			rep.PlayingAtEnd++
		}
		rep.StatesReceived += lc.doneStates[0]
		rep.StatesExpected += lc.doneStates[1]
		rep.TicksPlayed += lc.doneTicks
		rep.InputsGuessed += lc.done.Guessed
		rep.HashMismatches += lc.done.HashMismatches
		rep.Resyncs += lc.done.Resyncs
		up += lc.done.BytesUp
		down += lc.done.BytesDown
		dgUp += lc.done.DatagramsUp
		rep.Retries += lc.retries
		if lc.connected {
			rep.Connected++
			hs = append(hs, float64(lc.handshake)/float64(time.Millisecond))
		}
		switch {
		case lc.err != "":
			rep.Errors[lc.err]++
		case !lc.connected:
			rep.Errors["never connected"]++
		}
		rtt = append(rtt, lc.rttSamples...)
		lc.mu.Unlock()
	}
	n := float64(max(rep.Connected, 1))
	rep.BytesUpPerS = float64(up) / wall.Seconds() / n
	rep.BytesDownPerS = float64(down) / wall.Seconds() / n
	rep.DatagramsUpPerS = float64(dgUp) / wall.Seconds()
	rep.HandshakeP50ms, rep.HandshakeP99ms = quantile(hs, 0.5), quantile(hs, 0.99)
	rep.RTTP50ms, rep.RTTP99ms = quantile(rtt, 0.5), quantile(rtt, 0.99)
	return rep
}

// quantile returns the q-quantile of xs (0 when empty), sorting xs.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[min(len(xs)-1, int(q*float64(len(xs))))]
}
