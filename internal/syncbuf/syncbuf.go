// Package syncbuf is an output buffer for tests: a child process or
// another goroutine writes it while the test reads it, and waits on it
// for a line, without polling.
package syncbuf

import (
	"bytes"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Buffer is an io.Writer for output another goroutine or a child
// process writes, which the test may read, and wait on, while it is still
// written. It is safe for concurrent use; the zero value is empty.
type Buffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	wake chan struct{} // closed at the next Write; nil until a waiter asks
}

// Write appends p and wakes the waiters.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
	return s.b.Write(p)
}

// String returns what has been written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// next returns what has been written so far and a channel closed at the
// next Write.
func (s *Buffer) next() (string, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wake == nil {
		s.wake = make(chan struct{})
	}
	return s.b.String(), s.wake
}

// Await waits until re matches what has been written and returns the
// match and its submatches. It fails the test if gone is closed first (the
// writer has ended: nothing more will come; nil never is) or after d.
func (s *Buffer) Await(t testing.TB, d time.Duration, gone <-chan struct{}, what string, re *regexp.Regexp) []string {
	t.Helper()
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	for {
		out, wake := s.next()
		if m := re.FindStringSubmatch(out); m != nil {
			return m
		}
		select {
		case <-wake:
		case <-gone:
			if m := re.FindStringSubmatch(s.String()); m != nil {
				return m
			}
			t.Fatalf("waiting for %s: the writer ended; it wrote:\n%s", what, s.String())
		case <-timeout.C:
			t.Fatalf("waiting %v for %s; it wrote:\n%s", d, what, s.String())
		}
	}
}
