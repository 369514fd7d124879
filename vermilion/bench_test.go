package vermilion_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/bvn"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/vermilion"
)

// skewedRandom is a dense random matrix with heavy-tailed entries
// (Pareto, shape 1.2) plus a permutation carrying half of every row: the
// rounding sees every kind of entry and the configuration model has work.
func skewedRandom(n int, seed uint64) demand.Matrix {
	rng := rand.New(rand.NewPCG(seed, 3))
	m := demand.New(n)
	for u := range n {
		row := 0.0
		for v := range n {
			if u != v {
				m[u][v] = math.Pow(1-rng.Float64(), -1/1.2)
				row += m[u][v]
			}
		}
		m[u][(u+n/2)%n] += row
	}
	return m
}

func benchConfig() vermilion.Config {
	return vermilion.Config{Nodes: 1024, Uplinks: 8, K: 3, L: 1, Slot: 10 * rotor.Microsecond, Reconf: 100 * rotor.Nanosecond, Seed: 1}
}

// BenchmarkSchedule1024 is Vermilion end to end for n = 1024, U = 8, k = 3:
// normalise, round, complete graph, configuration model, 3072 matchings.
func BenchmarkSchedule1024(b *testing.B) {
	d := skewedRandom(1024, 1)
	c := benchConfig()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := vermilion.Schedule(d, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTopology1024 is the multigraph alone (rounding + configuration model).
func BenchmarkTopology1024(b *testing.B) {
	d := skewedRandom(1024, 1)
	c := benchConfig()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := vermilion.Topology(d, c, rand.New(rand.NewPCG(1, 0))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFactorize1024 is the 1-factorisation of the 3072-regular multigraph.
func BenchmarkFactorize1024(b *testing.B) {
	g, err := vermilion.Topology(skewedRandom(1024, 1), benchConfig(), rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bvn.Factorize(g.Count); err != nil {
			b.Fatal(err)
		}
	}
}
