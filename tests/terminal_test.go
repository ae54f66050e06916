//go:build unix

package tests

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestJoinBotWithoutTerminal: join --bot in a process with no terminal at
// all (its own session, no controlling tty) fails and points to
// --headless.
func TestJoinBotWithoutTerminal(t *testing.T) {
	cmd := exec.Command(binary(t), "join", "--bot", "127.0.0.1:9")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("join --bot without a terminal: %v, want exit status 1", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("join --bot without a terminal did not exit")
	}
	if !strings.Contains(stderr.String(), "--headless") {
		t.Errorf("stderr does not point to --headless:\n%s", stderr.String())
	}
}

// TestTmuxUnknownTerm: with a TERM this machine has no terminfo for, play
// still draws (as xterm-256color) and says so when it ends.
func TestTmuxUnknownTerm(t *testing.T) {
	tm := startTmux(t, "term", 100, 30, "env", "TERM=wezterm-nonexistent", binary(t), "play", "--bot-level", "easy")
	tm.waitScreen(10*time.Second, "the match", playing)
	tm.keys("q")
	if how := tm.waitExit(); how != "0" {
		t.Fatalf("play exited with %s", how)
	}
	s := tm.run("capture-pane", "-p", "-S", "-", "-t", tm.name) // with the scrollback
	if !strings.Contains(s, `TERM="wezterm-nonexistent" is unknown here`) || !strings.Contains(s, "xterm-256color") {
		t.Errorf("no warning about the unknown TERM:\n%s", s)
	}
}
