package rating

import "math"

// Rating is a player's rating on the Glicko-1 scale: R the rating and RD
// its deviation, both in rating points, and Sigma its volatility.
type Rating struct {
	R, RD, Sigma float64
}

// A new player's rating, from step 1 of the paper.
const (
	DefaultR     = 1500
	DefaultRD    = 350
	DefaultSigma = 0.06
)

// The bounds of a rating. Update's outputs lie within them, and it takes a
// finite input outside them at the nearest bound. RD is bounded as Lichess
// bounds it, though Lichess's bounds are [45, 500]: here the floor is 30 and
// the ceiling a new player's 350. Sigma's ceiling is Lichess's 0.1 ("past
// this, it might not stabilize ever again"). The bounds of R and Sigma's
// floor lie far beyond what play reaches; they keep the arithmetic finite.
const (
	MinR, MaxR         = 0, 5000
	MinRD, MaxRD       = 30, 350
	MinSigma, MaxSigma = 0.001, 0.1
)

// Scores of a Result.
const (
	Loss = 0
	Draw = 0.5
	Win  = 1
)

// Result is one game of a rating period: the opponent's rating before the
// period and the player's score against them, 1 for a win, 0.5 for a draw,
// 0 for a loss (anything in between is allowed).
type Result struct {
	Opp   Rating
	Score float64
}

// New returns a new player's rating: R 1500, RD 350, Sigma 0.06.
func New() Rating { return Rating{R: DefaultR, RD: DefaultRD, Sigma: DefaultSigma} }

// scale is the paper's factor between the Glicko-1 and the Glicko-2 scale
// (400/ln 10, as the paper rounds it).
const scale = 173.7178

// mu is R on the Glicko-2 scale, step 2's μ.
func (r Rating) mu() float64 { return (r.R - DefaultR) / scale }

// phi is RD on the Glicko-2 scale, step 2's φ.
func (r Rating) phi() float64 { return r.RD / scale }

// valid reports whether r can be taken as a rating: all three finite, RD
// and Sigma above 0.
func (r Rating) valid() bool {
	return finite(r.R) && finite(r.RD) && finite(r.Sigma) && r.RD > 0 && r.Sigma > 0
}

// bounded returns r with each field taken into its bounds.
func (r Rating) bounded() Rating {
	return Rating{
		R:     min(max(r.R, MinR), MaxR),
		RD:    min(max(r.RD, MinRD), MaxRD),
		Sigma: min(max(r.Sigma, MinSigma), MaxSigma),
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
