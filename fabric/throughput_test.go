package fabric

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// saturatedPermutation runs long line-rate flows host i → host i+n/2 on a
// rotornet schedule and returns the delivered data rate over the second
// half of the run as a fraction of host capacity. The slot holds exactly
// 10 MTU packets of day (12 µs at 10 Gbps) plus a 1.2 µs night, so the
// duty cycle is 12/13.2 with no rounding loss at the night guard.
func saturatedPermutation(t *testing.T, n, first int, routing string, cycles int) (theta float64, r *Result) {
	t.Helper()
	slot, reconf := 13200*rotor.Nanosecond, 1200*rotor.Nanosecond
	sc := cyclicSchedule(t, n, 1, first, slot, reconf)
	var flows []workload.Flow
	for i := 0; i < n; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: (i + n/2) % n, Bytes: 1 << 40})
	}
	cfg := baseConfig(sc, flows)
	cfg.Transport, cfg.Routing = LineRate, routing
	cfg.Buffer = 1 << 30
	cycle := sc.CycleDuration()
	cfg.SimTime = rotor.Time(cycles) * cycle
	cfg.SeriesInterval = cycle
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tail := r.HostSeries[cycles/2 : cycles]
	sum := 0.0
	for _, u := range tail {
		sum += u
	}
	return sum / float64(len(tail)), r
}

// TestSaturatedThroughput compares the delivered throughput of saturated
// permutation traffic with the emulated-graph closed forms of docs/model.md,
// scaled by the duty cycle d = 1 − Δr/Δ = 12/13.2:
//
//   - direct, self-slot rotor (n matchings, one idle): each pair has one
//     day per cycle, single-hop θ = d/n;
//   - direct, true rotor (n−1 matchings): θ = d/(n−1);
//   - vlb and rotorlb, self-slot rotor: θ = d/2, the emulated graph's
//     permutation throughput (any routing). Every circuit is busy all day
//     and carries (n−1)/n·d of host capacity; half of what it carries is
//     relayed traffic's first hop;
//   - vlb, true rotor: θ = d·n/(2(n−1)).
func TestSaturatedThroughput(t *testing.T) {
	d := 12.0 / 13.2
	cases := []struct {
		name    string
		n       int
		first   int
		routing string
		want    float64
		tol     float64 // relative
	}{
		{"direct self-slot n=8", 8, 0, Direct, d / 8, 0.01},
		{"direct true rotor n=8", 8, 1, Direct, d / 7, 0.01},
		{"vlb self-slot n=8", 8, 0, VLB, d / 2, 0.02},
		{"vlb true rotor n=8", 8, 1, VLB, d * 8 / 14, 0.02},
		{"rotorlb self-slot n=8", 8, 0, RotorLB, d / 2, 0.02},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, r := saturatedPermutation(t, c.n, c.first, c.routing, 40)
			if math.Abs(got-c.want) > c.tol*c.want {
				t.Errorf("throughput %.4f of host capacity, want %.4f ± %.0f%%", got, c.want, 100*c.tol)
			}
			if r.DroppedPackets != 0 {
				t.Errorf("%d drops with a 1 GB buffer", r.DroppedPackets)
			}
			t.Logf("θ = %.4f (want %.4f), circuit utilisation %.3f, hops %v", got, c.want, r.CircuitUtilization, r.Hops)
		})
	}
}
