package rating_test

import (
	"errors"
	"math"
	"testing"

	"ttytanks/internal/rating"
)

// FuzzUpdate rates a player against n results (0 to 8) with the opponent
// of the inputs, moved 250 points per result, scoring score and 1−score
// by turns. Invalid inputs get an error and the rating back unchanged;
// valid ones an answer within the bounds.
func FuzzUpdate(f *testing.F) {
	f.Add(0.5, 1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 1.0, uint8(3))    // the paper's player
	f.Add(0.5, 1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, 0.5, uint8(0))   // no results
	f.Add(2.0, 0.0, 30.0, 0.001, 5000.0, 30.0, 0.1, 1.0, uint8(1))        // the widest gap, upset
	f.Add(0.1, 1e300, -5.0, 1e-300, -1e300, 1e-300, 1e300, 0.0, uint8(8)) // far out of bounds
	f.Add(0.5, math.NaN(), 200.0, 0.06, 1400.0, math.Inf(1), 0.06, 1.0, uint8(2))
	f.Fuzz(func(t *testing.T, tau, r, rd, sigma, oR, oRD, oSigma, score float64, n uint8) {
		c := rating.Config{Tau: tau}
		p := rating.Rating{R: r, RD: rd, Sigma: sigma}
		results := make([]rating.Result, n%9)
		valid := c.Validate() == nil && takes(p)
		for i := range results {
			s := score
			if i%2 == 1 {
				s = 1 - score
			}
			results[i] = rating.Result{Opp: rating.Rating{R: oR + 250*float64(i), RD: oRD, Sigma: oSigma}, Score: s}
			valid = valid && takes(results[i].Opp) && s >= 0 && s <= 1
		}
		got, err := c.Update(p, results)
		switch {
		case !valid:
			if err == nil || !sameBits(got, p) {
				t.Fatalf("Update(%+v, %+v, τ %v) = %+v, %v; want an error and the rating unchanged", p, results, tau, got, err)
			}
			if !errors.Is(err, rating.ErrTau) && !errors.Is(err, rating.ErrRating) && !errors.Is(err, rating.ErrScore) {
				t.Fatalf("Update(%+v, %+v, τ %v): error %v, not one of the package's", p, results, tau, err)
			}
		case err != nil:
			t.Fatalf("Update(%+v, %+v, τ %v): %v", p, results, tau, err)
		case !inBounds(got) || got.Sigma <= 0:
			t.Fatalf("Update(%+v, %+v, τ %v) = %+v, want it finite and within the bounds", p, results, tau, got)
		}
	})
}

// takes reports whether Update takes r as a rating: finite, RD and Sigma
// above 0.
func takes(r rating.Rating) bool {
	for _, x := range []float64{r.R, r.RD, r.Sigma} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return r.RD > 0 && r.Sigma > 0
}
