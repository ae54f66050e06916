package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	var addr string                             // the first server picks its port; the second takes its place

	serveWith := func(key string) (stop func(), fingerprint string) {
		t.Helper()
		srvCtx, srvCancel := context.WithCancel(ctx)
		at := addr
		if at == "" {
			at = "127.0.0.1:0"
		}
		s := startServeAt(t, srvCtx, at, "--players", "2", "--bots", "1", "--key", filepath.Join(dir, key))
		addr = s.addr
		fingerprint = s.stderr.Await(t, 10*time.Second, s.exited, "serve to log its key's fingerprint", fingerprintRE)[1]
		return func() {
			_ = s.cmd.Process.Signal(os.Interrupt)
			_ = s.wait()
			srvCancel()
		}, fingerprint
	}
	join := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, binary(t), append([]string{"join", addr, "--headless", "--bot",
			"--duration", "500ms", "--stats-json", filepath.Join(dir, "stats.json")}, args...)...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
		var out strings.Builder
		cmd.Stderr = &out
		return ranExitCode(t, cmd.Run()), out.String()
	}

	stop, first := serveWith("key1")
	code, out := join()
	if code != 0 || !strings.Contains(out, "remembered the key") || !strings.Contains(out, first) {
		t.Fatalf("first join: exit %d:\n%s", code, out)
	}
	known, err := os.ReadFile(filepath.Join(state, "ttytanks", "known_servers"))
	if err != nil || !strings.Contains(string(known), addr) {
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
		" join "+addr+" 2>"+errFile+"; echo $? >"+codeFile)
	// The lobby's chat opens a session as the lobby opens, so the key is
	// checked (and refused) before any room is picked.
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
