package app

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

// TestCh2 runs chapter 2's websearch load sweep of the PowerTCP thesis
// (§2.3) on fabric/testdata/cc/ch2-leafspine.toml, the laws at their
// defaults. It runs only with -ch2 (a few minutes on two cores); the
// table it prints is in docs/cc.md. TestCh2Incast runs the 10:1 incast.
func TestCh2(t *testing.T) {
	if !*ch2 {
		t.Skip("chapter 2's experiments run with -ch2")
	}
	loads := []float64{0.2, 0.4, 0.6, 0.8}
	type job struct {
		law  string
		load float64
	}
	var jobs []job
	for _, l := range ch2Laws {
		for _, load := range loads {
			jobs = append(jobs, job{l.law, load})
		}
	}
	results := runJobs(t, jobs, func(j job) []string {
		// The load is the ToR uplinks' (4:1 oversubscribed).
		return []string{"transport.cc=" + j.law, fmt.Sprintf("workload.load=%g", j.load/4), "run.warmup=10ms"}
	})
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

// ch2Incasts are the settings of the 10:1 incast, from rdcn's first
// reading to the authors' artefact, one difference at a time.
var ch2Incasts = []struct {
	name string
	sets []string
	// intParams, if set, are the INT laws' transport.cc_params, and the
	// setting runs only them.
	intParams string
}{
	{"senders on two other leaves, complete sharing, no PFC", []string{
		"workload.flows_file=../../../fabric/testdata/cc/incast10.flows",
		// Complete sharing: without PFC, DT (α = 1/8) caps every queue at
		// 444 KB and drops the burst for every law alike.
		"buffer.policy=cs", "buffer.alpha="}, ""},
	{"senders on the receiver's leaf (the artefact's flows), complete sharing, no PFC", []string{
		"workload.flows_file=../../../fabric/testdata/cc/incast10-rack.flows", "buffer.policy=cs", "buffer.alpha="}, ""},
	// The artefact's switches also run PFC; rdcn's headroom rule refuses it
	// here (156 KB per ingress queue for the 6 µs leaf–spine links × 34
	// ports is more than half the 4 MB buffer).
	{"senders on the receiver's leaf, DT α = 1/8 (the artefact's buffer policy), no PFC", []string{
		"workload.flows_file=../../../fabric/testdata/cc/incast10-rack.flows"}, ""},
	{"senders on the receiver's leaf, complete sharing, no PFC, smoothing from 1 (the artefact's RDMA code)", []string{
		"workload.flows_file=../../../fabric/testdata/cc/incast10-rack.flows", "buffer.policy=cs", "buffer.alpha="}, "smooth_start=one"},
}

// intLaw reports whether law reads INT records (the laws smooth_start
// belongs to).
func intLaw(law string) bool { return law == "powertcp" || law == "hpcc" }

// TestCh2Incast runs chapter 2's 10:1 incast (the PowerTCP thesis, §2.3,
// Figure 2.4) on fabric/testdata/cc/ch2-leafspine.toml in the settings of
// ch2Incasts, the laws at their defaults; with -ch2 (about a minute).
func TestCh2Incast(t *testing.T) {
	if !*ch2 {
		t.Skip("chapter 2's experiments run with -ch2")
	}
	type job struct {
		law     string
		setting int
	}
	var jobs []job
	for i, s := range ch2Incasts {
		for _, l := range ch2Laws {
			if s.intParams == "" || intLaw(l.law) {
				jobs = append(jobs, job{l.law, i})
			}
		}
	}
	results := runJobs(t, jobs, func(j job) []string {
		s := ch2Incasts[j.setting]
		sets := append([]string{"transport.cc=" + j.law, "workload.sizes=websearch", "workload.load=0.2", "workload.seed=1",
			"workload.duration=", "run.sim_time=4ms", "run.sample_interval=1us"}, s.sets...)
		if s.intParams != "" {
			sets = append(sets, "transport.cc_params="+s.intParams)
		}
		return sets
	})
	for i, s := range ch2Incasts {
		fmt.Printf("10:1 incast, %s (busiest switch, whole run):\n", s.name)
		fmt.Println("| law | peak buffer (KB) | 99th-percentile buffer (KB) | drops | pause frames | goodput of the ten 1–4 ms (Gb/s) |")
		fmt.Println("|---|---|---|---|---|---|")
		for _, l := range ch2Laws {
			r, ok := results[job{l.law, i}]
			if !ok {
				continue
			}
			var late int64
			for _, f := range r.Flows {
				if f.Start > 0 {
					late += f.Received
				}
			}
			var pauses int64
			if r.PFC != nil {
				pauses = r.PFC.PauseFrames
			}
			fmt.Printf("| %s | %.0f | %.0f | %d | %d | %.1f |\n", l.name, float64(r.BufferPeak)/1e3, cdfQuantile(r, 0.99)/1e3,
				r.DroppedPackets, pauses, float64(late)*8/3e-3/1e9)
		}
		fmt.Println()
	}
}

// runJobs runs ch2-leafspine.toml once per job, with the overrides sets
// gives, two at a time; it stops the test if a run fails.
func runJobs[J comparable](t *testing.T, jobs []J, sets func(J) []string) map[J]*fabric.Result {
	const cfg = "../../../fabric/testdata/cc/ch2-leafspine.toml"
	results := make(map[J]*fabric.Result, len(jobs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan J)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				res, err := specResult(cfg, sets(j)...)
				if err != nil {
					t.Errorf("%v: %v", j, err)
					continue
				}
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
	if t.Failed() {
		t.FailNow()
	}
	return results
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
