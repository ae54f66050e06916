package tests

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
	"ttytanks/internal/syncbuf"
)

// binProc is a running process of the built binary, its stderr kept.
type binProc struct {
	cmd    *exec.Cmd
	stderr syncbuf.Buffer
	exited chan struct{} // closed once the process has exited
	err    error         // Wait's error, once exited is closed
}

// startBin starts the built binary with args; ctx's end kills it, and so
// does the end of the test if it still runs.
func startBin(t *testing.T, ctx context.Context, args ...string) *binProc {
	t.Helper()
	return startCommand(t, ctx, binary(t), args...)
}

// wait waits for the process to exit and returns Wait's error.
func (p *binProc) wait() error {
	<-p.exited
	return p.err
}

// stop sends sig and waits for the process to exit, for at most d (a
// safety net: the test fails if it is still running then), and returns
// the time the exit took and Wait's error.
func (p *binProc) stop(t *testing.T, sig os.Signal, d time.Duration) (time.Duration, error) {
	t.Helper()
	sent := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
		return time.Since(sent), p.err
	case <-time.After(d):
		t.Fatalf("%s still running %v after %v", p.cmd.Args[1], d, sig)
		return 0, nil
	}
}

// runBin runs the built binary to completion and returns its exit code,
// stdout and stderr.
func runBin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := exec.Command(binary(t), args...)
	c.Stdout, c.Stderr = &out, &errb
	return ranExitCode(t, c.Run()), out.String(), errb.String()
}

// exitCode returns a finished command's exit code: 0 for a nil error, -1
// for a process that did not start or was killed by a signal.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// ranExitCode is exitCode of a command that ran: it fails the test if
// the command did not start or its end was not an exit status.
func ranExitCode(t *testing.T, err error) int {
	t.Helper()
	if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return exitCode(err)
}
