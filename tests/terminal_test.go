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

// TestWithoutTerminal: play, join and join --bot in a process with no
// terminal at all (its own session, no controlling tty) fail with exit
// status 1, say that a terminal is needed, and point to what plays
// without one (--headless, with a bot).
func TestWithoutTerminal(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"play"}, []string{"play needs a terminal", "--bot --headless"}},
		{[]string{"join", "127.0.0.1:9"}, []string{"join needs a terminal", "add --bot --headless"}},
		{[]string{"join", "--bot", "127.0.0.1:9"}, []string{"join needs a terminal", "add --headless"}},
	} {
		cmd := exec.Command(binary(t), tt.args...)
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
				t.Errorf("%q without a terminal: %v, want exit status 1", tt.args, err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%q without a terminal did not exit", tt.args)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q without a terminal: stderr lacks %q:\n%s", tt.args, w, stderr.String())
			}
		}
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
