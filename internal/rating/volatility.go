package rating

import "math"

// epsilon is step 5's convergence tolerance.
const epsilon = 0.000001

// maxIterations stops step 5.4's loop should it fail to converge; the
// paper's example needs 5.
const maxIterations = 100

// volatility returns σ′ of step 5 for a player of deviation phi and
// volatility sigma whose results give v and delta (steps 3 and 4): the root
// of the paper's f(x), x = ln σ′², found by the Illinois algorithm (a
// regula falsi that halves the value kept at a retained end).
func volatility(phi, sigma, v, delta, tau float64) float64 {
	a := 2 * math.Log(sigma) // step 5.1: ln σ²
	phi2, d2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := phi2 + v + ex
		return ex*(d2-phi2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	// Step 5.2: the bracket [A, B] or [B, A].
	A := a
	var B float64
	if d2 > phi2+v {
		B = math.Log(d2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	// Steps 5.3, 5.4.
	fA, fB := f(A), f(B)
	for i := 0; i < maxIterations && math.Abs(B-A) > epsilon && fB != fA; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2) // step 5.5
}
