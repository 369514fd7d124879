package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/stat"
)

// Hand values of numpy.quantile(x, q) (method="linear", the default).
func TestQuantileHand(t *testing.T) {
	tests := []struct {
		x    []float64
		q    float64
		want float64
	}{
		{[]float64{7}, 0, 7}, {[]float64{7}, 0.5, 7}, {[]float64{7}, 1, 7},
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4}, 0.25, 1.75},
		{[]float64{1, 2, 3, 4}, 0.9, 3.7},
		{[]float64{1, 2, 3, 4, 5}, 0.99, 4.96},
		{[]float64{15, 20, 35, 40, 50}, 0.4, 29},
		{[]float64{15, 20, 35, 40, 50}, 0.05, 16},
		{[]float64{0, 10}, 0.999, 9.99},
		{[]float64{3, 3, 3, 9}, 2.0 / 3, 3},
		{[]float64{-5, -1}, 0.5, -3},
	}
	for _, tc := range tests {
		if got := Quantile(tc.x, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.x, tc.q, got, tc.want)
		}
	}
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		if got := Quantile([]float64{1, 2}, q); !math.IsNaN(got) {
			t.Errorf("Quantile(q=%v) = %v, want NaN", q, got)
		}
	}
	if got := Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("Quantile(nil) = %v, want NaN", got)
	}
}

// Invariants on random samples: at q = k/(n−1) the quantile is the k-th
// order statistic exactly; the 1..101 sample has p99 = 100 and p50 = 51; and
// the result is monotone in q.
func TestQuantileProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		n := 1 + rng.IntN(200)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * 100
		}
		slices.Sort(x)
		for k := 0; k < n && n > 1; k++ {
			if got := Quantile(x, float64(k)/float64(n-1)); math.Abs(got-x[k]) > 1e-9*math.Max(1, math.Abs(x[k])) {
				t.Fatalf("n=%d: Quantile(k=%d) = %v, want order statistic %v", n, k, got, x[k])
			}
		}
		prev := math.Inf(-1)
		for q := 0.0; q <= 1; q += 0.01 {
			v := Quantile(x, q)
			if v < prev {
				t.Fatalf("not monotone at q=%v", q)
			}
			prev = v
		}
	}
	x := make([]float64, 101)
	for i := range x {
		x[i] = float64(i + 1)
	}
	if Quantile(x, 0.99) != 100 || Quantile(x, 0.5) != 51 {
		t.Errorf("1..101: p99 %v p50 %v, want 100 and 51", Quantile(x, 0.99), Quantile(x, 0.5))
	}
}

func TestSummarize(t *testing.T) {
	in := []float64{5, 1, math.NaN(), 4, 2, 3}
	orig := slices.Clone(in)
	got := Summarize(in)
	want := Summary{Count: 5, Mean: 3, Min: 1, P50: 3, P95: 4.8, P99: 4.96, P999: 4.996, Max: 5}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Error(diff)
	}
	if !cmp.Equal(orig, in, cmpopts.EquateNaNs()) {
		t.Error("Summarize modified its input")
	}
	empty := Summarize(nil)
	if empty.Count != 0 || !math.IsNaN(empty.Mean) || !math.IsNaN(empty.P99) || !math.IsNaN(empty.Max) {
		t.Errorf("empty summary %+v", empty)
	}
	// The mean agrees with gonum's on a large sample of mixed magnitudes.
	rng := rand.New(rand.NewPCG(1, 1))
	big := make([]float64, 100_000)
	for i := range big {
		big[i] = math.Exp(rng.NormFloat64() * 5)
	}
	if m, g := Summarize(big).Mean, stat.Mean(big, nil); math.Abs(m-g) > 1e-9*g {
		t.Errorf("mean %v, gonum %v", m, g)
	}
}
