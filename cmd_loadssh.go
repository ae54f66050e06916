package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"
)

// termSize is a --size WxH value in cells.
type termSize struct{ w, h int }

func (t *termSize) String() string { return fmt.Sprintf("%dx%d", t.w, t.h) }
func (t *termSize) Type() string   { return "WxH" }
func (t *termSize) Set(s string) error {
	var w, h int
	if n, err := fmt.Sscanf(strings.ToLower(s), "%dx%d", &w, &h); n != 2 || err != nil || fmt.Sprintf("%dx%d", w, h) != strings.ToLower(s) ||
		w < 20 || h < 10 || w > 1000 || h > 500 {
		return fmt.Errorf("%q is not a terminal size like 80x24 (20x10 to 1000x500)", s)
	}
	t.w, t.h = w, h
	return nil
}

// runLoadSSH is loadtest --ssh.
func runLoadSSH(f *loadFlags, fs *pflag.FlagSet, addr string, size termSize, stdout, stderr io.Writer) int {
	if fs.NArg() > 0 {
		return usageError(stderr, "loadtest", fmt.Sprintf("with --ssh, give no other address (got %q)", fs.Arg(0)))
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usageError(stderr, "loadtest", fmt.Sprintf("--ssh %q is not an address like host:2222", addr))
	}
	if err := f.checkRun("with --ssh, --clients must be 1..2000", 2000); err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := runSSHLoad(ctx, addr, f, size.w, size.h, progressWriter(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	if code := emitReport(stdout, stderr, rep, f.jsonFile, rep.ServerStatsErr); code != 0 {
		return code
	}
	if rep.InGame < rep.Sessions || len(rep.Errors) > 0 {
		return 1
	}
	return 0
}

// sshLoadReport is what loadtest --ssh reports.
type sshLoadReport struct {
	Server        string         `json:"server"`
	Sessions      int            `json:"sessions"`
	Size          string         `json:"size"`
	DurationS     float64        `json:"duration_s"`
	Connected     int            `json:"connected"`
	InGame        int            `json:"in_game"`
	ConnectP50ms  float64        `json:"connect_p50_ms"`
	ConnectP99ms  float64        `json:"connect_p99_ms"`
	InGameP50ms   float64        `json:"in_game_p50_ms"`
	BytesPerS     float64        `json:"bytes_per_s_per_session"`
	KeysSent      int64          `json:"keys_sent"`
	Errors        map[string]int `json:"errors"`
	LoadCPUPerS   float64        `json:"loadgen_cpu_per_s"`
	ServerLoad    *serverLoad    `json:"server_load,omitempty"`
	ServerPerSess float64        `json:"server_cpu_per_session,omitempty"`
	// ServerStatsErr is why --server-stats gave no figures.
	ServerStatsErr string `json:"server_stats_error,omitempty"`
}

func (r *sshLoadReport) print(w io.Writer) {
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
	}
}

// sshLoadClient is one SSH player of a load test.
type sshLoadClient struct {
	id        int
	connectD  time.Duration
	inGameD   time.Duration
	connected bool
	inGame    atomic.Bool
	bytes     atomic.Int64
	keys      int64
	err       string
}

// gameMarker is a word the game screen's sidebar shows and the lobby
// does not: seeing it in the stream means the session reached a game.
const gameMarker = "rollbacks"

// runSSHLoad opens f.clients SSH sessions with w x h PTYs at f.ramp a
// second; each lands in the lobby, quick-matches with n, then steers its
// tank with random arrows and fire, reading every byte of the screen,
// until f.duration has passed.
func runSSHLoad(ctx context.Context, addr string, f *loadFlags, w, h int, progress io.Writer) (*sshLoadReport, error) {
	target, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, err
	}
	tap := target.AddrPort()
	tap = netip.AddrPortFrom(tap.Addr().Unmap(), tap.Port())
	began := time.Now()
	cpu0, _ := processCPU()
	runCtx, cancel := context.WithDeadline(ctx, began.Add(f.duration))
	defer cancel()
	clients := make([]*sshLoadClient, f.clients)
	var wg sync.WaitGroup
	every := time.Duration(float64(time.Second) / f.ramp)
	for i := range clients {
		lc := &sshLoadClient{id: i}
		clients[i] = lc
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-runCtx.Done():
				lc.err = "never started"
				return
			case <-time.After(time.Until(began.Add(time.Duration(i) * every))):
			}
			lc.run(runCtx, tap, loadSource(tap, i, f.perAddr), w, h)
		}()
	}
	if progress != nil {
		go showProgress(runCtx, progress, began, f.duration, func() string {
			n := 0
			for _, lc := range clients {
				if lc.inGame.Load() {
					n++
				}
			}
			return fmt.Sprintf("%d of %d sessions in a game", n, f.clients)
		})
	}
	wg.Wait()
	wall := time.Since(began)
	cpu1, _ := processCPU()
	rep := &sshLoadReport{Server: addr, Sessions: f.clients, Size: fmt.Sprintf("%dx%d", w, h), DurationS: wall.Seconds(),
		Errors: map[string]int{}, LoadCPUPerS: float64(cpu1-cpu0) / float64(wall)}
	var conn, game []float64
	var bytesAll int64
	for _, lc := range clients {
		if lc.connected {
			rep.Connected++
			conn = append(conn, float64(lc.connectD)/float64(time.Millisecond))
		}
		if lc.inGame.Load() {
			rep.InGame++
			game = append(game, float64(lc.inGameD)/float64(time.Millisecond))
		}
		if lc.err != "" {
			rep.Errors[lc.err]++
		} else if !lc.inGame.Load() {
			rep.Errors["never reached a game"]++
		}
		bytesAll += lc.bytes.Load()
		rep.KeysSent += lc.keys
	}
	rep.ConnectP50ms, rep.ConnectP99ms = quantile(conn, 0.5), quantile(conn, 0.99)
	rep.InGameP50ms = quantile(game, 0.5)
	rep.BytesPerS = float64(bytesAll) / wall.Seconds() / float64(max(rep.Connected, 1))
	if f.srvStats != "" {
		s, err := readServerLoad(f.srvStats, began)
		if err != nil {
			rep.ServerStatsErr = err.Error()
		} else {
			rep.ServerLoad = s
			if rep.InGame > 0 {
				rep.ServerPerSess = s.CPUPerS / float64(rep.InGame)
			}
		}
	}
	return rep, nil
}

