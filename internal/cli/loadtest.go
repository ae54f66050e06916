package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"ttytanks/internal/loadtest"
	"ttytanks/netcode"
)

// Loadtest is "ttytanks loadtest": it loads a server with many protocol
// clients over UDP (or, with --ssh, SSH players) and reports what they
// saw (package loadtest). It returns the exit code: 0 when every client
// played without an error, 1 otherwise or on a runtime failure, 2 on a
// usage error.
func Loadtest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("loadtest", "loadtest HOST[:PORT] [flags]   or   loadtest --ssh HOST:PORT [flags]", stdout)
	var f loadFlags
	f.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if f.ssh != "" {
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
		return runLoadSSH(&f, fs, stdout, stderr)
	}
	host, port, err := f.checkUDP(fs)
	if err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	ctx, stop := signalContext()
	defer stop()
	cfg := f.config(stderr)
	rep, err := loadtest.Run(ctx, target, &cfg)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	if code := emitReport(stdout, stderr, rep, f.jsonFile, rep.ServerStatsErr); code != 0 {
		return code
	}
	if rep.Connected < rep.Clients || rep.ErrorsTotal() > 0 || rep.HashMismatches > 0 {
		return 1
	}
	return 0
}

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
	quick    bool
	roomName string
	ssh      string
	size     termSize
	room     netcode.RoomRequest // from quick and roomName, by checkUDP
	sim      simFlags
}

func (f *loadFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.clients, "clients", 100, "protocol clients to run (1-20000; SSH sessions with --ssh: 1-2000)")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "how long to run, ramp included; the test then stops by itself")
	fs.Float64Var(&f.ramp, "ramp", 100, "clients started per second")
	fs.BoolVar(&f.predict, "predict", false, "run full predicting client cores (and count hash mismatches) instead of light ones")
	fs.StringVar(&f.policy, "policy", "random", "how the clients play: random, or bot (with --predict)")
	fs.IntVar(&f.perAddr, "per-addr", netcode.DefaultSeatsPerAddr, "clients per loopback source address (the server's seats per address)")
	fs.StringVar(&f.jsonFile, "json", "", "also write the report as JSON to this file")
	fs.StringVar(&f.srvStats, "server-stats", "", "the file a local serve --stats-json --stats-every writes: its figures join the report")
	fs.BoolVar(&f.quick, "quick", false, "clients quick-match (the default)")
	fs.StringVar(&f.roomName, "room", "", "every client joins the room of this name")
	fs.StringVar(&f.ssh, "ssh", "", "open SSH sessions with PTYs to this serve --ssh address instead of UDP clients: each quick-matches from the lobby and steers with random keys")
	f.size = termSize{w: 80, h: 24}
	fs.Var(&f.size, "size", "with --ssh, the PTY's size in cells")
	f.sim.register(fs)
}

// checkUDP checks the flags of a load test of UDP clients, the first
// usage error first, and settles f.room; it returns the server's host
// and port.
func (f *loadFlags) checkUDP(fs *pflag.FlagSet) (host string, port uint16, err error) {
	if fs.Changed("size") {
		return "", 0, errors.New("--size is the PTY of --ssh sessions: give it with --ssh")
	}
	if fs.NArg() != 1 {
		return "", 0, errors.New("give the server's address: loadtest HOST[:PORT]")
	}
	if host, port, err = splitServer(fs.Arg(0)); err != nil {
		return "", 0, err
	}
	if err := f.checkRun("--clients must be 1..20000", 20000); err != nil {
		return "", 0, err
	}
	switch {
	case f.policy != "random" && f.policy != "bot":
		return "", 0, fmt.Errorf("--policy %q: use random or bot", f.policy)
	case f.policy == "bot" && !f.predict:
		return "", 0, errors.New("--policy bot needs --predict: a light client has no world to look at")
	}
	if err := f.sim.check(); err != nil {
		return "", 0, err
	}
	if f.quick && fs.Changed("room") {
		return "", 0, errors.New("give --quick or --room, not both")
	}
	if f.room, err = roomRequest(f.quick, fs.Changed("room"), f.roomName, false, ""); err != nil {
		return "", 0, err
	}
	return host, port, nil
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

// config is the load test the flags describe, with its progress line on
// stderr when that is a terminal.
func (f *loadFlags) config(stderr io.Writer) loadtest.Config {
	return loadtest.Config{Clients: f.clients, Duration: f.duration, Ramp: f.ramp, PerAddr: f.perAddr,
		ServerStats: f.srvStats, Progress: progressWriter(stderr), Predict: f.predict, Bot: f.policy == "bot",
		Room: f.room, Sim: f.sim.impairment(), Seed: f.sim.seed}
}

// progressWriter is where a load test draws its progress line: stderr
// when it is a terminal, else nowhere.
func progressWriter(stderr io.Writer) io.Writer {
	if fd, ok := stderr.(*os.File); ok && term.IsTerminal(int(fd.Fd())) {
		return stderr
	}
	return nil
}

// emitReport prints a load test's report, writes it as JSON to jsonFile
// (when given) and then says why the server's figures are missing (when
// statsErr is set, the exit code is 1).
func emitReport(stdout, stderr io.Writer, rep interface{ Print(io.Writer) }, jsonFile, statsErr string) int {
	rep.Print(stdout)
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
