package netcode

import "math"

// Clock sync. The client must run ahead of the server by about half the RTT
// plus a safety margin, so that its input for tick T reaches the server just
// before the server steps T. The server reports, in every Ack, how early (or
// late) our newest input arrived. The client watches a low percentile of
// those margins over the last 45 inputs (3/4 s) — the unlucky, most
// jittered arrivals — and steers it to a target:
//
//   - within ±3 ticks of the target, it speeds its tick clock up or slows
//     it down in proportion, by at most syncMaxRate (5 %);
//   - further off (at the start of a match, after a stall, or when the
//     route changes), it jumps: it steps the missing ticks at once, or
//     skips ticks, and then ignores margins of inputs sent before the jump.
//
// The target is syncBaseMarginMs, plus up to one tick when input packets
// are being lost: a lost packet's inputs arrive with the next one, a tick
// later, and should still be in time.
const (
	syncBaseMarginMs = 4.0
	syncQuantile     = 0.05
	syncMinSamples   = 8
	syncGainPerMs    = 0.002
	syncMaxRate      = 0.05
	syncJumpTicks    = 3
)

var tickMs = float64(TickDuration) / 1e6

// marginTarget returns the arrival margin, in ms, the client aims for.
func (c *Client) marginTarget() float64 {
	return syncBaseMarginMs + min(1, c.m.lossUp*20)*tickMs
}

// syncAdjust sets the clock rate from the arrival margins and returns a
// jump: extra ticks to step now (positive) or to skip (negative).
func (c *Client) syncAdjust() int {
	if c.slot < 0 || c.margins.n < syncMinSamples {
		c.clock.SetRate(1)
		return 0
	}
	if c.marginDirty {
		c.marginLow, c.marginDirty = c.margins.quantile(syncQuantile), false
	}
	err := c.marginLow - c.marginTarget()
	if math.Abs(err) > syncJumpTicks*tickMs {
		c.margins.reset()
		c.marginDirty = true
		c.clock.SetRate(1)
		// At most half the server's input window at once, so a wild sample
		// can never put us where the server drops our inputs.
		n := max(-MaxInputAhead/2, min(MaxInputAhead/2, int(math.Round(err/tickMs))))
		// Inputs sent from now on reflect the jump; ignore older ones.
		c.marginFrom = c.world.Tick().Add(int32(max(-n, 0)) + 1)
		return -n
	}
	c.clock.SetRate(1 + max(-syncMaxRate, min(syncMaxRate, -err*syncGainPerMs)))
	return 0
}
