package tests

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// binServer is the built binary's serve, off a terminal, on UDP
// 127.0.0.1. It binds its own port; the test learns it from its log. At
// the end of the test it is stopped with SIGINT, and its log is shown if
// the test failed.
type binServer struct {
	*binProc
	addr  string // the UDP address it serves, as it logged it
	stats string // its --stats-json file, or ""
}

// servingRE finds the address in serve's "serving" log line.
var servingRE = regexp.MustCompile(`msg=serving addr=(\S+)`)

// sshListeningRE finds the address in serve --ssh's "ssh listening" log
// line.
var sshListeningRE = regexp.MustCompile(`msg="ssh listening" addr=(\S+)`)

// serveBin starts serve --addr addr with args and waits for it to log the
// address it serves. addr is 127.0.0.1:0 for a port of the server's
// choosing, or the address of a server that has gone, for one that takes
// its place.
func serveBin(t *testing.T, ctx context.Context, addr string, args ...string) *binServer {
	t.Helper()
	s := &binServer{binProc: startBin(t, ctx, append([]string{"serve", "--addr", addr}, args...)...)}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second): // a safety net: startBin's cleanup kills it
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.stderr.String())
		}
	})
	s.addr = s.stderr.Await(t, 10*time.Second, s.exited, "serve to log the address it serves", servingRE)[1]
	return s
}

// startServe is serveBin on a port of the server's choosing, writing
// --stats-json to a file of the test's.
func startServe(t *testing.T, ctx context.Context, args ...string) *binServer {
	t.Helper()
	return startServeAt(t, ctx, "127.0.0.1:0", args...)
}

// startServeAt is startServe at addr.
func startServeAt(t *testing.T, ctx context.Context, addr string, args ...string) *binServer {
	t.Helper()
	stats := filepath.Join(t.TempDir(), "server.json")
	s := serveBin(t, ctx, addr, append([]string{"--stats-json", stats}, args...)...)
	s.stats = stats
	return s
}

// sshAddr returns the address serve --ssh logged it listens on (it logs
// it before the "serving" line).
func (s *binServer) sshAddr(t *testing.T) string {
	t.Helper()
	return s.stderr.Await(t, 10*time.Second, s.exited, "serve --ssh to log where it listens", sshListeningRE)[1]
}
