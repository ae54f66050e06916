package tests

import (
	"bufio"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSSHWaitingSharesSSHCommand: an SSH player waiting in the lobby of
// the built binary's serve --ssh is told the ssh command to share, not a
// ttytanks join address.
func TestSSHWaitingSharesSSHCommand(t *testing.T) {
	keyPath := filepath.Join(t.TempDir(), "ssh_host_ed25519")
	cmd := exec.Command(binary(t), "serve", "--addr", "127.0.0.1:0", "--ssh", "127.0.0.1:0",
		"--ssh-host-key", keyPath, "--players", "2")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	listening := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`msg="ssh listening" addr=(\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				listening <- m[1]
			}
		}
	}()
	var addr string
	select {
	case addr = <-listening:
	case <-time.After(10 * time.Second):
		t.Fatal("serve --ssh did not log \"ssh listening\" within 10 s")
	}
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
