package rating_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ttytanks/internal/rating"
)

var cfg = rating.Config{Tau: rating.DefaultTau}

// randRating returns a rating a ladder might hold.
func randRating(rng *rand.Rand) rating.Rating {
	return rating.Rating{
		R:     800 + 1600*rng.Float64(),
		RD:    rating.MinRD + (rating.MaxRD-rating.MinRD)*rng.Float64(),
		Sigma: 0.03 + 0.06*rng.Float64(),
	}
}

// TestStrongerRatedAbove plays two new players against each other, one
// match a period, the stronger winning 65% of them; after 300 matches the
// stronger is rated above.
func TestStrongerRatedAbove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ps := []rating.Rating{rating.New(), rating.New()}
	for range 300 {
		wins := []int{0, 1}
		if rng.Float64() < 0.65 {
			wins = []int{1, 0}
		}
		var err error
		if ps, err = cfg.UpdateMatch(ps, wins); err != nil {
			t.Fatal(err)
		}
	}
	if ps[0].R <= ps[1].R {
		t.Errorf("stronger %+v, weaker %+v: want the stronger above", ps[0], ps[1])
	}
}

// TestFreeForAllRanksByStrength plays four new players in free-for-alls of
// five rounds, each round won by a player chosen in proportion to their
// strength (1, 2, 3, 4); after 500 matches the ratings rank the players
// as their strengths do.
func TestFreeForAllRanksByStrength(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	strength := []float64{1, 2, 3, 4}
	ps := []rating.Rating{rating.New(), rating.New(), rating.New(), rating.New()}
	for range 500 {
		wins := make([]int, len(ps))
		for range 5 {
			x := rng.Float64() * 10
			i := 0
			for x >= strength[i] {
				x -= strength[i]
				i++
			}
			wins[i]++
		}
		var err error
		if ps, err = cfg.UpdateMatch(ps, wins); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].R <= ps[i-1].R {
			t.Errorf("player %d (strength %v) at %.1f, player %d (strength %v) at %.1f: want the stronger above",
				i, strength[i], ps[i].R, i-1, strength[i-1], ps[i-1].R)
		}
	}
}

// TestRDShrinksWithPlay plays a new player a period at a time against
// established opponents; RD falls every period until it reaches a level
// where the volatility holds it.
func TestRDShrinksWithPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := rating.New()
	for i := range 10 {
		var results []rating.Result
		for range 3 {
			opp := rating.Rating{R: 1300 + 400*rng.Float64(), RD: 50, Sigma: 0.06}
			results = append(results, rating.Result{Opp: opp, Score: float64(rng.IntN(3)) / 2})
		}
		next, err := cfg.Update(p, results)
		if err != nil {
			t.Fatal(err)
		}
		if next.RD >= p.RD {
			t.Fatalf("period %d: RD %v after %v, want it smaller", i, next.RD, p.RD)
		}
		p = next
	}
	if p.RD > 100 {
		t.Errorf("RD %v after 10 periods of 3 games, want at most 100", p.RD)
	}
}

// TestRDGrowsWithoutPlay lets an established player sit out periods: RD
// grows every period until MaxRD, and R and Sigma stay as they were.
func TestRDGrowsWithoutPlay(t *testing.T) {
	p := rating.Rating{R: 1720, RD: 40, Sigma: 0.06}
	for i := 0; p.RD < rating.MaxRD; i++ {
		next, err := cfg.Update(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if next.RD <= p.RD {
			t.Fatalf("period %d: RD %v after %v, want it greater", i, next.RD, p.RD)
		}
		if next.R != p.R || next.Sigma != p.Sigma {
			t.Fatalf("period %d: %+v after %+v, want R and Sigma kept", i, next, p)
		}
		if i > 5000 {
			t.Fatalf("RD %v after %d periods, want MaxRD", p.RD, i)
		}
		p = next
	}
	if p.RD != rating.MaxRD {
		t.Errorf("RD %v, want it stopped at MaxRD", p.RD)
	}
}

// TestResultOrder rates random periods with their results shuffled: each
// order gives the same bits.
func TestResultOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 500 {
		p := randRating(rng)
		results := make([]rating.Result, 2+rng.IntN(12))
		for j := range results {
			results[j] = rating.Result{Opp: randRating(rng), Score: float64(rng.IntN(3)) / 2}
		}
		want, err := cfg.Update(p, results)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			rng.Shuffle(len(results), func(a, b int) { results[a], results[b] = results[b], results[a] })
			if got, _ := cfg.Update(p, results); got != want {
				t.Fatalf("case %d: %+v shuffled gives %+v, want %+v", i, results, got, want)
			}
		}
	}
}

