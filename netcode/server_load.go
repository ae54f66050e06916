package netcode

import (
	"log/slog"
	"time"
)

// busyTick is how long the ticks may take, at their 99th percentile over
// the last 10 s, before the server opens no more rooms: half of a tick,
// so it keeps its clock with what it already carries.
const busyTick = TickDuration / 2

// load watches whether the server keeps its clock: the durations of the
// ticks its driver reports, and the ticks it had to skip when it fell too
// far behind (Advance's MaxCatchUpTicks). A server that is busy opens no
// more rooms, and says so in its log; it never slips its clock silently.
type load struct {
	log     *slog.Logger
	durs    *window // the ticks' durations, in nanoseconds
	checked time.Time
	busy    bool
	p99     time.Duration
	// slips counts the times the clock fell behind by more than
	// MaxCatchUpTicks and restarted from now; skipped the ticks it lost.
	slips, skipped uint64
}

func newLoad(log *slog.Logger) load { return load{log: log, durs: newWindow(600)} }

// observe records a tick's duration.
func (l *load) observe(d time.Duration) { l.durs.add(float64(d)) }

// quantiles returns the median and 99th percentile tick durations.
func (l *load) quantiles() (p50, p99 time.Duration) {
	return time.Duration(l.durs.quantile(0.5)), time.Duration(l.durs.quantile(0.99))
}

// refuses reports whether, at now, the server is too busy to open a room:
// judged at most once a second from the ticks' 99th percentile, and
// logged when it turns.
func (l *load) refuses(now time.Time) bool {
	if l.checked.IsZero() || now.Sub(l.checked) >= time.Second || now.Before(l.checked) {
		l.checked = now
		_, l.p99 = l.quantiles()
		if busy := l.p99 > busyTick; busy != l.busy {
			l.busy = busy
			if busy {
				l.log.Warn("opening no more rooms: the ticks take too long", "tick_p99", l.p99, "limit", busyTick)
			} else {
				l.log.Info("opening rooms again", "tick_p99", l.p99)
			}
		}
	}
	return l.busy
}

// slipped records that the clock fell behind by n ticks at once and was
// restarted.
func (l *load) slipped(n int) {
	l.slips++
	l.skipped += uint64(n)
	if l.slips == 1 || l.slips%100 == 0 {
		l.log.Warn("the server fell behind its clock and skipped ticks", "skipped", n, "slips", l.slips, "ticks_skipped", l.skipped)
	}
}

// figures returns the slips and the ticks skipped.
func (l *load) figures() (slips, skipped uint64) { return l.slips, l.skipped }
