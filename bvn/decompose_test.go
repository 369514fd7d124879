package bvn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// convexPerms returns s times a random convex combination of k random
// permutation matrices.
func convexPerms(n, k int, s float64, rng *rand.Rand) [][]float64 {
	a := floatMatrix(n)
	w := make([]float64, k)
	var sum float64
	for t := range w {
		w[t] = rng.Float64() + 0.01
		sum += w[t]
	}
	for t := range w {
		for u, v := range rng.Perm(n) {
			a[u][v] += s * w[t] / sum
		}
	}
	return a
}

// sinkhorn returns a dense random matrix balanced by Sinkhorn–Knopp
// iterations until every row and column sums to 1 within 1e-13.
func sinkhorn(n int, rng *rand.Rand) [][]float64 {
	a := floatMatrix(n)
	for i := range a {
		for j := range a[i] {
			a[i][j] = rng.Float64() + 1e-3
		}
	}
	for iter := 0; iter < 10000; iter++ {
		worst := 0.0
		for i := range a {
			var r float64
			for _, x := range a[i] {
				r += x
			}
			for j := range a[i] {
				a[i][j] /= r
			}
		}
		for j := range n {
			var c float64
			for i := range n {
				c += a[i][j]
			}
			worst = max(worst, math.Abs(c-1))
			for i := range n {
				a[i][j] /= c
			}
		}
		if worst < 1e-13 {
			break
		}
	}
	return a
}

func floatMatrix(n int) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
	}
	return a
}

// checkDecomposition verifies terms against a: positive weights summing to
// s, permutations, the Birkhoff term bound and reconstruction within maxErr.
func checkDecomposition(t *testing.T, a [][]float64, s float64, terms []Term, maxErr float64) {
	t.Helper()
	n := len(a)
	nonzero := 0
	for _, row := range a {
		for _, x := range row {
			if x > 0 {
				nonzero++
			}
		}
	}
	if bound := max(n*n-2*n+2, 0); len(terms) > bound || len(terms) > nonzero {
		t.Fatalf("%d terms, more than n²−2n+2 = %d or the %d non-zero entries", len(terms), bound, nonzero)
	}
	var sum float64
	for i, term := range terms {
		if !(term.Weight > 0) {
			t.Fatalf("term %d has weight %v", i, term.Weight)
		}
		if err := checkPermutation(term.Perm, n); err != nil {
			t.Fatalf("term %d: %v", i, err)
		}
		sum += term.Weight
	}
	if math.Abs(sum-s) > maxErr*float64(n) {
		t.Fatalf("weights sum to %v, want %v", sum, s)
	}
	e, err := ReconstructionError(a, terms)
	if err != nil {
		t.Fatal(err)
	}
	if e > maxErr {
		t.Fatalf("reconstruction error %g > %g", e, maxErr)
	}
}

func TestDecomposeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 3, 4, 7, 16, 50} {
		for _, k := range []int{1, 2, 5, 20, 100} {
			for _, s := range []float64{1, 37.5} {
				a := convexPerms(n, k, s, rng)
				terms, err := Decompose(a, 1e-12)
				if err != nil {
					t.Fatalf("n=%d k=%d: %v", n, k, err)
				}
				checkDecomposition(t, a, s, terms, 1e-9*s)
			}
		}
	}
}

func TestDecomposeSinkhorn(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{2, 3, 5, 8, 13, 32, 64} {
		a := sinkhorn(n, rng)
		terms, err := Decompose(a, 1e-12)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		checkDecomposition(t, a, 1, terms, 1e-9)
	}
}

func TestDecomposeFixed(t *testing.T) {
	tests := []struct {
		name string
		a    [][]float64
		want []Term
	}{
		{"1x1", [][]float64{{2.5}}, []Term{{2.5, []int{0}}}},
		{"permutation", [][]float64{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, []Term{{1, []int{1, 2, 0}}}},
		{"two permutations", [][]float64{{0.75, 0.25}, {0.25, 0.75}}, nil},
		{"zero", [][]float64{{0, 0}, {0, 0}}, []Term{}},
		{"empty", [][]float64{}, []Term{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			terms, err := Decompose(tc.a, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, terms); diff != "" {
					t.Fatalf("(-want +got):\n%s", diff)
				}
			}
			var s float64
			if len(tc.a) > 0 {
				for _, x := range tc.a[0] {
					s += x
				}
			}
			checkDecomposition(t, tc.a, s, terms, 1e-12)
		})
	}
}