// TestMatchPlayerOrder rates random free-for-alls with their players
// shuffled: each player gets the same bits whatever the order.
func TestMatchPlayerOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 300 {
		n := 2 + rng.IntN(7)
		ratings := make([]rating.Rating, n)
		wins := make([]int, n)
		for j := range ratings {
			ratings[j], wins[j] = randRating(rng), rng.IntN(4)
		}
		want, err := cfg.UpdateMatch(ratings, wins)
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(n)
		pr, pw := make([]rating.Rating, n), make([]int, n)
		for j, k := range perm {
			pr[j], pw[j] = ratings[k], wins[k]
		}
		got, err := cfg.UpdateMatch(pr, pw)
		if err != nil {
			t.Fatal(err)
		}
		for j, k := range perm {
			if got[j] != want[k] {
				t.Fatalf("case %d: player %d moved to %d gets %+v, want %+v", i, k, j, got[j], want[k])
			}
		}
	}
}

// TestTwoPlayerSymmetric rates two-player matches between equal ratings:
// a win moves them by equal and opposite amounts and leaves their RDs and
// volatilities equal, and a draw moves neither R.
func TestTwoPlayerSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 200 {
		r := randRating(rng)
		before := []rating.Rating{r, r}
		won, err := cfg.UpdateMatch(before, []int{3, 1})
		if err != nil {
			t.Fatal(err)
		}
		up, down := won[0].R-r.R, won[1].R-r.R
		if up <= 0 || math.Abs(up+down) > 1e-9 {
			t.Errorf("case %d: %+v beat its equal: moved %+v and %+v, want equal and opposite", i, r, up, down)
		}
		if won[0].RD != won[1].RD || won[0].Sigma != won[1].Sigma {
			t.Errorf("case %d: %+v beat its equal: %+v and %+v, want equal RD and Sigma", i, r, won[0], won[1])
		}
		drew, err := cfg.UpdateMatch(before, []int{2, 2})
		if err != nil {
			t.Fatal(err)
		}
		if drew[0].R != r.R || drew[1].R != r.R {
			t.Errorf("case %d: %+v drew its equal: %+v, want R kept", i, r, drew)
		}
	}
}

// TestUpdateMatchIsPairwise checks that UpdateMatch rates each player as
// Update would against the others' ratings from before the match, scored
// by Pairwise.
func TestUpdateMatchIsPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for i := range 100 {
		n := 2 + rng.IntN(7)
		ratings := make([]rating.Rating, n)
		wins := make([]int, n)
		for j := range ratings {
			ratings[j], wins[j] = randRating(rng), rng.IntN(3)
		}
		before := slices.Clone(ratings)
		got, err := cfg.UpdateMatch(ratings, wins)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ratings, before) {
			t.Fatalf("case %d: UpdateMatch changed its argument", i)
		}
		s := rating.Pairwise(wins)
		for j := range ratings {
			var results []rating.Result
			for k := range ratings {
				if k != j {
					results = append(results, rating.Result{Opp: ratings[k], Score: s[j][k]})
				}
			}
			want, err := cfg.Update(ratings[j], results)
			if err != nil {
				t.Fatal(err)
			}
			if got[j] != want {
				t.Fatalf("case %d: player %d got %+v, want %+v", i, j, got[j], want)
			}
		}
	}
}
