package loadtest

import (
	"fmt"
	"testing"
	"time"

	"ttytanks/internal/cputime"
	"ttytanks/netcode"
)

// BenchmarkLoop is the load generator's cost per client. An op is one
// client-second of a light client playing in an 8-seat room (60 Inputs
// up and 30 States down, all sealed) through one event loop, against a
// server in a process of its own (this test binary, see TestMain) over
// loopback; the clients connect and settle untimed. ns/op is the CPU
// this whole process used per client-second (the loop, the Go runtime
// and its GC, the kernel's share of the system calls, which on loopback
// includes delivering each datagram to the server's socket), so 300,000
// ns/op is 0.03% of a core a client; B/op and allocs/op are per
// client-second too. late-p99-µs is how late the loop ran the clients'
// deadlines, p99, and up/client-s how many datagrams a client sent a
// second (30 with protocol v10 while its inputs arrive in time, 60 when
// its clock sync sends one every tick).
func BenchmarkLoop(b *testing.B) {
	for _, clients := range []int{128, 512} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) { benchmarkLoop(b, clients, 8) })
	}
}

func benchmarkLoop(b *testing.B, clients, seats int) {
	b.ReportAllocs()
	target := serveChild(b, seats)
	cfg := &Config{Clients: clients, Duration: 24 * time.Hour, Ramp: 1000, PerAddr: 4}
	sockets, err := newSocketSet(target, cfg, clients)
	if err != nil {
		b.Fatal(err)
	}
	s := newShard(0, 1, target, cfg, time.Now(), sockets)
	defer s.finish()
	stepUntil(b, s, time.Minute, "every client playing", func() bool { return int(s.playing.Load()) == clients })
	settled := time.Now().Add(time.Second) // the clocks' first adjustments
	stepUntil(b, s, time.Minute, "a second of play", func() bool { return !time.Now().Before(settled) })

	s.late = lateness{}
	up0 := datagramsUp(s)
	cpu0, _ := cputime.Process()
	began := time.Now()
	b.ResetTimer()
	end := began.Add(time.Duration(float64(b.N) / float64(clients) * float64(time.Second)))
	for time.Now().Before(end) {
		s.step()
	}
	b.StopTimer()
	wall := time.Since(began)
	cpu1, _ := cputime.Process()
	if int(s.playing.Load()) != clients {
		b.Errorf("%d of %d clients playing at the end: %v", s.playing.Load(), clients, statuses(s))
	}
	b.ReportMetric(float64(cpu1-cpu0)/(float64(clients)*wall.Seconds()), "ns/op")
	b.ReportMetric(float64(s.late.quantile(0.99))/float64(time.Microsecond), "late-p99-µs")
	b.ReportMetric(float64(datagramsUp(s)-up0)/(float64(clients)*wall.Seconds()), "up/client-s")
}

// datagramsUp is how many datagrams the shard's clients have sent in
// their sessions under way.
func datagramsUp(s *shard) uint64 {
	var n uint64
	var v netcode.View
	for _, lc := range s.clients {
		if lc.c != nil {
			lc.c.View(&v)
			n += v.Metrics.DatagramsUp
		}
	}
	return n
}

// statuses counts the shard's clients by status, and its errors.
func statuses(s *shard) map[string]int {
	m := map[string]int{}
	for _, lc := range s.clients {
		switch {
		case lc.err != "":
			m[lc.err]++
		case lc.c == nil:
			m["between sessions"]++
		default:
			m[lc.c.Status().String()]++
		}
	}
	return m
}
