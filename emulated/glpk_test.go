package emulated

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// randomSchedule plays random permutations (some with fixed points, which
// carry nothing) on u switches for period slots.
func randomSchedule(n, u, period int, rng *rand.Rand) *rotor.Schedule {
	m := make([][][]int, u)
	for sw := range m {
		m[sw] = make([][]int, period)
		for t := range m[sw] {
			m[sw][t] = rng.Perm(n)
		}
	}
	return &rotor.Schedule{Kind: "random", Nodes: n, Switches: u, Period: period,
		Slot: 10 * rotor.Microsecond, Reconf: rotor.Microsecond, Matchings: m}
}

func TestAgreesWithGLPK(t *testing.T) {
	if !GLPKAvailable() {
		t.Skip("glpsol not installed: apt-get install glpk-utils")
	}
	rng := rand.New(rand.NewPCG(2024, 0))
	const gap = 5e-3
	cases := []struct{ n, u, period int }{
		{8, 2, 2}, {8, 4, 2}, {12, 2, 3}, {16, 4, 2}, {24, 2, 3}, {32, 2, 2},
	}
	for _, c := range cases {
		s := randomSchedule(c.n, c.u, c.period, rng)
		g := mustGraph(t, s)
		specs := []string{"random", "permutation", "chessboard"}
		if c.n > 16 {
			specs = specs[1:2] // keep CI time low
		}
		for _, spec := range specs {
			var d demand.Matrix
			if spec == "random" {
				d = demand.Random(c.n, rng)
			} else {
				var err error
				if d, err = demand.Parse(spec, c.n); err != nil {
					t.Fatal(err)
				}
			}
			t.Run(fmt.Sprintf("n=%d U=%d Γ=%d %s", c.n, c.u, c.period, spec), func(t *testing.T) {
				exact, err := ThroughputGLPK(context.Background(), g, d, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(g, exact.Demand, exact); err != nil {
					t.Fatalf("GLPK certificate: %v", err)
				}
				if exact.Gap > 1e-6 {
					t.Errorf("GLPK gap %v: duals do not certify its primal", exact.Gap)
				}
				r, err := Throughput(g, d, &Options{Gap: gap})
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(g, r.Demand, r); err != nil {
					t.Fatal(err)
				}
				if !within(r, exact.Lower) && !(exact.Lower == 0 && r.Upper == 0) {
					t.Errorf("GLPK θ = %v outside [%v, %v]", exact.Lower, r.Lower, r.Upper)
				}
				if r.Gap > gap {
					t.Errorf("gap %v", r.Gap)
				}
			})
		}
	}
}
