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
func TestECMPNextHops(t *testing.T) {
	us := rotor.Microsecond
	for _, kind := range []string{"opera", "static"} {
		sc, err := schedules.Build(kind, schedules.Params{Nodes: 16, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		pt := newPathTable(sc, maxECMP)
		n := sc.Nodes
		multi := 0
		for e, b := range pt.bounds {
			end := pt.cycle
			if e+1 < len(pt.bounds) {
				end = pt.bounds[e+1]
			}
			at := b + (end-b)/2
			adj := make([][]int, n)
			for _, c := range sc.CircuitsAt(at) {
				adj[c.Src] = append(adj[c.Src], c.Dst)
			}
			for d := 0; d < n; d++ {
				dist := bfsTo(adj, d)
				for u := 0; u < n; u++ {
					if u == d || dist[u] < 0 {
						continue
					}
					want := map[int]bool{}
					for _, v := range adj[u] {
						if dist[v] == dist[u]-1 {
							want[v] = true
						}
					}
					got := map[int]bool{}
					for f := int32(0); f < 256; f++ {
						got[pt.pick(at, u, d, f)] = true
					}
					if len(got) != len(want) {
						t.Fatalf("%s epoch %d %d→%d: picks %v, shortest-path neighbours %v", kind, e, u, d, got, want)
					}
					for v := range got {
						if !want[v] {
							t.Fatalf("%s epoch %d %d→%d: pick %d is not one hop closer (%v)", kind, e, u, d, v, want)
						}
					}
					if len(want) > 1 {
						multi++
					}
				}
			}
		}
		if multi == 0 {
			t.Errorf("%s: no pair with several shortest-path next hops: test too weak", kind)
		}
	}
}

// bfsTo returns hop distances to d (−1: unreachable) over adj.
func bfsTo(adj [][]int, d int) []int {
	n := len(adj)
	radj := make([][]int, n)
	for u, vs := range adj {
		for _, v := range vs {
			radj[v] = append(radj[v], u)
		}
	}
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[d] = 0
	q := []int{d}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		for _, u := range radj[v] {
			if dist[u] < 0 {
				dist[u] = dist[v] + 1
				q = append(q, u)
			}
		}
	}
	return dist
}

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
