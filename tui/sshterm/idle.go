package sshterm

import (
	"context"
	"time"
)

// watchIdle cancels ctx with errIdle once the client has sent nothing for
// idle while active says the game is on (time waiting in the lobby or
// connecting does not count); it returns when ctx is done.
func watchIdle(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty, idle time.Duration, active func() bool) {
	poll := max(min(idle/4, time.Second), time.Millisecond)
	t := time.NewTicker(poll)
	defer t.Stop()
	since := time.Now() // the start of the quiet time that counts
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if !active() {
			since = now
			continue
		}
		if last := tty.LastInput(); last.After(since) {
			since = last
		}
		if now.Sub(since) >= idle {
			cancel(errIdle)
			return
		}
	}
}
