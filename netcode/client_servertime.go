package netcode

import (
	"time"

	"ttytanks/game"
)

// maxStateAhead is how far, in ticks, a State may be ahead of the server's
// clock as the client estimates it (its newest report, advanced by the time
// since): 2 s, far more than any RTT estimate can be off.
const maxStateAhead = 120

// serverTime is the client's estimate of the server's clock: the newest
// tick the server reported, and when it arrived.
type serverTime struct {
	tick game.Tick
	at   time.Time
	ok   bool
}

// reported takes a tick the server reported, arriving at now; an older
// one than the newest changes nothing.
func (s *serverTime) reported(t game.Tick, now time.Time) {
	if !s.ok || t.After(s.tick) {
		s.tick, s.at, s.ok = t, now, true
	}
}

// forget drops the estimate: a new match, or a new server.
func (s *serverTime) forget() { s.ok = false }

// newest returns the newest tick the server reported (0 before any).
func (s *serverTime) newest() game.Tick { return s.tick }

// present returns the server's tick at now as the client estimates it:
// the reported tick, plus the ticks the server has run since it sent the
// report (half of rtt ago) and since it arrived, rounded; ok is false
// before any report.
func (s *serverTime) present(now time.Time, rtt time.Duration) (t game.Tick, ok bool) {
	if !s.ok {
		return 0, false
	}
	since := now.Sub(s.at) + rtt/2
	return s.tick.Add(int32((since + TickDuration/2) / TickDuration)), true
}

// implausible reports whether a State for tick ta is too far ahead of the
// server, at now, to be genuine. Before any report the client cannot tell.
func (s *serverTime) implausible(now time.Time, ta game.Tick) bool {
	if !s.ok {
		return false
	}
	est := s.tick.Add(int32(now.Sub(s.at)/TickDuration) + maxStateAhead)
	return ta.After(est)
}

// msClock is the client's clock in milliseconds, for RTT echoes: the
// ClientTime of its datagrams, which the server echoes back. It starts
// at its first reading and wraps every 65.5 s.
type msClock struct{ epoch time.Time }

// at returns the clock's reading at now.
func (k *msClock) at(now time.Time) uint16 {
	if k.epoch.IsZero() {
		k.epoch = now
	}
	return uint16(now.Sub(k.epoch).Milliseconds())
}
