package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// randomSchedule: n nodes, 2 switches, 3 slots of 10, 12 and 8 µs (1 µs
// night), random permutations (fixed points are idle self-circuits), the
// second switch offset by 4 µs.
// bruteEarliest searches the time-expanded graph on a 1 µs grid (every
// schedule here changes only at whole µs): states (step, node), waiting
// moves to the next step, a circuit up in the middle of the step moves to
// its peer within the step. It returns the earliest arrival time at d from
// u at time from and the fewest hops among paths arriving then (Dijkstra
// on (time, hops)), or ok = false within the horizon.
// followEarliest walks the table from u at time from: take the next hop if
// its circuit is up now, else wait for the next epoch.
// TestEarliestAgainstBruteForce: from every epoch start, node and
// destination, following the table arrives exactly when the brute-force
// temporal search says the earliest arrival is, with its fewest hops.
// TestEarliestSingleFlow: on TestSingleFlowDirect's rotor, slot 0 (day
// [0, 9) µs) is the shift by 1, so a packet 0→3 at t = 0 reaches 3 in
// slot 0 over 0→1→2→3 instead of waiting for the direct circuit (slot 2):
// host link [0, 1.2), ToR 0 at 1.3, circuits [1.3, 2.5), [2.6, 3.8),
// [3.9, 5.1), ToR 3 at 5.2, host port [5.2, 6.4), host at 6.5 µs. Starting
// at 8 µs it reaches ToR 0 at 9.3 µs, in the night. Slot 1 (shift 2) only
// connects 0↔2 and 1↔3, so 3 is unreachable then; the earliest arrival is
// the direct circuit of slot 2, day [20, 29): host at 22.6 µs, as direct.
func TestEarliestSingleFlow(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cases := []struct {
		start rotor.Time
		want  rotor.Time
		hops  int
	}{
		{0, 6*us + 500*ns, 3},
		{8 * us, 14*us + 600*ns, 1},
	}
	for _, c := range cases {
		cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), []workload.Flow{{Src: 0, Dst: 3, Bytes: 1500, Start: c.start}})
		cfg.Routing, cfg.Transport = Earliest, LineRate
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if f := r.Flows[0]; !f.Done || f.FCT != c.want || f.MaxHops != c.hops {
			t.Errorf("start %v: done=%v FCT %v in %d hops, want %v in %d", c.start, f.Done, f.FCT, f.MaxHops, c.want, c.hops)
		}
	}
}
