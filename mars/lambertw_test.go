package mars

import (
	"math"
	"testing"
)

func TestLambertWKnownValues(t *testing.T) {
	ln2 := math.Ln2
	tests := []struct {
		name   string
		branch func(float64) (float64, error)
		x      float64
		want   float64
	}{
		// Reference values: mpmath.lambertw at 30 digits (Ω = W₀(1) is OEIS A030178).
		{"W0(1) omega constant", LambertW0, 1, 0.5671432904097838},
		{"W0(e)", LambertW0, math.E, 1},
		{"W0(0)", LambertW0, 0, 0},
		{"W0(-1/e)", LambertW0, -1 / math.E, -1},
		{"W0(-0.1)", LambertW0, -0.1, -0.11183255915896297},
		{"W0(10)", LambertW0, 10, 1.7455280027406994},
		{"W0(1e6)", LambertW0, 1e6, 11.383358086140053},
		// w·e^w = x by hand: ln2·2 = 2·ln2, so W0(2·ln2) = ln2.
		{"W0(2 ln2)", LambertW0, 2 * ln2, ln2},
		// −ln2·e^{−ln2} = −ln2/2, so W0(−ln2/2) = −ln2 (≥ −1: principal).
		{"W0(-ln2/2)", LambertW0, -ln2 / 2, -ln2},
		{"W-1(-0.1)", LambertWm1, -0.1, -3.577152063957297},
		{"W-1(-1/e)", LambertWm1, -1 / math.E, -1},
		// −2ln2·e^{−2ln2} = −2ln2/4 = −ln2/2, so W₋₁(−ln2/2) = −2·ln2 (≤ −1).
		{"W-1(-ln2/2)", LambertWm1, -ln2 / 2, -2 * ln2},
		// −2·e^{−2}: W₋₁ = −2.
		{"W-1(-2/e^2)", LambertWm1, -2 * math.Exp(-2), -2},
		{"W-1(-1e-10)", LambertWm1, -1e-10, -26.295238819246925},
		{"W-1(-0.3678)", LambertWm1, -0.3678, -1.0209272394094255},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.branch(tc.x)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if math.Abs(got-tc.want) > 1e-12*math.Max(1, math.Abs(tc.want)) {
				t.Errorf("W(%v) = %.17g, want %.17g", tc.x, got, tc.want)
			}
		})
	}
}

// TestLambertWInverse checks w·e^w = x and the branch ranges on a grid
// covering both branches from the branch point to far out.
func TestLambertWInverse(t *testing.T) {
	for i := 0; i <= 2000; i++ {
		// x from −1/e to 0 (dense near the branch point), then up to e^20.
		f := float64(i) / 2000
		xNeg := -1 / math.E * (1 - f*f*f)
		xPos := math.Expm1(20 * f)
		for _, c := range []struct {
			name string
			fn   func(float64) (float64, error)
			x    float64
			ok   func(w float64) bool
		}{
			{"W0", LambertW0, xNeg, func(w float64) bool { return w >= -1 }},
			{"W0", LambertW0, xPos, func(w float64) bool { return w >= 0 }},
			{"W-1", LambertWm1, xNeg, func(w float64) bool { return w <= -1 }},
		} {
			if c.name == "W-1" && c.x == 0 {
				continue
			}
			w, err := c.fn(c.x)
			if err != nil {
				t.Fatalf("%s(%g): %v", c.name, c.x, err)
			}
			if !c.ok(w) {
				t.Fatalf("%s(%g) = %g is outside the branch", c.name, c.x, w)
			}
			back := w * math.Exp(w)
			if math.Abs(back-c.x) > 1e-13*math.Max(1e-3, math.Abs(c.x)) && math.Abs(back-c.x) > 1e-15 {
				t.Fatalf("%s(%g) = %g, but w·e^w = %g", c.name, c.x, w, back)
			}
		}
	}
}

func TestLambertWDomain(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(float64) (float64, error)
		x    float64
	}{
		{"W0 below -1/e", LambertW0, -0.37},
		{"W0 -1", LambertW0, -1},
		{"W0 NaN", LambertW0, math.NaN()},
		{"W-1 below -1/e", LambertWm1, -0.3679},
		{"W-1 zero", LambertWm1, 0},
		{"W-1 positive", LambertWm1, 1},
		{"W-1 NaN", LambertWm1, math.NaN()},
		{"W-1 -Inf", LambertWm1, math.Inf(-1)},
	} {
		if w, err := tc.fn(tc.x); err == nil {
			t.Errorf("%s: got %g, want a domain error", tc.name, w)
		}
	}
}

func BenchmarkLambertWm1(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := LambertWm1(-0.3 + float64(i%100)*1e-3); err != nil {
			b.Fatal(err)
		}
	}
}
