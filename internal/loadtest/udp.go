package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"sync"
	"time"

	"ttytanks/game/bot"
	"ttytanks/internal/cputime"
	"ttytanks/internal/statsfile"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// Run runs a load test of UDP protocol clients against target: it
// starts cfg.Clients clients at cfg.Ramp per second, ticks them until
// cfg.Duration has passed (or ctx ends), closes them and reports. The
// error is one of opening a client's socket; what the clients met is in
// the report.
func Run(ctx context.Context, target netip.AddrPort, cfg *Config) (*Report, error) {
	began := time.Now()
	cpu0, _ := cputime.Process()
	r := &udpRun{cfg: cfg, target: target, began: began, end: began.Add(cfg.Duration)}
	runCtx, cancel := context.WithDeadline(ctx, r.end)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { r.ramp(runCtx, cancel) })
	// The ticking: one goroutine per core, each over its share of clients.
	shards := max(1, min(4, runtime.GOMAXPROCS(0)))
	for s := 0; s < shards; s++ {
		wg.Go(func() { r.tick(runCtx, s, shards) })
	}
	if cfg.Progress != nil {
		wg.Go(func() { showProgress(runCtx, cfg.Progress, began, cfg.Duration, r.progress) })
	}
	<-runCtx.Done()
	wg.Wait()
	wall := time.Since(began)
	cpu1, _ := cputime.Process()
	if r.openErr != nil {
		closeLoadClients(r.snapshot())
		return nil, r.openErr
	}
	rep := collect(r.snapshot(), cfg, target, wall)
	rep.LoadCPUPerS = float64(cpu1-cpu0) / float64(wall)
	closeLoadClients(r.snapshot())
	if cfg.ServerStats != "" {
		s, err := statsfile.ReadLoad(cfg.ServerStats, began)
		if err != nil {
			rep.ServerStatsErr = err.Error()
		}
		rep.ServerLoad = s
	}
	return rep, nil
}

// udpRun is a load test of UDP clients under way.
type udpRun struct {
	cfg        *Config
	target     netip.AddrPort
	began, end time.Time

	mu      sync.Mutex // guards clients while the ramp adds to it, and openErr
	clients []*loadClient
	openErr error
}

// snapshot returns the clients started so far.
func (r *udpRun) snapshot() []*loadClient {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.clients
}

// ramp starts one client every 1/Ramp seconds until all have started or
// ctx ends; a client whose socket does not open ends the run (cancel).
func (r *udpRun) ramp(ctx context.Context, cancel context.CancelFunc) {
	every := time.Duration(float64(time.Second) / r.cfg.Ramp)
	for i := 0; i < r.cfg.Clients; i++ {
		if d := time.Until(r.began.Add(time.Duration(i) * every)); d > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(d):
			}
		}
		lc, err := openLoadClient(i, r.target, r.cfg)
		if err != nil {
			r.mu.Lock()
			r.openErr = fmt.Errorf("client %d: %w", i, err)
			r.mu.Unlock()
			cancel()
			return
		}
		lc.mu.Lock()
		lc.start(time.Now(), r.target, r.cfg)
		lc.mu.Unlock()
		go lc.receive()
		r.mu.Lock()
		r.clients = append(r.clients, lc)
		r.mu.Unlock()
	}
}

// tick advances shard s of the clients (every shards-th, from s) every
// millisecond until ctx ends.
func (r *udpRun) tick(ctx context.Context, s, shards int) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		now := time.Now()
		cs := r.snapshot()
		for i := s; i < len(cs); i += shards {
			lc := cs[i]
			lc.mu.Lock()
			lc.advance(now, r.target, r.cfg, r.end)
			lc.mu.Unlock()
		}
	}
}

// progress is the progress line's count of the clients playing.
func (r *udpRun) progress() string {
	playing := 0
	for _, lc := range r.snapshot() {
		lc.mu.Lock()
		if lc.c != nil && lc.c.Status() == netcode.StatusPlaying {
			playing++
		}
		lc.mu.Unlock()
	}
	return fmt.Sprintf("%d of %d clients playing", playing, r.cfg.Clients)
}

// openLoadClient opens client i's socket.
func openLoadClient(i int, target netip.AddrPort, cfg *Config) (*loadClient, error) {
	bind := ":0"
	if src := loadSource(target, i, cfg.PerAddr); src.IsValid() {
		bind = netip.AddrPortFrom(src, 0).String()
	}
	u, err := transport.ListenUDP(bind)
	if err != nil {
		return nil, err
	}
	seed := cfg.Seed + uint64(i)*0x9e3779b97f4a7c15
	lc := &loadClient{id: i, t: cfg.wrap(u, seed),
		rng: rand.New(rand.NewPCG(seed, uint64(i))), recvStopped: make(chan struct{})}
	if cfg.Bot {
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
func collect(cs []*loadClient, cfg *Config, target netip.AddrPort, wall time.Duration) *Report {
	rep := &Report{Server: target.String(), Clients: cfg.Clients, Predict: cfg.Predict, DurationS: wall.Seconds(), Errors: map[string]int{}}
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
