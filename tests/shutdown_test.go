package tests

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServeShutsDownCleanly: SIGINT makes `serve` tell its clients (Leave)
// and exit 0; the client leaves with a clear message. The server bounds
// its own shutdown at a second; the test's 2 s is a safety net against a
// hang, and the log shows the time taken.
func TestServeShutsDownCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--bots", "1")
	cl := startBin(t, ctx, "join", srv.addr, "--headless", "--bot", "--duration", "30s")
	// Wait for the match: the server's status line (every 5 s, off a TTY)
	// reports it running. The SIGINT comes the instant the line is
	// written, with serve's loop busy: it must still shut down in order.
	srv.stderr.Await(t, 15*time.Second, srv.exited, "a running match in the server log", regexp.MustCompile(`running=true`))
	took, err := srv.stop(t, os.Interrupt, 2*time.Second)
	if err != nil {
		t.Fatalf("serve exited with %v after SIGINT", err)
	}
	t.Logf("SIGINT to exit: %v", took.Round(time.Millisecond))
	select {
	case <-cl.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the client did not notice the server leaving")
	}
	if !strings.Contains(cl.stderr.String(), "server ended the session") {
		t.Fatalf("client said %q, want a clear message", cl.stderr.String())
	}
	if !strings.Contains(srv.stderr.String(), "shut down") {
		t.Fatalf("server log lacks the shutdown line:\n%s", srv.stderr.String())
	}
}
