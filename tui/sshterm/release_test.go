package sshterm

import (
	"testing"
	"time"
)

// TestHeapRelease: the heap is returned once the sessions in play have
// fallen to half their peak since the last release, by at least
// releaseLeft, once for a wave of leaves, and never for a few sessions
// coming and going.
func TestHeapRelease(t *testing.T) {
	h := newHeapRelease()
	freed := 0
	var due []func()
	h.free = func() { freed++ }
	h.after = func(d time.Duration, f func()) {
		if d != releaseDelay {
			t.Errorf("release scheduled after %v, want %v", d, releaseDelay)
		}
		due = append(due, f)
	}
	fire := func() {
		for _, f := range due {
			f()
		}
		due = nil
	}
	steps := []struct {
		begin, end int
		wantDue    int // releases scheduled after the step, before any fire
		fire       bool
		wantFreed  int // times returned so far
	}{
		{begin: 4, end: 4},                     // a few come and go: peak 4, nothing to return
		{begin: 20},                            // 20 in play
		{end: 9},                               // 11 left: more than half
		{end: 1, wantDue: 1},                   // 10: half, 10 fewer: scheduled
		{end: 5, wantDue: 1},                   // the rest of the wave: still one
		{wantDue: 1, fire: true, wantFreed: 1}, // returned; the peak is now 5
		{end: 2, wantFreed: 1},                 // 3 of 5: only 2 fewer
		{begin: 30, end: 17, wantDue: 1, wantFreed: 1},  // peak 33, 16 left
		{wantDue: 1, fire: true, wantFreed: 2},          // returned again
		{end: 16, wantDue: 1, fire: true, wantFreed: 3}, // all gone
		{begin: 1, end: 1, wantFreed: 3},                // one more comes and goes
	}
	for i, s := range steps {
		for range s.begin {
			h.begin()
		}
		for range s.end {
			h.end()
		}
		if len(due) != s.wantDue {
			t.Fatalf("step %d: %d releases scheduled, want %d", i, len(due), s.wantDue)
		}
		if s.fire {
			fire()
		}
		if freed != s.wantFreed {
			t.Fatalf("step %d: memory returned %d times, want %d", i, freed, s.wantFreed)
		}
	}
}
