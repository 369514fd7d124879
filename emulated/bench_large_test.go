package emulated

import (
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/schedules"
)

// The issue-17 targets at gap 1e-2 (docs/throughput.md, "Performance"):
// n = 1024 sparse schedules (Mars d = 32 with U = 4, Opera with U = 8)
// under permutation and uniform demand in ≤ 60 s each, the n = 1024
// complete graph (RotorNet, U = 4, idle self-slot) under permutation in
// ≤ 10 min, all within 4 GiB. Run one with, e.g.,
//
//	go test ./emulated -run '^$' -bench 'Throughput1024/mars' -benchtime 1x -benchmem
func BenchmarkThroughput1024(b *testing.B) {
	const n = 1024
	cases := []struct {
		name string
		kind string
		p    schedules.Params
	}{
		{"mars-d32-U4", "mars", schedules.Params{Nodes: n, Uplinks: 4, Degree: 32, Seed: 1}},
		{"opera-U8", "opera", schedules.Params{Nodes: n, Uplinks: 8, Seed: 1}},
		{"rotornet-U4", "rotornet", schedules.Params{Nodes: n, Uplinks: 4, SelfSlot: true}},
	}
	demands := []struct {
		name string
		d    func(int) demand.Matrix
	}{
		{"permutation", demand.Permutation},
		{"uniform", demand.Uniform},
	}
	for _, c := range cases {
		for _, d := range demands {
			if c.kind == "rotornet" && d.name == "uniform" {
				continue // direct routing is optimal and certified at once
			}
			b.Run(c.name+"/"+d.name, func(b *testing.B) {
				s, err := schedules.Build(c.kind, c.p)
				if err != nil {
					b.Fatal(err)
				}
				g := mustGraph(b, s)
				dm := d.d(n)
				b.ReportAllocs()
				b.ResetTimer()
				var r *Result
				cpu0, ok := processCPU()
				for i := 0; i < b.N; i++ {
					if r, err = Throughput(g, dm, &Options{Gap: 1e-2}); err != nil {
						b.Fatal(err)
					}
				}
				if cpu1, ok1 := processCPU(); ok && ok1 {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
				}
				b.ReportMetric(r.Gap, "gap")
				b.ReportMetric(float64(r.Iterations), "iterations")
				b.ReportMetric(r.Lower, "theta")
			})
		}
	}
}
