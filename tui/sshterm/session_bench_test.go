package sshterm

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"ttytanks/internal/cputime"
)

// BenchmarkSessions plays 20 sessions of 80x24 in 4-seat rooms on a
// playRig, as loadtest --ssh does (quick match from the lobby, then a
// random arrow or shot every 100 ms), and reports what a session costs
// once all are in a game: the heap it keeps (live-B/session, after a
// GC), its goroutines and their stacks, the CPU it uses over 3 s of play
// (cpu-%/session, of one core) and the screen it sends
// (screen-B/s/session); then, once every session
// has ended, the heap still kept per session that was (left-B/session,
// after a GC: near 0 unless sessions leak). It is the SSH path less the
// SSH stream's encryption and system calls.
//
//	go test ./tui/sshterm -run '^$' -bench Sessions -benchtime 1x
func BenchmarkSessions(b *testing.B) {
	const n, steady = 20, 3 * time.Second
	var live, left, cpu, screen, stack, gor float64
	for range b.N {
		r := newPlayRig(b, 4, nil)
		base := heapAfterGC()
		stack0, gor0 := stackInUse(), runtime.NumGoroutine()
		ctx, stop := context.WithCancel(context.Background())
		sessions := make([]*fakeSession, n)
		var played, ended sync.WaitGroup
		for i := range sessions {
			s := newFakeSession(fmt.Sprintf("p%d", i), 80, 24)
			sessions[i] = s
			played.Add(1)
			go func() {
				defer played.Done()
				s.play(ctx, uint64(i))
			}()
			ended.Add(1)
			go func() {
				defer ended.Done()
				r.game.Play(context.Background(), s)
			}()
		}
		for _, s := range sessions {
			select {
			case <-s.inGame:
			case <-time.After(30 * time.Second):
				b.Fatalf("%s: no game after 30 s", s.name)
			}
		}
		cpu0, _ := cputime.Process()
		var sent0 int64
		for _, s := range sessions {
			sent0 += s.written()
		}
		t0 := time.Now()
		time.Sleep(steady) // the sessions play meanwhile: this is what is measured
		cpu1, _ := cputime.Process()
		wall := time.Since(t0)
		var sent1 int64
		for _, s := range sessions {
			sent1 += s.written()
		}
		live += float64(heapAfterGC()-base) / n
		stack += float64(stackInUse()-stack0) / n
		gor += float64(runtime.NumGoroutine()-gor0) / n
		cpu += 100 * float64(cpu1-cpu0) / float64(wall) / n
		screen += float64(sent1-sent0) / wall.Seconds() / n
		stop()
		played.Wait()
		ended.Wait()
		r.close()
		left += float64(heapAfterGC()-base) / n
	}
	b.ReportMetric(live/float64(b.N), "live-B/session")
	b.ReportMetric(stack/float64(b.N), "stack-B/session")
	b.ReportMetric(gor/float64(b.N), "goroutines/session")
	b.ReportMetric(cpu/float64(b.N), "cpu-%/session")
	b.ReportMetric(screen/float64(b.N), "screen-B/s/session")
	b.ReportMetric(left/float64(b.N), "left-B/session")
}

// stackInUse is the memory of the goroutines' stacks, in bytes.
func stackInUse() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.StackInuse)
}

// heapAfterGC is the heap in use after a collection, in bytes.
func heapAfterGC() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
