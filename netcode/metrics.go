package netcode

import (
	"time"

	"ttytanks/game"
)

// Metrics returns the client's netcode figures now.
func (c *Client) Metrics() Metrics {
	m := &c.m
	out := Metrics{
		ServerTick:     m.serverTick,
		Rollbacks:      m.rollbacks,
		ReplayLast:     m.replayLast,
		ReplayMax:      m.replayMax,
		ReplayCostLast: m.replayCostLast,
		ReplayCostP95:  time.Duration(m.replayCost.quantile(0.95)),
		ReplayCostP99:  time.Duration(m.replayCost.quantile(0.99)),
		RTT:            time.Duration(m.srtt.v),
		ArrivalMargin:  time.Duration(m.margin.v * float64(time.Millisecond)),
		LossUp:         m.lossUp,
		HashMismatches: m.hashMismatches,
		Resyncs:        m.resyncs,
		Dropped:        m.dropped,
		BytesUpPerSec:  m.up.perS,
	}
	out.BytesDownPerSec = m.down.perS
	out.BytesUp, out.BytesDown = m.up.total, m.down.total
	out.DatagramsUp = m.datagramsUp
	if m.downExp > 0 {
		out.LossDown = max(0, 1-m.downGot/m.downExp)
	}
	if c.world != nil {
		out.LocalTick = c.world.Tick()
		if m.haveServerTick {
			// The server's present: its reported tick, plus the ticks it has
			// run since it sent the report (half an RTT ago) and since we
			// got it.
			since := c.lastNow.Sub(m.serverTickAt) + time.Duration(m.srtt.v/2)
			now := m.serverTick.Add(int32((since + TickDuration/2) / TickDuration))
			out.InputLead = out.LocalTick.Diff(now)
		}
		if c.haveAuth {
			out.StateDelay = out.LocalTick.Diff(c.lastAuth)
		}
	}
	out.RTTSparkN = m.rttSpark.fill(&out.RTTSpark)
	out.ReplaySparkN = m.replaySpark.fill(&out.ReplaySpark)
	return out
}

// View fills dst with everything a renderer needs for one frame.
func (c *Client) View(dst *View) {
	dst.Status, dst.Message, dst.Slot, dst.Need = c.status, c.message, c.slot, c.need
	dst.Names, dst.Connected = c.names, c.connected
	if c.world != nil {
		c.world.Save(&dst.World)
		dst.Maze = *c.world.Maze()
	} else {
		dst.World, dst.Maze = game.Snapshot{}, game.Maze{}
	}
	dst.Metrics = c.Metrics()
}
