package bvn

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// floorCeil returns ⌊s⌋ and ⌈s⌉ of an exact rational.
func floorCeil(s *big.Rat) (lo, hi int64) {
	q := new(big.Int).Div(s.Num(), s.Denom()) // Euclidean: floor for positive denominators
	lo = q.Int64()
	if s.IsInt() {
		return lo, lo
	}
	return lo, lo + 1
}

// checkRounding verifies the Bacharach guarantees of out for a with exact
// rational arithmetic: every entry, row sum, column sum and the total is the
// floor or ceiling of the original.
func checkRounding(a [][]float64, out [][]int) error {
	if len(out) != len(a) {
		return fmt.Errorf("%d rows, want %d", len(out), len(a))
	}
	if len(a) == 0 {
		return nil
	}
	p := len(a[0])
	cols := make([]*big.Rat, p)
	colOut := make([]int64, p)
	for j := range cols {
		cols[j] = new(big.Rat)
	}
	total, totalOut := new(big.Rat), int64(0)
	within := func(what string, s *big.Rat, got int64) error {
		lo, hi := floorCeil(s)
		if got < lo || got > hi {
			return fmt.Errorf("%s: rounded to %d, want %d..%d (original %s)", what, got, lo, hi, s.FloatString(12))
		}
		return nil
	}
	for i, row := range a {
		if len(out[i]) != p {
			return fmt.Errorf("row %d has %d entries, want %d", i, len(out[i]), p)
		}
		rowSum, rowOut := new(big.Rat), int64(0)
		for j, x := range row {
			v := new(big.Rat).SetFloat64(x)
			if err := within(fmt.Sprintf("entry [%d][%d]", i, j), v, int64(out[i][j])); err != nil {
				return err
			}
			rowSum.Add(rowSum, v)
			cols[j].Add(cols[j], v)
			rowOut += int64(out[i][j])
			colOut[j] += int64(out[i][j])
		}
		if err := within(fmt.Sprintf("row %d", i), rowSum, rowOut); err != nil {
			return err
		}
		total.Add(total, rowSum)
		totalOut += rowOut
	}
	for j := range cols {
		if err := within(fmt.Sprintf("column %d", j), cols[j], colOut[j]); err != nil {
			return err
		}
	}
	return within("total", total, totalOut)
}

// randomMatrix returns an r×c matrix of the given kind. Except for "tenths"
// and "thirds", fractional values are multiples of 2^-20, so no entry or sum
// is within IntegralTol of an integer unless it is one. The guarantees are
// checked against exact rational sums of the float64 values either way.
func randomMatrix(r, c int, kind string, rng *rand.Rand) [][]float64 {
	a := make([][]float64, r)
	dyadic := func(scale float64) float64 {
		return math.Floor(rng.Float64()*scale*(1<<20)) / (1 << 20)
	}
	for i := range a {
		a[i] = make([]float64, c)
		for j := range a[i] {
			switch kind {
			case "unit":
				a[i][j] = dyadic(1)
			case "small":
				a[i][j] = dyadic(10)
			case "sparse":
				if rng.IntN(4) == 0 {
					a[i][j] = dyadic(5)
				}
			case "integers":
				a[i][j] = float64(rng.IntN(7))
			case "mixed":
				if rng.IntN(2) == 0 {
					a[i][j] = float64(rng.IntN(7))
				} else {
					a[i][j] = dyadic(7)
				}
			case "large":
				a[i][j] = float64(rng.IntN(1_000_000)) + dyadic(1)
			case "signed":
				a[i][j] = dyadic(20) - 10
			case "halves":
				a[i][j] = float64(rng.IntN(3)) / 2
			case "tenths": // not dyadic: float sums carry rounding residue
				a[i][j] = float64(rng.IntN(30)) / 10
			case "thirds":
				a[i][j] = float64(rng.IntN(9)) / 3
			}
		}
	}
	return a
}

func TestRoundProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sizes := [][2]int{{1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 3}, {4, 9}, {9, 4}, {16, 16}, {33, 20}, {64, 64}}
	kinds := []string{"unit", "small", "sparse", "integers", "mixed", "large", "signed", "halves", "tenths", "thirds"}
	for _, sz := range sizes {
		for _, kind := range kinds {
			for rep := range 5 {
				a := randomMatrix(sz[0], sz[1], kind, rng)
				out, err := Round(a)
				if err != nil {
					t.Fatalf("%dx%d %s #%d: %v", sz[0], sz[1], kind, rep, err)
				}
				if err := checkRounding(a, out); err != nil {
					t.Fatalf("%dx%d %s #%d: %v", sz[0], sz[1], kind, rep, err)
				}
			}
		}
	}
}

// TestRoundKeepsIntegralSums uses matrices whose rows and columns sum to
// integers (scaled doubly stochastic ones, as Vermilion rounds): those sums
// must be kept exactly.
func TestRoundKeepsIntegralSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{2, 5, 16, 100} {
		for _, terms := range []int{1, 3, 10} {
			// Sum of weighted permutations with dyadic weights summing to n.
			a := make([][]float64, n)
			for i := range a {
				a[i] = make([]float64, n)
			}
			left := float64(n)
			for t := range terms {
				w := left
				if t < terms-1 {
					w = math.Floor(rng.Float64()*left*(1<<10)) / (1 << 10)
				}
				left -= w
				for u, v := range rng.Perm(n) {
					a[u][v] += w
				}
			}
			out, err := Round(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkRounding(a, out); err != nil {
				t.Fatalf("n=%d terms=%d: %v", n, terms, err)
			}
			for i := range n {
				var row, col int
				for j := range n {
					row += out[i][j]
					col += out[j][i]
				}
				if row != n || col != n {
					t.Fatalf("n=%d terms=%d: row %d sums to %d, column %d to %d, want %d", n, terms, i, row, i, col, n)
				}
			}
		}
	}
}

func TestRoundFixed(t *testing.T) {
	tests := []struct {
		name string
		a    [][]float64
		want [][]int // nil: only the guarantees are checked
	}{
		{"integers unchanged", [][]float64{{1, 2}, {3, 0}}, [][]int{{1, 2}, {3, 0}}},
		{"snaps near-integers", [][]float64{{1 + 1e-10, 2 - 1e-10}, {3, 1e-11}}, [][]int{{1, 2}, {3, 0}}},
		{"zeros stay zero", [][]float64{{0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}}, nil},
		{"single fractional", [][]float64{{0.25}}, nil},
		{"halves", [][]float64{{0.5, 0.5}, {0.5, 0.5}}, nil},
		{"row vector", [][]float64{{0.3, 0.3, 0.4}}, nil},
		{"empty rows", [][]float64{{}, {}}, [][]int{{}, {}}},
		{"empty", [][]float64{}, [][]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Round(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkRounding(tc.a, out); err != nil {
				t.Fatal(err)
			}
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, out); diff != "" {
					t.Fatalf("(-want +got):\n%s", diff)
				}
			}
		})
	}
	// A zero entry must stay zero even where the guarantees would allow 1.
	out, err := Round([][]float64{{0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if out[i][i] != 0 {
			t.Fatalf("zero entry [%d][%d] rounded to %d", i, i, out[i][i])
		}
	}
}

func TestRoundErrors(t *testing.T) {
	tests := []struct {
		name string
		a    [][]float64
		want string
	}{
		{"ragged", [][]float64{{1, 2}, {3}}, "row 1 has 1 entries, row 0 has 2"},
		{"NaN", [][]float64{{1, math.NaN()}}, "entry [0][1] = NaN is not a finite number"},
		{"Inf", [][]float64{{math.Inf(-1)}}, "entry [0][0] = -Inf is not a finite number"},
		{"too large", [][]float64{{0, 1e300}}, "entry [0][1] = 1e+300 exceeds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Round(tc.a)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRoundDeterministic(t *testing.T) {
	a := randomMatrix(50, 40, "small", rand.New(rand.NewPCG(11, 12)))
	o1, err := Round(a)
	if err != nil {
		t.Fatal(err)
	}
	o2, err := Round(a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(o1, o2); diff != "" {
		t.Fatalf("two runs differ:\n%s", diff)
	}
}
