package emulated

import (
	"context"
	"math"
	"testing"

	"github.com/rdcn/rdcn/demand"
)

// TestHopBoundIsADualBound checks the hop-structure length function on
// the Mars designs of the question at n = 32, U = 4 (generalised deBruijn
// graphs of degree 8–16, diameter 2) against independent computations:
// its value through Floyd–Warshall (dualBound, Verify's code) equals the
// solver's tree-pass evaluation; it is never below θ* (glpsol's exact
// optimum of the full arc LP where installed, else the solver's certified
// lower bound at gap 1e-3); on mars-8, with d²/n = 2 two-hop paths per
// pair, it is the closed form (1 + m)/3 with m = 2/8 of the demand (up to
// the self-loops' lost capacity) and well below the hop-count bound TUB;
// and a one-iteration Throughput, which ends with it as its upper bound,
// passes Verify.
func TestHopBoundIsADualBound(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	defer func(m int) { hopBoundMinNodes = m }(hopBoundMinNodes)
	hopBoundMinNodes = 0
	for _, d := range c.Designs() {
		if d.Kind != "mars" || d.Degree > 16 {
			continue // d > 16: the bound is above TUB, and glpsol is slow
		}
		t.Run(d.Name, func(t *testing.T) {
			s, err := c.schedule(&d)
			if err != nil {
				t.Fatal(err)
			}
			g, w := worstCase(t, s)
			dn, err := prepare(g, w, false)
			if err != nil {
				t.Fatal(err)
			}
			ps := newPathSolver(g, dn)
			st := ps.newSolveState(1e-2)
			ps.seedHopBound(st, 1)
			ub := st.upper
			if math.IsInf(ub, 1) {
				t.Fatal("no hop bound kept")
			}
			fw, err := dualBound(g, dn, ps.ix.expand(st.lengths, g.N))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(fw-ub) > 1e-9*ub {
				t.Errorf("tree pass %v, Floyd–Warshall %v", ub, fw)
			}
			exact, _ := referenceTheta(t, g, w)
			if ub < exact*(1-1e-9) {
				t.Errorf("hop bound %v below θ* %v", ub, exact)
			}
			tub, err := TUB(g, w, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("hop bound %.4f, TUB %.4f, θ* %.4f", ub, tub, exact)
			if d.Name == "mars-8" {
				m := 2.0 / 8
				if !(ub < tub*0.9) || math.Abs(ub-(1+m)/3) > 0.02 {
					t.Errorf("mars-8: hop bound %v, want ≈ (1+m)/3 = %v and below TUB %v", ub, (1+m)/3, tub)
				}
			}
			r, err := Throughput(g, w, &Options{Gap: 1e-2, MaxPhases: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r.Upper > ub*(1+1e-12) {
				t.Errorf("one iteration's upper bound %v above the hop bound %v", r.Upper, ub)
			}
			if err := Verify(g, r.Demand, r); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestSeededSolveCallsTheLPEarly checks the restricted-LP rule of the
// seeded (large-n) solves on the Mars designs at n = 32, U = 4, seeded as
// from 256 nodes on: at iteration seededLPAfter the solve calls the LP
// whatever its gap (the gap rule would not: the interval is wider than
// lpCallGap gaps there), so its lower bound after seededLPAfter
// iterations is above the same solve's without the early call; the lower
// bound stays below θ* from glpsol's exact arc LP (where installed; else
// the solver's certified upper bound at gap 1e-3), and the certificate
// passes Verify.
func TestSeededSolveCallsTheLPEarly(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	defer func(m, r, a int) { hopBoundMinNodes, restrictedLPWorkRatio, seededLPAfter = m, r, a }(hopBoundMinNodes, restrictedLPWorkRatio, seededLPAfter)
	hopBoundMinNodes = 0
	restrictedLPWorkRatio = 0 // at n = 32 the work rule alone would hold the LP back
	const gap = 1e-4          // so that the gap rule does not call it by iteration 12
	for _, degree := range []int{8, 12, 16} {
		d, g, w := marsWorstCase(t, c, degree)
		run := func(after int) *Result {
			seededLPAfter = after
			r, err := newRoundSolve(g, w, &Options{Gap: gap})
			if err != nil {
				t.Fatal(err)
			}
			r.advance(12)
			calls := r.st.lpCalls
			lo, up := r.interval()
			if after != 12 && !(relGap(lo, up) > lpCallGap*gap) {
				t.Fatalf("%s: gap %v at iteration 12: the gap rule alone would call the LP", d.Name, relGap(lo, up))
			}
			res := r.result()
			res.Iterations = calls // (reused: the LP calls made)
			return res
		}
		early, late := run(12), run(math.MaxInt)
		if early.Iterations == 0 || late.Iterations != 0 {
			t.Errorf("%s: LP calls by iteration 12: %d with the early rule, %d without", d.Name, early.Iterations, late.Iterations)
		}
		if !(early.Lower > late.Lower) {
			t.Errorf("%s: lower bound after 12 iterations %v with the early LP, %v without", d.Name, early.Lower, late.Lower)
		}
		if err := Verify(g, early.Demand, early); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		lo, hi := referenceTheta(t, g, w)
		if early.Lower > hi*(1+1e-9) || early.Upper < lo*(1-1e-9) {
			t.Errorf("%s: [%v, %v] does not hold θ* ∈ [%v, %v]", d.Name, early.Lower, early.Upper, lo, hi)
		}
		t.Logf("%s: after 12 iterations [%.5f, %.5f] with the early LP, lower %.5f without; θ* ∈ [%.5f, %.5f]", d.Name, early.Lower, early.Upper, late.Lower, lo, hi)
	}
}

// referenceTheta is θ* of w in g from glpsol's exact arc LP (lo = hi)
// where installed, else the solver's certified interval at gap 1e-3.
func referenceTheta(t *testing.T, g *Graph, w demand.Matrix) (lo, hi float64) {
	t.Helper()
	if GLPKAvailable() {
		r, err := ThroughputGLPK(context.Background(), g, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Theta, r.Theta
	}
	r, err := Throughput(g, w, &Options{Gap: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	return r.Lower, r.Upper
}

// TestSeededSolveSchedulesAFourthLPCall: a hop-seeded solve whose third
// restricted-LP call lifted its lower bound by a quarter gap schedules a
// fourth at twice the iterations (seededLPMaxCalls; an unseeded solve
// stops at lpMaxCalls = 3). mars-20 at n = 32, U = 4, seeded as from 256
// nodes on, gap 10⁻⁵: calls at iterations 12, 24 and 48 lift the bound,
// and the third schedules a fourth at 96 (with the predictor's conjugate
// gradients to 5·10⁻³ the third call ends a little short of the LP's
// optimum, and the fourth lifts the bound too; at n = 1,024 mars-200's
// did, 0.36961 → 0.3710). Verify accepts the certificate after 100
// iterations.
func TestSeededSolveSchedulesAFourthLPCall(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	defer func(m, r int) { hopBoundMinNodes, restrictedLPWorkRatio = m, r }(hopBoundMinNodes, restrictedLPWorkRatio)
	hopBoundMinNodes = 0
	restrictedLPWorkRatio = 0
	d, g, w := marsWorstCase(t, c, 20)
	r, err := newRoundSolve(g, w, &Options{Gap: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for it := 1; it <= 100 && !r.done(); it++ {
		calls := r.st.lpCalls
		r.advance(1)
		if r.st.lpCalls > calls {
			at = append(at, it)
			if r.st.lpCalls == 3 && r.st.lpNext != 2*it {
				t.Errorf("%s: third call at iteration %d, next at %d, want %d", d.Name, it, r.st.lpNext, 2*it)
			}
		}
	}
	if len(at) < 3 || len(at) > 4 || at[0] != 12 || at[1] != 24 || at[2] != 48 || (len(at) == 4 && at[3] != 96) {
		t.Fatalf("%s: LP calls lifting the bound at %v, want 12, 24, 48 (and 96)", d.Name, at)
	}
	res := r.result()
	if err := Verify(g, res.Demand, res); err != nil {
		t.Fatal(err)
	}
}
