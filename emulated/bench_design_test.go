package emulated

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rdcn/rdcn/rotor"
)

// BenchmarkRecommend is the design question of issue 28 (rdcn tradeoff
// --tors N --uplinks U --link 400Gbps --buffer 10MB --delay 1ms) with the
// CLI's gap 1e-2 and its 1 µs and 10 µs alternatives, on GOMAXPROCS
// goroutines, decision-driven as the CLI runs it and, in the -refine-all
// variants, with every design certified to the gap (--refine-all); it
// reports CPU and wall time per answer and how many designs were left as
// CannotWin. n = 512 and 1,024 run only with RDCN_BENCH_LARGE=1 (far
// beyond 10 minutes of CPU today, docs/perf-history.md);
// RDCN_BENCH_LIMIT (a duration, as --time-limit) stops each answer then,
// and the benchmark reports how many designs were still open (stopped
// wider than the gap, or not begun), the best certified θ so far and its
// margin (shortfall: no design beats it by more, DesignSpace.Margin). Run
// one with
//
//	go test ./emulated -run '^$' -bench 'Recommend/n128-U8$' -benchtime 1x
//	RDCN_BENCH_LARGE=1 go test ./emulated -run '^$' -bench 'Recommend/n512-U16$' -benchtime 1x -timeout 0
//	RDCN_BENCH_LARGE=1 RDCN_BENCH_LIMIT=25m go test ./emulated -run '^$' -bench 'Recommend/n1024-U8$' -benchtime 1x -timeout 0
func BenchmarkRecommend(b *testing.B) {
	var limit time.Duration
	if v := os.Getenv("RDCN_BENCH_LIMIT"); v != "" {
		var err error
		if limit, err = time.ParseDuration(v); err != nil || limit <= 0 {
			b.Fatalf("RDCN_BENCH_LIMIT: want a positive duration such as 25m, got %q", v)
		}
	}
	for _, n := range []int{128, 512, 1024} {
		for _, u := range []int{8, 16} {
			for _, all := range []bool{false, true} {
				name := fmt.Sprintf("n%d-U%d", n, u)
				if all {
					name += "-refine-all"
				}
				b.Run(name, func(b *testing.B) {
					if n > 128 && (testing.Short() || os.Getenv("RDCN_BENCH_LARGE") != "1") {
						b.Skip("n > 128 takes hours of CPU today; set RDCN_BENCH_LARGE=1")
					}
					c := question64
					c.Nodes, c.Uplinks, c.RefineAll = n, u, all
					c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
					cpu0, ok := processCPU()
					start := time.Now()
					var ds *DesignSpace
					var err error
					for i := 0; i < b.N; i++ {
						if limit > 0 {
							ctx, cancel := context.WithTimeout(context.Background(), limit)
							c.Context = ctx
							ds, err = Recommend(c)
							cancel()
						} else {
							ds, err = Recommend(c)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "wall-s/op")
					if cpu1, ok1 := processCPU(); ok && ok1 {
						b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
					}
					if p, _, found := ds.Recommended(); found {
						b.ReportMetric(p.Theta, "theta")
					}
					if m, ok := ds.Margin(); ok {
						b.ReportMetric(m.Shortfall, "shortfall")
					}
					cannotWin := 0
					for _, d := range ds.Designs {
						if d.Status == CannotWin {
							cannotWin++
						}
					}
					b.ReportMetric(float64(cannotWin), "cannot-win")
					if limit > 0 {
						un, stopped := ds.Unfinished()
						b.ReportMetric(float64(len(un)+len(stopped)), "open")
					}
				})
			}
		}
	}
}

// BenchmarkCertifyDesign splits the design question at n = 128, U = 8
// into its designs and phases: the schedule, the worst-case permutation
// (hop distances and the Hungarian method) and the certified θ (the path
// solver), reported per design as seconds per op. The breakdown in
// docs/perf-history.md came from
//
//	go test ./emulated -run '^$' -bench CertifyDesign -benchtime 1x -cpu 1 -cpuprofile cpu.prof
func BenchmarkCertifyDesign(b *testing.B) {
	c := question64
	c.Nodes, c.Uplinks = 128, 8
	c.Gap = 1e-2
	for _, d := range c.Designs() {
		b.Run(d.Name, func(b *testing.B) {
			var sched, worst, theta time.Duration
			var r *Result
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				s, err := c.schedule(&d)
				if err != nil {
					b.Fatal(err)
				}
				g, err := FromSchedule(s, c.Link)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				w, err := WorstCaseDemand(g)
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if r, err = Throughput(g, w, &Options{Gap: c.Gap}); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				sched, worst, theta = sched+t1.Sub(t0), worst+t2.Sub(t1), theta+t3.Sub(t2)
			}
			per := func(t time.Duration) float64 { return t.Seconds() / float64(b.N) }
			b.ReportMetric(per(sched), "schedule-s/op")
			b.ReportMetric(per(worst), "worstcase-s/op")
			b.ReportMetric(per(theta), "theta-s/op")
			b.ReportMetric(float64(r.Iterations), "iterations")
			b.ReportMetric(r.Lower, "theta")
		})
	}
}
