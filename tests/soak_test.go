package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttytanks/proto/recording/resim"
)

// soakFor is how long TestSoakRecordings runs: TTYTANKS_SOAK (a
// duration, such as 10m, for the acceptance soak), else 20 s.
func soakFor(t *testing.T) time.Duration {
	if v := os.Getenv("TTYTANKS_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("TTYTANKS_SOAK=%q: %v", v, err)
		}
		return d
	}
	return 20 * time.Second
}

// TestSoakRecordings runs the real binary as an operator's server for a
// day would be, compressed: serve --record with a --record-keep bound,
// matches to one round win so they end often, and headless bot clients
// joining, leaving (their --duration ends), killed (SIGKILL), frozen
// (SIGSTOP for 2-12 s, then SIGCONT) and on lossy paths; halfway the
// server itself is killed with SIGKILL and started again on the same
// directory, and at the end it stops on SIGTERM. Every recording left
// must verify (finished, or interrupted), none may be empty, and the
// directory stays within its bound. 20 s by default; the acceptance soak
// is
//
//	TTYTANKS_SOAK=10m go test ./tests -run TestSoakRecordings -v -timeout 20m
func TestSoakRecordings(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	d := soakFor(t)
	ctx, cancel := context.WithTimeout(context.Background(), d+2*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "recs")
	const keep = 40 << 10
	serveArgs := []string{"--players", "2", "--rounds", "1", "--record", dir, "--record-keep", "40KB", "--seats-per-addr", "64", "--max-rooms", "16", "--drain-timeout", "5s", "--maze", "9x7"}
	srv := startBin(t, ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, serveArgs...)...)
	addr := srv.stderr.Await(t, 10*time.Second, srv.exited, "serve to log its address", servingRE)[1]
	// Every recording is verified as it is seen, every few seconds, so
	// that those the bound deletes later count too: a verdict per file,
	// the last one taken.
	verdicts := map[string]verdict{}
	var most int64
	check := func() {
		most = max(most, verifyDir(t, dir, verdicts))
	}
	nextCheck := time.Now()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	type client struct {
		p      *joinProc
		thawAt time.Time // frozen until then (zero: running)
	}
	var clients []*client
	var joins, kills, freezes int
	start := time.Now()
	restarted := false
	for time.Since(start) < d {
		if !restarted && time.Since(start) > d/2 {
			// The server dies mid-match: its files end inside or after a
			// block; a new server takes the directory over.
			srv.cmd.Process.Kill()
			srv.wait()
			srv = startBin(t, ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, serveArgs...)...)
			addr = srv.stderr.Await(t, 10*time.Second, srv.exited, "the new serve to log its address", servingRE)[1]
			restarted = true
		}
		live := clients[:0]
		for _, c := range clients {
			select {
			case <-c.p.exited:
				if !c.thawAt.IsZero() {
					c.p.cmd.Process.Signal(syscall.SIGCONT)
				}
				continue
			default:
			}
			if !c.thawAt.IsZero() && time.Now().After(c.thawAt) {
				c.p.cmd.Process.Signal(syscall.SIGCONT)
				c.thawAt = time.Time{}
			}
			live = append(live, c)
		}
		clients = live
		for len(clients) < 5 {
			joins++
			args := []string{"--bot", "--duration", fmt.Sprintf("%ds", 5+rng.IntN(30)), "--sim-seed", fmt.Sprint(joins)}
			if rng.IntN(2) == 0 {
				args = append(args, "--sim-loss", fmt.Sprintf("%d%%", 1+rng.IntN(8)), "--sim-latency", fmt.Sprintf("%dms", 10+rng.IntN(80)))
			}
			clients = append(clients, &client{p: startJoin(t, ctx, addr, fmt.Sprintf("p%d", joins), args...)})
		}
		c, k := clients[rng.IntN(len(clients))], rng.IntN(10)
		switch {
		case k == 0 && c.thawAt.IsZero():
			kills++
			c.p.cmd.Process.Kill()
		case k == 1 && c.thawAt.IsZero():
			freezes++
			c.p.cmd.Process.Signal(syscall.SIGSTOP)
			c.thawAt = time.Now().Add(time.Duration(2+rng.IntN(11)) * time.Second)
		}
		if time.Now().After(nextCheck) {
			check()
			nextCheck = time.Now().Add(3 * time.Second)
		}
		time.Sleep(500 * time.Millisecond) // the soak's pace on the wall clock: real processes, real time
	}
	for _, c := range clients {
		if !c.thawAt.IsZero() {
			c.p.cmd.Process.Signal(syscall.SIGCONT)
		}
	}
	if _, err := srv.stop(t, syscall.SIGTERM, 30*time.Second); err != nil {
		t.Logf("serve on SIGTERM: %v", err)
	}
	log := srv.stderr.String()
	check()
	finished, interrupted := 0, 0
	for name, v := range verdicts {
		switch {
		case v.err != nil:
			t.Errorf("%s: %v", name, v.err)
		case v.ended:
			finished++
		default:
			interrupted++
		}
	}
	deleted := strings.Count(log, `msg="recording deleted"`)
	t.Logf("%v: %d joins, %d kills, %d freezes, a server killed and restarted; %d recordings verify (%d finished, %d interrupted), %d deleted to keep %d bytes (at most %d on disk)",
		d.Round(time.Second), joins, kills, freezes, finished+interrupted, finished, interrupted, deleted, keep, most)
	// A short soak may see no match to its end (a round on a small maze
	// takes some seconds); a long one must see both kinds.
	if finished+interrupted == 0 || d >= 2*time.Minute && (finished == 0 || interrupted == 0) {
		t.Errorf("%d finished and %d interrupted recordings: the soak covers too little", finished, interrupted)
	}
	if most > keep {
		t.Errorf("the directory held %d bytes, over --record-keep %d", most, keep)
	}
	if m := regexp.MustCompile(`level=ERROR msg="?recording[^\n]*`).FindString(log); m != "" {
		t.Errorf("the server logged a recording error: %s", m)
	}
}

// verdict is what verify said of a recording the last time it was seen.
type verdict struct {
	ended bool
	err   error
}

// verifyDir verifies every recording in dir into verdicts, by name, and
// returns the directory's size in bytes. A file deleted meanwhile keeps
// its earlier verdict.
func verifyDir(t *testing.T, dir string, verdicts map[string]verdict) (total int64) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, e := range ents {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // deleted meanwhile
		}
		info, _ := f.Stat()
		total += info.Size()
		sum, err := resim.Verify(f)
		f.Close()
		if err != nil {
			err = fmt.Errorf("FAILED after %d good ticks (%d bytes): %w", sum.Ticks, info.Size(), err)
		}
		verdicts[e.Name()] = verdict{ended: sum.Ended, err: err}
	}
	return total
}
