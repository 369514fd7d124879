package emulated

import "testing"

// Nodes u and u + n/gcd(n, d) of a Mars graph B(n, d) share their whole
// out-neighbourhood. Merging each such class's out-arcs (u → C(u) with u's
// out-capacity, C → v with the class's summed capacity) is a relaxation:
// every flow of the graph is one of the contracted graph. It is not exact:
// flow that reaches twin u must still leave on u's own arcs, and the
// contracted graph's certified θ lies above the graph's (docs/perf-history.md,
// issue 28), so it cannot replace the solve.
func TestTwinContractionIsLoose(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	for _, degree := range []int{20, 24} {
		d, g, w := marsWorstCase(t, c, degree)
		r, err := Throughput(g, w, &Options{Gap: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		n := g.N
		classes := n / gcdInt(n, degree)
		contracted := make([][]float64, n+classes)
		for i := range contracted {
			contracted[i] = make([]float64, n+classes)
		}
		for u := 0; u < n; u++ {
			cls := n + u%classes
			contracted[u][cls] = g.OutCapacity(u)
			for _, v := range g.Out[u] {
				contracted[cls][v] += g.Cap[u*n+int(v)]
				// twins: every member of the class reaches v (or is v)
				for tw := u % classes; tw < n; tw += classes {
					if tw != int(v) && g.Cap[tw*n+int(v)] != g.Cap[u*n+int(v)] {
						t.Fatalf("%s: %d and %d are not twins at %d", d.Name, u, tw, v)
					}
				}
			}
		}
		h, err := FromCapacity(contracted)
		if err != nil {
			t.Fatal(err)
		}
		dh := make([][]float64, n+classes)
		for i := range dh {
			dh[i] = make([]float64, n+classes)
			if i < n {
				copy(dh[i], r.Demand[i])
			}
		}
		rh, err := Throughput(h, dh, &Options{Gap: 1e-2, Raw: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(h, rh.Demand, rh); err != nil {
			t.Fatal(err)
		}
		if rh.Lower <= r.Upper {
			t.Errorf("%s: contracted θ ≥ %v does not exceed the graph's θ ≤ %v", d.Name, rh.Lower, r.Upper)
		}
		t.Logf("%s (%d classes): graph θ ∈ [%.4f, %.4f], contracted θ ∈ [%.4f, %.4f]", d.Name, classes, r.Lower, r.Upper, rh.Lower, rh.Upper)
	}
}

func gcdInt(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
