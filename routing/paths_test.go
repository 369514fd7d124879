package routing

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func TestECMPNextHops(t *testing.T) {
	us := rotor.Microsecond
	for _, kind := range []string{"opera", "static"} {
		sc, err := schedules.Build(kind, schedules.Params{Nodes: 16, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		pt := NewPathTable(sc, MaxECMP)
		n := sc.Nodes
		multi := 0
		for e, b := range pt.Bounds {
			end := pt.Cycle
			if e+1 < len(pt.Bounds) {
				end = pt.Bounds[e+1]
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
						got[pt.Pick(at, u, d, f)] = true
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
