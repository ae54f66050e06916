package rating_test

import (
	"math"
	"testing"

	"ttytanks/internal/rating"
)

// paperPlayer and paperResults are the example of the paper: a player of
// 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one
// period, τ = 0.5. The opponents' volatilities play no part.
var (
	paperPlayer  = rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	paperResults = []rating.Result{
		{Opp: rating.Rating{R: 1400, RD: 30, Sigma: 0.06}, Score: rating.Win},
		{Opp: rating.Rating{R: 1550, RD: 100, Sigma: 0.06}, Score: rating.Loss},
		{Opp: rating.Rating{R: 1700, RD: 300, Sigma: 0.06}, Score: rating.Loss},
	}
)

// TestPaperExample checks the paper's answer to its example, 1464.06 /
// 151.52 / 0.05999, to the precision it prints.
func TestPaperExample(t *testing.T) {
	got, err := rating.Config{Tau: 0.5}.Update(paperPlayer, paperResults)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"R", got.R, 1464.06, 0.01},
		{"RD", got.RD, 151.52, 0.01},
		{"Sigma", got.Sigma, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %v, want %v ± %v", c.name, c.got, c.want, c.tol)
		}
	}
}

func TestNew(t *testing.T) {
	if got, want := rating.New(), (rating.Rating{R: 1500, RD: 350, Sigma: 0.06}); got != want {
		t.Errorf("New() = %+v, want %+v", got, want)
	}
}
