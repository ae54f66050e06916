package agones

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Defaults of Config.
const (
	DefaultHealthEvery  = 2 * time.Second
	DefaultSampleWithin = time.Second
	// DefaultShutdownWithin bounds Stop's Shutdown, its retries included.
	DefaultShutdownWithin = 3 * time.Second
)

// The names the runner uses: the Counter of rooms and the List of
// players the GameServer must declare, and the label of the fleet.
const (
	RoomsCounter = "rooms"
	PlayersList  = "players"
	FleetLabel   = "ttytanks.fleet"
)

// Config configures a Runner.
type Config struct {
	// Client calls the sidecar.
	Client *Client
	// Sample returns the game server's figures. The runner calls it on a
	// goroutine of its own, one call at a time; it may block while the
	// game loop is stuck, and the runner waits SampleWithin for it.
	Sample func() Figures
	// FleetName, if not empty, is set as the label FleetLabel (which
	// Agones makes "agones.dev/sdk-ttytanks.fleet").
	FleetName string
	// RoomsCapacity, if positive, is set as the rooms Counter's capacity
	// with its first count.
	RoomsCapacity int64
	// MaxPlayers bounds the players List: the first MaxPlayers values are
	// sent (default and at most MaxListCapacity).
	MaxPlayers int
	// HealthEvery is the health ping's period (default 2 s); SampleWithin
	// how long a sample may take and the loop still count as live
	// (default 1 s); ShutdownWithin bounds Stop's Shutdown (default 3 s).
	HealthEvery, SampleWithin, ShutdownWithin time.Duration
	// Logger receives what the runner has to say (nil: discarded).
	Logger *slog.Logger
}

// Runner is a game server's side of Agones, for one process that hosts
// many rooms: Ready once, a health ping every HealthEvery while the game
// loop ticks (and none while it does not), the rooms Counter and the
// players List kept to the server's figures, the fleet label, a log line
// when the GameServer is Allocated, and Shutdown at Stop. Start it once
// the game's sockets are bound.
type Runner struct {
	cfg    Config
	log    *slog.Logger
	cancel context.CancelFunc
	wg     sync.WaitGroup
	stop   sync.Once
	err    error // Stop's

	// The loop's own: the sample under way (nil if none), the last
	// sample that answered, and which calls are failing.
	pending  chan Figures
	last     Figures
	haveLast bool
	withheld bool
	failing  map[string]bool
	sync     syncState
}

