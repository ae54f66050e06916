package loadtest

import (
	"context"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"ttytanks/netcode/transport"
)

// checkRun checks what every good run reports: every client connected
// and playing at the end, no error, the States the server sent received,
// ticks played, the loops' deadlines counted, and the CPU measured.
func checkRun(t *testing.T, rep *Report, clients int) {
	t.Helper()
	if rep.Clients != clients || rep.Connected != clients || rep.PlayingAtEnd != clients {
		t.Errorf("%d clients, %d connected, %d playing at the end; want %d each", rep.Clients, rep.Connected, rep.PlayingAtEnd, clients)
	}
	if rep.ErrorsTotal() != 0 {
		t.Errorf("errors: %v", rep.Errors)
	}
	if rep.StatesExpected == 0 || rep.StatesReceived*100 < rep.StatesExpected*95 {
		t.Errorf("%d of %d States received", rep.StatesReceived, rep.StatesExpected)
	}
	// A client's first Advance in a match may step several ticks, and so
	// may one that runs late: there are about as many deadlines as ticks,
	// not exactly.
	if rep.TicksPlayed < int64(clients)*10 || rep.LoadDeadlines < uint64(clients)*10 || rep.RTTP50ms <= 0 {
		t.Errorf("%d ticks played, %d deadlines run, RTT p50 %.2f ms", rep.TicksPlayed, rep.LoadDeadlines, rep.RTTP50ms)
	}
	if rep.LoadCores != runtime.GOMAXPROCS(0) || rep.LoadCPUPerS <= 0 {
		t.Errorf("load generator CPU %.3f of %d cores; GOMAXPROCS is %d", rep.LoadCPUPerS, rep.LoadCores, runtime.GOMAXPROCS(0))
	}
}

// Run against a real server in this process, over loopback UDP: 24
// clients from six source addresses fill six 4-seat rooms, each
// connects, plays to the end and gets its States, with no error.
func TestRunAgainstAServer(t *testing.T) {
	target := serve(t, 4)
	d := 3 * time.Second
	if testing.Short() {
		d = 2 * time.Second
	}
	rep, err := Run(context.Background(), target, &Config{Clients: 24, Duration: d, Ramp: 100, PerAddr: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, rep, 24)
}

// Run around a simulated network (the portable loop of a goroutine a
// socket, on any OS): 8 clients with 10 ms of latency each way all
// connect and play, with no error.
func TestRunSimulated(t *testing.T) {
	target := serve(t, 4)
	sim := transport.Impairment{Latency: 10 * time.Millisecond}
	rep, err := Run(context.Background(), target, &Config{Clients: 8, Duration: 3 * time.Second, Ramp: 100, PerAddr: 4, Sim: sim, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, rep, 8)
	if rep.RTTP50ms < 20 {
		t.Errorf("RTT p50 %.2f ms through 10 ms of latency each way", rep.RTTP50ms)
	}
}

// A run whose context ends stops at once, before its duration: the
// loops wake from their wait.
func TestRunStopsWithItsContext(t *testing.T) {
	target := serve(t, 4)
	ctx, cancel := context.WithCancel(context.Background())
	began := time.Now()
	done := make(chan *Report, 1)
	go func() {
		rep, err := Run(ctx, target, &Config{Clients: 4, Duration: time.Hour, Ramp: 100, PerAddr: 4})
		if err != nil {
			t.Error(err)
		}
		done <- rep
	}()
	cancel()
	select {
	case rep := <-done:
		if rep != nil && rep.DurationS > 60 {
			t.Errorf("the run took %.0f s", rep.DurationS)
		}
	case <-time.After(time.Minute):
		t.Fatalf("Run did not stop within a minute of its context's end (began %v ago)", time.Since(began))
	}
}

// A light client's session is small: its core's rings hold 256 ticks,
// not the default 4096 (6.6 MB of snapshots, made and zeroed for every
// session), so starting one allocates well under a megabyte.
func TestLightClientSessionsAreSmall(t *testing.T) {
	cfg := &Config{Clients: 1, Duration: time.Second, Ramp: 1, PerAddr: 4}
	s := newShard(0, 1, netip.MustParseAddrPort("127.0.0.1:7777"), cfg, time.Now(), nil)
	lc := s.clients[0]
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const n = 10
	for range n {
		lc.start(time.Now(), s.target, cfg)
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / n; per > 1<<20 {
		t.Errorf("a light client's session allocates %d bytes", per)
	}
}
