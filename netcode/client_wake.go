package netcode

import (
	"fmt"
	"math"
	"time"

	"ttytanks/game"
)

// WakeGap is the pause between two calls of the client that it takes
// for a freeze of its own (a suspended laptop, a stopped process, a
// stalled VM) rather than a slow frame: a second, sixty ticks. The
// driver calls Advance every tick, so only a stopped process leaves such
// a gap.
const WakeGap = time.Second

// wakeWatch notices the client waking from a freeze: the wall-clock gap
// between two calls of Advance or Receive (the driver advances the
// client every tick; a Receive that comes first after a freeze brings
// what waited in the socket).
type wakeWatch struct {
	last time.Time // the previous call (zero before the first)
}

// called notes a call at now and returns the gap since the previous one
// when it is a freeze (at least WakeGap), else 0.
func (w *wakeWatch) called(now time.Time) time.Duration {
	prev := w.last
	w.last = now
	if prev.IsZero() {
		return 0
	}
	if gap := now.Sub(prev); gap >= WakeGap {
		return gap
	}
	return 0
}

// woke handles a freeze of gap that ended at now. The silence of the
// freeze was ours, not the server's: the session measures silence from
// now on. A freeze shorter than FreeAfter left our seat held: the clock
// jumps to where the server is (the inputs of the frozen ticks, neutral,
// are stepped at once and never sent), so that the next input arrives in
// time and the server hears us again. After a longer one the seat is
// gone, unless the server froze too: the client checks with the server
// by reconnecting with its token (the seat back, score and all, if it is
// still held, else a seat as a new player, which the session says).
func (c *Client) woke(now time.Time, gap time.Duration) {
	c.sess.wake(now, gap)
	c.link.wake(c.ms.at(now))
	switch c.sess.state() {
	case StatusPlaying, StatusWaiting:
	default:
		return // connecting or reconnecting: the handshake goes on, its silence counted from now
	}
	if gap >= FreeAfter {
		c.lost(now)
		c.sess.checking(gap)
		return
	}
	if c.sess.state() != StatusPlaying || c.tl.current() == nil || c.sess.seat() < 0 {
		return // in the lobby the keep-alives resume; a spectator follows the States
	}
	c.catchUp(now)
}

// catchUp jumps the predicted world to the tick it should be at now, as
// far ahead of the server's clock (as the client estimates it: the
// newest tick reported, advanced by the time since) as clock sync keeps
// it, stepping the missed ticks with a neutral local input.
func (c *Client) catchUp(now time.Time) {
	rtt := c.link.rtt()
	present, ok := c.server.present(now, rtt)
	if !ok {
		return
	}
	lead := int32(math.Ceil(float64(rtt/2)/float64(TickDuration) + c.sync.target()/tickMs))
	n := int(present.Add(lead).Diff(c.tl.tick()))
	if n <= syncJumpTicks {
		return
	}
	slot := c.sess.seat()
	for range n {
		c.tl.predict(slot, game.Input{})
	}
	c.sync.restart(c.tl.tick())
}

// awayNote is what the player is told after a freeze longer than the
// server holds a seat, while the client checks with the server.
func awayNote(gap time.Duration) string {
	return fmt.Sprintf("this computer was asleep for %v, longer than the server holds a seat (%v): checking with the server…",
		gap.Round(time.Second), FreeAfter)
}
