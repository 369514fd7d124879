package bvn

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// matrixFromBytes builds a small rows×cols matrix from fuzz data, one byte an
// entry (missing bytes are zero).
func matrixFromBytes(data []byte, rows, cols int, entry func(byte) float64) [][]float64 {
	a := make([][]float64, rows)
	for i := range a {
		a[i] = make([]float64, cols)
		for j := range a[i] {
			if t := i*cols + j; t < len(data) {
				a[i][j] = entry(data[t])
			}
		}
	}
	return a
}

// FuzzRound checks the rounding guarantees on arbitrary small matrices with
// entries that are multiples of 1/8, 1/10 or integers.
func FuzzRound(f *testing.F) {
	f.Add(uint8(3), uint8(3), uint8(8), []byte{4, 4, 2, 4, 4, 2, 2, 2, 6})
	f.Add(uint8(1), uint8(5), uint8(10), []byte{3, 3, 3, 3, 3})
	f.Add(uint8(4), uint8(2), uint8(1), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, rows, cols, denom uint8, data []byte) {
		r, c := int(rows%9)+1, int(cols%9)+1
		d := float64(denom%12) + 1
		a := matrixFromBytes(data, r, c, func(b byte) float64 { return float64(int8(b)) / d })
		out, err := Round(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkRounding(a, out); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	})
}

// FuzzFactorize builds a regular multigraph as a sum of permutations read
// from the fuzz data and checks the factorisation sums back to it.
func FuzzFactorize(f *testing.F) {
	f.Add(uint8(4), []byte{0, 1, 2, 3, 1, 0, 3, 2, 7, 7, 7, 7})
	f.Add(uint8(1), []byte{0})
	f.Add(uint8(6), []byte{5, 4, 3, 2, 1, 0, 9, 9, 9})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := int(size%8) + 1
		a := intMatrix(n, n)
		k := 0
		for len(data) > 0 {
			// Decode a permutation of n from the next bytes (Lehmer-like).
			free := make([]int, n)
			for i := range free {
				free[i] = i
			}
			for u := range n {
				var b byte
				if len(data) > 0 {
					b, data = data[0], data[1:]
				}
				x := int(b) % len(free)
				a[u][free[x]]++
				free = append(free[:x], free[x+1:]...)
			}
			k++
		}
		perms, err := Factorize(a)
		if err != nil {
			t.Fatal(err)
		}
		if len(perms) != k {
			t.Fatalf("%d matchings, want %d", len(perms), k)
		}
		for i, p := range perms {
			if err := checkPermutation(p, n); err != nil {
				t.Fatalf("matching %d: %v", i, err)
			}
		}
		if diff := cmp.Diff(a, sumMatchings(perms, n)); diff != "" {
			t.Fatalf("sum differs:\n%s", diff)
		}
	})
}

// FuzzDecompose builds a convex combination of permutations (weights and
// permutations read from the fuzz data) and checks the decomposition.
func FuzzDecompose(f *testing.F) {
	f.Add(uint8(3), []byte{5, 0, 0, 0, 3, 1, 1, 0, 2, 2, 2, 2})
	f.Add(uint8(1), []byte{1, 0})
	f.Add(uint8(5), []byte{9, 4, 3, 2, 1, 0, 200, 1, 1, 1, 1, 1, 7, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := int(size%8) + 1
		a := make([][]float64, n)
		for i := range a {
			a[i] = make([]float64, n)
		}
		var s float64
		for len(data) > 0 {
			w := float64(data[0]%100) + 0.5
			data = data[1:]
			s += w
			free := make([]int, n)
			for i := range free {
				free[i] = i
			}
			for u := range n {
				var b byte
				if len(data) > 0 {
					b, data = data[0], data[1:]
				}
				x := int(b) % len(free)
				a[u][free[x]] += w
				free = append(free[:x], free[x+1:]...)
			}
		}
		terms, err := Decompose(a, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		if s == 0 {
			if len(terms) != 0 {
				t.Fatalf("zero matrix gave %d terms", len(terms))
			}
			return
		}
		checkDecomposition(t, a, s, terms, 1e-9*s)
	})
}
