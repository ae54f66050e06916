package netcode

import "time"

// TickDuration is the length of one tick at 60 Hz.
const TickDuration = time.Second / 60

// MaxCatchUpTicks caps how many ticks one TickClock.Advance may report. After a
// long stall (a suspended laptop, a debugger) the game runs in slow motion
// for a moment instead of stepping hundreds of ticks at once and spiralling.
const MaxCatchUpTicks = 8

// TickClock is a fixed-step accumulator: it turns wall-clock time passed in by
// the caller into whole ticks. Its rate can be nudged a few percent for
// clock sync. The zero TickClock is not started; the first Advance starts it.
type TickClock struct {
	last    time.Time
	acc     time.Duration
	started bool
	// rate scales time: 1.02 runs the tick clock 2 % fast.
	rate float64
}

// Reset clears the accumulator; the next Advance starts from that moment.
func (c *TickClock) Reset() { *c = TickClock{rate: c.rate} }

// SetPhase sets how much of its first tick has passed when the clock
// starts: the first tick comes TickDuration−d after the first Advance
// (d is clamped to [0, TickDuration)). Reset clears it.
func (c *TickClock) SetPhase(d time.Duration) { c.acc = min(max(d, 0), TickDuration-1) }

// SetRate sets the speed factor (clamped to [0.9, 1.1]).
func (c *TickClock) SetRate(r float64) { c.rate = min(max(r, 0.9), 1.1) }

// Rate returns the speed factor.
func (c *TickClock) Rate() float64 {
	if c.rate == 0 {
		return 1
	}
	return c.rate
}

// Advance adds the time since the previous call (scaled by the rate) and
// returns how many whole ticks are due, at most MaxCatchUpTicks; time
// beyond the cap is dropped.
func (c *TickClock) Advance(now time.Time) int {
	if !c.started {
		c.started, c.last = true, now
		return 0
	}
	d := now.Sub(c.last)
	c.last = now
	if d <= 0 {
		return 0
	}
	c.acc += time.Duration(float64(d) * c.Rate())
	n := int(c.acc / TickDuration)
	c.acc -= time.Duration(n) * TickDuration
	if n > MaxCatchUpTicks {
		n = MaxCatchUpTicks
		c.acc = 0
	}
	return n
}

// Until returns how long from now until the next tick is due at the
// current rate (0 if one is due already).
func (c *TickClock) Until(now time.Time) time.Duration {
	if !c.started {
		return 0
	}
	left := TickDuration - c.acc - time.Duration(float64(now.Sub(c.last))*c.Rate())
	if left <= 0 {
		return 0
	}
	return time.Duration(float64(left) / c.Rate())
}
