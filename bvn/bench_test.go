package bvn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rdcn/rdcn/internal/cputime"
)

// reportCPU starts measuring the process CPU time; the function it returns
// reports it per iteration as "cpu-ns/op". On a shared, overloaded machine
// the wall-clock ns/op includes time spent waiting for a core, CPU time does
// not (it does include the garbage collector's work on other threads).
func reportCPU(b *testing.B) func() {
	start, ok := processCPU()
	return func() {
		end, ok2 := processCPU()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// BenchmarkFactorize1024k3072 is the Vermilion case: n = 1024 nodes and
// k·n = 3072 matchings (k = 3, ℓ = 1). The multigraph is built the way
// Vermilion builds it: a skewed (log-normal) demand is scaled so that its
// largest row or column sum is (k−1)·n = 2048 and rounded with Round; one
// edge is added between every pair of distinct nodes; the remaining degree of
// each node is filled by a random configuration-model matching of row and
// column stubs.
func BenchmarkFactorize1024k3072(b *testing.B) {
	a := vermilionLike(1024, 3, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Factorize(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFactorize1024k3072Perms factorises the sum of 3072 random
// permutations of 1024 nodes: almost every entry is non-zero with small
// multiplicities (about Poisson(3)), the hard case for the splits.
func BenchmarkFactorize1024k3072Perms(b *testing.B) {
	a := randomRegular(1024, 3072, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Factorize(a); err != nil {
			b.Fatal(err)
		}
	}
}

// vermilionLike returns a (k·n)-regular n×n multigraph shaped like a
// Vermilion schedule with ℓ = 1 (see BenchmarkFactorize1024k3072).
func vermilionLike(n, k int, rng *rand.Rand) [][]int {
	d := make([][]float64, n)
	rows := make([]float64, n)
	cols := make([]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			if i != j {
				d[i][j] = math.Exp(2 * rng.NormFloat64())
				rows[i] += d[i][j]
				cols[j] += d[i][j]
			}
		}
	}
	peak := max(slices.Max(rows), slices.Max(cols))
	scale := float64((k-1)*n) / peak
	for i := range d {
		for j := range d[i] {
			d[i][j] *= scale
		}
	}
	a, err := Round(d)
	if err != nil {
		panic(err)
	}
	degree := k * n
	var rowStubs, colStubs []int
	for i := range n {
		for j := range n {
			if i != j {
				a[i][j]++
			}
		}
	}
	for i := range n {
		var r, c int
		for j := range n {
			r += a[i][j]
			c += a[j][i]
		}
		for range degree - r {
			rowStubs = append(rowStubs, i)
		}
		for range degree - c {
			colStubs = append(colStubs, i)
		}
	}
	rng.Shuffle(len(colStubs), func(x, y int) { colStubs[x], colStubs[y] = colStubs[y], colStubs[x] })
	for t, i := range rowStubs {
		a[i][colStubs[t]]++
	}
	return a
}

// BenchmarkRound1024 rounds a dense random 1024×1024 matrix whose row sums
// are about 2048 (entries uniform in [0, 4)), the size of Vermilion's
// rounding step for 1024 nodes and k = 3.
func BenchmarkRound1024(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	n := 1024
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = 4 * rng.Float64()
		}
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Round(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecompose256 decomposes a dense random 256×256 doubly stochastic
// matrix (uniform entries balanced by Sinkhorn–Knopp), the worst case for the
// number of terms. It reports the term count as the "terms" metric.
func BenchmarkDecompose256(b *testing.B) {
	a := sinkhorn(256, rand.New(rand.NewPCG(3, 3)))
	b.ReportAllocs()
	stop := reportCPU(b)
	b.ResetTimer()
	var terms []Term
	for b.Loop() {
		var err error
		if terms, err = Decompose(a, 1e-12); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	stop()
	e, err := ReconstructionError(a, terms)
	if err != nil || e > 1e-9 {
		b.Fatalf("reconstruction error %g, %v", e, err)
	}
	b.ReportMetric(float64(len(terms)), "terms")
}

// BenchmarkDecompose256Sparse decomposes a 256×256 convex combination of 256
// random permutations (about 63% of the entries non-zero).
func BenchmarkDecompose256Sparse(b *testing.B) {
	a := convexPerms(256, 256, 1, rand.New(rand.NewPCG(4, 4)))
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	var terms []Term
	for b.Loop() {
		var err error
		if terms, err = Decompose(a, 1e-12); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(terms)), "terms")
}

// processCPU is the CPU time this process has used so far (user + system).
func processCPU() (time.Duration, bool) {
	cpu, _, ok := cputime.Process()
	return cpu, ok
}
