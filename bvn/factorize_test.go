package bvn

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkFactorization verifies that perms is a 1-factorisation of a: exactly k
// permutations that sum back to a.
func checkFactorization(t *testing.T, a [][]int, k int, perms [][]int) {
	t.Helper()
	n := len(a)
	if len(perms) != k {
		t.Fatalf("got %d matchings, want k = %d", len(perms), k)
	}
	for i, p := range perms {
		if err := checkPermutation(p, n); err != nil {
			t.Fatalf("matching %d: %v", i, err)
		}
	}
	if diff := cmp.Diff(a, sumMatchings(perms, n)); diff != "" {
		t.Fatalf("matchings do not sum to the input (-want +got):\n%s", diff)
	}
}

func TestFactorizeFixed(t *testing.T) {
	tests := []struct {
		name string
		a    [][]int
		k    int
	}{
		{"1x1", [][]int{{5}}, 5},
		{"identity", [][]int{{1, 0}, {0, 1}}, 1},
		{"swap", [][]int{{0, 1}, {1, 0}}, 1},
		{"2-regular 3x3", [][]int{{1, 1, 0}, {0, 1, 1}, {1, 0, 1}}, 2},
		{"all ones 4x4", [][]int{{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}}, 4},
		{"scaled identity", [][]int{{7, 0, 0}, {0, 7, 0}, {0, 0, 7}}, 7},
		{"odd then even", [][]int{{3, 2, 1}, {1, 3, 2}, {2, 1, 3}}, 6},
		{"large multiplicities", [][]int{{1000, 1}, {1, 1000}}, 1001},
		{"6-cycle of doubles", [][]int{{2, 1, 0}, {0, 2, 1}, {1, 0, 2}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			perms, err := Factorize(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			checkFactorization(t, tc.a, tc.k, perms)
		})
	}
}

func TestFactorizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 8, 17, 64, 200} {
		for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 12, 31, 33, 64, 100} {
			a := randomRegular(n, k, rng)
			perms, err := Factorize(a)
			if err != nil {
				t.Fatalf("n=%d k=%d: %v", n, k, err)
			}
			checkFactorization(t, a, k, perms)
		}
	}
}

// TestFactorizeSkewed mixes a few heavy permutations with many light ones, so
// that multiplicities differ by orders of magnitude within a row.
func TestFactorizeSkewed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 50
	a := intMatrix(n, n)
	k := 0
	for _, w := range []int{500, 123, 77, 1, 1, 1, 2, 3, 5, 8} {
		k += w
		for u, v := range rng.Perm(n) {
			a[u][v] += w
		}
	}
	perms, err := Factorize(a)
	if err != nil {
		t.Fatal(err)
	}
	checkFactorization(t, a, k, perms)
}

// TestFactorizeExhaustive runs Factorize on every 3×3 non-negative integer
// matrix with equal row and column sums k ≤ 4, and every 4×4 one with k ≤ 2.
// By König's theorem each of them has a 1-factorisation, so all must succeed.
func TestFactorizeExhaustive(t *testing.T) {
	for _, c := range []struct{ n, maxK int }{{3, 4}, {4, 2}} {
		count := 0
		for k := 0; k <= c.maxK; k++ {
			enumerateRegular(c.n, k, func(a [][]int) {
				count++
				perms, err := Factorize(a)
				if err != nil {
					t.Fatalf("%v: %v", a, err)
				}
				checkFactorization(t, a, k, perms)
			})
		}
		if count == 0 {
			t.Fatalf("n=%d: enumerated nothing", c.n)
		}
	}
}

// enumerateRegular calls f with every n×n non-negative integer matrix whose
// rows and columns all sum to k.
func enumerateRegular(n, k int, f func([][]int)) {
	a := intMatrix(n, n)
	colLeft := make([]int, n)
	for j := range colLeft {
		colLeft[j] = k
	}
	var fill func(i, j, rowLeft int)
	fill = func(i, j, rowLeft int) {
		if i == n {
			f(a)
			return
		}
		if j == n-1 {
			if rowLeft > colLeft[j] {
				return
			}
			a[i][j] = rowLeft
			colLeft[j] -= rowLeft
			fill(i+1, 0, k)
			colLeft[j] += rowLeft
			return
		}
		for m := 0; m <= min(rowLeft, colLeft[j]); m++ {
			a[i][j] = m
			colLeft[j] -= m
			fill(i, j+1, rowLeft-m)
			colLeft[j] += m
		}
	}
	fill(0, 0, k)
}

func TestFactorizeDeterministic(t *testing.T) {
	a := randomRegular(40, 27, rand.New(rand.NewPCG(5, 6)))
	p1, err := Factorize(a)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Factorize(a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p1, p2); diff != "" {
		t.Fatalf("two runs differ:\n%s", diff)
	}
}

func TestFactorizeEmpty(t *testing.T) {
	for _, a := range [][][]int{nil, {}, {{0, 0}, {0, 0}}} {
		perms, err := Factorize(a)
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		if len(perms) != 0 {
			t.Fatalf("%v: got %d matchings, want 0", a, len(perms))
		}
	}
}

func TestFactorizeErrors(t *testing.T) {
	tests := []struct {
		name string
		a    [][]int
		want string
	}{
		{"ragged", [][]int{{1, 0}, {0}}, "row 1 has 1 entries, want 2"},
		{"non-square", [][]int{{1, 0, 0}, {0, 1, 0}}, "row 0 has 3 entries, want 2"},
		{"negative", [][]int{{2, -1}, {-1, 2}}, "entry [0][1] = -1 is negative"},
		{"row sum", [][]int{{1, 1}, {0, 1}}, "row 1 sums to 1, row 0 sums to 2"},
		{"column sum", [][]int{{2, 0}, {2, 0}}, "column 0 sums to 4, rows sum to 2"},
		{"too large", [][]int{{1 << 40}}, "exceeds"},
		{"too many matchings", [][]int{{1 << 29}}, "exceed the limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Factorize(tc.a)
			if err == nil {
				t.Fatalf("no error, want one containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
