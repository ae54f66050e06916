package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// freeUDPPort returns a UDP port on 127.0.0.1 that was free a moment ago.
func freeUDPPort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

type stats struct {
	Status          string  `json:"status"`
	Seconds         float64 `json:"seconds"`
	Rollbacks       uint64  `json:"rollbacks"`
	ReplayP99Micros float64 `json:"replay_cost_p99_us"`
	RTTMillis       float64 `json:"rtt_ms"`
	LossUp          float64 `json:"loss_up"`
	LossDown        float64 `json:"loss_down"`
	HashMismatches  uint64  `json:"hash_mismatches"`
	Resyncs         uint64  `json:"resyncs"`
	BytesUpPerSec   float64 `json:"bytes_up_per_s"`
	BytesDownPerSec float64 `json:"bytes_down_per_s"`
	RoundsPlayed    int     `json:"rounds"`
	RoundsWithKill  int     `json:"rounds_with_kill"`
}

// TestHeadlessBotMatch runs the real binary: serve, plus two headless bot
// clients over real UDP on 127.0.0.1 with a simulated bad network (60 ms
// ±10 ms, 5% loss), for 60 s. Both clients must see zero hash mismatches,
// real rollbacks (between them), bandwidth within budget (≤ 6 KB/s down, ≤ 3 KB/s up), and
// the bots must finish at least 3 rounds with a kill.
func TestHeadlessBotMatch(t *testing.T) {
	bin := binary(t)
	port := freeUDPPort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--players", "2")
	var srvLog syncBuffer
	srv.Stderr = &srvLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", srvLog.String())
		}
	}()
	dir := t.TempDir()
	var clients []*exec.Cmd
	for i := 0; i < 2; i++ {
		c := exec.CommandContext(ctx, bin, "join", addr, "--headless", "--bot", "--name", fmt.Sprintf("bot%d", i),
			"--duration", "60s", "--sim-latency", "60ms", "--sim-jitter", "10ms", "--sim-loss", "5%",
			"--sim-seed", fmt.Sprint(i+1), "--stats-json", filepath.Join(dir, fmt.Sprintf("c%d.json", i)))
		var out syncBuffer
		c.Stderr = &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("client stderr: %s", out.String())
			}
		})
	}
	for i, c := range clients {
		if err := c.Wait(); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	var rollbacks uint64
	for i := 0; i < 2; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("c%d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		var s stats
		if err := json.Unmarshal(b, &s); err != nil {
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
