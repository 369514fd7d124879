package sweep

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestIncastMetrics checks the incast metrics on flows made by hand:
// three queries, one lossless, one with a retransmission, one unfinished;
// a background flow and a query flow outside the window are ignored.
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
		flow(0, 0, 100, 100, 0, 500*us), // background
		flow(4, 2000*us, 100, 50, 0, 0), // after the window
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
