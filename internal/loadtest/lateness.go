package loadtest

import (
	"math/bits"
	"time"
)

// lateness is a histogram of how late a loop ran its clients' ticks
// after their deadlines, in microseconds: exact below 64 µs, then 32
// buckets to each doubling (within about 3%), up to about 2^40 µs. The
// zero value is empty; record allocates nothing.
type lateness struct {
	n       uint64
	max     time.Duration
	buckets [latenessBuckets]uint64
}

const (
	latenessExact   = 64 // µs counted one by one
	latenessSub     = 32 // buckets to a doubling above
	latenessBuckets = latenessExact + 40*latenessSub
)

// record counts one tick run d after its deadline (d < 0 counts as 0).
func (l *lateness) record(d time.Duration) {
	d = max(d, 0)
	l.n++
	l.max = max(l.max, d)
	l.buckets[latenessBucket(uint64(d/time.Microsecond))]++
}

// latenessBucket is the bucket of us microseconds.
func latenessBucket(us uint64) int {
	if us < latenessExact {
		return int(us)
	}
	e := bits.Len64(us) - 6 // us>>e is in [32, 64)
	i := latenessExact + (e-1)*latenessSub + int(us>>e) - latenessSub
	return min(i, latenessBuckets-1)
}

// latenessFloor is the least value of bucket i, in microseconds.
func latenessFloor(i int) uint64 {
	if i < latenessExact {
		return uint64(i)
	}
	e := (i-latenessExact)/latenessSub + 1
	return uint64(latenessSub+(i-latenessExact)%latenessSub) << e
}

// add adds o's counts to l.
func (l *lateness) add(o *lateness) {
	l.n += o.n
	l.max = max(l.max, o.max)
	for i := range l.buckets {
		l.buckets[i] += o.buckets[i]
	}
}

// quantile returns the q-quantile (0 < q <= 1) of the lateness, to the
// floor of its bucket; 0 when empty, the most when q is 1.
func (l *lateness) quantile(q float64) time.Duration {
	if l.n == 0 {
		return 0
	}
	rank := uint64(q * float64(l.n))
	if rank >= l.n {
		return l.max
	}
	rank = max(rank, 1)
	var seen uint64
	for i, c := range l.buckets {
		seen += c
		if seen >= rank {
			return min(time.Duration(latenessFloor(i))*time.Microsecond, l.max)
		}
	}
	return l.max
}
