package netcode

import (
	"slices"
	"time"
)

// window keeps the last n samples of a series, for percentiles and minima.
// It allocates once, at creation. The samples are also kept sorted as they
// come (a binary search and a move of at most n values per sample), so a
// quantile costs nothing however often it is asked: a client's sidebar
// asks for three on every frame, and a sort each time cost a session more
// than drawing its maze.
type window struct {
	vals   []float64 // the samples in arrival order, a ring
	sorted []float64 // the same samples, ascending
	next   int
	n      int
}

func newWindow(n int) *window {
	return &window{vals: make([]float64, n), sorted: make([]float64, 0, n)}
}

func (w *window) add(v float64) {
	if v != v {
		v = 0 // a NaN would not sort: never expected, never kept
	}
	if w.n == len(w.vals) {
		old := w.vals[w.next]
		i, _ := slices.BinarySearch(w.sorted, old)
		w.sorted = slices.Delete(w.sorted, i, i+1)
	}
	i, _ := slices.BinarySearch(w.sorted, v)
	w.sorted = slices.Insert(w.sorted, i, v)
	w.vals[w.next] = v
	w.next = (w.next + 1) % len(w.vals)
	w.n = min(w.n+1, len(w.vals))
}

func (w *window) reset() { w.next, w.n, w.sorted = 0, 0, w.sorted[:0] }

// len returns how many samples the window holds.
func (w *window) len() int { return w.n }

// quantile returns the q-quantile (0..1) of the samples, 0 when empty.
func (w *window) quantile(q float64) float64 {
	if w.n == 0 {
		return 0
	}
	return w.sorted[int(q*float64(w.n-1))]
}

// last returns the most recent samples, oldest first, into dst.
func (w *window) last(dst []float64) int {
	k := min(len(dst), w.n)
	for i := 0; i < k; i++ {
		idx := (w.next - k + i + len(w.vals)) % len(w.vals)
		dst[i] = w.vals[idx]
	}
	return k
}

// ewma is an exponentially weighted moving average.
type ewma struct {
	v     float64
	alpha float64
	ok    bool
}

// newEWMA returns an average that moves by alpha of each new sample's
// distance from it.
func newEWMA(alpha float64) ewma { return ewma{alpha: alpha} }

// value returns the average, and whether it has had a sample.
func (e *ewma) value() (float64, bool) { return e.v, e.ok }

func (e *ewma) add(x float64) {
	if !e.ok {
		e.v, e.ok = x, true
		return
	}
	e.v += e.alpha * (x - e.v)
}

// rate measures bytes per second over windows of about a second.
type rate struct {
	start time.Time
	bytes int
	perS  float64
	total uint64
}

func (r *rate) add(now time.Time, n int) {
	r.bytes += n
	r.total += uint64(n)
	r.tick(now)
}

// perSecond returns the rate of the last whole window, in bytes per
// second; sum the bytes ever counted.
func (r *rate) perSecond() float64 { return r.perS }
func (r *rate) sum() uint64        { return r.total }

func (r *rate) tick(now time.Time) {
	if r.start.IsZero() {
		r.start = now
		return
	}
	if d := now.Sub(r.start); d >= time.Second {
		r.perS = float64(r.bytes) / d.Seconds()
		r.start, r.bytes = now, 0
	}
}

// spark is a fixed-size sparkline history.
type spark struct {
	w *window
}

func newSpark() spark { return spark{w: newWindow(SparkLen)} }

func (s spark) fill(dst *[SparkLen]float64) int { return s.w.last(dst[:]) }

// add appends a sample, the oldest falling off.
func (s spark) add(v float64) { s.w.add(v) }
