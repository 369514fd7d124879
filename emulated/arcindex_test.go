package emulated

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/demand"
)

// sparseGraph is a ring (so it is strongly connected) plus random arcs of
// random capacities, with out-degrees from 1 to about n/3: arcs are a
// small share of the n² slots, as on the Mars designs.
func sparseGraph(n int, seed uint64) *Graph {
	rng := rand.New(rand.NewPCG(seed, 0))
	m := make([][]float64, n)
	for u := range m {
		m[u] = make([]float64, n)
		m[u][(u+1)%n] = 1
		for v := range m[u] {
			if v != u && rng.Float64() < 0.3*float64(u%3)/2 {
				m[u][v] = 0.25 + rng.Float64()
			}
		}
	}
	g, err := FromCapacity(m)
	if err != nil {
		panic(err)
	}
	return g
}

// The compact arc index against the graph's dense capacities: every arc
// gets exactly one id, u's out-arcs are contiguous in g.Out's order, ids
// increase with u·n+v (so sums over ids round as sums over the dense
// index did), the in-arc lists follow g.In, and expand puts every value
// back at u·n+v.
func TestArcIndex(t *testing.T) {
	for name, g := range map[string]*Graph{
		"K9":         completeGraph(9, 1),
		"deBruijn32": deBruijnGraph(32, 4),
		"sparse24":   sparseGraph(24, 5),
	} {
		t.Run(name, func(t *testing.T) {
			n := g.N
			ix := newArcIndex(g)
			if ix.arcs() != g.Arcs() || len(ix.dense) != g.Arcs() {
				t.Fatalf("%d ids, %d arcs", ix.arcs(), g.Arcs())
			}
			seen := make([]int, n*n)
			for e, a := range ix.dense {
				seen[a]++
				if e > 0 && a <= ix.dense[e-1] {
					t.Fatalf("id %d is arc %d, after id %d's arc %d", e, a, e-1, ix.dense[e-1])
				}
			}
			for a, c := range g.Cap {
				if want := map[bool]int{true: 1, false: 0}[c > 0]; seen[a] != want {
					t.Fatalf("arc %d→%d (capacity %v) has %d ids", a/n, a%n, c, seen[a])
				}
			}
			if ix.out[0] != 0 || int(ix.out[n]) != ix.arcs() {
				t.Fatalf("offsets from %d to %d, %d arcs", ix.out[0], ix.out[n], ix.arcs())
			}
			for u, vs := range g.Out {
				if int(ix.out[u+1]-ix.out[u]) != len(vs) {
					t.Fatalf("node %d: %d out-arc ids, out-degree %d", u, ix.out[u+1]-ix.out[u], len(vs))
				}
				for j, v := range vs {
					e := ix.out[u] + int32(j)
					if ix.head[e] != v || int(ix.dense[e]) != u*n+int(v) {
						t.Fatalf("id %d: head %d, arc %d; want %d→%d", e, ix.head[e], ix.dense[e], u, v)
					}
				}
			}
			for v, us := range g.In {
				in := ix.inArc[ix.in[v]:ix.in[v+1]]
				if len(in) != len(us) {
					t.Fatalf("node %d: %d in-arc ids, in-degree %d", v, len(in), len(us))
				}
				for j, u := range us {
					if int(ix.dense[in[j]]) != int(u)*n+v {
						t.Fatalf("in-arc %d of %d: id %d is arc %d, want %d→%d", j, v, in[j], ix.dense[in[j]], u, v)
					}
				}
			}
			vals := make([]float64, ix.arcs())
			for e := range vals {
				vals[e] = float64(e + 1)
			}
			d := ix.expand(vals, n)
			for a, x := range d {
				if g.Cap[a] > 0 != (x > 0) || (x > 0 && int(ix.dense[int(x)-1]) != a) {
					t.Fatalf("expanded slot %d→%d holds %v", a/n, a%n, x)
				}
			}
		})
	}
}

// The path solver on compact ids: every pool path, decoded through the
// index, is a walk of the graph's arcs from its commodity's source to its
// destination (VLBSlice's family paths too), and the certificates, in the
// dense form Verify reads, verify.
func TestPathSolverCompactPaths(t *testing.T) {
	g := sparseGraph(24, 5)
	if g.Arcs()*4 > g.N*g.N {
		t.Fatalf("%d arcs: not sparse", g.Arcs())
	}
	n := g.N
	for _, tc := range []struct {
		name string
		d    demand.Matrix
		vlb  bool
	}{
		{"uniform", uniformDemand(n), false},
		{"permutation", permutationDemand(n), false},
		{"vlb-slice uniform", uniformDemand(n), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dn, err := prepare(g, tc.d, false)
			if err != nil {
				t.Fatal(err)
			}
			s := newPathSolver(g, dn)
			if tc.vlb {
				s.family, s.workers = newFirstHops(g, &s.ix), 1
			}
			st := s.newSolveState(1e-4)
			s.run(st, 40)
			paths := 0
			for i, src := range s.srcs {
				for k := s.first[i]; k < s.first[i+1]; k++ {
					for _, p := range s.active[k] {
						paths++
						at := src
						for _, e := range s.arcs[s.off[p]:s.off[p+1]] {
							a := int(s.ix.dense[e])
							if a/n != at || g.Cap[a] <= 0 || s.cap[e] != g.Cap[a] {
								t.Fatalf("path %d of %d→%d: arc id %d is %d→%d (capacity %v), walk at %d", p, src, s.dst[k], e, a/n, a%n, g.Cap[a], at)
							}
							at = a % n
						}
						if at != int(s.dst[k]) {
							t.Fatalf("path %d of %d→%d ends at %d", p, src, s.dst[k], at)
						}
					}
				}
			}
			if paths <= len(s.dst) {
				t.Fatalf("%d paths for %d commodities: no detours taken", paths, len(s.dst))
			}
			r := s.certificate(st)
			r.Demand, r.Routing = dn, "any"
			if tc.vlb {
				r.Routing = RoutingVLBSlice
			}
			if len(r.Lengths) != n*n {
				t.Fatalf("%d lengths, want %d", len(r.Lengths), n*n)
			}
			for _, f := range r.Flow {
				if !slices.IsSorted(f.Arcs) {
					t.Fatalf("flow arcs not increasing: %v", f.Arcs)
				}
			}
			if err := Verify(g, dn, r); err != nil {
				t.Fatal(err)
			}
			if !(r.Lower > 0) || r.Gap > 0.5 {
				t.Errorf("interval [%v, %v] after 40 iterations", r.Lower, r.Upper)
			}
		})
	}
}
