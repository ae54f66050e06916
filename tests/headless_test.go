package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHeadlessBotMatch runs the real binary: serve, plus two headless bot
// clients over real UDP on 127.0.0.1 with a simulated bad network (60 ms
// ±10 ms, 5% loss), for 60 s. Both clients must see zero hash mismatches,
// real rollbacks (between them), bandwidth within budget (≤ 6 KB/s down, ≤ 3 KB/s up), and
// the bots must finish at least 3 rounds with a kill.
func TestHeadlessBotMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel() // a minute of waiting on the wall clock, little work: it runs beside the others
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2")
	var clients []*joinProc
	for i := 0; i < 2; i++ {
		clients = append(clients, srv.headless(t, ctx, fmt.Sprintf("bot%d", i), "--bot",
			"--duration", "60s", "--sim-latency", "60ms", "--sim-jitter", "10ms", "--sim-loss", "5%",
			"--sim-seed", fmt.Sprint(i+1)))
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, c := range clients {
				t.Logf("%s stderr: %s", c.name, c.stderr.String())
			}
		}
	})
	for i, c := range clients {
		if err := c.wait(); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	var rollbacks uint64
	for i, c := range clients {
		s, b, err := c.stats()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("client %d: %s", i, strings.Join(strings.Fields(string(b)), " "))
		switch {
		case s.HashMismatches != 0:
			t.Errorf("client %d: %d hash mismatches", i, s.HashMismatches)
		case s.BytesDownPerSec > 6000 || s.BytesUpPerSec > 3000:
			t.Errorf("client %d: bandwidth %.0f B/s down, %.0f B/s up; budget 6000 / 3000", i, s.BytesDownPerSec, s.BytesUpPerSec)
		case s.Seconds < 55:
			t.Errorf("client %d played only %.1f s", i, s.Seconds)
		}
		if s.RoundsWithKill < 3 {
			t.Errorf("client %d: only %d of %d rounds ended with a kill in 60 s", i, s.RoundsWithKill, s.RoundsPlayed)
		}
		rollbacks += s.Rollbacks
	}
	// A rollback is a State that contradicts what a client first showed of
	// its own tank: with inputs in time, that takes the other bot's shots
	// landing where they were not predicted, which a 60 s match may spare
	// one of the two tanks, not both.
	if rollbacks == 0 {
		t.Error("no rollbacks in either client: prediction was never exercised")
	}
}
