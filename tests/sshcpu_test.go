package tests

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/cputime"
)

// The SSH hammer: the test binary run again as a hostile SSH client, so
// that the CPU it spends (encrypting keys, decrypting frames) is not the
// server's, which the benchmark measures in its own process.
const (
	hammerEnv     = "TTYTANKS_SSH_HAMMER" // flip, winch or idle
	hammerAddrEnv = "TTYTANKS_SSH_HAMMER_ADDR"
	hammerForEnv  = "TTYTANKS_SSH_HAMMER_FOR"
)

// runHammer is the hammer's main: one SSH session to the address in the
// environment for the time it gives, doing what hammerEnv says: flip
// types Enter (join the selected room) and l (back to the lobby) as fast
// as the server's input budget takes keys (4000 bytes a second); winch
// sends 1000 window-changes a second; idle sits in the lobby.
func runHammer() int {
	mode, addr := os.Getenv(hammerEnv), os.Getenv(hammerAddrEnv)
	d, err := time.ParseDuration(os.Getenv(hammerForEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hammer:", err)
		return 2
	}
	cfg := &gossh.ClientConfig{User: "hammer", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
		Auth: []gossh.AuthMethod{noQuestions}}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hammer:", err)
		return 1
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hammer:", err)
		return 1
	}
	out, _ := sess.StdoutPipe()
	in, _ := sess.StdinPipe()
	if err := sess.RequestPty("xterm-256color", 30, 100, nil); err != nil {
		return 1
	}
	if err := sess.Shell(); err != nil {
		return 1
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	time.Sleep(time.Second) // the lobby up
	end := time.Now().Add(d)
	switch mode {
	case "flip":
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for time.Now().Before(end) {
			<-t.C
			if _, err := io.WriteString(in, "\rl"); err != nil {
				return 1
			}
		}
	case "winch":
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for i := 0; time.Now().Before(end); i++ {
			<-t.C
			if err := sess.WindowChange(30+i%2, 100+i%2); err != nil {
				fmt.Fprintf(os.Stderr, "hammer: the server closed the connection after %d window-changes\n", i)
				time.Sleep(time.Until(end)) // the benchmark measures the whole time
				return 0
			}
		}
	default:
		time.Sleep(d)
	}
	return 0
}

// BenchmarkSSHSessionCPU measures what one hostile SSH session costs the
// server (the serve --ssh rig in this process, lobby on; the client is
// another process): the CPU of this process over hammerFor, per mode,
// reported as cores (1 = a whole core). Targets: flipping lobby and room
// as fast as the input budget allows under 0.20; a window-change storm
// of 1000 a second about what an idle session costs (its connection is
// closed within about half a second).
//
//	go test ./tests -run '^$' -bench SSHSessionCPU -benchtime 1x -benchmem
func BenchmarkSSHSessionCPU(b *testing.B) {
	const hammerFor = 5 * time.Second
	for _, mode := range []string{"idle", "flip", "winch"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			var cores float64
			for range b.N {
				cores += hammerOnce(b, mode, hammerFor)
			}
			b.ReportMetric(cores/float64(b.N), "server-cores")
		})
	}
}

// hammerOnce starts a rig, runs the hammer in mode against it for d and
// returns the cores this process used meanwhile (the rig's idle cost
// included: one session's frames, the game server's ticks).
func hammerOnce(b *testing.B, mode string, d time.Duration) float64 {
	r := startSSHRigN(b, 2, func(c *sshRigConfig) { c.Game.Lobby = true })
	defer r.close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hammerEnv+"="+mode, hammerAddrEnv+"="+r.addr, hammerForEnv+"="+d.String())
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	time.Sleep(time.Second) // the hammer's lobby comes up: not measured
	cpu0, ok := cputime.Process()
	if !ok {
		b.Fatal("no process CPU time on this system")
	}
	wall0 := time.Now()
	err := cmd.Wait()
	cpu1, _ := cputime.Process()
	wall := time.Since(wall0)
	if err != nil {
		b.Fatalf("hammer %s: %v", mode, err)
	}
	for end := time.Now().Add(10 * time.Second); r.ssh.Sessions() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			buf := make([]byte, 1<<20)
			b.Fatalf("the hammer's session did not end:\n%s", buf[:runtime.Stack(buf, true)])
		}
	}
	return (cpu1 - cpu0).Seconds() / wall.Seconds()
}
