package emulated

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/demand"
)

// TestVLBSliceByHand: 0→1 (capacity 10), 1→2 (1), 1→3 (1), 3→2 (10),
// demand 0→2 of 1 (raw). Node 0's only first hop is 1, and 1's shortest
// path to 2 is the arc 1→2, so the family has one path and θ = 1; any
// routing also takes 1→3→2 and reaches θ = 2.
func TestVLBSliceByHand(t *testing.T) {
	c := [][]float64{
		{0, 10, 0, 0},
		{0, 0, 1, 1},
		{0, 0, 0, 0},
		{0, 0, 10, 0},
	}
	g, err := FromCapacity(c)
	if err != nil {
		t.Fatal(err)
	}
	d := demand.New(4)
	d[0][2] = 1
	r, err := VLBSlice(g, d, &Options{Raw: true, Gap: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if !within(r, 1) {
		t.Errorf("vlb-slice θ in [%v, %v], want 1", r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
	any, err := Throughput(g, d, &Options{Raw: true, Gap: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if !within(any, 2) {
		t.Errorf("any θ in [%v, %v], want 2", any.Lower, any.Upper)
	}
}

// TestVLBSliceCompleteGraph: on the complete graph (a self-slot rotor,
// 16 ToRs, U = 4: every arc has capacity U/n = 1/4) the family holds
// every path of one or two hops, which is where any routing's optimum
// lies: 1/2 for a permutation (as VLB), and for uniform demand (U/(n−1)
// per pair) all direct, θ = (1/4)/(4/15) = 15/16.
func TestVLBSliceCompleteGraph(t *testing.T) {
	g := mustGraph(t, rotorSchedule(16, 4, true))
	for name, d := range map[string]demand.Matrix{"permutation": permutationDemand(16), "uniform": uniformDemand(16)} {
		r, err := VLBSlice(g, d, &Options{Gap: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		want := map[string]float64{"permutation": 0.5, "uniform": 15.0 / 16}[name]
		if !within(r, want) {
			t.Errorf("%s: vlb-slice θ in [%v, %v], want %v", name, r.Lower, r.Upper, want)
		}
	}
}

// TestVLBSliceBetweenBounds: on deBruijn graphs the family's θ lies
// between a routing of the family computed by counting (first hop split in
// proportion to the arc capacities, then even over the shortest paths:
// what the router's spraying does on the emulated graph; VLBSliceSpray
// must equal it) and any routing's θ; the certificates verify, and
// tampered ones do not.
func TestVLBSliceBetweenBounds(t *testing.T) {
	for _, c := range []struct{ n, d int }{{16, 2}, {16, 4}, {64, 8}} {
		g := deBruijnGraph(c.n, c.d)
		for name, d := range map[string]demand.Matrix{"permutation": permutationDemand(c.n), "uniform": uniformDemand(c.n)} {
			r, err := VLBSlice(g, d, &Options{Gap: 1e-3})
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(g, r.Demand, r); err != nil {
				t.Errorf("B(%d,%d) %s: %v", c.n, c.d, name, err)
			}
			fixed := sprayTheta(g, r.Demand)
			sp, err := VLBSliceSpray(g, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(sp.Theta-fixed) > 1e-9*fixed {
				t.Errorf("B(%d,%d) %s: VLBSliceSpray θ = %v, the counted spray routing %v", c.n, c.d, name, sp.Theta, fixed)
			}
			if err := Verify(g, sp.Demand, sp); err != nil {
				t.Errorf("B(%d,%d) %s spray: %v", c.n, c.d, name, err)
			}
			bad := *sp
			bad.Lower, bad.Upper = sp.Lower*1.01, sp.Upper*1.01
			if Verify(g, sp.Demand, &bad) == nil {
				t.Errorf("B(%d,%d) %s: a raised spray θ verified", c.n, c.d, name)
			}
			any, err := Throughput(g, d, &Options{Gap: 1e-3})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("B(%d,%d) %s: spray %.4f ≤ vlb-slice [%.4f, %.4f] ≤ any [%.4f, %.4f]", c.n, c.d, name, fixed, r.Lower, r.Upper, any.Lower, any.Upper)
			if fixed > r.Upper*(1+1e-9) {
				t.Errorf("B(%d,%d) %s: the counted spray routing reaches %v above vlb-slice's upper bound %v", c.n, c.d, name, fixed, r.Upper)
			}
			if r.Lower > any.Upper*(1+1e-9) {
				t.Errorf("B(%d,%d) %s: vlb-slice's %v exceeds any routing's upper bound %v", c.n, c.d, name, r.Lower, any.Upper)
			}
			bad = *r
			bad.Upper *= 0.9
			if Verify(g, r.Demand, &bad) == nil {
				t.Errorf("B(%d,%d) %s: a lowered upper bound verified", c.n, c.d, name)
			}
		}
	}
	// A flow on an arc no family path of the source uses: 0→1→2→3 is a
	// path of any routing, but from 1 the shortest path to 3 on this
	// graph is the arc 1→3.
	cp := [][]float64{{0, 1, 0, 0}, {0, 0, 1, 1}, {0, 0, 0, 1}, {1, 0, 0, 0}}
	g, err := FromCapacity(cp)
	if err != nil {
		t.Fatal(err)
	}
	d := demand.New(4)
	d[0][3] = 1
	r, err := VLBSlice(g, d, &Options{Raw: true, Gap: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Fatal(err)
	}
	bad := *r
	bad.Flow = []SourceFlow{{Arcs: []int32{0*4 + 1, 1*4 + 2, 2*4 + 3}, X: []float64{r.Lower, r.Lower, r.Lower}}, {}, {}, {}}
	if Verify(g, r.Demand, &bad) == nil {
		t.Error("a flow over 1→2→3 verified as vlb-slice")
	}
}

// sprayTheta is θ of the fixed routing "first hop in proportion to the
// arc capacities, then even over the shortest hop-count paths", by path
// counting (bfsCount).
func sprayTheta(g *Graph, d demand.Matrix) float64 {
	n := g.N
	load := make([]float64, n*n)
	from := make([][]int, n)
	cntFrom := make([][]float64, n)
	for a := 0; a < n; a++ {
		from[a], cntFrom[a] = bfsCount(n, a, g.Out)
	}
	for s, row := range d {
		out := g.OutCapacity(s)
		for t, x := range row {
			if s == t || x == 0 {
				continue
			}
			for _, w := range g.Out[s] {
				share := x * g.Cap[s*n+int(w)] / out
				load[s*n+int(w)] += share
				if int(w) == t {
					continue
				}
				// share from w to t, even over the shortest paths: arc
				// u→v carries share·σ(w,u)·σ(v,t)/σ(w,t).
				to, cntTo := bfsCount(n, t, g.In)
				for u := 0; u < n; u++ {
					if from[w][u] < 0 {
						continue
					}
					for _, v := range g.Out[u] {
						if to[v] >= 0 && from[w][u]+1+to[v] == from[w][t] {
							load[u*n+int(v)] += share * cntFrom[w][u] * cntTo[v] / cntFrom[w][t]
						}
					}
				}
			}
		}
	}
	theta := math.Inf(1)
	for a, x := range load {
		if x > 0 {
			theta = math.Min(theta, g.Cap[a]/x)
		}
	}
	return theta
}