// run is one session, until ctx ends.
func (lc *sshLoadClient) run(ctx context.Context, target netip.AddrPort, src netip.Addr, w, h int) {
	start := time.Now()
	d := net.Dialer{Timeout: 10 * time.Second}
	if src.IsValid() {
		d.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
	}
	nc, err := d.DialContext(ctx, "tcp", target.String())
	if err != nil {
		lc.err = "dial: " + errWord(err)
		return
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()
	// A load test connects to the server it was pointed at: its host key
	// is not checked.
	cfg := &gossh.ClientConfig{User: fmt.Sprintf("load%d", lc.id), HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout: 10 * time.Second}
	cc, chans, reqs, err := gossh.NewClientConn(nc, target.String(), cfg)
	if err != nil {
		lc.err = "ssh handshake: " + errWord(err)
		return
	}
	client := gossh.NewClient(cc, chans, reqs)
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		lc.err = "session: " + errWord(err)
		return
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		lc.err = "pty: " + errWord(err)
		return
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		lc.err = "stdin: " + errWord(err)
		return
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		lc.err = "stdout: " + errWord(err)
		return
	}
	if err := sess.Shell(); err != nil {
		lc.err = "shell: " + errWord(err)
		return
	}
	lc.connected = true
	lc.connectD = time.Since(start)
	// Read every byte of the screen; note when the game's sidebar shows.
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 32<<10)
		var tail []byte
		for {
			n, err := stdout.Read(buf)
			lc.bytes.Add(int64(n))
			if !lc.inGame.Load() && n > 0 {
				tail = append(tail, buf[:n]...)
				if bytes.Contains(tail, []byte(gameMarker)) {
					lc.inGameD = time.Since(start)
					lc.inGame.Store(true)
					tail = nil
				} else if len(tail) > len(gameMarker) {
					tail = append(tail[:0], tail[len(tail)-len(gameMarker):]...)
				}
			}
			if err != nil {
				return
			}
		}
	}()
	rng := rand.New(rand.NewPCG(uint64(lc.id), 7))
	keys := [...]string{"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", " "}
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	ask := time.Now().Add(300 * time.Millisecond) // after the lobby's first list
	for {
		select {
		case <-ctx.Done():
			_, _ = stdin.Write([]byte("q"))
			return
		case <-readDone:
			if ctx.Err() == nil {
				lc.err = "the session ended"
			}
			return
		case <-tk.C:
		}
		switch {
		case !lc.inGame.Load():
			if time.Now().After(ask) {
				_, _ = stdin.Write([]byte("n")) // the lobby's quick match
				lc.keys++
				ask = time.Now().Add(2 * time.Second) // again, should it not take
			}
		default:
			if _, err := stdin.Write([]byte(keys[rng.IntN(len(keys))])); err == nil {
				lc.keys++
			}
		}
	}
}

// errWord is an error's message cut to its first clause, for counting.
func errWord(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		s = s[i+2:]
	}
	return s
}