// TestDecomposeUniform: J/n has n disjoint perfect matchings of weight 1/n in
// its support and greedy peeling zeroes n entries per step, so it must use
// exactly n terms of weight 1/n.
func TestDecomposeUniform(t *testing.T) {
	for _, n := range []int{2, 5, 16, 33} {
		a := floatMatrix(n)
		for i := range a {
			for j := range a[i] {
				a[i][j] = 1 / float64(n)
			}
		}
		terms, err := Decompose(a, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(terms) != n {
			t.Fatalf("n=%d: %d terms, want %d", n, len(terms), n)
		}
		for i, term := range terms {
			if math.Abs(term.Weight-1/float64(n)) > 1e-15 {
				t.Fatalf("n=%d: term %d weight %v, want 1/n", n, i, term.Weight)
			}
		}
		checkDecomposition(t, a, 1, terms, 1e-12)
	}
}

// TestDecomposeIntegers: an integer k-regular matrix decomposes into
// permutations with weights that sum to k; the same matrix factorises into k
// matchings, and both must reconstruct it.
func TestDecomposeIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	ints := randomRegular(20, 9, rng)
	a := floatMatrix(20)
	for i := range a {
		for j := range a[i] {
			a[i][j] = float64(ints[i][j])
		}
	}
	terms, err := Decompose(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkDecomposition(t, a, 9, terms, 1e-12)
	// Repeating each term Weight times is a 1-factorisation; Factorize must
	// give one of the same size, and both must sum to the input.
	var expanded [][]int
	for i, term := range terms {
		if term.Weight != math.Round(term.Weight) {
			t.Fatalf("term %d: integer input gave weight %v", i, term.Weight)
		}
		for range int(term.Weight) {
			expanded = append(expanded, term.Perm)
		}
	}
	checkFactorization(t, ints, 9, expanded)
	perms, err := Factorize(ints)
	if err != nil {
		t.Fatal(err)
	}
	checkFactorization(t, ints, 9, perms)
}

func TestDecomposeTolerance(t *testing.T) {
	// Row sums 1 ± 1e-7: accepted with tol 1e-6, rejected with 1e-9.
	a := [][]float64{{0.5 + 1e-7, 0.5}, {0.5, 0.5 - 1e-7}}
	if _, err := Decompose(a, 1e-9); err == nil || !strings.Contains(err.Error(), "row 0 sums to") {
		t.Fatalf("tol 1e-9: error %v, want one naming row 0", err)
	}
	terms, err := Decompose(a, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	checkDecomposition(t, a, 1, terms, 1e-6)
}

func TestDecomposeErrors(t *testing.T) {
	tests := []struct {
		name string
		a    [][]float64
		tol  float64
		want string
	}{
		{"non-square", [][]float64{{1, 0}, {0, 1}, {0, 0}}, 0, "row 0 has 2 entries, want 3"},
		{"ragged", [][]float64{{1, 0}, {1}}, 0, "row 1 has 1 entries, want 2"},
		{"NaN", [][]float64{{math.NaN()}}, 0, "entry [0][0] = NaN is not a finite number"},
		{"Inf", [][]float64{{1, math.Inf(1)}, {1, 0}}, 0, "entry [0][1] = +Inf"},
		{"negative", [][]float64{{1.5, -0.5}, {-0.5, 1.5}}, 0, "entry [0][1] = -0.5 is negative"},
		{"row sum", [][]float64{{0.5, 0.5, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.3}}, 0, "row 2 sums to 0.8"},
		{"column sum", [][]float64{{0.6, 0.4}, {0.6, 0.4}}, 0, "column 0 sums to 1.2"},
		{"negative tol", [][]float64{{1}}, -1, "tolerance -1 must be in [0, 1)"},
		{"NaN tol", [][]float64{{1}}, math.NaN(), "tolerance NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decompose(tc.a, tc.tol)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestReconstructErrors(t *testing.T) {
	tests := []struct {
		name  string
		terms []Term
		want  string
	}{
		{"short perm", []Term{{1, []int{0}}}, "length 1, want 2"},
		{"out of range", []Term{{1, []int{0, 2}}}, "maps 1 to 2"},
		{"repeat", []Term{{1, []int{1, 0}}, {1, []int{1, 1}}}, "term 1 maps two rows to column 1"},
		{"NaN weight", []Term{{math.NaN(), []int{0, 1}}}, "weight NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Reconstruct(tc.terms, 2)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
