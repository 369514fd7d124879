package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/sweep"
)

// Tolerance declares when ours reproduces a published value: its band,
// what counts as the same direction, and why. Every Published has one,
// written beside the value in the experiment's definition.
type Tolerance struct {
	// Rel and Abs: the band is Value ± max(Rel·|Value|, Abs).
	Rel, Abs float64
	// AtLeast (AtMost): the paper claims Value or more (less), so the band
	// has no upper (lower) end.
	AtLeast, AtMost bool
	// Lo < Hi: the band is [Lo, Hi] instead (a paper that states a range).
	Lo, Hi float64
	// Pivot is what the claim's direction is measured from (0 for a
	// reduction in per cent, 1 for a ratio): ours goes the same direction
	// when it lies on the same side of Pivot as the published value.
	Pivot float64
	// Sense is the claim's side of Pivot (+1 above, −1 below) when the
	// paper states a direction without a number (Value NaN); with a
	// number it is the side Value lies on.
	Sense int
	// NoDirection: an absolute quantity (a θ, a delay), so outside the
	// band ours differs.
	NoDirection bool
	Why         string
}

// Ratio is the tolerance of a ratio (pivot 1): within rel of the value.
func Ratio(rel float64, why string) Tolerance { return Tolerance{Rel: rel, Pivot: 1, Why: why} }

// Reduction is the tolerance of a reduction in per cent (pivot 0): within
// abs percentage points of the value.
func Reduction(abs float64, why string) Tolerance { return Tolerance{Abs: abs, Why: why} }

// Exact is the tolerance of an absolute quantity: within rel, no
// direction.
func Exact(rel float64, why string) Tolerance {
	return Tolerance{Rel: rel, NoDirection: true, Why: why}
}

// Between is the tolerance of an absolute quantity the paper states as a
// range: ours in [lo, hi], no direction.
func Between(lo, hi float64, why string) Tolerance {
	return Tolerance{Lo: lo, Hi: hi, NoDirection: true, Why: why}
}

// Claim is a direction without a number: ours on the sense side of pivot
// (+1 above, −1 below) is the same direction; no band.
func Claim(pivot float64, sense int, why string) Tolerance {
	return Tolerance{Pivot: pivot, Sense: sense, Why: why}
}

// NotQuoted is the tolerance of a row that shows ours beside no published
// number or claim (context for the other rows): no verdict is possible.
func NotQuoted(why string) Tolerance { return Tolerance{NoDirection: true, Why: why} }

// Verdict is how ours compares with a published value.
type Verdict int

const (
	// NoClaim: the paper quotes neither a number nor a direction here.
	NoClaim Verdict = iota
	// WithinBand: ours lies in the declared band.
	WithinBand
	// SameDirection: outside the band, on the same side of the pivot.
	SameDirection
	// Differs: outside the band and not the same direction.
	Differs
	// NotRun: the results hold no value of ours (not run, or undefined:
	// a reduction against a baseline of zero).
	NotRun
)

var verdictWords = [...]string{"no claim", "within band", "same direction", "differs", "no value"}
var verdictSymbols = [...]string{"–", "✓", "≈", "✗", "∅"}

// Word is the verdict in text: within band, same direction, differs, no
// value or no claim.
func (v Verdict) Word() string { return verdictWords[v] }

// Symbol is the verdict's mark in HTML (beside its colour).
func (v Verdict) Symbol() string { return verdictSymbols[v] }

// Class is the verdict's CSS class (its colour).
func (v Verdict) Class() string {
	return [...]string{"v-none", "v-within", "v-same", "v-differs", "v-notrun"}[v]
}

// Band is the range of ours that reproduces value: lo ≤ ours ≤ hi (±Inf
// for a one-sided claim; NaN for a value not quoted).
func (t Tolerance) Band(value float64) (lo, hi float64) {
	if math.IsNaN(value) {
		return math.NaN(), math.NaN()
	}
	if t.Lo < t.Hi {
		return t.Lo, t.Hi
	}
	h := math.Max(t.Rel*math.Abs(value), t.Abs)
	lo, hi = value-h, value+h
	if t.AtLeast {
		hi = math.Inf(1)
	}
	if t.AtMost {
		lo = math.Inf(-1)
	}
	return lo, hi
}

// sense is the claim's side of the pivot (0: none).
func (t Tolerance) sense(value float64) int {
	if t.NoDirection {
		return 0
	}
	if math.IsNaN(value) {
		return t.Sense
	}
	switch {
	case value > t.Pivot:
		return 1
	case value < t.Pivot:
		return -1
	}
	return 0
}

