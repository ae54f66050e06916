package netcode

import (
	"sync"
	"time"
)

// PauseClock is a clock that stops: while it is paused its Now stands
// still, and after it resumes it runs on from where it stood, so the time
// spent paused never happened for whoever reads it. A server and a client
// driven by one PauseClock (ttytanks play: an embedded server, its bots
// and the player) pause together: no tick is due, no peer falls silent, no
// seat idles. It is safe for concurrent use.
type PauseClock struct {
	mu     sync.Mutex
	paused bool
	at     time.Time     // paused: the reading it stands at
	behind time.Duration // how far it is behind the wall clock
	now    func() time.Time
}

// NewPauseClock returns a running PauseClock that reads the wall clock.
func NewPauseClock() *PauseClock { return newPauseClock(time.Now) }

func newPauseClock(now func() time.Time) *PauseClock { return &PauseClock{now: now} }

// Now implements Clock.
func (p *PauseClock) Now() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		return p.at
	}
	return p.now().Add(-p.behind)
}

// SetPaused stops the clock or starts it again; setting what it already
// is does nothing.
func (p *PauseClock) SetPaused(paused bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if paused == p.paused {
		return
	}
	if paused {
		p.at = p.now().Add(-p.behind)
	} else {
		p.behind = p.now().Sub(p.at)
	}
	p.paused = paused
}

// Paused reports whether the clock stands still.
func (p *PauseClock) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused
}

// pausedWait is how often a driver whose clock is paused looks again: its
// deadlines are in clock time, which does not move.
const pausedWait = 20 * time.Millisecond

// waitFor returns how long a driver reading clk waits, in wall time, for
// the clock time next: never less than least, and pausedWait while clk is
// a paused PauseClock.
func waitFor(clk Clock, next time.Time, least time.Duration) time.Duration {
	if p, ok := clk.(interface{ Paused() bool }); ok && p.Paused() {
		return pausedWait
	}
	return max(next.Sub(clk.Now()), least)
}
