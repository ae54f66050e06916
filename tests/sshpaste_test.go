//go:build unix

package tests

import (
	"bytes"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"ttytanks/internal/syncbuf"
)

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSSHPasteIsCheap: a player who pastes 16 MB of keystrokes into a
// running game costs the process under one CPU-second in all: the
// server reads and discards what no one can type, and only a typist's
// share reaches the screen's key parser and the game. The measurement is
// the whole process's (the SSH client encrypting the paste included) from
// the first byte to the end of the session, which ends when the input
// does: the server has read every byte by then.
func TestSSHPasteIsCheap(t *testing.T) {
	const size = 16 << 20
	logs := &syncbuf.Buffer{}
	r := startSSHRig(t, func(c *sshRigConfig) { c.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	p := r.dial("paster", 100, 30)
	p.waitScreen(10*time.Second, "the match", sshPlaying)

	chunk := bytes.Repeat([]byte("wasdx "), 32<<10/6) // game keys, never q
	began, cpu0 := time.Now(), cpuTime(t)
	for sent := 0; sent < size; {
		n := min(len(chunk), size-sent)
		if _, err := p.stdin.Write(chunk[:n]); err != nil {
			t.Fatalf("pasting, after %d bytes: %v", sent, err)
		}
		sent += n
	}
	wrote, cpuWrote := time.Since(began), cpuTime(t)-cpu0
	t.Logf("16 MB written in %v, %v CPU so far", wrote.Round(time.Millisecond), cpuWrote.Round(time.Millisecond))
	p.stdin.Close() // the input ends: the session ends once all of it is read
	if err := p.waitExit(60 * time.Second); err != nil && exitStatus(err) != 0 {
		t.Logf("session ended with %v", err)
	}
	cpu, took := cpuTime(t)-cpu0, time.Since(began)
	t.Logf("16 MB paste: %v CPU, written in %v, session ended after %v",
		cpu.Round(time.Millisecond), wrote.Round(time.Millisecond), took.Round(time.Millisecond))
	// The server says how much it discarded: the paste did arrive.
	waitFor(t, 5*time.Second, "the session's end in the log", func() bool {
		return strings.Contains(logs.String(), "ssh session ended")
	})
	m := regexp.MustCompile(`input_dropped=(\d+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no input_dropped in the log:\n%s", logs.String())
	}
	if dropped, _ := strconv.Atoi(m[1]); dropped < size-64<<10 {
		t.Errorf("the server discarded %d bytes of a %d-byte paste; want nearly all", dropped, size)
	}
	if cpu >= time.Second {
		t.Errorf("a 16 MB paste cost %v of CPU, want under 1s", cpu.Round(time.Millisecond))
	}
}
