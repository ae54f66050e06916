package loadtest

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"time"

	"ttytanks/internal/cputime"
)

// Run runs a load test of UDP protocol clients against target: it
// starts cfg.Clients clients at cfg.Ramp per second, runs them until
// cfg.Duration has passed (or ctx ends), closes them and reports. The
// clients are split among GOMAXPROCS event loops (shards), each over its
// clients' sockets. The error is one of opening a client's socket; what
// the clients met is in the report.
func Run(ctx context.Context, target netip.AddrPort, cfg *Config) (*Report, error) {
	began := time.Now()
	cpu0, _ := cputime.Process()
	cores := runtime.GOMAXPROCS(0)
	shards := make([]*shard, max(1, min(cores, cfg.Clients)))
	for i := range shards {
		sockets, err := newSocketSet(target, cfg, (cfg.Clients-i+len(shards)-1)/len(shards))
		if err != nil {
			for _, s := range shards[:i] {
				s.sockets.shutdown()
			}
			return nil, err
		}
		shards[i] = newShard(i, len(shards), target, cfg, began, sockets)
	}
	haltAll := func() {
		for _, s := range shards {
			s.halt()
		}
	}
	stopHalting := context.AfterFunc(ctx, haltAll)
	defer stopHalting()
	var server *serverLoad
	if cfg.ServerStats != "" {
		readCtx, stopReading := context.WithCancel(ctx) // an early return ends the wait
		defer stopReading()
		server = watchServerLoad(readCtx, cfg.ServerStats, began, cfg.Duration)
	}
	var wg sync.WaitGroup
	for _, s := range shards {
		wg.Go(func() {
			s.loop()
			if s.openErr != nil {
				haltAll()
			}
		})
	}
	var progress sync.WaitGroup
	progressCtx, stopProgress := context.WithCancel(ctx)
	if cfg.Progress != nil {
		progress.Go(func() { showProgress(progressCtx, cfg.Progress, began, cfg.Duration, playingLine(shards, cfg.Clients)) })
	}
	wg.Wait()
	stopProgress()
	progress.Wait()
	wall := time.Since(began)
	cpu1, _ := cputime.Process()
	for _, s := range shards {
		if s.openErr != nil {
			return nil, s.openErr
		}
	}
	rep := collect(shards, cfg, target, wall)
	rep.LoadCPUPerS = float64(cpu1-cpu0) / float64(wall)
	rep.RampS = cfg.rampS()
	rep.LoadCores = cores
	rep.judgeLoad()
	if server != nil {
		s, err := server.wait()
		if err != nil {
			rep.ServerStatsErr = err.Error()
		}
		rep.ServerLoad = s
	}
	return rep, nil
}

// playingLine returns the progress line's count of the clients playing.
func playingLine(shards []*shard, clients int) func() string {
	return func() string {
		playing := 0
		for _, s := range shards {
			playing += int(s.playing.Load())
		}
		return fmt.Sprintf("%d of %d clients playing", playing, clients)
	}
}

// collect sums the figures of the clients whose sockets opened into a
// report; the shards' loops have ended.
func collect(shards []*shard, cfg *Config, target netip.AddrPort, wall time.Duration) *Report {
	rep := &Report{Server: target.String(), Clients: cfg.Clients, Predict: cfg.Predict, DurationS: wall.Seconds(), Errors: map[string]int{}}
	var hs, rtt []float64
	var up, down, dgUp uint64
	var late lateness
	for _, s := range shards {
		late.add(&s.late)
		for _, lc := range s.clients {
			if !lc.opened {
				continue
			}
			if lc.playingAtEnd {
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
		}
	}
	n := float64(max(rep.Connected, 1))
	rep.BytesUpPerS = float64(up) / wall.Seconds() / n
	rep.BytesDownPerS = float64(down) / wall.Seconds() / n
	rep.DatagramsUpPerS = float64(dgUp) / wall.Seconds()
	rep.HandshakeP50ms, rep.HandshakeP99ms = quantile(hs, 0.5), quantile(hs, 0.99)
	rep.RTTP50ms, rep.RTTP99ms = quantile(rtt, 0.5), quantile(rtt, 0.99)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	rep.LoadDeadlines = late.n
	rep.LoadLateP50ms, rep.LoadLateP99ms, rep.LoadLateMaxms = ms(late.quantile(0.5)), ms(late.quantile(0.99)), ms(late.max)
	return rep
}
