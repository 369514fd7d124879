package stats

import (
	"math"
	"slices"
)

// Quantile is the q-quantile of sorted (ascending) values by linear
// interpolation between closest ranks — numpy's default ("linear", Hyndman
// & Fan type 7): with h = (n−1)·q, it is x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
// So q = 0 is the minimum, q = 1 the maximum and q = 0.5 the usual median.
// It returns NaN for no values or q outside [0, 1] (or NaN).
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	h := float64(n-1) * q
	lo := int(h)
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := h - float64(lo)
	a, b := sorted[lo], sorted[lo+1]
	if frac == 0 || a == b {
		return a
	}
	return a + frac*(b-a)
}

// Summary condenses a sample. Percentiles use Quantile; for an empty sample
// Count is 0 and every other field is NaN.
type Summary struct {
	Count                          int
	Mean, Min, P50, P95, P99, P999 float64
	Max                            float64
}

// Summarize sorts a copy of values and summarises it. NaN values are
// dropped (and not counted).
func Summarize(values []float64) Summary {
	s := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	slices.Sort(s)
	return SummarizeSorted(s)
}

// SummarizeSorted is Summarize for values already sorted ascending and free
// of NaN; it does not copy.
func SummarizeSorted(sorted []float64) Summary {
	n := len(sorted)
	if n == 0 {
		nan := math.NaN()
		return Summary{Mean: nan, Min: nan, P50: nan, P95: nan, P99: nan, P999: nan, Max: nan}
	}
	// Kahan summation keeps the mean of millions of FCTs accurate.
	var sum, comp float64
	for _, v := range sorted {
		y := v - comp
		t := sum + y
		comp = (t - sum) - y
		sum = t
	}
	return Summary{
		Count: n,
		Mean:  sum / float64(n),
		Min:   sorted[0],
		P50:   Quantile(sorted, 0.5),
		P95:   Quantile(sorted, 0.95),
		P99:   Quantile(sorted, 0.99),
		P999:  Quantile(sorted, 0.999),
		Max:   sorted[n-1],
	}
}
