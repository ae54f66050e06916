package rating

import (
	"math"
	"testing"
)

// TestPaperIntermediates checks the values the paper prints on the way to
// its example's answer. The paper carries its intermediate values rounded
// to three or four figures, so its v and Δ differ from exact arithmetic in
// the fourth decimal place (exact: v 1.77898, Δ −0.48393); they are
// checked to 0.001.
func TestPaperIntermediates(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Sigma: 0.06}
	results := []Result{
		{Opp: Rating{R: 1400, RD: 30, Sigma: 0.06}, Score: 1},
		{Opp: Rating{R: 1550, RD: 100, Sigma: 0.06}, Score: 0},
		{Opp: Rating{R: 1700, RD: 300, Sigma: 0.06}, Score: 0},
	}
	v, gain := estimate(p.mu(), results)
	delta := v * gain
	sigma := volatility(p.phi(), p.Sigma, v, delta, 0.5)
	// The Illinois algorithm alone, from the paper's own v and Δ.
	sigmaPaper := volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"μ", p.mu(), 0, 0.00005},
		{"φ", p.phi(), 1.1513, 0.00005},
		{"v", v, 1.7785, 0.001},
		{"Δ", delta, -0.4834, 0.001},
		{"σ′", sigma, 0.05999, 0.00001},
		{"σ′ from the paper's v and Δ", sigmaPaper, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %v, want %v ± %v", c.name, c.got, c.want, c.tol)
		}
	}
}
