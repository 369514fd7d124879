package bvn

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFactorize1024k3072 is the Vermilion case: n = 1024 nodes, k·n =
// 3072 matchings. The multigraph is the sum of 3072 random permutations, so
// almost every entry is non-zero with small multiplicities (Poisson(3)),
// which is the hard case for the splits.
func BenchmarkFactorize1024k3072(b *testing.B) {
	a := randomRegular(1024, 3072, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Factorize(a); err != nil {
			b.Fatal(err)
		}
	}
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
	b.ResetTimer()
	for b.Loop() {
		if _, err := Round(a); err != nil {
			b.Fatal(err)
		}
	}
}
