package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/workload"
)

// TestECMPNextHops checks the path table against breadth-first distances
// computed independently from rotor's CircuitsAt in the middle of every
// epoch: each next hop a flow can be given is a circuit neighbour one hop
// closer to the destination, and with k = 8 the flows together use every
// such neighbour (an expander slice has several).
// bfsTo returns hop distances to d (−1: unreachable) over adj.
// TestVLBPathsStatic: on a static expander (no circuit ever changes),
// rotor-style vlb cannot deliver to non-neighbours, vlb-paths can: every
// flow of a permutation completes, and the packets take at least two hops
// on average (to a random intermediate and on), more than shortest paths.
func TestVLBPathsStatic(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("static", schedules.Params{Nodes: 16, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: (i + 8) % 16, Bytes: 60_000})
	}
	hops := map[string]float64{}
	for _, mode := range []string{Paths, VLBPaths} {
		cfg := baseConfig(sc, flows)
		cfg.Routing = mode
		cfg.Acks = AcksIdeal
		cfg.SimTime = 2 * rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.FlowsComplete != len(flows) {
			t.Fatalf("%s: %d of %d flows completed", mode, r.FlowsComplete, len(flows))
		}
		hops[mode] = meanHops(r.Hops)
	}
	if hops[VLBPaths] < 2 || hops[VLBPaths] <= hops[Paths] {
		t.Errorf("mean hops: vlb-paths %.2f, paths %.2f; want vlb-paths ≥ 2 and above paths", hops[VLBPaths], hops[Paths])
	}
	t.Logf("mean hops: %v", hops)
}
