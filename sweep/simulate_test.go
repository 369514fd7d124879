package sweep

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// TestIncastMetrics checks the incast metrics on flows made by hand:
// three queries, one lossless, one with a retransmission, one unfinished;
// background flows and a query flow outside the window are ignored, except
// in the short background flows' slowdown (those below 100 KB in the
// window).
func TestIncastMetrics(t *testing.T) {
	us := rotor.Microsecond
	flow := func(q int, start rotor.Time, bytes, received, retx int64, fct rotor.Time) fabric.FlowResult {
		return fabric.FlowResult{Flow: workload.Flow{Bytes: bytes, Start: start, Query: q}, Done: fct > 0,
			FCT: fct, Ideal: 10 * us, Received: received, Retransmits: retx}
	}
	r := &fabric.Result{Measure: fabric.Window{From: 0, To: 1000 * us}, Flows: []fabric.FlowResult{
		flow(1, 0, 100, 100, 0, 20*us),
		flow(1, 0, 100, 100, 0, 40*us),
		flow(2, 5*us, 100, 100, 1, 60*us),
		flow(3, 9*us, 100, 50, 0, 0),
		flow(0, 0, 100, 100, 0, 500*us),          // background
		flow(0, 0, 100, 100, 0, 200*us),          // background
		flow(0, 0, 200_000, 200_000, 0, 1000*us), // background, not short
		flow(0, 2000*us, 100, 100, 0, 900*us),    // background, after the window
		flow(4, 2000*us, 100, 50, 0, 0),          // after the window
	}}
	got := map[string]float64{}
	for _, m := range incastMetrics(r) {
		got[m.Name] = m.Value
	}
	want := map[string]float64{
		"incast_fct_p50_us":       40,   // of 20, 40, 60
		"incast_fct_p95_us":       58,   // 40 + 0.9·20 (linear interpolation)
		"incast_slowdown_p99":     5.96, // FCT/ideal: 2, 4, 6 → 4 + 0.98·2
		"incast_unfinished":       1,
		"query_lossless_fraction": 1.0 / 3,
		// the short background flows: slowdowns 50 and 20 → 20 + 0.99·30
		"background_short_slowdown_p99": 49.7,
	}
	for k, w := range want {
		if v, ok := got[k]; !ok || math.Abs(v-w) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, w)
		}
	}
	if m := incastMetrics(&fabric.Result{Flows: []fabric.FlowResult{flow(0, 0, 100, 100, 0, us)}}); m != nil {
		t.Errorf("metrics without queries: %v", m)
	}
}

// TestSimulateSeedKeys: a point reading its flows from a file gets no
// derived workload.seed (the simulator refuses generator keys with a
// flow file).
func TestSimulateSeedKeys(t *testing.T) {
	if k := (Simulate{}).SeedKeys(map[string]string{"workload.flows_file": "f"}); len(k) != 1 || k[0] != "run.seed" {
		t.Errorf("with a flow file: %v", k)
	}
	if k := (Simulate{}).SeedKeys(map[string]string{}); len(k) != 2 {
		t.Errorf("generated flows: %v", k)
	}
}

// TestSimulateMetricsCircuitLatencyPFC checks the summary-derived metrics
// on a Result made by hand, through Summarize: the demand-day circuit
// utilisation, queueing latency tails, and PFC pauses with the paused time
// converted to µs; without PFC or queries their metrics are absent.
func TestSimulateMetricsCircuitLatencyPFC(t *testing.T) {
	us := rotor.Microsecond
	r := &fabric.Result{Complete: true, DemandCircuitUtilization: 0.8,
		QueueingLatency: fabric.LatencyQuantiles{Packets: 10, P99: 12.5, P999: 40},
		PFC:             &fabric.PFCStats{PauseFrames: 7, ResumeFrames: 7, PausedTime: 1500 * us}}
	sum, err := r.Summarize(stats.Buckets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range simulateMetrics(sum) {
		got[m.Name] = m.Value
	}
	want := map[string]float64{"circuit_util_demand": 0.8, "queueing_latency_p99_us": 12.5,
		"queueing_latency_p999_us": 40, "pfc_pauses": 7, "pfc_paused_us": 1500}
	for k, w := range want {
		if v, ok := got[k]; !ok || math.Abs(v-w) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, w)
		}
	}
	if _, ok := got["qct_p50_us"]; ok {
		t.Error("qct_p50_us without queries")
	}
	r.PFC, r.DemandCircuitUtilization = nil, -1 // no circuits
	if sum, err = r.Summarize(stats.Buckets{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range simulateMetrics(sum) {
		switch {
		case m.Name == "pfc_pauses" || m.Name == "pfc_paused_us":
			t.Errorf("%s without PFC", m.Name)
		case m.Name == "circuit_util_demand" && !math.IsNaN(m.Value):
			t.Errorf("circuit_util_demand without circuits = %v, want NaN", m.Value)
		}
	}
}

// TestCensoredFCTCDF: on flows made by hand — four measured, two of them
// unfinished, one completed flow outside the window — the FCT CDF ranks
// the two completed ones over the four measured (0.25, 0.5: the
// unfinished are censored at the run's end, so it never reaches 1), and
// the completion metrics count them.
func TestCensoredFCTCDF(t *testing.T) {
	us := rotor.Microsecond
	flow := func(start, fct rotor.Time) fabric.FlowResult {
		return fabric.FlowResult{Flow: workload.Flow{Bytes: 1000, Start: start}, Done: fct > 0, FCT: fct, Received: 1000}
	}
	r := &fabric.Result{Measure: fabric.Window{From: 10 * us, To: 1000 * us}, Flows: []fabric.FlowResult{
		flow(0, 5*us), // before the window
		flow(10*us, 30*us), flow(20*us, 0), flow(30*us, 10*us), flow(40*us, 0)}}
	tab := fctCDF(r)
	if len(tab.rows) != 2 || tab.rows[0][0] != "10" || tab.rows[0][1] != "0.25" || tab.rows[1][0] != "30" || tab.rows[1][1] != "0.5" {
		t.Errorf("CDF rows %q, want [10 0.25] [30 0.5]", tab.rows)
	}
	s := &fabric.Summary{}
	s.Measured = fabric.Measured{Started: 4, Completed: 2, Unfinished: 2, DeliveredFraction: 0.75}
	got := map[string]float64{}
	for _, m := range simulateMetrics(s) {
		got[m.Name] = m.Value
	}
	for k, w := range map[string]float64{"flows_completed": 2, "flows_unfinished": 2, "delivered_fraction": 0.75} {
		if v, ok := got[k]; !ok || v != w {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, w)
		}
	}
}
