package rating_test

import (
	"errors"
	"math"
	"testing"

	"ttytanks/internal/rating"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		tau float64
		ok  bool
	}{
		{0.5, true}, {0.3, true}, {1.2, true}, {rating.MinTau, true}, {rating.MaxTau, true},
		{0, false}, {-0.5, false}, {0.09, false}, {2.01, false},
		{math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
	} {
		err := rating.Config{Tau: c.tau}.Validate()
		if c.ok && err != nil || !c.ok && !errors.Is(err, rating.ErrTau) {
			t.Errorf("Config{Tau: %v}.Validate() = %v, want ok %v", c.tau, err, c.ok)
		}
	}
}

// TestUpdateRejects checks that what is not a rating, a score or a τ gets
// an error and the rating back unchanged.
func TestUpdateRejects(t *testing.T) {
	p := rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	opp := rating.Rating{R: 1400, RD: 30, Sigma: 0.06}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name string
		cfg  rating.Config
		p    rating.Rating
		res  rating.Result
		want error
	}{
		{"tau 0", rating.Config{}, p, rating.Result{Opp: opp, Score: 1}, rating.ErrTau},
		{"NaN R", cfg, rating.Rating{R: nan, RD: 200, Sigma: 0.06}, rating.Result{Opp: opp, Score: 1}, rating.ErrRating},
		{"Inf RD", cfg, rating.Rating{R: 1500, RD: inf, Sigma: 0.06}, rating.Result{Opp: opp, Score: 1}, rating.ErrRating},
		{"-Inf Sigma", cfg, rating.Rating{R: 1500, RD: 200, Sigma: -inf}, rating.Result{Opp: opp, Score: 1}, rating.ErrRating},
		{"zero RD", cfg, rating.Rating{R: 1500, Sigma: 0.06}, rating.Result{Opp: opp, Score: 1}, rating.ErrRating},
		{"negative Sigma", cfg, rating.Rating{R: 1500, RD: 200, Sigma: -0.06}, rating.Result{Opp: opp, Score: 1}, rating.ErrRating},
		{"opponent NaN RD", cfg, p, rating.Result{Opp: rating.Rating{R: 1400, RD: nan, Sigma: 0.06}, Score: 1}, rating.ErrRating},
		{"opponent Inf R", cfg, p, rating.Result{Opp: rating.Rating{R: inf, RD: 30, Sigma: 0.06}, Score: 1}, rating.ErrRating},
		{"score NaN", cfg, p, rating.Result{Opp: opp, Score: nan}, rating.ErrScore},
		{"score 2", cfg, p, rating.Result{Opp: opp, Score: 2}, rating.ErrScore},
		{"score -0.5", cfg, p, rating.Result{Opp: opp, Score: -0.5}, rating.ErrScore},
	} {
		results := []rating.Result{{Opp: opp, Score: 0}, c.res}
		got, err := c.cfg.Update(c.p, results)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
		if !sameBits(got, c.p) {
			t.Errorf("%s: got %+v, want %+v unchanged", c.name, got, c.p)
		}
	}
}

// TestUpdateBounds checks that ratings outside the bounds are taken at the
// nearest bound and that answers lie within them.
func TestUpdateBounds(t *testing.T) {
	opp := rating.Rating{R: 1500, RD: 30, Sigma: 0.06}
	for _, c := range []struct {
		name string
		in   rating.Rating
		res  []rating.Result
		want rating.Rating // the rating in is taken as
	}{
		{"RD above", rating.Rating{R: 1500, RD: 900, Sigma: 0.06}, nil, rating.Rating{R: 1500, RD: 350, Sigma: 0.06}},
		{"RD below", rating.Rating{R: 1500, RD: 1, Sigma: 0.06}, []rating.Result{{Opp: opp, Score: 1}}, rating.Rating{R: 1500, RD: 30, Sigma: 0.06}},
		{"Sigma above", rating.Rating{R: 1500, RD: 100, Sigma: 3}, []rating.Result{{Opp: opp, Score: 0}}, rating.Rating{R: 1500, RD: 100, Sigma: 0.1}},
		{"R above", rating.Rating{R: 1e9, RD: 100, Sigma: 0.06}, []rating.Result{{Opp: opp, Score: 0}}, rating.Rating{R: 5000, RD: 100, Sigma: 0.06}},
		{"R below", rating.Rating{R: -1e9, RD: 100, Sigma: 0.06}, []rating.Result{{Opp: opp, Score: 1}}, rating.Rating{R: 0, RD: 100, Sigma: 0.06}},
	} {
		got, err := cfg.Update(c.in, c.res)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, _ := cfg.Update(c.want, c.res)
		if got != want {
			t.Errorf("%s: Update(%+v) = %+v, want %+v as for %+v", c.name, c.in, got, want, c.want)
		}
		if !inBounds(got) {
			t.Errorf("%s: Update(%+v) = %+v, want it within the bounds", c.name, c.in, got)
		}
	}
	// An opponent far out of bounds counts as one at the bound.
	far, _ := cfg.Update(rating.New(), []rating.Result{{Opp: rating.Rating{R: 1e12, RD: 1e-9, Sigma: 5}, Score: 1}})
	near, _ := cfg.Update(rating.New(), []rating.Result{{Opp: rating.Rating{R: 5000, RD: 30, Sigma: 0.1}, Score: 1}})
	if far != near || !inBounds(far) {
		t.Errorf("against an opponent out of bounds %+v, at the bounds %+v; want them equal and within", far, near)
	}
}

func inBounds(r rating.Rating) bool {
	return r.R >= rating.MinR && r.R <= rating.MaxR &&
		r.RD >= rating.MinRD && r.RD <= rating.MaxRD &&
		r.Sigma >= rating.MinSigma && r.Sigma <= rating.MaxSigma
}

func sameBits(a, b rating.Rating) bool {
	return math.Float64bits(a.R) == math.Float64bits(b.R) &&
		math.Float64bits(a.RD) == math.Float64bits(b.RD) &&
		math.Float64bits(a.Sigma) == math.Float64bits(b.Sigma)
}