// Judge is the verdict on ours (ok false: the results hold none) against
// value with tolerance t.
func (t Tolerance) Judge(value, ours float64, ok bool) Verdict {
	s := t.sense(value)
	if math.IsNaN(value) && s == 0 {
		return NoClaim
	}
	if !ok || math.IsNaN(ours) {
		return NotRun
	}
	if lo, hi := t.Band(value); ours >= lo && ours <= hi {
		return WithinBand
	}
	if s != 0 && (ours-t.Pivot)*float64(s) > 0 {
		return SameDirection
	}
	return Differs
}

// Judgement is one published value beside ours, as reports show it.
type Judgement struct {
	What, Source, Note string
	Value              string  // the published value, or "not quoted"
	Ours               string  // ours over every point, or "–"
	OursValue          float64 // NaN when the results hold none
	// PerSeed is ours computed on each replicate's points alone: their
	// mean and 95 % confidence interval (N < 2: no seed axis).
	PerSeed stats.Interval
	Band    string // the declared band ("[lo, hi]", "≥ lo", …)
	Why     string // the tolerance's reason
	Verdict Verdict
}

// Judge computes p's verdict from the results: ours over every point
// (Ours on the whole sweep), against the declared band.
func (p Published) Judge(r *sweep.Results) Judgement {
	j := Judgement{What: p.What, Source: p.Source, Note: p.Note, Value: "not quoted", Ours: "–", OursValue: math.NaN(),
		PerSeed: stats.Interval{Mean: math.NaN(), Half: math.NaN()}, Why: p.Tol.Why}
	if !math.IsNaN(p.Value) {
		j.Value = num(p.Value)
	}
	ok := false
	if p.Ours != nil {
		var v float64
		if v, ok = p.Ours(r); ok {
			j.OursValue, j.Ours = v, num(v)
			var per []float64
			for _, sub := range r.Replicates() {
				if x, ok := p.Ours(sub); ok {
					per = append(per, x)
				}
			}
			j.PerSeed = stats.MeanCI(per)
		}
	}
	j.Verdict = p.Tol.Judge(p.Value, j.OursValue, ok)
	j.Band = p.Tol.describe(p.Value)
	return j
}

// describe is the band in words.
func (t Tolerance) describe(value float64) string {
	lo, hi := t.Band(value)
	switch s := t.sense(value); {
	case math.IsNaN(lo) && s > 0:
		return "above " + num(t.Pivot)
	case math.IsNaN(lo) && s < 0:
		return "below " + num(t.Pivot)
	case math.IsNaN(lo):
		return "–"
	case math.IsInf(hi, 1):
		return "≥ " + num(lo)
	case math.IsInf(lo, -1):
		return "≤ " + num(hi)
	}
	return "[" + num(lo) + ", " + num(hi) + "]"
}

// FormatPerSeed is a per-seed interval as reports print it: "mean ± half
// (n seeds)", "–" with fewer than two seeds.
func FormatPerSeed(iv stats.Interval) string {
	if iv.N < 2 {
		return "–"
	}
	return num(iv.Mean) + " ± " + num(iv.Half) + " (" + strconv.Itoa(iv.N) + " seeds)"
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// Tally counts the verdicts of judgements: n the published values (rows
// with a number or a claim), k within band, m same direction only, d
// differing, u with no value of ours.
type Tally struct{ N, Within, Same, Differs, NotRun int }

// Count tallies js.
func Count(js []Judgement) Tally {
	var t Tally
	for _, j := range js {
		switch j.Verdict {
		case WithinBand:
			t.Within++
		case SameDirection:
			t.Same++
		case Differs:
			t.Differs++
		case NotRun:
			t.NotRun++
		default:
			continue
		}
		t.N++
	}
	return t
}

// Headline is the tally's one line: "k of n published values reproduced,
// m same direction only (d differ, u with no value of ours)".
func (t Tally) Headline() string {
	return fmt.Sprintf("%d of %d published values reproduced, %d same direction only (%d differ, %d with no value of ours)",
		t.Within, t.N, t.Same, t.Differs, t.NotRun)
}

// JudgeAll judges every published value against the results.
func JudgeAll(ps []Published, r *sweep.Results) []Judgement {
	js := make([]Judgement, len(ps))
	for i, p := range ps {
		js[i] = p.Judge(r)
	}
	return js
}

// VerdictHow says how ours, the interval and the verdict are computed: a
// line under the published values' table.
const VerdictHow = "Ours: the experiment's measure over every point of the sweep (e.g. a ratio of means over seeds). " +
	"Per seed: the same measure on each seed's points alone, mean ± half-width of the 95 % confidence interval (Student t, n − 1 degrees of freedom). " +
	"Verdict, computed from ours and the declared band: within band (✓), same direction only (≈: outside the band, on the paper's side of the pivot), differs (✗), no value (∅: the sweep holds no value of ours: not run, or undefined, as a reduction against zero)."
