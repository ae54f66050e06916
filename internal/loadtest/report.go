package loadtest

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ttytanks/internal/statsfile"
	"ttytanks/netcode"
)

// Report is what a load test of UDP clients (Run) reports, as a table
// and as JSON.
type Report struct {
	Server    string  `json:"server"`
	Clients   int     `json:"clients"`
	Predict   bool    `json:"predict"`
	DurationS float64 `json:"duration_s"`
	// RampS is how long the clients took to start (clients / ramp).
	RampS           float64        `json:"ramp_s"`
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
	// LoadCores is how many cores the load generator could use
	// (GOMAXPROCS: its CPU affinity), and its event loops.
	LoadCores int `json:"loadgen_cores"`
	// LoadDeadlines is how many client deadlines (ticks, retries,
	// keep-alives) the loops ran, and LoadLate* how late they ran them
	// after the deadline: p50, p99 and the most, in milliseconds.
	LoadDeadlines uint64  `json:"loadgen_deadlines"`
	LoadLateP50ms float64 `json:"loadgen_late_p50_ms"`
	LoadLateP99ms float64 `json:"loadgen_late_p99_ms"`
	LoadLateMaxms float64 `json:"loadgen_late_max_ms"`
	// LoadBound says the load generator, not the server, was the bound
	// of the run: its CPU was over LoadBoundCPU of its cores, or its
	// loops ran their deadlines p99 over LoadBoundLate late. Then the
	// figures measure the generator more than the server. LoadBoundWhy
	// says which.
	LoadBound      bool            `json:"loadgen_bound"`
	LoadBoundWhy   string          `json:"loadgen_bound_why,omitempty"`
	ServerLoad     *statsfile.Load `json:"server_load,omitempty"`
	ServerStatsErr string          `json:"server_stats_error,omitempty"` // why --server-stats gave no figures
}

// The load generator is the bound of a run (Report.LoadBound) when its
// CPU is over LoadBoundCPU of the cores it may use, or its loops ran
// the clients' deadlines p99 over LoadBoundLate late, half a tick: clock
// sync absorbs a steady lateness in its lead, but lateness of that size
// makes the inputs miss their ticks (in 40 s runs of 1000 and 2000
// clients, a p99 up to 6 ms came with at most 0.5% of inputs guessed, 15
// ms and more with 2.7% and more). A loop that keeps up runs them within
// a few milliseconds.
const (
	LoadBoundCPU  = 0.9
	LoadBoundLate = netcode.TickDuration / 2
)

// judgeLoad sets LoadBound and LoadBoundWhy from the load generator's
// CPU and lateness.
func (r *Report) judgeLoad() {
	var why []string
	if cores := float64(max(r.LoadCores, 1)); r.LoadCPUPerS > LoadBoundCPU*cores {
		why = append(why, fmt.Sprintf("its CPU was %.0f%% of its %s", 100*r.LoadCPUPerS/cores, plural(max(r.LoadCores, 1), "core")))
	}
	if late := time.Duration(r.LoadLateP99ms * float64(time.Millisecond)); late > LoadBoundLate {
		why = append(why, fmt.Sprintf("it ran its clients' deadlines p99 %.1f ms late", r.LoadLateP99ms))
	}
	r.LoadBound = len(why) > 0
	r.LoadBoundWhy = strings.Join(why, ", and ")
}

// ErrorsTotal is how many clients ended with an error (or never
// connected).
func (r *Report) ErrorsTotal() int {
	n := 0
	for _, v := range r.Errors {
		n += v
	}
	return n
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) {
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
	row("load generator CPU", "%.1f%% of a core (%s to use)", 100*r.LoadCPUPerS, plural(max(r.LoadCores, 1), "core"))
	row("load generator late", "p50 %.2f ms, p99 %.2f ms, at most %.1f ms, over %d client deadlines", r.LoadLateP50ms, r.LoadLateP99ms, r.LoadLateMaxms, r.LoadDeadlines)
	if r.LoadBound {
		row("BOUND BY", "THE LOAD GENERATOR: %s; these figures measure it more than the server", r.LoadBoundWhy)
	} else {
		row("bound by", "not the load generator: its CPU was under %.0f%% of its cores, its deadlines p99 under %.1f ms late", 100*LoadBoundCPU, float64(LoadBoundLate)/float64(time.Millisecond))
	}
	if s := r.ServerLoad; s != nil {
		perPlayer := ""
		if s.Players > 0 {
			perPlayer = fmt.Sprintf(": %.3f%% per player", 100*s.CPUPerS/float64(s.Players))
		}
		row("server CPU", "%.1f%% of a core for %d players in %d rooms%s", 100*s.CPUPerS, s.Players, s.Rooms, perPlayer)
		row("server tick", "p50 %.0f µs, p99 %.0f µs (%.1f%% of the 16.7 ms tick)", s.TickP50us, s.TickP99us, s.TickP99us/166.67)
		row("server datagrams", "%.0f/s in, %.0f/s out", s.DatagramsInPerS, s.DatagramsOutPerS)
		row("server window", "%s", serverWindow(s, r.DurationS, r.RampS))
	}
}

