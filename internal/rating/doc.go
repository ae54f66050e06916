// Package rating rates players by the Glicko-2 system as Mark Glickman's
// paper "Example of the Glicko-2 system"
// (http://www.glicko.net/glicko/glicko2.pdf) sets it out, with the paper's
// constants: a new player at R 1500, RD 350, σ 0.06; 173.7178 between the
// Glicko-1 and Glicko-2 scales; the volatility found to ε = 0.000001; τ set
// by Config, 0.5 in the paper's example.
//
// A ladder rates each match as one rating period, as Lichess rates each
// game. A free-for-all is scored as the pairwise results it implies: the
// better of two players beat the other, equals drew. Bots are not rated:
// leave them out of the ratings passed in.
//
//	cfg := rating.Config{Tau: rating.DefaultTau}
//	// at a match's end, for its rated players, with their round wins:
//	after, err := cfg.UpdateMatch(before, roundWins)
//	// a player rated alone, by the games of one period:
//	r, err = cfg.Update(r, []rating.Result{{Opp: o, Score: rating.Win}})
//
// Ratings are kept within bounds (MinRD to MaxRD and the like), as Lichess
// keeps them. Everything here is a pure function of its arguments, safe for
// concurrent use.
//
//	file           what it holds
//	rating.go      Rating, Result, New, the bounds, the Glicko-2 scale
//	update.go      Config, Update: one rating period, steps 1 to 8
//	volatility.go  step 5: the new volatility by the Illinois algorithm
//	match.go       Pairwise, UpdateMatch: a free-for-all as one period
package rating
