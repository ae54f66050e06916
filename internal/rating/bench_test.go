package rating_test

import (
	"testing"

	"ttytanks/internal/rating"
)

// BenchmarkUpdate rates one player's period of 7 games.
func BenchmarkUpdate(b *testing.B) {
	p := rating.Rating{R: 1540, RD: 120, Sigma: 0.06}
	results := make([]rating.Result, 7)
	for i := range results {
		results[i] = rating.Result{
			Opp:   rating.Rating{R: 1300 + 70*float64(i), RD: 40 + 40*float64(i), Sigma: 0.06},
			Score: float64(i%3) / 2,
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cfg.Update(p, results); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateMatch8 rates a free-for-all of 8 players.
func BenchmarkUpdateMatch8(b *testing.B) {
	ratings := make([]rating.Rating, 8)
	wins := make([]int, 8)
	for i := range ratings {
		ratings[i] = rating.Rating{R: 1300 + 60*float64(i), RD: 40 + 40*float64(i), Sigma: 0.06}
		wins[i] = i % 4
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cfg.UpdateMatch(ratings, wins); err != nil {
			b.Fatal(err)
		}
	}
}
