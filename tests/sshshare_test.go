package tests

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSSHWaitingSharesSSHCommand: an SSH player waiting in the lobby of
// the built binary's serve --ssh is told the ssh command to share, not a
// ttytanks join address.
func TestSSHWaitingSharesSSHCommand(t *testing.T) {
	keyPath := filepath.Join(t.TempDir(), "ssh_host_ed25519")
	_, addr := serveSSH(t, keyPath, "--players", "2")
	_, port, _ := net.SplitHostPort(addr)
	_, pub := hostKeyOf(t, keyPath)
	r := &sshRig{t: t, addr: addr, hostKey: pub}
	p := r.dial("erin", 100, 30)
	p.waitScreen(10*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "ttytanks lobby") })
	p.keys("n")                     // a quick match
	want := "share: ssh -p " + port // the host, 127.0.0.1, may wrap to the next line
	s := p.waitScreen(10*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "waiting for") })
	if !strings.Contains(s, want) || strings.Contains(s, "ttytanks join") {
		t.Errorf("the SSH lobby does not say %q (or still says ttytanks join):\n%s", want, s)
	}
}
