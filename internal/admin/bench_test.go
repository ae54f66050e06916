package admin

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"testing"
	"time"

	"ttytanks/game/bot"
	"ttytanks/internal/cputime"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// loadedServer starts a game server with rooms of bots playing on an
// in-memory network, and an admin Server sampling it once a second on a
// loopback port; it returns the admin's address, the driver, and stop.
func loadedServer(b *testing.B, rooms int) (string, *netcode.ServerDriver, func()) {
	b.Helper()
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: 2, Bots: 2, Rooms: rooms, Rounds: 0, Seed: 1,
		NewBot: func(slot int, seed uint64) netcode.InputSource { return bot.NewLevel(seed, bot.Normal) }})
	if err != nil {
		b.Fatal(err)
	}
	sd := netcode.NewServerDriver(srv, transport.NewMemNetwork().Listen())
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- sd.Run(ctx) }()
	a, err := New(Config{Sample: func() Figures {
		var f Figures
		sd.Do(func(s *netcode.Server) { f.Server = s.Stats() })
		return f
	}})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go a.Run(ctx)
	go func() { _ = a.Serve(ln) }()
	return ln.Addr().String(), sd, func() {
		cancel()
		a.Close()
		<-ran
	}
}

// tickP99 returns the server's tick p99 over its last 10 s.
func tickP99(sd *netcode.ServerDriver) time.Duration {
	var p time.Duration
	sd.Do(func(s *netcode.Server) { p = s.Stats().TickP99 })
	return p
}

// BenchmarkScrapeAt100Hz: a server stepping 8 rooms of bots is scraped
// 100 times a second over loopback HTTP, b.N scrapes (b.N × 10 ms), by
// curl in a process of its own (one connection, kept alive, gzip
// accepted, as Prometheus scrapes), after as long a stretch unscraped. It reports
// the CPU the scrapes cost this process, the server's, in percent of a
// core (and the scraper's own apart), and the server's tick p99 without
// and with them. Run with -benchtime 1000x for 10 s stretches, the p99
// window's length.
func BenchmarkScrapeAt100Hz(b *testing.B) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Fatalf("curl is not installed (.ci/run installs it): %v", err)
	}
	addr, sd, stop := loadedServer(b, 8)
	defer stop()
	scrapes := func(n int) *exec.Cmd {
		return exec.Command(curl, "-sS", "--fail", "--compressed", "--rate", "100/s", fmt.Sprintf("http://%s/metrics?n=[1-%d]", addr, n))
	}
	if out, err := scrapes(1).Output(); err != nil || len(out) == 0 {
		b.Fatalf("a first scrape: %v", err)
	}
	d := time.Duration(b.N) * 10 * time.Millisecond
	cpu0, ok := cputime.Process()
	if !ok {
		b.Skip("no process CPU time on this system")
	}
	time.Sleep(d) // the stretch without scrapes: the baseline
	cpu1, _ := cputime.Process()
	p99Base := tickP99(sd)
	b.ResetTimer()
	c := scrapes(b.N)
	c.Stdout = io.Discard
	began := time.Now()
	if err := c.Run(); err != nil {
		b.Fatalf("curl: %v", err)
	}
	took := time.Since(began)
	b.StopTimer()
	cpu2, _ := cputime.Process()
	p99Scraped := tickP99(sd)
	base := float64(cpu1-cpu0) / float64(d)
	scraped := float64(cpu2-cpu1) / float64(took)
	b.ReportMetric(100*(scraped-base), "%core-added")
	b.ReportMetric(100*base, "%core-base")
	b.ReportMetric(100*float64(c.ProcessState.UserTime()+c.ProcessState.SystemTime())/float64(took), "%core-scraper")
	b.ReportMetric(float64(p99Base.Microseconds()), "tick-p99-base-µs")
	b.ReportMetric(float64(p99Scraped.Microseconds()), "tick-p99-scraped-µs")
}

// BenchmarkServeScrape: one /metrics request served from the cached
// sample, without the network.
func BenchmarkServeScrape(b *testing.B) {
	s, src := newBenchServer(b)
	_ = src
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
	}
}

// BenchmarkRefresh: one sample's encoding (the sampler does one a
// second), with the process and Go collectors.
func BenchmarkRefresh(b *testing.B) {
	s, _ := newBenchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		s.Refresh()
	}
}

func newBenchServer(b *testing.B) (*Server, *Figures) {
	b.Helper()
	f := &Figures{}
	f.Server.Rooms = make([]netcode.RoomStats, 64)
	f.Server.Players = make([]netcode.PlayerStats, 500)
	s, err := New(Config{Sample: func() Figures { return *f }})
	if err != nil {
		b.Fatal(err)
	}
	s.Refresh()
	return s, f
}

// BenchmarkWakeAt100Hz: the floor under BenchmarkScrapeAt100Hz's figure,
// what 100 wake-ups a second cost this process with nothing to do (a
// ticker, b.N ticks): the runtime's and the kernel's part of any request
// served 100 times a second, whatever serves it.
func BenchmarkWakeAt100Hz(b *testing.B) {
	cpu0, ok := cputime.Process()
	if !ok {
		b.Skip("no process CPU time on this system")
	}
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	began := time.Now()
	for range b.N {
		<-t.C
	}
	took := time.Since(began)
	cpu1, _ := cputime.Process()
	b.ReportMetric(100*float64(cpu1-cpu0)/float64(took), "%core")
	b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N), "µs/wake")
}
