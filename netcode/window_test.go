package netcode

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWindowQuantile: a window's quantiles are those of its last n samples,
// sorted afresh, through wrap-arounds, repeats and a reset.
func TestWindowQuantile(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := newWindow(37)
	var all []float64
	for i := range 2000 {
		if i == 900 {
			w.reset()
			all = all[:0]
		}
		v := float64(rng.IntN(50)) // many repeats
		if rng.IntN(10) == 0 {
			v = rng.NormFloat64() * 1e3
		}
		w.add(v)
		all = append(all, v)
		last := slices.Clone(all[max(0, len(all)-37):])
		slices.Sort(last)
		if w.len() != len(last) {
			t.Fatalf("sample %d: len %d, want %d", i, w.len(), len(last))
		}
		for _, q := range []float64{0, 0.05, 0.5, 0.95, 0.99, 1} {
			if got, want := w.quantile(q), last[int(q*float64(len(last)-1))]; got != want {
				t.Fatalf("sample %d: quantile(%v) = %v, want %v", i, q, got, want)
			}
		}
	}
}

// BenchmarkWindowAdd is the cost of a sample in a full window of 512 (a
// client's replay costs): a quantile is then free.
func BenchmarkWindowAdd(b *testing.B) {
	w := newWindow(512)
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = rng.Float64() * 1e6
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.add(vals[i%len(vals)])
	}
}
