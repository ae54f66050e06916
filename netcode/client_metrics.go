package netcode

import (
	"time"

	"ttytanks/game"
)

// Metrics returns the client's netcode figures now.
func (c *Client) Metrics() Metrics {
	m := &c.m
	out := Metrics{
		ServerTick:     c.server.newest(),
		Rollbacks:      m.rollbacks,
		ReplayLast:     m.replayLast,
		ReplayMax:      m.replayMax,
		ReplayCostLast: m.replayCostLast,
		ReplayCostP95:  time.Duration(m.replayCost.quantile(0.95)),
		ReplayCostP99:  time.Duration(m.replayCost.quantile(0.99)),
		HashMismatches: m.hashMismatches,
		Resyncs:        m.resyncs,
		FullStates:     m.fullStates,
		DeltaStates:    m.deltaStates,
		BaseMisses:     m.baseMisses,
		Dropped:        m.dropped + m.slotMismatches,
		Redundancy:     c.sync.redundancy(c.cfg.Redundancy),
	}
	c.link.fill(&out)
	if c.tl.current() != nil {
		out.LocalTick = c.tl.tick()
		// A lead and a delay mean something only while we predict.
		if now, ok := c.server.present(c.lastNow, out.RTT); ok && c.sess.seat() >= 0 && c.sess.state() == StatusPlaying {
			out.InputLead = out.LocalTick.Diff(now)
		}
		if t, ok := c.tl.auth(); ok && c.sess.state() == StatusPlaying {
			out.StateDelay = out.LocalTick.Diff(t)
		}
	}
	out.ReplaySparkN = m.replaySpark.fill(&out.ReplaySpark)
	return out
}

// View fills dst with everything a renderer needs for one frame.
func (c *Client) View(dst *View) {
	c.sess.fill(dst)
	dst.Server = c.cfg.Server
	if w := c.tl.current(); w != nil {
		w.Save(&dst.World)
		dst.Maze = *w.Maze()
	} else {
		dst.World, dst.Maze = game.Snapshot{}, game.Maze{}
	}
	dst.Metrics = c.Metrics()
	c.chat.fill(dst)
	c.ladder.fill(dst, c.sess.matchID())
}
