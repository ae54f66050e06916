package sshterm

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestWatchIdle: the idle time counts only while the game is on, and a
// tiny Idle works too.
func TestWatchIdle(t *testing.T) {
	for _, idle := range []time.Duration{2, 50 * time.Millisecond} {
		tty := NewChannelTty(pipeChannel{}, 80, 24)
		var mu sync.Mutex
		on := false
		active := func() bool { mu.Lock(); defer mu.Unlock(); return on }
		ctx, cancel := context.WithCancelCause(context.Background())
		done := make(chan error, 1)
		go func() { watchIdle(ctx, cancel, tty, idle, active); done <- nil }()
		time.Sleep(max(4*idle, 20*time.Millisecond))
		if ctx.Err() != nil {
			t.Fatalf("Idle %v: idle while the game was not on", idle)
		}
		mu.Lock()
		on = true
		mu.Unlock()
		within(t, 2*time.Second, done, "watchIdle")
		if cause := context.Cause(ctx); cause != errIdle {
			t.Errorf("Idle %v: cause %v, want errIdle", idle, cause)
		}
	}
}
