package emulated

import "testing"

// TestSeededSolvePrunesDecayingPaths checks seededPruneShare on the Mars
// designs at n = 32, U = 4, seeded as from 256 nodes on (hopBoundMinNodes
// = 0; κ reaches seededPruneKappa within a few iterations there): after
// 40 iterations the solve with pruning has fewer active paths, and fewer
// carrying under 10⁻⁵ of their demand, than the same solve without (where
// such paths exist); every certificate passes Verify, and the intervals
// after 40 iterations and at gap 10⁻³, with and without pruning, hold θ*
// from glpsol's exact arc LP (where installed; else the solver's
// certified interval at gap 10⁻³).
func TestSeededSolvePrunesDecayingPaths(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	defer func(m int, p float64) { hopBoundMinNodes, seededPruneShare = m, p }(hopBoundMinNodes, seededPruneShare)
	hopBoundMinNodes = 0
	const share = 1e-5
	pruning := 0
	for _, degree := range []int{8, 12, 16} {
		d, g, w := marsWorstCase(t, c, degree)
		lo, hi := referenceTheta(t, g, w)
		run := func(prune float64, iters int, gap float64) (*Result, int, int) {
			seededPruneShare = prune
			r, err := newRoundSolve(g, w, &Options{Gap: gap})
			if err != nil {
				t.Fatal(err)
			}
			r.advance(iters)
			active, tiny := 0, 0
			for k, act := range r.s.active {
				active += len(act)
				for _, p := range act {
					if x := r.s.x[p]; x > 0 && x < share*r.s.dem[k] {
						tiny++
					}
				}
			}
			res := r.result()
			if err := Verify(g, res.Demand, res); err != nil {
				t.Fatalf("%s, prune %g: %v", d.Name, prune, err)
			}
			if res.Lower > hi*(1+1e-9) || res.Upper < lo*(1-1e-9) {
				t.Errorf("%s, prune %g: [%v, %v] does not hold θ* ∈ [%v, %v]", d.Name, prune, res.Lower, res.Upper, lo, hi)
			}
			return res, active, tiny
		}
		_, act1, tiny1 := run(share, 40, 1e-6)
		_, act0, tiny0 := run(0, 40, 1e-6)
		if tiny0 > 0 {
			pruning++
			if !(tiny1 < tiny0) || !(act1 < act0) {
				t.Errorf("%s: after 40 iterations %d active paths, %d under %g of their demand with pruning; %d, %d without", d.Name, act1, tiny1, share, act0, tiny0)
			}
		}
		r1, _, _ := run(share, 1000, 1e-3)
		r0, _, _ := run(0, 1000, 1e-3)
		t.Logf("%s: 40 iterations: %d active paths, %d tiny with pruning; %d, %d without; gap 1e-3: [%.5f, %.5f] in %d iterations with, [%.5f, %.5f] in %d without; θ* ∈ [%.5f, %.5f]",
			d.Name, act1, tiny1, act0, tiny0, r1.Lower, r1.Upper, r1.Iterations, r0.Lower, r0.Upper, r0.Iterations, lo, hi)
	}
	if pruning == 0 {
		t.Error("no design had paths to prune")
	}
}
