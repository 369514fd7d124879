package fabric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestLatencyHist: every quantile is within 1/64 of the exact
// nearest-rank quantile, never below it, and never above the maximum.
func TestLatencyHist(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h latencyHist
	var xs []int64
	for range 100_000 {
		v := int64(rng.ExpFloat64() * 5e6) // ps
		if rng.IntN(10) == 0 {
			v = rng.Int64N(200)
		}
		h.add(v)
		xs = append(xs, v)
	}
	slices.Sort(xs)
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		want := xs[int(q*float64(len(xs)-1))]
		got := h.quantile(q)
		if got < want || float64(got-want) > float64(want)/64+1 {
			t.Errorf("q %g: %d, exact %d", q, got, want)
		}
	}
	if h.quantile(1) != xs[len(xs)-1] {
		t.Errorf("max %d, want %d", h.quantile(1), xs[len(xs)-1])
	}
}

// TestQueueingLatencyIdle: single packets on an idle hybrid fabric, one
// over the circuit that is up and one through the packet switch, wait in
// no queue: queueing latency exactly 0.
func TestQueueingLatencyIdle(t *testing.T) {
	cfg := rdcnConfig(t, 5, 1500, "fixed")
	cfg.Flows = &SliceSource{Flows: []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 1500}, {ID: 1, Src: 1, Dst: 4, Bytes: 1500, Start: 50 * rotor.Microsecond}}}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if q := r.QueueingLatency; q.Packets != 2 || q.Max != 0 {
		t.Errorf("queueing latency %+v, want 2 packets, max 0", q)
	}
	if r.CircuitBytes == 0 || r.PacketSwitchBytes == 0 {
		t.Errorf("circuit %d B, packet switch %d B: want one packet each", r.CircuitBytes, r.PacketSwitchBytes)
	}
}

// TestDemandCircuitUtilization: two line-rate 25 G hosts of ToR 0 send to
// ToR 1 under hybrid routing: during ToR 0→1's days the 100 G circuit
// carries exactly what arrives, 50 G (hybrid routing leaves what waits
// for the packet switch there), so its utilisation on demand days is 0.5;
// the other pairs had no demand. The watched pair's series cover the run.
func TestDemandCircuitUtilization(t *testing.T) {
	cfg := rdcnConfig(t, 5, 100_000_000, "fixed")
	cfg.Transport = LineRate
	cfg.WatchPair = &[2]int{0, 1}
	cfg.SeriesInterval = 10 * rotor.Microsecond
	cfg.SimTime = 3 * rotor.Millisecond
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PairCircuits) != 1 || r.PairCircuits[0].Src != 0 || r.PairCircuits[0].Dst != 1 {
		t.Fatalf("pairs with demand %+v, want 0→1 only", r.PairCircuits)
	}
	if u := r.DemandCircuitUtilization; math.Abs(u-0.5) > 0.01 {
		t.Errorf("utilisation on demand days %.3f, want 0.5", u)
	}
	w := r.Watch
	if w == nil || len(w.Circuit) != len(w.VOQ) || len(w.Days) != 4 {
		t.Fatalf("watch %+v", w)
	}
	var sum float64
	for _, b := range w.Circuit {
		sum += b
	}
	// The day at 0 starts before the flows: its bytes are not a demand day's.
	if int64(sum) != r.CircuitBytes || float64(r.PairCircuits[0].Bytes) >= sum {
		t.Errorf("watched circuit bytes %.0f, pair %d, all circuits %d", sum, r.PairCircuits[0].Bytes, r.CircuitBytes)
	}
}
