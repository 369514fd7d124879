package stats

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Histogram accumulates weights over fixed, equal-width bins on [Lo, Hi).
// Values below Lo fall in the first bin and values at or above Hi in the
// last (the exact minimum, maximum and weighted mean are kept apart, so they
// are not affected). Weights are typically durations, giving time-weighted
// distributions such as buffer occupancy (see TimeWeighted). Add allocates
// nothing.
type Histogram struct {
	lo, hi, width float64
	w             []float64
	total, sumVW  float64
	min, max      float64
}

// NewHistogram makes a histogram of bins equal bins over [lo, hi).
func NewHistogram(lo, hi float64, bins int) (*Histogram, error) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(hi > lo) {
		return nil, fmt.Errorf("histogram: range [%v, %v) is empty or not finite", lo, hi)
	}
	if bins < 1 {
		return nil, fmt.Errorf("histogram.bins: must be at least 1, got %d", bins)
	}
	return &Histogram{lo: lo, hi: hi, width: (hi - lo) / float64(bins), w: make([]float64, bins),
		min: math.Inf(1), max: math.Inf(-1)}, nil
}

// Add adds weight to the bin of v. NaN values and weights that are not
// positive and finite are ignored.
func (h *Histogram) Add(v, weight float64) {
	if math.IsNaN(v) || !(weight > 0) || math.IsInf(weight, 0) {
		return
	}
	k := 0
	if v >= h.hi {
		k = len(h.w) - 1
	} else if v > h.lo {
		k = min(int((v-h.lo)/h.width), len(h.w)-1)
	}
	h.w[k] += weight
	h.total += weight
	h.sumVW += v * weight
	h.min = math.Min(h.min, v)
	h.max = math.Max(h.max, v)
}

// Total is the sum of all weights added.
func (h *Histogram) Total() float64 { return h.total }

// Mean is the weighted mean of the values added (exact, not binned); NaN
// when empty.
func (h *Histogram) Mean() float64 {
	if h.total == 0 {
		return math.NaN()
	}
	return h.sumVW / h.total
}

// Min and Max are the smallest and largest values added (±Inf when empty).
func (h *Histogram) Min() float64 { return h.min }

// Max is the largest value added.
func (h *Histogram) Max() float64 { return h.max }

// Weights returns the weight per bin (not a copy).
func (h *Histogram) Weights() []float64 { return h.w }

// CDFPoint says that a fraction Fraction of the weight lies at values below
// Value (the upper edge of a bin).
type CDFPoint struct {
	Value, Fraction float64
}

// CDF is the cumulative distribution at every bin's upper edge. It is nil
// for an empty histogram.
func (h *Histogram) CDF() []CDFPoint {
	if h.total == 0 {
		return nil
	}
	out := make([]CDFPoint, len(h.w))
	cum := 0.0
	for i, w := range h.w {
		cum += w
		out[i] = CDFPoint{Value: h.lo + float64(i+1)*h.width, Fraction: cum / h.total}
	}
	out[len(out)-1].Fraction = 1
	return out
}

// Quantile is the q-quantile of the weighted distribution, interpolated
// linearly within the bin where the cumulative weight crosses q (accurate
// to one bin width; clamped to the observed Min and Max, which q = 0 and
// q = 1 return exactly). NaN when empty or q is outside [0, 1].
func (h *Histogram) Quantile(q float64) float64 {
	if h.total == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	switch q {
	case 0:
		return h.min
	case 1:
		return h.max
	}
	target := q * h.total
	cum := 0.0
	x := h.hi
	for i, w := range h.w {
		if w > 0 && cum+w >= target {
			x = h.lo + (float64(i)+(target-cum)/w)*h.width
			break
		}
		cum += w
	}
	return math.Min(math.Max(x, h.min), h.max)
}

// TimeWeighted turns a piecewise-constant level (a queue or buffer
// occupancy) into a time-weighted histogram: call Set whenever the level
// changes and Close at the end; each level is weighted by how many
// picoseconds it lasted.
type TimeWeighted struct {
	H       *Histogram
	last    rotor.Time
	level   float64
	started bool
}

// Set records that the level becomes v at time t (t must not go backwards;
// a step back adds nothing).
func (tw *TimeWeighted) Set(t rotor.Time, v float64) {
	tw.Close(t)
	tw.level = v
	tw.started = true
}

// Close accounts the current level up to time t.
func (tw *TimeWeighted) Close(t rotor.Time) {
	if tw.started && t > tw.last {
		tw.H.Add(tw.level, float64(t-tw.last))
	}
	if t > tw.last || !tw.started {
		tw.last = t
	}
}
