package vermilion

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

func TestDeterministicBounds(t *testing.T) {
	tests := []struct {
		k, l              int
		lower, cons, robu float64
	}{
		{k: 1, l: 1, lower: 0, cons: 0.5, robu: 0.5},    // γ = 1: complete graph
		{k: 3, l: 2, lower: 0, cons: 0.5, robu: 0.5},    // γ = 1.5: complete graph
		{k: 2, l: 1, lower: 0.5, cons: 0.5, robu: 0.25}, // γ = 2
		{k: 3, l: 1, lower: 2.0 / 3, cons: 2.0 / 3, robu: 1.0 / 6},
		{k: 5, l: 2, lower: 0.6, cons: 0.6, robu: 0.2}, // γ = 2.5
		{k: 6, l: 1, lower: 5.0 / 6, cons: 5.0 / 6, robu: 1.0 / 12},
		{k: 10, l: 1, lower: 0.9, cons: 0.9, robu: 0.05},
	}
	for _, tc := range tests {
		g := float64(tc.k) / float64(tc.l)
		if got := LowerBound(tc.k, tc.l); !near(got, tc.lower) {
			t.Errorf("LowerBound(%d,%d) = %v, want %v", tc.k, tc.l, got, tc.lower)
		}
		if got := Consistency(g); !near(got, tc.cons) {
			t.Errorf("Consistency(%v) = %v, want %v", g, got, tc.cons)
		}
		if got := Robustness(g); !near(got, tc.robu) {
			t.Errorf("Robustness(%v) = %v, want %v", g, got, tc.robu)
		}
		// Consistency trades against robustness: never both above 1/2.
		if Consistency(g) > 0.5 && Robustness(g) >= 0.5 {
			t.Errorf("γ=%v: consistency %v and robustness %v both exceed 1/2", g, Consistency(g), Robustness(g))
		}
	}
}

func TestHarmonic(t *testing.T) {
	for _, tc := range []struct {
		g    int
		want float64
	}{{1, 1}, {2, 1.5}, {3, 11.0 / 6}, {4, 25.0 / 12}, {10, 7381.0 / 2520}} {
		if got := Harmonic(tc.g); !near(got, tc.want) {
			t.Errorf("Harmonic(%d) = %v, want %v", tc.g, got, tc.want)
		}
	}
}

// Corollary 2's harmonic-number forms must equal Theorems 26 and 27 summed
// term by term for the uniform PMF.
func TestCorollary2MatchesTheorems26And27(t *testing.T) {
	for g := 1; g <= 100; g++ {
		p := UniformPMF(g)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if a, b := UniformConsistency(g), p.RandomizedConsistency(); math.Abs(a-b) > 1e-12 {
			t.Errorf("γ=%d: Corollary 2 consistency %v, Theorem 26 sum %v", g, a, b)
		}
		if a, b := UniformRobustness(g), p.RandomizedRobustness(); math.Abs(a-b) > 1e-12 {
			t.Errorf("γ=%d: Corollary 2 robustness %v, Theorem 27 sum %v", g, a, b)
		}
	}
	// γ = 3 by hand: H3 = 11/6, consistency 1 + 1/6 − 11/18 = 5/9, robustness 11/36.
	if got := UniformConsistency(3); !near(got, 5.0/9) {
		t.Errorf("UniformConsistency(3) = %v, want 5/9", got)
	}
	if got := UniformRobustness(3); !near(got, 11.0/36) {
		t.Errorf("UniformRobustness(3) = %v, want 11/36", got)
	}
	// A point mass on r = γ is the deterministic algorithm.
	p := PMF{0, 0, 0, 1}
	if got := p.RandomizedConsistency(); !near(got, Consistency(4)) {
		t.Errorf("point mass consistency %v, want %v", got, Consistency(4))
	}
	if got := p.RandomizedRobustness(); !near(got, Robustness(4)) {
		t.Errorf("point mass robustness %v, want %v", got, Robustness(4))
	}
}

func TestPMFValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    PMF
		ok   bool
	}{
		{"uniform", UniformPMF(4), true},
		{"empty", PMF{}, false},
		{"negative", PMF{1.5, -0.5}, false},
		{"nan", PMF{math.NaN(), 1}, false},
		{"short", PMF{0.2, 0.2}, false},
	} {
		if err := tc.p.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestTrustRatio(t *testing.T) {
	for _, tc := range []struct {
		gamma float64
		k, l  int
		ok    bool
	}{
		{1, 1, 1, true}, {1.5, 3, 2, true}, {2.5, 5, 2, true}, {3, 3, 1, true}, {10, 10, 1, true},
		{4.0 / 3, 4, 3, true}, {0.5, 0, 0, false}, {math.NaN(), 0, 0, false}, {math.Pi, 0, 0, false},
	} {
		k, l, err := TrustRatio(tc.gamma, 100)
		if (err == nil) != tc.ok || k != tc.k || l != tc.l {
			t.Errorf("TrustRatio(%v) = %d/%d, %v; want %d/%d ok=%v", tc.gamma, k, l, err, tc.k, tc.l, tc.ok)
		}
	}
}
