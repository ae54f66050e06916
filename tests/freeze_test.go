package tests

import (
	"context"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFrozenJoinKeepsItsSeat runs the real binary: serve and two
// headless bot clients on 127.0.0.1; one is stopped with SIGSTOP for 8 s
// in the middle of the match (a laptop lid, a stalled VM) and continued
// with SIGCONT. The server's seat timeout is 20 s: the client must keep
// its seat (no "timed out" in the server's log, no new join of it) and
// play on to the end of its --duration. Then it is stopped for 25 s,
// longer than the timeout: it must check with the server when it wakes
// and join again as a new player, saying so, rather than exit "the
// server is gone".
// FreeAfterBin is the server's seat timeout (netcode.FreeAfter).
const FreeAfterBin = 20 * time.Second

func TestFrozenJoinKeepsItsSeat(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel() // most of it waits on the wall clock: it runs beside the others
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2")
	other := srv.headless(t, ctx, "steady", "--bot", "--duration", "90s")
	frozen := srv.headless(t, ctx, "sleepy", "--bot", "--duration", "70s", "--sim-latency", "40ms", "--sim-jitter", "5ms", "--sim-loss", "3%")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sleepy: %s", frozen.stderr.String())
		}
	})
	srv.stderr.Await(t, 20*time.Second, srv.exited, "the match to start", regexp.MustCompile(`msg="match started"`))
	time.Sleep(3 * time.Second) // the match plays a little: a wall-clock schedule for a real process
	freeze := func(d time.Duration) {
		if err := frozen.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		time.Sleep(d)
		if err := frozen.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
	}
	freeze(8 * time.Second)
	time.Sleep(FreeAfterBin - 8*time.Second + 3*time.Second) // past the seat timeout counted from the freeze
	log := srv.stderr.String()
	if strings.Contains(log, `name=sleepy`) && regexp.MustCompile(`msg="player left"[^\n]*name=sleepy`).MatchString(log) {
		t.Fatalf("the server freed the seat of the client frozen for 8 s:\n%s", log)
	}
	if n := strings.Count(log, `msg="player joined" room=a name=sleepy`); n != 1 {
		t.Fatalf("sleepy joined %d times after an 8 s freeze, want once", n)
	}
	freeze(25 * time.Second)
	srv.stderr.Await(t, 10*time.Second, srv.exited, "the client frozen 25 s to join again",
		regexp.MustCompile(`(?s)msg="player left"[^\n]*name=sleepy[^\n]*reason="timed out".*msg="player joined" room=a name=sleepy`))
	frozen.stderr.Await(t, 5*time.Second, frozen.exited, "the client to say it joined again",
		regexp.MustCompile(`joined again as a new player`))
	st := frozen.result(t)
	if st.HashMismatches != 0 || st.Status != "playing" {
		t.Errorf("sleepy: status %s, %d hash mismatches", st.Status, st.HashMismatches)
	}
	if strings.Contains(frozen.stderr.String(), "gone") {
		t.Errorf("sleepy said the server is gone: %s", frozen.stderr.String())
	}
	other.result(t)
}
