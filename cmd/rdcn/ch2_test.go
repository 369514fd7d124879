package main

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
)

var ch2 = flag.Bool("ch2", false, "run chapter 2's experiments of the PowerTCP thesis (fabric/testdata/cc) and print the docs/cc.md tables")

// ch2Laws are the laws of the thesis's Figure 2.6 that rdcn has (HOMA is
// not one of them).
var ch2Laws = []struct{ name, law string }{
	{"PowerTCP", "powertcp"},
	{"θ-PowerTCP", "theta-powertcp"},
	{"HPCC", "hpcc"},
	{"DCQCN", "dcqcn"},
	{"TIMELY", "timely"},
}

// TestCh2 runs chapter 2's 10:1 incast and the websearch load sweep of
// the PowerTCP thesis (§2.3) on fabric/testdata/cc/ch2-leafspine.toml, the
// laws at their defaults. It runs only with -ch2 (a few minutes on two
// cores); the tables it prints are in docs/cc.md.
func TestCh2(t *testing.T) {
	if !*ch2 {
		t.Skip("chapter 2's experiments run with -ch2")
	}
	const cfg = "../../fabric/testdata/cc/ch2-leafspine.toml"
	loads := []float64{0.2, 0.4, 0.6, 0.8}
	type job struct {
		law  string
		load float64 // 0: the incast
	}
	var jobs []job
	for _, l := range ch2Laws {
		jobs = append(jobs, job{l.law, 0})
		for _, load := range loads {
			jobs = append(jobs, job{l.law, load})
		}
	}
	results := make(map[job]*fabric.Result, len(jobs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan job)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				sets := []string{"transport.cc=" + j.law}
				if j.load == 0 {
					sets = append(sets, "workload.flows_file=../../fabric/testdata/cc/incast10.flows",
						"workload.sizes=websearch", "workload.load=0.2", "workload.seed=1", "workload.duration=",
						"run.sim_time=4ms", "run.sample_interval=1us",
						// Complete sharing: without PFC, DT (α = 1/8) caps every
						// queue at 444 KB and drops the burst for every law alike.
						"buffer.policy=cs", "buffer.alpha=")
				} else {
					// The load is the ToR uplinks' (4:1 oversubscribed).
					sets = append(sets, fmt.Sprintf("workload.load=%g", j.load/4), "run.warmup=10ms")
				}
				res := runSpec(t, cfg, sets...)
				mu.Lock()
				results[j] = res
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()

	fmt.Println("10:1 incast (busiest switch, complete sharing, whole run):")
	fmt.Println("| law | peak buffer (KB) | 99th-percentile buffer (KB) | drops | receiver goodput 1–4 ms (Gb/s) |")
	fmt.Println("|---|---|---|---|---|")
	for _, l := range ch2Laws {
		r := results[job{l.law, 0}]
		var late int64
		for _, f := range r.Flows {
			if f.Start > 0 {
				late += f.Received
			}
		}
		fmt.Printf("| %s | %.0f | %.0f | %d | %.1f |\n", l.name, float64(r.BufferPeak)/1e3, cdfQuantile(r, 0.99)/1e3,
			r.DroppedPackets, float64(late)*8/3e-3/1e9)
	}
	fmt.Println()
	fmt.Println("Short flows (< 10 KB), FCT 99th / 99.9th percentile (µs) against the ToR-uplink load; (n) flows:")
	fmt.Print("| law |")
	for _, load := range loads {
		fmt.Printf(" %.0f %% |", 100*load)
	}
	fmt.Println()
	fmt.Print("|---|")
	for range loads {
		fmt.Print("---|")
	}
	fmt.Println()
	for _, l := range ch2Laws {
		fmt.Printf("| %s |", l.name)
		for _, load := range loads {
			fct := shortFCTs(results[job{l.law, load}])
			fmt.Printf(" %s / %s (%d) |", fctText(fct, 0.99), fctText(fct, 0.999), len(fct))
		}
		fmt.Println()
	}
}

// shortFCTs are the sorted FCTs in µs of the measured flows under 10 KB;
// an incomplete one counts as infinitely long.
func shortFCTs(r *fabric.Result) []float64 {
	var fct []float64
	for _, f := range r.Flows {
		if f.Bytes >= 10_000 || !r.Measure.Contains(f.Start) {
			continue
		}
		v := math.Inf(1)
		if f.Done {
			v = float64(f.FCT) / float64(rotor.Microsecond)
		}
		fct = append(fct, v)
	}
	slices.Sort(fct)
	return fct
}

// fctText is the q-quantile of fct, or "incomplete" if that flow did not
// finish.
func fctText(fct []float64, q float64) string {
	v := stats.Quantile(fct, q)
	if math.IsInf(v, 1) {
		return "incomplete"
	}
	return fmt.Sprintf("%.1f", v)
}

// cdfQuantile is the q-quantile of the sampled ToR buffer occupancy.
func cdfQuantile(r *fabric.Result, q float64) float64 {
	for _, p := range r.BufferCDF {
		if p.Fraction >= q {
			return p.Value
		}
	}
	return float64(r.BufferPeak)
}
