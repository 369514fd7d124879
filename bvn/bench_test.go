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
