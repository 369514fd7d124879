package schedules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
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
		f, err := loopyFactorization(n, rng, 200*n*n, never)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []circuits{{n, f[:3]}, {n, f[5:10]}, {n, flatten(drawRegular(n, 2, rng))}} {
			var ws spectralWork
			op := ws.normalize(g)
			lz, _ := ws.lanczosSecond(op)
			if de := op.denseSecond(); math.Abs(lz-de) > 1e-8 {
				t.Errorf("n=%d: Lanczos λ₂ %.12f, dense %.12f", n, lz, de)
			}
		}
	}
}

// TestMatchingOperator checks the operator built slot by matching against
// the general construction on Opera-like slices: the same products (to
// rounding: the two place the padding differently) and the same phi.
func TestMatchingOperator(t *testing.T) {
	for _, n := range []int{9, 130, 256} {
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		f, err := loopyFactorization(n, rng, 200*n*n, never)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []circuits{{n, f[:1]}, {n, f[n-1:]}, {n, f[:3]}, {n, f[2:9]}} {
			if !g.matchings() {
				t.Fatalf("n=%d: a factorisation's colours are not involutions", n)
			}
			var a, b spectralWork
			ma, mb := a.build(g, true), b.build(g, false)
			if ma == nil || mb == nil {
				if ma != mb {
					t.Fatalf("n=%d, %d maps: one construction has an isolated node, the other not", n, len(g.maps))
				}
				continue
			}
			q := make([]float64, n)
			for i := range q {
				q[i] = rng.NormFloat64()
			}
			wa, wb := make([]float64, n), make([]float64, n)
			da, _, _ := ma.mulDots(wa, q, q)
			db, _, _ := mb.mulDots(wb, q, q)
			for u := range wa {
				if math.Abs(wa[u]-wb[u]) > 1e-15 || ma.phi[u] != mb.phi[u] {
					t.Fatalf("n=%d, %d maps, row %d: Aq %v vs %v, phi %v vs %v", n, len(g.maps), u, wa[u], wb[u], ma.phi[u], mb.phi[u])
				}
			}
			if math.Abs(da-db) > 1e-13 {
				t.Errorf("n=%d, %d maps: q·Aq %v vs %v", n, len(g.maps), da, db)
			}
		}
	}
}

// TestRitzTop checks the incremental largest eigenvalue of a growing
// tridiagonal matrix against plain bisection, including matrices whose top
// eigenvalues nearly coincide (blocks coupled by tiny off-diagonals, as
// when Lanczos repeats a converged value).
func TestRitzTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 40; trial++ {
		var r ritzTop
		r.reset(200)
		for k := 1; k <= 200; k++ {
			r.alpha = append(r.alpha, rng.Float64()-0.5)
			b := 0.1 + 0.4*rng.Float64()
			if trial%2 == 1 && k%37 == 0 {
				b = 1e-9 * rng.Float64()
			}
			if trial%4 == 3 { // a second copy of the first block
				if k == 100 {
					b = 1e-12
				} else if k > 100 {
					r.alpha[k-1] = r.alpha[k-101]
					b = r.beta[k-101]
				}
			}
			if k%8 != 0 && k != 200 {
				r.beta = append(r.beta, b)
				continue
			}
			got := r.max()
			lo, hi := gershgorin(r.alpha, r.beta[:k-1])
			want := bisect(r.alpha, r.beta[:k-1], lo, hi)
			if math.Abs(got-want) > 2*ritzTol(want) {
				t.Fatalf("trial %d, k=%d: largest eigenvalue %.16g, bisection %.16g", trial, k, got, want)
			}
			r.beta = append(r.beta, b)
		}
	}
}

// TestSpectralGapsDeterministic checks that the parallel gaps, computed in
// reused per-worker buffers over graphs of mixed sizes and kinds, are bit
// for bit those of one fresh computation per graph, whatever GOMAXPROCS.
func TestSpectralGapsDeterministic(t *testing.T) {
	var gs []circuits
	for _, n := range []int{300, 64, 140} {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		f, err := loopyFactorization(n, rng, 200*n*n, never)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+3 <= 12; i++ {
			gs = append(gs, circuits{n, f[i : i+3]})
		}
		gs = append(gs, circuits{n, flatten(drawRegular(n, 3, rng))})
	}
	want := make([]float64, len(gs))
	for i, g := range gs {
		want[i] = g.spectralGap()
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(procs)
		for i, got := range spectralGaps(gs, never) {
			if math.Float64bits(got) != math.Float64bits(want[i]) {
				t.Fatalf("GOMAXPROCS=%d, graph %d: gap %v, alone %v", procs, i, got, want[i])
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
		f, err := loopyFactorization(n, rng, 200*n*n+1000, never)
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
