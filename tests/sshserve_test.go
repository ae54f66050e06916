package tests

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// serveSSH starts the built binary as "serve --ssh" on loopback ports and
// returns it with the SSH address it logged. Its stderr lines go to lines.
func serveSSH(t *testing.T, hostKey string) (cmd *exec.Cmd, addr string, lines <-chan string) {
	t.Helper()
	return serveSSHWith(t, hostKey, "--players", "2", "--bots", "1")
}

// serveSSHWith is serveSSH with the other flags of serve given.
func serveSSHWith(t *testing.T, hostKey string, args ...string) (cmd *exec.Cmd, addr string, lines <-chan string) {
	t.Helper()
	cmd = exec.Command(binary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--ssh", "127.0.0.1:0",
		"--ssh-host-key", hostKey}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	ch := make(chan string, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	re := regexp.MustCompile(`msg="ssh listening" addr=(\S+)`)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				t.Fatal("serve --ssh exited before listening")
			}
			if m := re.FindStringSubmatch(l); m != nil {
				return cmd, m[1], ch
			}
		case <-timeout:
			t.Fatal("serve --ssh did not log \"ssh listening\" within 10 s")
		}
	}
}

// stopWithin signals cmd and fails unless it exits with status 0 within d.
func stopWithin(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, d time.Duration) time.Duration {
	t.Helper()
	done := make(chan error, 1)
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after %v: %v, want exit status 0", sig, err)
		}
		return time.Since(sent)
	case <-time.After(d):
		t.Fatalf("serve still running %v after %v", d, sig)
		return 0
	}
}

// hostKeyOf reads the public half of the key file at path.
func hostKeyOf(t *testing.T, path string) ([]byte, gossh.PublicKey) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return data, signer.PublicKey()
}

// TestSSHServeBinary runs the built binary's serve --ssh twice with one
// host key path: the first start creates the key 0600 and serves with it,
// a player plays, and SIGINT ends the player's session and the process
// promptly; the second start reuses the identical key, and SIGTERM stops
// it promptly too. "Promptly" is within 3 s, a loose bound for CI (2 cores,
// -race, packages in parallel); the log shows the times, about a second
// (the server's own shutdown bound) or less.
func TestSSHServeBinary(t *testing.T) {
	keyPath := filepath.Join(t.TempDir(), "state", "ttytanks", "ssh_host_ed25519")

	cmd, addr, _ := serveSSH(t, keyPath)
	st, err := os.Stat(keyPath)
	if err != nil {
		t.Fatalf("no host key after the first start: %v", err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %#o, want 0600", st.Mode().Perm())
	}
	first, pub := hostKeyOf(t, keyPath)
	r := &sshRig{t: t, addr: addr, hostKey: pub} // a client rig pinned to the file's key
	p := r.dial("erin", 100, 30)
	p.waitScreen(10*time.Second, "the lobby served by the binary", func(s string) bool { return strings.Contains(s, "ttytanks lobby") })
	p.keys("\r") // Enter: the selected room, a
	p.waitScreen(10*time.Second, "the match served by the binary", sshPlaying)
	took := stopWithin(t, cmd, syscall.SIGINT, 3*time.Second)
	p.waitExit(3 * time.Second)
	if s := p.vt.Screen(); !strings.Contains(s, "shut") {
		t.Errorf("the player was not told about the shutdown; screen:\n%s", s)
	}
	t.Logf("SIGINT to exit with a player connected: %v", took.Round(time.Millisecond))

	cmd, addr, _ = serveSSH(t, keyPath)
	second, pub2 := hostKeyOf(t, keyPath)
	if !bytes.Equal(first, second) || !bytes.Equal(pub.Marshal(), pub2.Marshal()) {
		t.Error("the second start changed the host key")
	}
	c, err := gossh.Dial("tcp", addr, (&sshRig{hostKey: pub}).clientConfig("erin"))
	if err != nil {
		t.Fatalf("the second start does not serve the kept key: %v", err)
	}
	c.Close()
	took = stopWithin(t, cmd, syscall.SIGTERM, 3*time.Second)
	t.Logf("SIGTERM to exit: %v", took.Round(time.Millisecond))
}
