package sshterm

import (
	"context"
	"sync/atomic"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// intent is the time of a session's player's last sign of intent, the
// game server's rule for its seats (netcode.ServerConfig.Idle): a
// non-neutral input while a match is on (a move, a shot, a rematch
// vote), or a lobby action (a room joined, made or watched). Waiting in
// a room, a keep-alive, moving about the room list and leaving a room
// are none; while the player watches a match, any key press is one (a
// spectator has nothing else to do). It is safe for concurrent use.
type intent struct {
	base time.Time    // with its monotonic reading
	at   atomic.Int64 // nanoseconds since base of the last sign
}

func newIntent(now time.Time) *intent { return &intent{base: now} }

// note records a sign of intent at now.
func (i *intent) note(now time.Time) {
	d := int64(now.Sub(i.base))
	for {
		old := i.at.Load()
		if d <= old || i.at.CompareAndSwap(old, d) {
			return
		}
	}
}

// last is the time of the last sign, or when the session began.
func (i *intent) last() time.Time { return i.base.Add(time.Duration(i.at.Load())) }

// input notes in as a sign of intent at now if it is one: non-neutral,
// and sent while the match is on (status playing).
func (i *intent) input(in game.Input, status netcode.Status, now time.Time) {
	if (in.MoveX != 0 || in.MoveY != 0 || in.Buttons != 0) && status == netcode.StatusPlaying {
		i.note(now)
	}
}

// watchIdle cancels ctx with errIdle once last, the time of the
// player's last sign of intent, is idle ago; it returns when ctx is
// done. It looks every idle/4 (at most a second). An idle of zero or
// less is never reached.
func watchIdle(ctx context.Context, cancel context.CancelCauseFunc, idle time.Duration, last func() time.Time) {
	if idle <= 0 {
		<-ctx.Done()
		return
	}
	poll := max(min(idle/4, time.Second), time.Millisecond)
	t := time.NewTicker(poll)
	defer t.Stop()
	watchIdleOn(ctx, cancel, idle, last, t.C)
}

// watchIdleOn is watchIdle looking at each tick of ticks, at the tick's
// time.
func watchIdleOn(ctx context.Context, cancel context.CancelCauseFunc, idle time.Duration, last func() time.Time,
	ticks <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-ticks:
			if now.Sub(last()) >= idle {
				cancel(errIdle)
				return
			}
		}
	}
}
