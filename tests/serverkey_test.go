package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fingerprintRE finds the server key's fingerprint in serve's log.
var fingerprintRE = regexp.MustCompile(`fingerprint=(SHA256:[A-Za-z0-9+/]{43})`)

// TestServerKnownByItsKey: join remembers a server's key on first use
// (known_servers, under its own XDG_STATE_HOME); when the server at that
// address comes back with another key, the next join is refused with the
// warning that names both fingerprints and how to accept the new one;
// --server-key with the new key's fingerprint connects (and is
// remembered), a wrong fingerprint is refused.
func TestServerKnownByItsKey(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	state := filepath.Join(dir, "player-state") // the player's known_servers lives here
	port := freeUDPPort(t)

	serveWith := func(key string) (stop func(), fingerprint string) {
		t.Helper()
		srvCtx, srvCancel := context.WithCancel(ctx)
		s := startServeAt(t, srvCtx, port, "--players", "2", "--bots", "1", "--key", filepath.Join(dir, key))
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if m := fingerprintRE.FindStringSubmatch(s.log.String()); m != nil {
				fingerprint = m[1]
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
		if fingerprint == "" {
			t.Fatalf("serve logged no fingerprint:\n%s", s.log.String())
		}
		return func() {
			_ = s.cmd.Process.Signal(os.Interrupt)
			err := <-s.done
			s.done <- err // for startServe's own cleanup
			srvCancel()
		}, fingerprint
	}
	join := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, binary(t), append([]string{"join", "127.0.0.1:" + strconv.Itoa(port), "--headless", "--bot",
			"--duration", "500ms", "--stats-json", filepath.Join(dir, "stats.json")}, args...)...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
		var out strings.Builder
		cmd.Stderr = &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}

	stop, first := serveWith("key1")
	code, out := join()
	if code != 0 || !strings.Contains(out, "remembered the key") || !strings.Contains(out, first) {
		t.Fatalf("first join: exit %d:\n%s", code, out)
	}
	known, err := os.ReadFile(filepath.Join(state, "ttytanks", "known_servers"))
	if err != nil || !strings.Contains(string(known), "127.0.0.1:"+strconv.Itoa(port)) {
		t.Fatalf("known_servers after the first join: %q (%v)", known, err)
	}
	if code, out := join(); code != 0 || strings.Contains(out, "remembered") {
		t.Fatalf("second join with the same key: exit %d:\n%s", code, out)
	}
	stop()

	stop, second := serveWith("key2")
	defer stop()
	if second == first {
		t.Fatal("two key files, one fingerprint")
	}
	code, out = join()
	if code == 0 || !strings.Contains(out, "CHANGED") || !strings.Contains(out, first) || !strings.Contains(out, second) ||
		!strings.Contains(out, "--server-key "+second) {
		t.Fatalf("join after the key changed: exit %d, want a refusal naming both keys:\n%s", code, out)
	}
	// From the lobby too: the refusal ends join, with the whole warning on
	// the terminal once the screen is gone, and exit code 1.
	// The shell writes join's exit status to a file of its own (tmux's
	// record of a pane's status can lag its death).
	errFile, codeFile := filepath.Join(dir, "lobby-stderr"), filepath.Join(dir, "lobby-status")
	tm := startTmux(t, "keylobby", 100, 30, "sh", "-c", "XDG_STATE_HOME="+state+" "+binary(t)+
		" join 127.0.0.1:"+strconv.Itoa(port)+" 2>"+errFile+"; echo $? >"+codeFile)
	tm.waitScreen(10*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "ttytanks lobby") })
	tm.keys("Enter")
	tm.waitExitWithin(10 * time.Second)
	if code, _ := os.ReadFile(codeFile); strings.TrimSpace(string(code)) != "1" {
		b, _ := os.ReadFile(errFile)
		t.Fatalf("join from the lobby exited with %q after a changed key, want 1; stderr:\n%s", code, b)
	}
	if b, _ := os.ReadFile(errFile); !strings.Contains(string(b), "CHANGED") || !strings.Contains(string(b), "--server-key "+second) {
		t.Fatalf("join from the lobby left this on stderr:\n%s", b)
	}
	wrong := "SHA256:" + strings.Repeat("A", 43)
	if code, out := join("--server-key", wrong); code == 0 || !strings.Contains(out, "does not match") {
		t.Fatalf("join --server-key with a wrong fingerprint: exit %d:\n%s", code, out)
	}
	if code, out := join("--server-key", second); code != 0 {
		t.Fatalf("join --server-key with the new fingerprint: exit %d:\n%s", code, out)
	}
	if code, out := join(); code != 0 {
		t.Fatalf("join after accepting the new key: exit %d:\n%s", code, out)
	}
}