// fmtErrors lists the errors and their counts, by name.
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

// SSHReport is what an SSH load test (RunSSH) reports, as a table and as
// JSON.
type SSHReport struct {
	Server        string          `json:"server"`
	Sessions      int             `json:"sessions"`
	Size          string          `json:"size"`
	DurationS     float64         `json:"duration_s"`
	Connected     int             `json:"connected"`
	InGame        int             `json:"in_game"`
	ConnectP50ms  float64         `json:"connect_p50_ms"`
	ConnectP99ms  float64         `json:"connect_p99_ms"`
	InGameP50ms   float64         `json:"in_game_p50_ms"`
	BytesPerS     float64         `json:"bytes_per_s_per_session"`
	KeysSent      int64           `json:"keys_sent"`
	Errors        map[string]int  `json:"errors"`
	LoadCPUPerS   float64         `json:"loadgen_cpu_per_s"`
	ServerLoad    *statsfile.Load `json:"server_load,omitempty"`
	ServerPerSess float64         `json:"server_cpu_per_session,omitempty"`
	// RampS is how long the sessions took to start (sessions / ramp).
	RampS float64 `json:"ramp_s"`
	// ServerStatsErr is why --server-stats gave no figures.
	ServerStatsErr string `json:"server_stats_error,omitempty"`
}

// Print writes the report as a table.
func (r *SSHReport) Print(w io.Writer) {
	fmt.Fprintf(w, "SSH load test of %s: %s at %s for %.1fs\n", r.Server, plural(r.Sessions, "session"), r.Size, r.DurationS)
	row := func(k, v string, a ...any) { fmt.Fprintf(w, "  %-22s "+v+"\n", append([]any{k}, a...)...) }
	row("connected", "%d of %d (%d reached a game)", r.Connected, r.Sessions, r.InGame)
	row("connect", "p50 %.1f ms, p99 %.1f ms; in a game after p50 %.0f ms", r.ConnectP50ms, r.ConnectP99ms, r.InGameP50ms)
	row("screen stream", "%.0f B/s per session (%d keys sent)", r.BytesPerS, r.KeysSent)
	row("errors", "%s", fmtErrors(r.Errors))
	row("load generator CPU", "%.1f%% of a core", 100*r.LoadCPUPerS)
	if s := r.ServerLoad; s != nil {
		row("server CPU", "%.1f%% of a core: %.2f%% per session in a game", 100*s.CPUPerS, 100*r.ServerPerSess)
		row("server tick", "p50 %.0f µs, p99 %.0f µs (%.1f%% of the 16.7 ms tick)", s.TickP50us, s.TickP99us, s.TickP99us/166.67)
		row("server window", "%s", serverWindow(s, r.DurationS, r.RampS))
	}
}

// serverWindow says what span the server's figures cover: its stats
// file rates the last seconds before it was read (up to 10 s), which in
// a short run, or one whose ramp took most of it, reach back before the
// clients had all started.
func serverWindow(s *statsfile.Load, durationS, rampS float64) string {
	steady := durationS - rampS
	if s.WindowS > steady+0.5 {
		return fmt.Sprintf("its last %.1f s, MORE THAN THE %.1f s AFTER THE RAMP: the figures include the ramp or the time before the run; run longer for the steady state",
			s.WindowS, max(steady, 0))
	}
	return fmt.Sprintf("its last %.1f s, all after the ramp", s.WindowS)
}

// quantile returns the q-quantile of xs (0 when empty), sorting xs.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[min(len(xs)-1, int(q*float64(len(xs))))]
}

// plural is "1 session", "2 sessions".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