// Start starts a runner with cfg: its loop and its watch run until Stop.
func Start(cfg Config) *Runner {
	if cfg.HealthEvery <= 0 {
		cfg.HealthEvery = DefaultHealthEvery
	}
	if cfg.SampleWithin <= 0 {
		cfg.SampleWithin = DefaultSampleWithin
	}
	if cfg.ShutdownWithin <= 0 {
		cfg.ShutdownWithin = DefaultShutdownWithin
	}
	if cfg.MaxPlayers <= 0 || cfg.MaxPlayers > MaxListCapacity {
		cfg.MaxPlayers = MaxListCapacity
	}
	r := &Runner{cfg: cfg, log: cfg.Logger, failing: map[string]bool{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.sync.init()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.wg.Add(2)
	go func() { defer r.wg.Done(); r.run(ctx) }()
	go func() { defer r.wg.Done(); r.watch(ctx) }()
	return r
}

// Stop ends the runner's loop and watch, then tells Agones Shutdown
// (retried within ShutdownWithin) and returns its error. Later calls
// return the same.
func (r *Runner) Stop() error {
	r.stop.Do(func() {
		r.cancel()
		r.wg.Wait()
		r.err = r.shutdown()
	})
	return r.err
}

// run is the loop: a first sample, Ready, then a beat every HealthEvery.
func (r *Runner) run(ctx context.Context) {
	if f, ok := r.probe(ctx); ok {
		r.last, r.haveLast = f, true
	}
	if !r.ready(ctx) {
		return
	}
	if r.haveLast {
		r.report(ctx, r.last)
	}
	t := time.NewTicker(r.cfg.HealthEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.beat(ctx)
		}
	}
}

// ready calls Ready until it succeeds (the sidecar may start after the
// game server), with a backoff of 250 ms doubling to 5 s; it reports
// false if ctx ended first.
func (r *Runner) ready(ctx context.Context) bool {
	wait := 250 * time.Millisecond
	for tries := 1; ; tries++ {
		err := r.cfg.Client.Ready(ctx)
		if r.outcome("ready", err) {
			r.log.Info("agones ready", "tries", tries)
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// beat is one period: a sample; a health ping if it answered within
// SampleWithin and the ticks grew since the last one; then the figures.
func (r *Runner) beat(ctx context.Context) {
	f, ok := r.probe(ctx)
	var why string
	switch {
	case !ok:
		why = fmt.Sprintf("the game loop has not answered within %v", r.cfg.SampleWithin)
	case !r.haveLast:
		why = "no earlier sample to compare"
	case f.Ticks <= r.last.Ticks:
		why = "the game loop does not tick"
	}
	if why == "" {
		if r.withheld {
			r.withheld = false
			r.log.Info("agones health resumed")
		}
		r.outcome("health", r.cfg.Client.Health(ctx))
	} else {
		level := slog.LevelWarn
		if r.withheld {
			level = slog.LevelDebug // said once, at the first
		}
		r.withheld = true
		r.log.Log(ctx, level, "agones health withheld", "reason", why)
	}
	if ok {
		r.last, r.haveLast = f, true
		r.report(ctx, f)
	}
}

// probe takes a sample within SampleWithin: a sample still under way
// from an earlier probe (the loop was stuck) is waited for, not doubled.
// It reports false if none answered in time.
func (r *Runner) probe(ctx context.Context) (Figures, bool) {
	if r.pending == nil {
		ch := make(chan Figures, 1)
		go func() { ch <- r.cfg.Sample() }()
		r.pending = ch
	}
	t := time.NewTimer(r.cfg.SampleWithin)
	defer t.Stop()
	select {
	case f := <-r.pending:
		r.pending = nil
		return f, true
	case <-t.C:
	case <-ctx.Done():
	}
	return Figures{}, false
}

// outcome logs a call's failure when it starts failing (a warning) and
// its success when it stops (and, at debug level, each failure between);
// it reports whether err is nil.
func (r *Runner) outcome(call string, err error) bool {
	if err == nil {
		if r.failing[call] {
			delete(r.failing, call)
			r.log.Info("agones call ok again", "call", call)
		}
		return true
	}
	level := slog.LevelWarn
	if r.failing[call] {
		level = slog.LevelDebug
	}
	r.failing[call] = true
	r.log.Log(context.Background(), level, "agones call failed", "call", call, "err", err)
	return false
}

// watch logs the GameServer's state changes: Allocated at info level,
// the others at debug level.
func (r *Runner) watch(ctx context.Context) {
	state := ""
	failing := false
	_ = r.cfg.Client.WatchGameServer(ctx, func(gs GameServer) {
		failing = false
		if gs.Status.State == state {
			return
		}
		state = gs.Status.State
		if state == StateAllocated {
			r.log.Info("agones allocated", "gameserver", gs.ObjectMeta.Name)
			return
		}
		r.log.Debug("agones state", "gameserver", gs.ObjectMeta.Name, "state", state)
	}, func(err error) {
		level := slog.LevelDebug
		if !failing {
			level = slog.LevelWarn
		}
		failing = true
		r.log.Log(ctx, level, "agones watch ended, reconnecting", "err", err)
	})
}

// shutdown calls Shutdown, again after a failure, within ShutdownWithin.
func (r *Runner) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.ShutdownWithin)
	defer cancel()
	for {
		err := r.cfg.Client.Shutdown(ctx)
		if err == nil {
			r.log.Info("agones shutdown")
			return nil
		}
		select {
		case <-ctx.Done():
			r.log.Error("agones shutdown failed", "err", err)
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}
