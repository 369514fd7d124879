package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is the mean of a sample with the half-width of its two-sided
// confidence interval: Student's t with N−1 degrees of freedom,
// t_{(1+level)/2, N−1}·s/√N (s the sample standard deviation). Half is
// NaN when N < 2 (no interval from one value); everything is NaN when N is 0.
type Interval struct {
	Mean, Half float64
	N          int
}

// ConfidenceLevel is the level of MeanCI's intervals.
const ConfidenceLevel = 0.95

// MeanCI is the mean of values (NaN dropped) with its 95 % confidence
// interval (ConfidenceLevel).
func MeanCI(values []float64) Interval {
	var xs []float64
	for _, v := range values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	n := len(xs)
	iv := Interval{Mean: math.NaN(), Half: math.NaN(), N: n}
	if n == 0 {
		return iv
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	iv.Mean = sum / float64(n)
	if n < 2 {
		return iv
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - iv.Mean) * (x - iv.Mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + ConfidenceLevel) / 2)
	iv.Half = t * sd / math.Sqrt(float64(n))
	return iv
}

// Lo and Hi are the interval's ends (NaN without one).
func (iv Interval) Lo() float64 { return iv.Mean - iv.Half }

// Hi is the interval's upper end.
func (iv Interval) Hi() float64 { return iv.Mean + iv.Half }
