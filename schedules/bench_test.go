package schedules

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkRotorNet(b *testing.B) {
	for _, u := range []int{4, 8} {
		b.Run(fmt.Sprintf("n=1024/U=%d", u), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RotorNet(Params{Nodes: 1024, Uplinks: u}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOpera reports, besides time, the CPU seconds per schedule (all
// goroutines: the spectral check runs on GOMAXPROCS workers) and the
// process's peak RSS, which covers earlier sub-benchmarks too: run one size
// alone to read its own peak, e.g.
// go test ./schedules -run '^$' -bench 'Opera$/n=8192' -benchtime 1x.
// Above 2048 ToRs the factorisation is the lifted one.
func BenchmarkOpera(b *testing.B) {
	for _, c := range []struct{ n, u int }{{256, 4}, {1024, 4}, {1024, 8}, {2048, 8}, {4096, 8}, {8192, 8}} {
		b.Run(fmt.Sprintf("n=%d/U=%d", c.n, c.u), func(b *testing.B) {
			if c.n > 2048 && testing.Short() {
				b.Skip("n > 2048 with -short")
			}
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if _, err := Opera(Params{Nodes: c.n, Uplinks: c.u, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((processCPU()-cpu).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(peakRSSBytes())/(1<<20), "peak-RSS-MiB")
		})
	}
}

// BenchmarkOperaParts splits Opera's cost at n = 1024 into the
// factorisation, one slice's spectral gap (Lanczos) and the gaps of all
// sparse slices of a U = 8 schedule.
func BenchmarkOperaParts(b *testing.B) {
	const n = 1024
	b.Run("factorisation", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := loopyFactorization(n, rand.New(rand.NewPCG(uint64(i), 0)), 200*n*n, never); err != nil {
				b.Fatal(err)
			}
		}
	})
	f, err := loopyFactorization(n, rand.New(rand.NewPCG(1, 0)), 200*n*n, never)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("slice-gap", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			circuits{n, f[:3]}.spectralGap()
		}
	})
	// all 1024 sparse slices (7 matchings each) of an n = 1024, U = 8 draw
	b.Run("slice-gaps/U=8", func(b *testing.B) {
		s, err := Opera(Params{Nodes: n, Uplinks: 8, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		gs := sparseGraphs(s, sliceGraphs(s))
		b.ReportAllocs()
		for b.Loop() {
			spectralGaps(gs, never)
		}
	})
}

func BenchmarkStatic(b *testing.B) {
	for _, tries := range []int{1, 8} {
		b.Run(fmt.Sprintf("n=1024/U=8/tries=%d", tries), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Static(Params{Nodes: 1024, Uplinks: 8, Seed: 1, Tries: tries}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
