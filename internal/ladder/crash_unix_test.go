//go:build unix

package ladder

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestCrashSafety kills, with SIGKILL, a child process recording matches
// once it has reported crashReported of them committed, crashRounds times
// over on one database, and after each kill reopens it: every match
// reported is there with all its players, no match is there in part, the
// players' records agree with the matches, integrity_check says ok.
//
// Killed as soon as its report is read, the child would die at about the
// same early point of its next transaction every round; each round
// therefore waits round×crashStep longer before the kill, so that the
// kills fall across the whole of a transaction (one takes about 350 µs).
// The wait orders nothing: every assertion holds whenever the kill lands.
func TestCrashSafety(t *testing.T) {
	const crashRounds, crashReported, crashStep = 64, 5, 12 * time.Microsecond
	path := filepath.Join(t.TempDir(), "ladder.db")
	var reported []int64
	for round := range crashRounds {
		ids := crashRound(t, path, crashReported, time.Duration(round)*crashStep)
		reported = append(reported, ids...)
		checkCrashed(t, path, round, reported)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d rounds, %d matches reported", crashRounds, len(reported))
}

// crashRound runs the child on path, kills it wait after it has reported
// n matches, and returns the ids of all it reported.
func crashRound(t *testing.T, path string, n int, wait time.Duration) []int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	var ids []int64
	for len(ids) < n && lines.Scan() {
		id, err := strconv.ParseInt(lines.Text(), 10, 64)
		if err != nil {
			t.Fatalf("child reported %q", lines.Text())
		}
		ids = append(ids, id)
	}
	if len(ids) < n {
		cmd.Wait()
		t.Fatalf("child reported %d matches and stopped: %s", len(ids), stderr.Bytes())
	}
	time.Sleep(wait) // where the kill lands, not a synchronisation: see TestCrashSafety
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // written between the n-th line and the kill
		id, err := strconv.ParseInt(lines.Text(), 10, 64)
		if err != nil {
			break // a line cut by the kill
		}
		ids = append(ids, id)
	}
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended %v, not by SIGKILL: %s", cmd.ProcessState, stderr.Bytes())
	}
	return ids
}

// checkCrashed opens the database the child was killed over and checks
// it against the ids reported in all rounds so far.
func checkCrashed(t *testing.T, path string, round int, reported []int64) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("round %d: reopening: %v", round, err)
	}
	defer s.Close()
	if err := s.IntegrityCheck(context.Background()); err != nil {
		t.Errorf("round %d: %v", round, err)
	}
	for _, id := range reported {
		if n := count(t, s, `SELECT count(*) FROM match_players WHERE match_id = ?`, id); n != crashPlayers {
			t.Errorf("round %d: match %d, reported committed, has %d players; want %d", round, id, n, crashPlayers)
		}
	}
	// At most one match a round committed and not reported: the kill came
	// between its commit and its line.
	matches := count(t, s, `SELECT count(*) FROM matches`)
	if matches < len(reported) || matches > len(reported)+round+1 {
		t.Errorf("round %d: %d matches in the database, %d reported; want the reported ones and at most one more a round", round, matches, len(reported))
	}
	if n := count(t, s, `SELECT count(*) FROM matches AS m
WHERE (SELECT count(*) FROM match_players WHERE match_id = m.id) != ?`, crashPlayers); n != 0 {
		t.Errorf("round %d: %d matches without all their %d players", round, n, crashPlayers)
	}
	// The players' records move with the matches, in the same transactions.
	if n := count(t, s, `SELECT sum(matches) FROM players`); n != crashPlayers*matches {
		t.Errorf("round %d: players have %d matches between them, want %d: %d matches of %d", round, n, crashPlayers*matches, matches, crashPlayers)
	}
	if n := count(t, s, `SELECT count(*) FROM players AS p
WHERE p.matches != (SELECT count(*) FROM match_players WHERE player_key = p.key)
   OR p.rating != (SELECT rating_after FROM match_players WHERE player_key = p.key ORDER BY match_id DESC LIMIT 1)`); n != 0 {
		t.Errorf("round %d: %d players whose record disagrees with their rows of match_players", round, n)
	}
}
