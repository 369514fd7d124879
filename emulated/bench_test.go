package emulated

import (
	"fmt"
	"testing"

	"github.com/rdcn/rdcn/demand"
)

// Throughput to a certified gap on the graphs of docs/throughput.md:
// the emulated complete graph K_n (capacity 1 per pair) and the
// deBruijn graph with arcs u → (u·d + a) mod n.
func BenchmarkThroughput(b *testing.B) {
	graphs := []struct {
		name string
		g    *Graph
		gap  float64
	}{
		{"K64", completeGraph(64, 1), 1e-3},
		{"deBruijn64d8", deBruijnGraph(64, 8), 1e-3},
		{"K256", completeGraph(256, 1), 1e-2},
	}
	demands := []struct {
		name string
		d    func(int) demand.Matrix
	}{
		{"permutation", demand.Permutation},
		{"uniform", demand.Uniform},
		{"chessboard", demand.Chessboard},
	}
	for _, g := range graphs {
		for _, d := range demands {
			b.Run(fmt.Sprintf("%s/%s/gap=%g", g.name, d.name, g.gap), func(b *testing.B) {
				b.ReportAllocs()
				dm := d.d(g.g.N)
				var r *Result
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Throughput(g.g, dm, &Options{Gap: g.gap}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(r.Gap, "gap")
				b.ReportMetric(float64(r.Iterations), "phases")
				b.ReportMetric(r.Lower, "theta")
			})
		}
	}
}

// One phase of the multiplicative-weights solver: must not allocate.
func BenchmarkPhase(b *testing.B) {
	for _, c := range []struct {
		name string
		g    *Graph
	}{{"K64", completeGraph(64, 1)}, {"deBruijn64d8", deBruijnGraph(64, 8)}} {
		b.Run(c.name, func(b *testing.B) {
			dn, err := demand.HoseNormalize(demand.Permutation(64), c.g.NodeCapacity)
			if err != nil {
				b.Fatal(err)
			}
			s := newSolver(c.g, dn)
			for i := range s.l {
				if s.cap[i] > 0 {
					s.l[i] = 1 / s.cap[i]
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.phase(0.05, 0.025, 1)
				s.scaleLengths(1 / s.lengthVolume())
			}
		})
	}
}
