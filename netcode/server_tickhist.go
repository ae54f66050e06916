package netcode

import "time"

// TickBuckets are the upper bounds of TickHistogram's buckets, in
// ascending order: from a fraction of a millisecond to four ticks'
// budget (TickDuration is the budget of one).
var TickBuckets = [...]time.Duration{
	50 * time.Microsecond, 100 * time.Microsecond, 250 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond,
	TickDuration, 2 * TickDuration, 4 * TickDuration,
}

// TickHistogram counts the driver's tick durations by bucket: Counts[i]
// those at most TickBuckets[i] and above the bucket before, the last one
// those above every bound; Sum is their total, Count their number.
type TickHistogram struct {
	Counts [len(TickBuckets) + 1]uint64
	Sum    time.Duration
	Count  uint64
}

// tickHistogram keeps a TickHistogram: a few additions per tick, no
// allocation.
type tickHistogram struct{ h TickHistogram }

// observe counts one tick of duration d.
func (t *tickHistogram) observe(d time.Duration) {
	i := 0
	for i < len(TickBuckets) && d > TickBuckets[i] {
		i++
	}
	t.h.Counts[i]++
	t.h.Sum += d
	t.h.Count++
}

// figures returns the histogram so far.
func (t *tickHistogram) figures() TickHistogram { return t.h }
