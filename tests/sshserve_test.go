package tests

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// serveSSH starts the built binary's serve --ssh on loopback ports of
// its choosing, with the host key file at hostKey, and returns it with the
// SSH address it logged.
func serveSSH(t *testing.T, hostKey string, args ...string) (*binServer, string) {
	t.Helper()
	srv := serveBin(t, context.Background(), "127.0.0.1:0", append([]string{"--ssh", "127.0.0.1:0", "--ssh-host-key", hostKey}, args...)...)
	return srv, srv.sshAddr(t)
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
// a player plays, and SIGINT ends the player's session and the process;
// the second start reuses the identical key, and SIGTERM stops it, each
// with exit status 0. The 3 s each may take is a safety net against a
// hang, loose for CI (2 cores, -race, packages in parallel); the log
// shows the times, about a second (the server's own shutdown bound) or
// less.
func TestSSHServeBinary(t *testing.T) {
	keyPath := filepath.Join(t.TempDir(), "state", "ttytanks", "ssh_host_ed25519")

	srv, addr := serveSSH(t, keyPath, "--players", "2", "--bots", "1")
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
	took, err := srv.stop(t, syscall.SIGINT, 3*time.Second)
	if err != nil {
		t.Errorf("serve after SIGINT: %v, want exit status 0", err)
	}
	p.waitExit(3 * time.Second)
	if s := p.vt.Screen(); !strings.Contains(s, "shut") {
		t.Errorf("the player was not told about the shutdown; screen:\n%s", s)
	}
	t.Logf("SIGINT to exit with a player connected: %v", took.Round(time.Millisecond))

	srv, addr = serveSSH(t, keyPath, "--players", "2", "--bots", "1")
	second, pub2 := hostKeyOf(t, keyPath)
	if !bytes.Equal(first, second) || !bytes.Equal(pub.Marshal(), pub2.Marshal()) {
		t.Error("the second start changed the host key")
	}
	c, err := gossh.Dial("tcp", addr, (&sshRig{hostKey: pub}).clientConfig("erin"))
	if err != nil {
		t.Fatalf("the second start does not serve the kept key: %v", err)
	}
	c.Close()
	took, err = srv.stop(t, syscall.SIGTERM, 3*time.Second)
	if err != nil {
		t.Errorf("serve after SIGTERM: %v, want exit status 0", err)
	}
	t.Logf("SIGTERM to exit: %v", took.Round(time.Millisecond))
}
