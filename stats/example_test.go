package stats_test

import (
	"fmt"
	"os"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
)

func ExampleQuantile() {
	sorted := []float64{1, 2, 3, 4}
	fmt.Println(stats.Quantile(sorted, 0), stats.Quantile(sorted, 0.5), stats.Quantile(sorted, 0.9), stats.Quantile(sorted, 1))
	// Output: 1 2.5 3.7 4
}

func ExampleSummarizeFlows() {
	us := rotor.Microsecond
	records := []stats.FlowRecord{
		{Bytes: 10_000, FCT: 12 * us, Ideal: 4 * us},
		{Bytes: 50_000, FCT: 30 * us, Ideal: 15 * us},
		{Bytes: 500_000, FCT: 200 * us, Ideal: 100 * us},
		{Bytes: 5_000_000, FCT: 1500 * us, Ideal: 1000 * us},
	}
	rows, err := stats.SummarizeFlows(records, stats.DefaultBuckets())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%-6s n=%d fct_p50=%gus slowdown_mean=%g\n", r.Name, r.Count, r.FCT.P50, r.Slowdown.Mean)
	}
	// Output:
	// short  n=2 fct_p50=21us slowdown_mean=2.5
	// medium n=1 fct_p50=200us slowdown_mean=2
	// long   n=1 fct_p50=1500us slowdown_mean=1.5
	// all    n=4 fct_p50=115us slowdown_mean=2.125
}

func ExampleTimeSeries() {
	// Bytes leaving a 100 Gb/s port, in 1 µs bins.
	ts, err := stats.NewTimeSeries(0, rotor.Microsecond, 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ { // three 1500 B packets in the first µs
		ts.Add(rotor.Time(i)*100*rotor.Nanosecond, 1500)
	}
	ts.Add(1500*rotor.Nanosecond, 12500) // a full µs worth in the second bin
	fmt.Println(ts.Bins(), ts.Utilization(100*rotor.Gbps))
	if err := stats.WriteTimeSeriesCSV(os.Stdout, []string{"bytes"}, []*stats.TimeSeries{ts}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [4500 12500] [0.36 1]
	// time_us,bytes
	// 0,4500
	// 1,12500
}

func ExampleTimeWeighted() {
	// A queue holds 0 B for 6 µs, 3000 B for 3 µs and 9000 B for 1 µs.
	// Quantiles are accurate to one bin (1000 B): the true median is 0.
	h, _ := stats.NewHistogram(0, 10_000, 10)
	occ := stats.TimeWeighted{H: h}
	us := rotor.Microsecond
	occ.Set(0, 0)
	occ.Set(6*us, 3000)
	occ.Set(9*us, 9000)
	occ.Close(10 * us)
	fmt.Println(h.Mean(), h.Quantile(0.5), h.Quantile(0.95))
	for _, p := range h.CDF()[:4] {
		fmt.Println(p.Value, p.Fraction)
	}
	// Output:
	// 1800 833.3333333333334 9000
	// 1000 0.6
	// 2000 0.6
	// 3000 0.6
	// 4000 0.9
}
