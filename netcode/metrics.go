package netcode

import (
	"time"

	"ttytanks/game"
)

// Metrics returns the client's netcode figures now.
func (c *Client) Metrics() Metrics {
	m, l := &c.m, &c.link
	out := Metrics{
		ServerTick:       c.serverTick,
		Rollbacks:        m.rollbacks,
		ReplayLast:       m.replayLast,
		ReplayMax:        m.replayMax,
		ReplayCostLast:   m.replayCostLast,
		ReplayCostP95:    time.Duration(m.replayCost.quantile(0.95)),
		ReplayCostP99:    time.Duration(m.replayCost.quantile(0.99)),
		RTT:              l.rtt(),
		ArrivalMargin:    time.Duration(l.margin.v * float64(time.Millisecond)),
		ArrivalMarginP5:  time.Duration(l.margins.quantile(0.05) * float64(time.Millisecond)),
		ArrivalMarginP50: time.Duration(l.margins.quantile(0.5) * float64(time.Millisecond)),
		LossUp:           l.lossUp,
		LossDown:         l.lossDown(),
		HashMismatches:   m.hashMismatches,
		Resyncs:          m.resyncs,
		Dropped:          m.dropped + m.slotMismatches,
		BytesUpPerSec:    l.up.perS,
		BytesDownPerSec:  l.down.perS,
		BytesUp:          l.up.total,
		BytesDown:        l.down.total,
		DatagramsUp:      l.datagramsUp,
		Redundancy:       c.redundancy(),
		Guessed:          l.guessed,
	}
	if w := c.tl.world; w != nil {
		out.LocalTick = w.Tick()
		if c.haveServerTick {
			// The server's present: its reported tick, plus the ticks it has
			// run since it sent the report (half an RTT ago) and since we
			// got it.
			since := c.lastNow.Sub(c.serverTickAt) + l.rtt()/2
			now := c.serverTick.Add(int32((since + TickDuration/2) / TickDuration))
			out.InputLead = out.LocalTick.Diff(now)
		}
		if c.tl.haveAuth {
			out.StateDelay = out.LocalTick.Diff(c.tl.lastAuth)
		}
	}
	out.RTTSparkN = l.rttSpark.fill(&out.RTTSpark)
	out.ReplaySparkN = m.replaySpark.fill(&out.ReplaySpark)
	return out
}

// View fills dst with everything a renderer needs for one frame.
func (c *Client) View(dst *View) {
	s := &c.sess
	dst.Status, dst.Slot, dst.Need = s.status, s.slot, s.need
	dst.Message = s.note
	if s.err != nil {
		dst.Message = s.err.Error()
	}
	dst.Names, dst.Connected = s.names, s.connected
	if w := c.tl.world; w != nil {
		w.Save(&dst.World)
		dst.Maze = *w.Maze()
	} else {
		dst.World, dst.Maze = game.Snapshot{}, game.Maze{}
	}
	dst.Metrics = c.Metrics()
}
