package emulated

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRecommend is the design question of issue 28 (rdcn tradeoff
// --tors N --uplinks U --link 400Gbps --buffer 10MB --delay 1ms) with the
// CLI's gap 1e-2, on GOMAXPROCS goroutines; it reports CPU and wall time
// per answer. n = 512 and 1,024 are skipped with -short. Run one with
//
//	go test ./emulated -run '^$' -bench 'Recommend/n128-U8$' -benchtime 1x
func BenchmarkRecommend(b *testing.B) {
	for _, n := range []int{128, 512, 1024} {
		for _, u := range []int{8, 16} {
			b.Run(fmt.Sprintf("n%d-U%d", n, u), func(b *testing.B) {
				if n > 128 && testing.Short() {
					b.Skip("n > 128 takes hours of CPU today")
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
