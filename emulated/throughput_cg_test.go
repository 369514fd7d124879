package emulated

import (
	"testing"
)

// TestColumnGenerationBracketsTheta runs the hop-seeded solve (as from 256
// nodes on) on the Mars designs at n = 32, U = 4 with column generation
// and without (the smoothed solver on to the same iteration): with it the
// certified interval holds θ* from glpsol's exact arc LP (where installed;
// else the solver's interval at gap 1e-3), Verify accepts the certificate
// (the Farley lengths are checked by Floyd–Warshall), and its upper bound
// is below the one without it, within 1 % of θ*.
func TestColumnGenerationBracketsTheta(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	defer func(m, r int, on bool) { hopBoundMinNodes, restrictedLPWorkRatio, columnGeneration = m, r, on }(hopBoundMinNodes, restrictedLPWorkRatio, columnGeneration)
	hopBoundMinNodes = 0
	restrictedLPWorkRatio = 0
	const gap, iters = 1e-3, 30
	for _, degree := range []int{8, 12, 16} {
		d, g, w := marsWorstCase(t, c, degree)
		run := func(on bool) *Result {
			columnGeneration = on
			r, err := newRoundSolve(g, w, &Options{Gap: gap})
			if err != nil {
				t.Fatal(err)
			}
			r.advance(iters)
			return r.result()
		}
		with, without := run(true), run(false)
		lo, hi := referenceTheta(t, g, w)
		t.Logf("%s: with column generation [%.5f, %.5f] (%d iterations), without [%.5f, %.5f]; θ* ∈ [%.5f, %.5f]",
			d.Name, with.Lower, with.Upper, with.Iterations, without.Lower, without.Upper, lo, hi)
		if err := Verify(g, with.Demand, with); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if with.Lower > hi*(1+1e-9) || with.Upper < lo*(1-1e-9) {
			t.Errorf("%s: [%v, %v] does not hold θ* ∈ [%v, %v]", d.Name, with.Lower, with.Upper, lo, hi)
		}
		if !(with.Upper < without.Upper) || with.Upper > hi*1.01 {
			t.Errorf("%s: upper bound %v with column generation, %v without; θ* ≤ %v", d.Name, with.Upper, without.Upper, hi)
		}
	}
}
