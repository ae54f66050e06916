package loadtest

import (
	"testing"
	"time"
)

// The lateness histogram's quantiles are exact below 64 µs and within
// the 1/32 of a bucket above; two histograms add up to the one of all
// their values.
func TestLatenessQuantiles(t *testing.T) {
	var a, b lateness
	for i := 1; i <= 1000; i++ {
		a.record(time.Duration(i) * time.Microsecond) // 1 µs .. 1 ms
	}
	b.record(-time.Millisecond) // counts as 0
	b.record(50 * time.Millisecond)
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.01, 10 * time.Microsecond}, {0.05, 50 * time.Microsecond}, {0.5, 500 * time.Microsecond}, {0.99, 990 * time.Microsecond}, {1, time.Millisecond}} {
		got := a.quantile(c.q)
		if got > c.want || float64(got) < float64(c.want)*(1-1.0/32) {
			t.Errorf("quantile(%v) = %v, want %v (within 1/32 below)", c.q, got, c.want)
		}
	}
	a.add(&b)
	if a.n != 1002 || a.max != 50*time.Millisecond || a.quantile(1) != 50*time.Millisecond {
		t.Errorf("after add: %d values, max %v, quantile(1) %v; want 1002, 50ms, 50ms", a.n, a.max, a.quantile(1))
	}
	var empty lateness
	if empty.quantile(0.99) != 0 {
		t.Errorf("an empty histogram's p99 is %v", empty.quantile(0.99))
	}
	for us := uint64(0); us < 1<<20; us += 7 {
		if i := latenessBucket(us); latenessFloor(i) > us || (i+1 < latenessBuckets && latenessFloor(i+1) <= us) {
			t.Fatalf("%d µs in bucket %d, whose floor is %d and the next's %d", us, i, latenessFloor(i), latenessFloor(i+1))
		}
	}
}
