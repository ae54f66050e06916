package rating_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"ttytanks/internal/rating"
)

func TestPairwise(t *testing.T) {
	for _, c := range []struct {
		standings []int
		want      [][]float64
	}{
		{nil, [][]float64{}},
		{[]int{4}, [][]float64{{0}}},
		{[]int{3, 1}, [][]float64{{0, 1}, {0, 0}}},
		{[]int{2, 2}, [][]float64{{0, 0.5}, {0.5, 0}}},
		{[]int{1, 5, 1, 0}, [][]float64{
			{0, 0, 0.5, 1},
			{1, 0, 1, 1},
			{0.5, 0, 0, 1},
			{0, 0, 0, 0},
		}},
	} {
		got := rating.Pairwise(c.standings)
		if !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("Pairwise(%v) = %v, want %v", c.standings, got, c.want)
		}
	}
}

// TestUpdateMatchAlone checks that a match of fewer than two players
// changes no rating.
func TestUpdateMatchAlone(t *testing.T) {
	for _, ratings := range [][]rating.Rating{nil, {{R: 1612, RD: 80, Sigma: 0.05}}} {
		got, err := cfg.UpdateMatch(ratings, make([]int, len(ratings)))
		if err != nil || !slices.Equal(got, ratings) {
			t.Errorf("UpdateMatch(%v) = %v, %v; want them unchanged", ratings, got, err)
		}
	}
}

func TestUpdateMatchErrors(t *testing.T) {
	two := []rating.Rating{rating.New(), rating.New()}
	for _, c := range []struct {
		name      string
		cfg       rating.Config
		ratings   []rating.Rating
		standings []int
		want      error
	}{
		{"zero config", rating.Config{}, two, []int{1, 0}, rating.ErrTau},
		{"short standings", cfg, two, []int{1}, rating.ErrStandings},
		{"NaN R", cfg, []rating.Rating{rating.New(), {R: math.NaN(), RD: 50, Sigma: 0.06}}, []int{1, 0}, rating.ErrRating},
		{"zero Sigma", cfg, []rating.Rating{{R: 1500, RD: 50}, rating.New()}, []int{1, 0}, rating.ErrRating},
	} {
		got, err := c.cfg.UpdateMatch(c.ratings, c.standings)
		if !errors.Is(err, c.want) || got != nil {
			t.Errorf("%s: UpdateMatch = %v, %v; want nil, %v", c.name, got, err, c.want)
		}
	}
}
