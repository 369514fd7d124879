package fabric

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// TestSummaryMeasured: by hand. Two hosts at 1 Gbps, measured window
// [1 ms, 3 ms): 2 × 250 000 B of capacity = 500 000 B. Flows: one before
// the warm-up (not measured), a done 50 KB flow, an unfinished 200 KB flow
// that delivered 100 KB, an unfinished 2 MB flow that delivered nothing,
// and one after the arrivals' end (not measured). Offered 2 250 000 B,
// load 4.5; delivered 150 000 B, load 0.3, fraction 1/15. The FCT
// percentiles see only the done flow; the unfinished ones are counted in
// their buckets (medium, long) and in "all".
func TestSummaryMeasured(t *testing.T) {
	fl := func(start rotor.Time, bytes, recv int64, done bool) FlowResult {
		return FlowResult{Flow: workload.Flow{Bytes: bytes, Start: start}, Done: done, Received: recv,
			FCT: 10 * rotor.Microsecond, Ideal: 5 * rotor.Microsecond}
	}
	r := &Result{Complete: true, SimTime: 4 * rotor.Millisecond, Hosts: 2, HostLink: rotor.Gbps,
		Measure: Window{From: rotor.Millisecond, To: 3 * rotor.Millisecond},
		Flows: []FlowResult{
			fl(0, 1000, 1000, true),
			fl(rotor.Millisecond, 50_000, 50_000, true),
			fl(2*rotor.Millisecond, 200_000, 100_000, false),
			fl(2*rotor.Millisecond, 2_000_000, 0, false),
			fl(3*rotor.Millisecond, 1000, 0, false),
		}, FlowsStarted: 5, FlowsComplete: 2}
	s, err := r.Summarize(stats.DefaultBuckets(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Measured
	if m.Started != 4-1 || m.Completed != 1 || m.Unfinished != 2 || m.OfferedBytes != 2_250_000 || m.DeliveredBytes != 150_000 {
		t.Errorf("measured %+v", m)
	}
	for _, c := range []struct {
		name      string
		got, want Num
	}{{"from_us", m.FromUs, 1000}, {"to_us", m.ToUs, 3000}, {"offered", m.OfferedLoad, 4.5},
		{"delivered", m.DeliveredLoad, 0.3}, {"fraction", m.DeliveredFraction, 1.0 / 15}} {
		if math.Abs(float64(c.got-c.want)) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.Flows.Started != 5 || s.Flows.Completed != 2 || s.Flows.Unfinished != 3 {
		t.Errorf("flows %+v", s.Flows)
	}
	// Interrupted at 2 ms: the window ends there (capacity 250 000 B).
	r.SimTime, r.Complete = 2*rotor.Millisecond, false
	if s2, _ := r.Summarize(stats.DefaultBuckets(), nil); s2.Measured.ToUs != 2000 || math.Abs(float64(s2.Measured.OfferedLoad)-2_250_000.0/250_000) > 1e-12 {
		t.Errorf("interrupted at 2 ms: window to %v µs, offered load %v; want 2000, 9", s2.Measured.ToUs, s2.Measured.OfferedLoad)
	}
	want := map[string][2]int{"short": {1, 0}, "medium": {0, 1}, "long": {0, 1}, "all": {1, 2}} // completed, unfinished
	for _, b := range s.FCT {
		if w := want[b.Bucket]; b.FCTus.Count != w[0] || b.Unfinished != w[1] {
			t.Errorf("bucket %s: %d completed, %d unfinished; want %v", b.Bucket, b.FCTus.Count, b.Unfinished, w)
		}
	}
}
