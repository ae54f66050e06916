package sshterm

import (
	"context"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// TestIntentRule: a non-neutral input while the match is on is a sign
// of intent; a neutral one, or any while waiting for players or
// connecting, is not; an earlier sign never moves the time back.
func TestIntentRule(t *testing.T) {
	t0 := time.Unix(1000, 0)
	move := game.Input{MoveX: 1}
	cases := []struct {
		name   string
		in     game.Input
		status netcode.Status
		want   bool
	}{
		{"neutral while playing", game.Input{}, netcode.StatusPlaying, false},
		{"a move while playing", move, netcode.StatusPlaying, true},
		{"a shot while playing", game.Input{Buttons: game.ButtonFire}, netcode.StatusPlaying, true},
		{"a rematch vote on the results", game.Input{Buttons: game.ButtonRematch}, netcode.StatusPlaying, true},
		{"a move while waiting in a room", move, netcode.StatusWaiting, false},
		{"a move while connecting", move, netcode.StatusConnecting, false},
	}
	for _, c := range cases {
		i := newIntent(t0)
		i.input(c.in, c.status, t0.Add(time.Minute))
		if got := i.last().After(t0); got != c.want {
			t.Errorf("%s: a sign of intent %v, want %v", c.name, got, c.want)
		}
	}
	i := newIntent(t0)
	i.note(t0.Add(2 * time.Second))
	i.note(t0.Add(time.Second))
	if got := i.last().Sub(t0); got != 2*time.Second {
		t.Errorf("after signs at 2s and then 1s: last %v, want 2s", got)
	}
}

// TestWatchIdle: on a fake clock, the session ends exactly when idle has
// passed since the last sign of intent, and a sign in time puts it off.
func TestWatchIdle(t *testing.T) {
	const idle = 10 * time.Second
	t0 := time.Unix(1000, 0)
	i := newIntent(t0)
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchIdleOn(ctx, cancel, idle, i.last, ticks)
	}()
	// A tick the watcher does not take means it has returned.
	at := func(d time.Duration) {
		select {
		case ticks <- t0.Add(d):
		case <-done:
			t.Fatalf("ended before the tick at %v (cause %v)", d, context.Cause(ctx))
		}
	}
	at(9 * time.Second)
	i.note(t0.Add(9 * time.Second))
	at(18 * time.Second) // 9 s after the sign
	at(19 * time.Second)
	<-done
	if cause := context.Cause(ctx); cause != errIdle {
		t.Errorf("cause %v, want errIdle", cause)
	}
}

// TestSwitchLimiter: SwitchBurst joins at once, then one per SwitchEvery,
// and the wait said is the time left.
func TestSwitchLimiter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := newSwitchLimiter(t0)
	for n := range SwitchBurst {
		if w := l.take(t0); w != 0 {
			t.Fatalf("join %d of the burst refused (wait %v)", n+1, w)
		}
	}
	if w := l.take(t0); w != SwitchEvery {
		t.Errorf("past the burst: wait %v, want %v", w, SwitchEvery)
	}
	if w := l.take(t0.Add(SwitchEvery / 2)); w != SwitchEvery/2 {
		t.Errorf("half a period on: wait %v, want %v", w, SwitchEvery/2)
	}
	if w := l.take(t0.Add(SwitchEvery)); w != 0 {
		t.Errorf("a period on: refused (wait %v)", w)
	}
	if w := l.take(t0.Add(SwitchEvery)); w == 0 {
		t.Error("two joins in one period past the burst")
	}
}
