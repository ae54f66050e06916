// Package redistest starts a real redis-server for a test: its own
// process on a loopback port it holds, with no persistence, stopped at
// the test's end.
package redistest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Redis is one redis-server process of a test.
type Redis struct {
	t    testing.TB
	bin  string
	Port int

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts redis-server on a free loopback port: it tries random
// ports until the server holds one (it binds the port itself, so no
// other process can take it between a probe and the start). The test
// fails if redis-server is not installed: CI installs it.
func Start(t testing.TB) *Redis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is not installed (apt-get install redis-server): %v", err)
	}
	r := &Redis{t: t, bin: bin}
	for range 20 {
		port := 20000 + rand.IntN(30000)
		if err := r.start(port); err == nil {
			r.Port = port
			t.Cleanup(r.Stop)
			return r
		} else if !strings.Contains(err.Error(), "in use") {
			t.Fatal(err)
		}
	}
	t.Fatal("redistest: no free port in 20 tries")
	return nil
}

// URL is the server's redis:// URL with database db.
func (r *Redis) URL(db int) string { return fmt.Sprintf("redis://127.0.0.1:%d/%d", r.Port, db) }

// Addr is the server's HOST:PORT.
func (r *Redis) Addr() string { return "127.0.0.1:" + strconv.Itoa(r.Port) }

// start runs redis-server on port and waits for its "Ready to accept
// connections" line; an error says why it did not start.
func (r *Redis) start(port int) error {
	cmd := exec.Command(r.bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--protected-mode", "yes", "--loglevel", "notice")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	ready := make(chan struct{})
	var log strings.Builder
	var logMu sync.Mutex
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		signalled := false
		for sc.Scan() {
			logMu.Lock()
			if log.Len() < 8192 {
				log.WriteString(sc.Text() + "\n")
			}
			logMu.Unlock()
			if !signalled && strings.Contains(sc.Text(), "Ready to accept connections") {
				signalled = true
				close(ready)
			}
		}
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-ready:
		r.mu.Lock()
		r.cmd, r.done = cmd, done
		r.mu.Unlock()
		return nil
	case <-done:
		logMu.Lock()
		defer logMu.Unlock()
		if strings.Contains(log.String(), "Address already in use") {
			return fmt.Errorf("port %d in use", port)
		}
		return fmt.Errorf("redis-server did not start: %s", log.String())
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("redis-server did not say it was ready in 10 s")
	}
}

// Stop kills the server (as a crash would: nothing is saved) and waits
// for it to exit. It is a no-op on a stopped server.
func (r *Redis) Stop() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.cmd = nil
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-done
}

// Restart starts a stopped server again on its port, empty.
func (r *Redis) Restart() {
	r.t.Helper()
	if err := r.start(r.Port); err != nil {
		r.t.Fatalf("redistest: restart on port %d: %v", r.Port, err)
	}
}
