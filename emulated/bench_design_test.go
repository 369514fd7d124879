package emulated

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkRecommend is the design question of issue 28 (rdcn tradeoff
// --tors N --uplinks U --link 400Gbps --buffer 10MB --delay 1ms) with the
// CLI's gap 1e-2, on GOMAXPROCS goroutines; it reports CPU and wall time
// per answer. n = 512 and 1,024 run only with RDCN_BENCH_LARGE=1 (hours
// of CPU today, docs/perf-history.md). Run one with
//
//	go test ./emulated -run '^$' -bench 'Recommend/n128-U8$' -benchtime 1x
//	RDCN_BENCH_LARGE=1 go test ./emulated -run '^$' -bench 'Recommend/n512-U16$' -benchtime 1x -timeout 0
func BenchmarkRecommend(b *testing.B) {
	for _, n := range []int{128, 512, 1024} {
		for _, u := range []int{8, 16} {
			b.Run(fmt.Sprintf("n%d-U%d", n, u), func(b *testing.B) {
				if n > 128 && (testing.Short() || os.Getenv("RDCN_BENCH_LARGE") != "1") {
					b.Skip("n > 128 takes hours of CPU today; set RDCN_BENCH_LARGE=1")
				}
				c := question64
				c.Nodes, c.Uplinks = n, u
				cpu0, ok := processCPU()
				start := time.Now()
				var ds *DesignSpace
				var err error
				for i := 0; i < b.N; i++ {
					if ds, err = Recommend(c); err != nil {
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
			})
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
