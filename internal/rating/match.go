package rating

import "fmt"

// Pairwise returns the scores a free-for-all's final standings imply:
// s[i][j] is player i's score against player j, 1 if standings[i] is the
// greater, 0.5 if they are equal, 0 if it is the smaller. Greater is
// better (round wins, say). s[i][i] is 0 and means nothing.
func Pairwise(standings []int) [][]float64 {
	n := len(standings)
	cells := make([]float64, n*n)
	s := make([][]float64, n)
	for i := range s {
		s[i] = cells[i*n : (i+1)*n : (i+1)*n]
		for j := range s[i] {
			if j != i {
				s[i][j] = pairScore(standings[i], standings[j])
			}
		}
	}
	return s
}

// pairScore is the score of a player of standing a against one of b.
func pairScore(a, b int) float64 {
	switch {
	case a > b:
		return Win
	case a < b:
		return Loss
	}
	return Draw
}

// UpdateMatch returns the ratings of a free-for-all's players after it, as
// one rating period in which each player played every other once, scored
// as Pairwise scores the standings, against the others' ratings from before
// the match. The order of the players does not change a bit of anyone's
// answer. ratings[i] and standings[i] are player i's; the slice returned is
// new. A match of fewer than two players rates nobody: the ratings come
// back unchanged.
//
// UpdateMatch returns nil and an error wrapping ErrTau, ErrRating or
// ErrStandings for an invalid c, a rating that is not one (see Update), or
// standings of another length than ratings.
func (c Config) UpdateMatch(ratings []Rating, standings []int) ([]Rating, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if len(standings) != len(ratings) {
		return nil, fmt.Errorf("%w: %d standings, %d ratings", ErrStandings, len(standings), len(ratings))
	}
	for i, r := range ratings {
		if !r.valid() {
			return nil, fmt.Errorf("%w: player %d: %+v", ErrRating, i, r)
		}
	}
	out := make([]Rating, len(ratings))
	if len(ratings) < 2 {
		copy(out, ratings)
		return out, nil
	}
	results := make([]Result, 0, len(ratings)-1)
	for i, r := range ratings {
		results = results[:0]
		for j, o := range ratings {
			if j != i {
				results = append(results, Result{Opp: o, Score: pairScore(standings[i], standings[j])})
			}
		}
		out[i] = c.update(r.bounded(), results)
	}
	return out, nil
}
