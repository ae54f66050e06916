package tests

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServerRestart kills the server process mid-match (SIGKILL: no Leave)
// and starts a new one on the same port. The clients neither crash nor
// hang: each rejoins the new server, or exits with a clear message, within
// 20 s of the restart.
func TestServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2")
	var clients []*joinProc
	for i := 0; i < 2; i++ {
		clients = append(clients, startJoin(t, ctx, srv.addr, "", "--bot", "--duration", "20s"))
	}
	time.Sleep(5 * time.Second) // let the match run: this is the scenario, not synchronisation
	srv.cmd.Process.Signal(syscall.SIGKILL)
	srv.wait()
	restarted := time.Now()
	serveBin(t, ctx, srv.addr, "--players", "2") // on the same port, which the killed server held
	for i, c := range clients {
		var err error
		select {
		case <-c.exited:
			err = c.err
		case <-time.After(40 * time.Second):
			t.Fatalf("client %d hangs %v after the restart", i, time.Since(restarted))
		}
		se := c.stderr.String()
		if strings.Contains(se, "panic") || strings.Contains(se, "goroutine ") {
			t.Fatalf("client %d crashed: %s", i, se)
		}
		s, _, _ := c.stats() // a client that gave up may have written none
		t.Logf("client %d: exit %v after %v; status %q %q; stderr %q", i, err, time.Since(restarted).Round(time.Second), s.Status, s.Message, strings.TrimSpace(se))
		switch {
		case err == nil && s.Status == "playing":
			// Rejoined the new server and played on.
			if s.HashMismatches != 0 {
				t.Errorf("client %d: %d hash mismatches", i, s.HashMismatches)
			}
		case err != nil && strings.TrimSpace(se) != "":
			// Gave up with a message.
		default:
			t.Errorf("client %d neither rejoined nor exited with a message", i)
		}
	}
}
