package syncbuf

import (
	"fmt"
	"regexp"
	"testing"
	"time"
)

// TestAwaitSeesALaterWrite: a waiter wakes at the Write that completes
// its match, written by another goroutine after the wait began, and gets
// the submatches.
func TestAwaitSeesALaterWrite(t *testing.T) {
	var b Buffer
	started := make(chan struct{})
	go func() {
		<-started
		fmt.Fprint(&b, "msg=serving ")
		fmt.Fprint(&b, "addr=127.0.0.1:4242\n")
	}()
	close(started)
	m := b.Await(t, time.Minute, nil, "the address", regexp.MustCompile(`addr=(\S+)`))
	if m[1] != "127.0.0.1:4242" {
		t.Fatalf("Await matched %q, want the address", m)
	}
	if got := b.String(); got != "msg=serving addr=127.0.0.1:4242\n" {
		t.Fatalf("String = %q", got)
	}
}
