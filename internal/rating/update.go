package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Errors of Update and UpdateMatch.
var (
	// ErrTau is a Config whose Tau is outside [MinTau, MaxTau].
	ErrTau = errors.New("rating: tau outside [0.1, 2]")
	// ErrRating is a rating with a field not finite, or an RD or Sigma
	// not above 0.
	ErrRating = errors.New("rating: not a rating")
	// ErrScore is a score not in [0, 1].
	ErrScore = errors.New("rating: score outside [0, 1]")
	// ErrStandings is a match whose standings and ratings differ in number.
	ErrStandings = errors.New("rating: standings and ratings differ in number")
)

// The system constant τ: the paper's example uses 0.5 and calls 0.3 to 1.2
// reasonable; Validate accepts a little wider.
const (
	DefaultTau = 0.5
	MinTau     = 0.1
	MaxTau     = 2
)

// Config is the system's constants. The zero Config is not valid.
type Config struct {
	// Tau is the paper's τ, which limits how far the volatility moves in
	// one period: smaller is steadier.
	Tau float64
}

// Validate returns ErrTau unless MinTau ≤ Tau ≤ MaxTau.
func (c Config) Validate() error {
	if !(c.Tau >= MinTau && c.Tau <= MaxTau) {
		return fmt.Errorf("%w: %v", ErrTau, c.Tau)
	}
	return nil
}

// Update returns r after one rating period with the given results, each
// against the opponent's rating from before the period: steps 1 to 8 of
// the paper. With no results only RD grows: φ′ = sqrt(φ²+σ²), step 6
// alone. The order of the results does not change a bit
// of the answer. A finite r or opponent outside the bounds is taken at the
// nearest bound, and the answer lies within them; the new Sigma is bounded
// before it widens RD in step 6.
//
// Update returns r unchanged and an error wrapping ErrTau, ErrRating or
// ErrScore for an invalid c, rating (NaN or ±Inf included) or score.
func (c Config) Update(r Rating, results []Result) (Rating, error) {
	if err := c.Validate(); err != nil {
		return r, err
	}
	if !r.valid() {
		return r, fmt.Errorf("%w: %+v", ErrRating, r)
	}
	for i, res := range results {
		if !res.Opp.valid() {
			return r, fmt.Errorf("%w: opponent %d: %+v", ErrRating, i, res.Opp)
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, fmt.Errorf("%w: opponent %d: %v", ErrScore, i, res.Score)
		}
	}
	return c.update(r.bounded(), results), nil
}

// update is Update of a valid c, a bounded r and valid results.
func (c Config) update(r Rating, results []Result) Rating {
	phi, sigma := r.phi(), r.Sigma
	if len(results) == 0 {
		return Rating{R: r.R, RD: scale * math.Sqrt(phi*phi+sigma*sigma), Sigma: sigma}.bounded()
	}
	v, gain := estimate(r.mu(), results)
	sigma = min(max(volatility(phi, sigma, v, v*gain, c.Tau), MinSigma), MaxSigma)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)  // step 6
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v) // step 7
	// Steps 7 and 8: μ′ − μ is φ′²·gain, added to R on the Glicko-1 scale
	// so that R makes no round trip through μ.
	return Rating{R: r.R + scale*phi*phi*gain, RD: scale * phi, Sigma: sigma}.bounded()
}

// estimate returns step 3's v, the variance of the rating of a player at
// mu estimated from the results alone, and step 4's sum Σ g(φj)(sj − E),
// which times v is Δ. It adds the terms in sorted order, so the order of
// the results does not change a bit of either.
func estimate(mu float64, results []Result) (v, gain float64) {
	const stack = 16
	var buf [2 * stack]float64
	var info, gains []float64
	if n := len(results); n <= stack {
		info, gains = buf[:n:n], buf[stack:stack+n]
	} else {
		info, gains = make([]float64, n), make([]float64, n)
	}
	for i, res := range results {
		o := res.Opp.bounded()
		g := 1 / math.Sqrt(1+3*o.phi()*o.phi()/(math.Pi*math.Pi))
		e := math.Exp(-g * (mu - o.mu()))
		E := 1 / (1 + e) // and 1−E is e·E, without cancellation
		s := res.Score
		info[i] = g * g * e * E * E
		gains[i] = g * E * (s*e - (1 - s)) // g·(s(1−E) − (1−s)E)
	}
	slices.Sort(info)
	slices.Sort(gains)
	var sum float64
	for _, x := range info {
		sum += x
	}
	for _, x := range gains {
		gain += x
	}
	return 1 / sum, gain
}
