package tests

import (
	"testing"
	"time"
)

// waitFor polls cond every 10 ms until it holds, for at most d, and
// returns the time it first held.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) time.Time {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Now()
}

// pollScreen polls screen every poll until ok accepts what it shows, for
// at most d, and returns that. The program draws in another goroutine or
// process: its output is all there is to wait on. On a timeout the test
// fails with the screen and what more adds.
func pollScreen(t testing.TB, d, poll time.Duration, what string, screen func() string, ok func(string) bool, more func() string) string {
	t.Helper()
	end := time.Now().Add(d)
	for {
		s := screen()
		if ok(s) {
			return s
		}
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s; screen:\n%s%s", d, what, s, more())
		}
		time.Sleep(poll)
	}
}
