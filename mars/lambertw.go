package mars

import (
	"fmt"
	"math"
)

// branchPoint is −1/e, the left end of the domain of both real branches of
// the Lambert W function.
const branchPoint = -1 / math.E

// branchSlack absorbs the rounding of arguments computed as −1/e in floating
// point (e.g. -1/math.E or k from Theorem 18 at the optimum): values this close
// below −1/e are treated as −1/e.
const branchSlack = 4e-16

// LambertW0 is the principal branch W₀ of the Lambert W function: the w ≥ −1
// with w·e^w = x, defined for x ≥ −1/e.
func LambertW0(x float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		return math.NaN(), fmt.Errorf("lambert W0: x is NaN")
	case x < branchPoint-branchSlack:
		return math.NaN(), fmt.Errorf("lambert W0: x = %g is below −1/e, no real solution", x)
	case x == 0:
		return 0, nil
	case math.IsInf(x, 1):
		return math.Inf(1), nil
	}
	p := branchDistance(x)
	if p == 0 {
		return -1, nil
	}
	var w float64
	switch {
	case p < 0.5: // near −1/e: series in p = √(2(e·x+1))
		w = -1 + p - p*p/3 + 11.0/72*p*p*p
	case x < 3:
		w = 0.5 * math.Log1p(x) // rough, Halley fixes it in a few steps
		if x < 0 {
			w = x
		}
	default:
		l1 := math.Log(x)
		l2 := math.Log(l1)
		w = l1 - l2 + l2/l1
	}
	return halley(x, w), nil
}

// LambertWm1 is the lower branch W₋₁ of the Lambert W function: the w ≤ −1
// with w·e^w = x, defined for −1/e ≤ x < 0.
func LambertWm1(x float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		return math.NaN(), fmt.Errorf("lambert W-1: x is NaN")
	case x < branchPoint-branchSlack:
		return math.NaN(), fmt.Errorf("lambert W-1: x = %g is below −1/e, no real solution", x)
	case x >= 0:
		return math.NaN(), fmt.Errorf("lambert W-1: x = %g is not negative; the lower branch is defined on [−1/e, 0)", x)
	}
	p := branchDistance(x)
	if p == 0 {
		return -1, nil
	}
	var w float64
	if p < 0.5 { // near −1/e, the series with −p
		w = -1 - p - p*p/3 - 11.0/72*p*p*p
	} else { // near 0⁻: asymptotic expansion in ln(−x)
		l1 := math.Log(-x)
		l2 := math.Log(-l1)
		w = l1 - l2 + l2/l1
	}
	return halley(x, w), nil
}

// branchDistance is p = √(2(e·x + 1)), 0 at the branch point (clamped for
// arguments within branchSlack below it).
func branchDistance(x float64) float64 {
	q := 2 * (math.E*x + 1)
	if q <= 0 {
		return 0
	}
	return math.Sqrt(q)
}

// halley refines w towards w·e^w = x with Halley's method, which converges
// cubically; a handful of steps reach full float64 precision from the
// starting guesses above.
func halley(x, w float64) float64 {
	for i := 0; i < 64; i++ {
		ew := math.Exp(w)
		f := w*ew - x
		if f == 0 {
			return w
		}
		wp1 := w + 1
		if wp1 == 0 {
			return w
		}
		step := f / (ew*wp1 - (w+2)*f/(2*wp1))
		next := w - step
		if math.IsNaN(next) || math.IsInf(next, 0) {
			return w
		}
		if math.Abs(next-w) <= 1e-15*(1+math.Abs(next)) {
			return next
		}
		w = next
	}
	return w
}
