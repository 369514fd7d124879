package emulated

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/internal/cputime"
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
		// A sparse random schedule (n = 64, U = 2, Γ = 4) on which nearly
		// every arc is saturated at the optimum: the hard case for the
		// sweeps (docs/throughput.md).
		{"random64U2", mustGraph(b, randomSchedule(64, 2, 4, rand.New(rand.NewPCG(7, 0)))), 1e-3},
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
				cpu0, ok := processCPU()
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Throughput(g.g, dm, &Options{Gap: g.gap}); err != nil {
						b.Fatal(err)
					}
				}
				if cpu1, ok1 := processCPU(); ok && ok1 { // CPU time: the machine is shared
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
				}
				b.ReportMetric(r.Gap, "gap")
				b.ReportMetric(float64(r.Iterations), "iterations")
				b.ReportMetric(r.Lower, "theta")
			})
		}
	}
}

// One pass of shortest-path trees (one per source, all 64 sources), the
// dominant cost of a solver iteration: must not allocate.
func BenchmarkTrees(b *testing.B) {
	for _, c := range []struct {
		name string
		g    *Graph
		d    func(int) demand.Matrix
	}{
		{"K64/permutation", completeGraph(64, 1), demand.Permutation},
		{"K64/uniform", completeGraph(64, 1), demand.Uniform},
		{"deBruijn64d8/uniform", deBruijnGraph(64, 8), demand.Uniform},
	} {
		b.Run(c.name, func(b *testing.B) {
			dn, err := demand.HoseNormalize(c.d(64), c.g.NodeCapacity)
			if err != nil {
				b.Fatal(err)
			}
			s := newPathSolver(c.g, dn)
			for a, x := range s.cap {
				if x > 0 {
					s.tl[a] = 1 / x
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j, src := range s.srcs {
					s.shortestPaths(src, j)
				}
			}
		})
	}
}

// processCPU is the CPU time this process has used so far (user + system).
func processCPU() (time.Duration, bool) {
	cpu, _, ok := cputime.Process()
	return cpu, ok
}
