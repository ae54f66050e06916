package tests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestServeShutsDownCleanly: SIGINT makes `serve` tell its clients (Leave)
// and exit 0 within a second; the client leaves with a clear message.
func TestServeShutsDownCleanly(t *testing.T) {
	bin := binary(t)
	addr := fmt.Sprintf("127.0.0.1:%d", freeUDPPort(t))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--players", "2", "--bots", "1")
	var log syncBuffer
	srv.Stderr = &log
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	cl := exec.CommandContext(ctx, bin, "join", addr, "--headless", "--bot", "--duration", "30s")
	var clErr syncBuffer
	cl.Stderr = &clErr
	if err := cl.Start(); err != nil {
		t.Fatal(err)
	}
	clDone := make(chan error, 1)
	go func() { clDone <- cl.Wait() }()
	// Wait for the match: the server's status line (every 5 s, off a TTY)
	// reports it running.
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(log.String(), "running=true") {
		if time.Now().After(deadline) {
			t.Fatalf("no running match in the server log:\n%s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Wait() }()
	sent := time.Now()
	srv.Process.Signal(os.Interrupt)
	select {
	case err := <-srvDone:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGINT", err)
		}
		if d := time.Since(sent); d > time.Second {
			t.Fatalf("serve took %v to exit", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("serve still running 2 s after SIGINT")
	}
	select {
	case <-clDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the client did not notice the server leaving")
	}
	if !strings.Contains(clErr.String(), "server ended the session") {
		t.Fatalf("client said %q, want a clear message", clErr.String())
	}
	if !strings.Contains(log.String(), "shut down") {
		t.Fatalf("server log lacks the shutdown line:\n%s", log.String())
	}
}
