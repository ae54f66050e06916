package netcode

import (
	"slices"
	"time"
)

// window keeps the last n samples of a series, for percentiles and minima.
// It allocates once, at creation.
type window struct {
	vals    []float64
	scratch []float64 // the samples sorted, while !dirty
	next    int
	n       int
	dirty   bool // a sample came since scratch was sorted
}

func newWindow(n int) *window {
	return &window{vals: make([]float64, n), scratch: make([]float64, n)}
}

func (w *window) add(v float64) {
	w.vals[w.next] = v
	w.next = (w.next + 1) % len(w.vals)
	w.n = min(w.n+1, len(w.vals))
	w.dirty = true
}

func (w *window) reset() { w.next, w.n, w.dirty = 0, 0, true }

// len returns how many samples the window holds.
func (w *window) len() int { return w.n }

// quantile returns the q-quantile (0..1) of the samples, 0 when empty.
// The samples are sorted once per change, so asking for several
// quantiles, or asking again before a new sample, costs no sort.
func (w *window) quantile(q float64) float64 {
	if w.n == 0 {
		return 0
	}
	s := w.scratch[:w.n]
	if w.dirty {
		copy(s, w.vals[:w.n])
		slices.Sort(s)
		w.dirty = false
	}
	i := int(q * float64(w.n-1))
	return s[i]
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
