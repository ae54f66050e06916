package netcode

import (
	"math"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// Clock sync. The client must run ahead of the server by about half the RTT
// plus a safety margin, so that its input for tick T reaches the server just
// before the server steps T. The server reports, in every State and Ack (30
// a second), how early (or late) our newest input arrived. The client
// watches a low percentile of those margins over the last 30 reports (1 s)
// — the unlucky, most jittered arrivals — and steers it to a target:
//
//   - within ±3 ticks of the target, it speeds its tick clock up or slows
//     it down in proportion, by at most syncMaxRate (5 %); a rate change
//     shows in the margins only a round trip later, so the gain
//     (syncGainPerMs) is lowered at long RTT to keep gain × RTT at most
//     syncLoopGain: beyond that the lead overshoots and swings (at 1 s RTT
//     the swing made the inputs of whole seconds late);
//   - further off (at the start of a match, after a stall, or when the
//     route changes), it jumps: it steps the missing ticks at once, or
//     skips ticks, and then ignores margins of inputs sent before the jump.
//
// The target makes the input path's redundancy count. Each Input datagram
// repeats the newest inputs, so the input for tick T also travels in the
// datagrams of T+1, T+2, …, each a tick later. Copy k arrives in time only
// if the margin is at least k ticks. With upstream loss p, the server has
// to guess T's input when every copy that can arrive in time is lost:
// p^copies. So the target is syncBaseMarginMs plus (copies−1) ticks, with
// copies the fewest for which p^copies ≤ syncGuessBudget (at most
// syncMaxCopies), and the datagrams carry at least that many inputs. At no
// loss that is one copy and the lead is half the RTT plus 4 ms; at 20 %
// loss, four copies, three ticks more.
const (
	syncBaseMarginMs = 4.0
	syncQuantile     = 0.05
	syncMinSamples   = 8
	syncGainPerMs    = 0.002
	syncLoopGain     = 0.5
	syncMaxRate      = 0.05
	syncJumpTicks    = 3
	syncGuessBudget  = 0.002
	syncMaxCopies    = 6
	syncSpacedCopies = 1
)

var tickMs = float64(TickDuration) / 1e6

// clockSync owns the client's tick clock: how many ticks are due, the
// rate it runs at, and the jumps that keep the input lead on target.
type clockSync struct {
	clock      TickClock
	margins    *window
	marginFrom game.Tick // margin samples for older inputs predate the last jump
	marginLow  float64   // cached low quantile of margins
	dirty      bool
	skip       int  // ticks still to skip (we ran too far ahead, or wait for the start)
	ahead      int  // ticks still to step at once (we start behind)
	copies     int  // copies of each input that must arrive in time
	every      int  // ticks between Input datagrams while the input holds: spacing
	jump       bool // the clock jumped (or was placed) since jumped last said
	rtt        time.Duration
}

func newClockSync() clockSync { return clockSync{margins: newWindow(30), copies: 1, every: 2} }

// reset forgets the margins and the clock, from tick from on.
func (c *clockSync) reset(from game.Tick) {
	c.margins.reset()
	c.dirty = true
	c.clock.Reset()
	c.clock.SetRate(1)
	c.skip, c.ahead = 0, 0
	c.marginFrom = from
}

// restart starts the tick clock afresh at the next Advance, after a jump
// to tick from: the time the client was frozen is not owed ticks, and the
// margins of older inputs say nothing.
func (c *clockSync) restart(from game.Tick) {
	c.clock.Reset()
	c.skip, c.ahead = 0, 0
	c.forget(from)
}

// forget drops the margin samples: they no longer describe where we are.
func (c *clockSync) forget(from game.Tick) {
	c.jump = true
	c.margins.reset()
	c.dirty = true
	c.marginFrom = from
}

// sample takes the arrival margin (ms) of the Input datagram whose newest
// input is for tick newest.
func (c *clockSync) sample(newest game.Tick, ms int16) {
	if !newest.Before(c.marginFrom) {
		c.margins.add(float64(ms))
		c.dirty = true
	}
}

// setLoss sets the number of copies each input needs from the measured
// upstream loss.
func (c *clockSync) setLoss(p float64) {
	k := 1
	for k < syncMaxCopies && math.Pow(p, float64(k)) > syncGuessBudget {
		k++
	}
	c.copies = k
	c.every = 1
	if k <= syncSpacedCopies {
		c.every = 2
	}
}

// jumped reports, once, that the clock jumped or was placed since the
// last call: inputs sent before then were timed by a clock that was off.
func (c *clockSync) jumped() bool {
	j := c.jump
	c.jump = false
	return j
}

// setRTT takes the round trip as the client measures it: the delay
// before a change of rate shows in the margins.
func (c *clockSync) setRTT(rtt time.Duration) { c.rtt = rtt }

// spacing returns how many ticks apart the client sends its Input
// datagrams while its input does not change (a change goes at once): 2
// while the loss calls for one copy of each input (syncSpacedCopies),
// else 1. Every other datagram halves what goes up and costs the lead a
// tick (the input of a tick sent with the next one arrives a tick late);
// each further copy would cost two, so under loss the inputs go every
// tick, as they always did. One copy every second tick and two every tick
// both aim a tick of margin above syncBaseMarginMs, so a loss near the
// line flips the spacing without moving the lead.
func (c *clockSync) spacing() int { return c.every }

// target returns the arrival margin, in ms, the client aims for: copy k
// of an input travels (k−1) × spacing ticks after the first, which itself
// waits up to spacing − 1 ticks for its datagram.
func (c *clockSync) target() float64 {
	s := c.spacing()
	return syncBaseMarginMs + float64(s-1+(c.copies-1)*s)*tickMs
}

// due returns how many ticks to step at now: the clock's ticks, less those
// to skip, plus a jump ahead when the margins say we are far behind. tick
// is the world's tick; seated is false for spectators, who follow States.
func (c *clockSync) due(now time.Time, tick game.Tick, seated bool) int {
	n := c.clock.Advance(now) + c.ahead
	c.ahead = 0
	if adj := c.adjust(tick, seated); adj < 0 {
		c.skip += -adj
	} else {
		n += adj
	}
	k := min(n, c.skip)
	c.skip -= k
	return n - k
}

// adjust sets the clock rate from the arrival margins and returns a jump:
// extra ticks to step now (positive) or to skip (negative).
func (c *clockSync) adjust(tick game.Tick, seated bool) int {
	if !seated || c.margins.len() < syncMinSamples {
		c.clock.SetRate(1)
		return 0
	}
	if c.dirty {
		c.marginLow, c.dirty = c.margins.quantile(syncQuantile), false
	}
	err := c.marginLow - c.target()
	if math.Abs(err) > syncJumpTicks*tickMs {
		c.margins.reset()
		c.dirty = true
		c.clock.SetRate(1)
		// At most half the server's input window at once, so a wild sample
		// can never put us where the server drops our inputs.
		n := max(-MaxInputAhead/2, min(MaxInputAhead/2, int(math.Round(err/tickMs))))
		// Inputs sent from now on reflect the jump; ignore older ones.
		c.marginFrom = tick.Add(int32(max(-n, 0)) + 1)
		c.jump = true
		return -n
	}
	gain := syncGainPerMs
	if ms := float64(c.rtt) / float64(time.Millisecond); ms*gain > syncLoopGain {
		gain = syncLoopGain / ms
	}
	c.clock.SetRate(1 + max(-syncMaxRate, min(syncMaxRate, -err*gain)))
	return 0
}

// place positions the clock, which starts at the next Advance, so that
// the world's next tick is stepped x ticks from then: positive x lets
// time pass without stepping (the match has not started yet), negative x
// steps the ticks already due at once (we start behind), at most half the
// server's input window. The fraction of x sets the clock's phase, so the
// tick is stepped at x, not at the next whole tick after it.
func (c *clockSync) place(x float64) {
	c.jump = true
	if x > 0 {
		k := math.Ceil(x) // the clock's k-th tick steps it
		c.skip += int(k) - 1
		c.clock.SetPhase(time.Duration((k - x) * float64(TickDuration)))
		return
	}
	n := math.Floor(-x) + 1 // those due now; the next within a tick
	c.ahead += min(int(n), MaxInputAhead/2)
	c.clock.SetPhase(time.Duration((1 - (x + n)) * float64(TickDuration)))
}

// until returns how long from now until the next tick is due.
func (c *clockSync) until(now time.Time) time.Duration { return c.clock.Until(now) }

// needed returns how many copies of each input must arrive in time.
func (c *clockSync) needed() int { return c.copies }

// startOffset returns in how many ticks (a fraction) our clock should
// step the start tick of st, at the round trip rtt, so that our input for it reaches the server just
// in time: negative, we are that far behind already. The server's clock
// is ServerTick plus the half RTT the Start took, and we lead it by
// another half RTT plus the clock sync's target margin. The server's step
// of ServerTick may have come any time within a tick after the Start
// left: the offset counts it as coming at once, so the first inputs are
// early rather than late (by less than a tick, which clock sync takes
// back).
func (c *clockSync) startOffset(st *proto.Start, rtt time.Duration) float64 {
	lead := float64(rtt)/float64(TickDuration) + c.target()/tickMs
	return float64(int32(st.StartTick-st.ServerTick)) - lead
}

// redundancy returns how many inputs each Input datagram carries now: at
// least least, more when loss calls for it, at most proto.MaxInputs.
func (c *clockSync) redundancy(least int) int {
	return min(max(least, c.needed()*c.spacing()), proto.MaxInputs)
}
