package schedules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func shiftMaps(n int, shifts ...int) [][]int {
	var maps [][]int
	for _, i := range shifts {
		m := make([]int, n)
		for u := range m {
			m[u] = (u + i) % n
		}
		maps = append(maps, m)
	}
	return maps
}

// TestSpectralGapClosedForms checks both eigen-solvers against graphs whose
// spectra are known: K_n (normalised adjacency eigenvalues 1 and −1/(n−1),
// gap n/(n−1)) and the directed cycle, symmetrised to the undirected cycle
// (eigenvalues cos 2πk/n, gap 1 − cos 2π/n).
func TestSpectralGapClosedForms(t *testing.T) {
	for _, n := range []int{5, 40, 128, 129, 300} {
		all := make([]int, n-1)
		for i := range all {
			all[i] = i + 1
		}
		tests := []struct {
			name string
			g    circuits
			want float64
		}{
			{"complete", circuits{n, shiftMaps(n, all...)}, float64(n) / float64(n-1)},
			{"cycle", circuits{n, shiftMaps(n, 1)}, 1 - math.Cos(2*math.Pi/float64(n))},
			{"two-cycles", circuits{n, shiftMaps(n, 1, n-1)}, 1 - math.Cos(2*math.Pi/float64(n))},
		}
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/n=%d", tc.name, n), func(t *testing.T) {
				if got := tc.g.spectralGap(); math.Abs(got-tc.want) > 1e-9 {
					t.Errorf("gap %.12f, want %.12f", got, tc.want)
				}
			})
		}
	}
}

// TestLanczosMatchesDense compares the sparse Lanczos estimate with a dense
// eigendecomposition on Opera-like slices and random static digraphs.
func TestLanczosMatchesDense(t *testing.T) {
	for _, n := range []int{130, 256, 400} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		f, err := loopyFactorization(n, rng, 200*n*n)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []circuits{{n, f[:3]}, {n, f[5:10]}, {n, flatten(drawRegular(n, 2, rng))}} {
			op := newNormalized(g)
			if lz, de := op.lanczosSecond(), op.denseSecond(); math.Abs(lz-de) > 1e-8 {
				t.Errorf("n=%d: Lanczos λ₂ %.12f, dense %.12f", n, lz, de)
			}
		}
	}
}

func flatten(ms [][][]int) [][]int {
	var out [][]int
	for _, s := range ms {
		out = append(out, s...)
	}
	return out
}

func TestFactorizations(t *testing.T) {
	for _, n := range []int{2, 3, 4, 7, 10, 31, 64} {
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		f, err := loopyFactorization(n, rng, 200*n*n+1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != n {
			t.Fatalf("n=%d: %d colours, want n", n, len(f))
		}
		colour := map[[2]int]int{}
		loops := make([]int, n)
		for c, m := range f {
			for u, v := range m {
				if m[v] != u {
					t.Fatalf("n=%d colour %d: not an involution at %d", n, c, u)
				}
				if v == u {
					loops[u]++
					continue
				}
				if prev, ok := colour[[2]int{u, v}]; ok && prev != c {
					t.Fatalf("n=%d: edge %d-%d has colours %d and %d", n, u, v, prev, c)
				}
				colour[[2]int{u, v}] = c
			}
		}
		if len(colour) != n*(n-1) {
			t.Fatalf("n=%d: %d ordered pairs coloured, want %d", n, len(colour), n*(n-1))
		}
		for u, l := range loops {
			if l != 1 {
				t.Fatalf("n=%d: node %d has %d loops, want 1", n, u, l)
			}
		}
	}
}
