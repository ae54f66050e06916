package cli

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHeadlessSaysWhyNoMatchStarted: a headless run that saw no match
// says why in its own words: the server's, if the session ended; that it
// was interrupted only when a signal (the context's cause) says so; and
// otherwise how long it waited, what for, and that --duration counts
// from the match's start.
func TestHeadlessSaysWhyNoMatchStarted(t *testing.T) {
	interrupted, stop := context.WithCancelCause(context.Background())
	stop(errors.New("interrupt signal received"))
	for _, tc := range []struct {
		name string
		ctx  context.Context
		end  string
		need int
		want string
	}{
		{"the start's wait ran out", context.Background(), "", 1,
			"no match started in 12s (--duration 2s counts from the start, which may take 10s more): the room still waits for 1 more player"},
		{"waiting for two", context.Background(), "", 2,
			"no match started in 12s (--duration 2s counts from the start, which may take 10s more): the room still waits for 2 more players"},
		{"the session ended", context.Background(), "the room is full", 0, "the room is full"},
		{"a signal", interrupted, "", 1, "interrupted before the match started (interrupt signal received)"},
	} {
		if got := noStartMessage(tc.ctx, tc.end, tc.need, 2*time.Second); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
