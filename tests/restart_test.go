package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	bin := binary(t)
	addr := fmt.Sprintf("127.0.0.1:%d", freeUDPPort(t))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	serve := func() *exec.Cmd {
		c := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--players", "2")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	srv := serve()
	dir := t.TempDir()
	type client struct {
		cmd    *exec.Cmd
		stderr *syncBuffer
		done   chan error
	}
	var clients []client
	for i := 0; i < 2; i++ {
		c := exec.CommandContext(ctx, bin, "join", addr, "--headless", "--bot", "--duration", "20s",
			"--stats-json", filepath.Join(dir, fmt.Sprintf("c%d.json", i)))
		var se syncBuffer
		c.Stderr = &se
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cl := client{c, &se, make(chan error, 1)}
		go func() { cl.done <- cl.cmd.Wait() }()
		clients = append(clients, cl)
	}
	time.Sleep(5 * time.Second) // let the match run: this is the scenario, not synchronisation
	srv.Process.Signal(syscall.SIGKILL)
	srv.Wait()
	restarted := time.Now()
	srv = serve()
	defer func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	}()
	for i, c := range clients {
		var err error
		select {
		case err = <-c.done:
		case <-time.After(40 * time.Second):
			t.Fatalf("client %d hangs %v after the restart", i, time.Since(restarted))
		}
		se := c.stderr.String()
		if strings.Contains(se, "panic") || strings.Contains(se, "goroutine ") {
			t.Fatalf("client %d crashed: %s", i, se)
		}
		b, rerr := os.ReadFile(filepath.Join(dir, fmt.Sprintf("c%d.json", i)))
		var s struct {
			Status         string `json:"status"`
			Message        string `json:"message"`
			HashMismatches uint64 `json:"hash_mismatches"`
		}
		if rerr == nil {
			json.Unmarshal(b, &s)
		}
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
