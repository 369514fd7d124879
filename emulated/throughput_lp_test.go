package emulated

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writePathLP writes the restricted master LP of lp (paths as columns) in
// CPLEX LP format for glpsol.
func writePathLP(t *testing.T, lp *pathLP, file string) {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	fmt.Fprintln(w, "Maximize\n obj: theta\nSubject To")
	for k := 0; k < lp.k; k++ {
		fmt.Fprintf(w, " d%d:", k)
		for i, c := range lp.com {
			if int(c) == k {
				fmt.Fprintf(w, " + x%d", i)
			}
		}
		fmt.Fprintf(w, " - %s theta = 0\n", strconv.FormatFloat(lp.dem[k], 'g', -1, 64))
	}
	on := make([][]int, lp.m)
	for i := range lp.com {
		for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
			on[e] = append(on[e], i)
		}
	}
	for e, ps := range on {
		if len(ps) == 0 {
			continue
		}
		fmt.Fprintf(w, " c%d:", e)
		for _, i := range ps {
			fmt.Fprintf(w, " + x%d", i)
		}
		fmt.Fprintf(w, " <= %s\n", strconv.FormatFloat(lp.capa[e], 'g', -1, 64))
	}
	fmt.Fprintln(w, "End")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// glpkOptimum solves the LP file with glpsol and returns its objective.
func glpkOptimum(t *testing.T, file string) float64 {
	out, err := exec.Command("glpsol", "--lp", file, "-o", file+".out").CombinedOutput()
	if err != nil {
		t.Fatalf("glpsol: %v: %s", err, out)
	}
	txt, err := os.ReadFile(file + ".out")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(txt), "\n") {
		if strings.HasPrefix(line, "Status:") && !strings.Contains(line, "OPTIMAL") {
			t.Fatalf("glpsol: %s", line)
		}
		if f := strings.Fields(line); len(f) >= 4 && f[0] == "Objective:" {
			v, err := strconv.ParseFloat(f[3], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("glpsol: no objective in %s", txt)
	return 0
}

// The interior-point method on the restricted master LP (the path
// solver's paths after a few iterations, Mars graphs on their worst-case
// permutation) against GLPK's simplex on the same LP: its repaired flows
// never beat the LP optimum and come within 1e-4 of it, its dual bound
// never falls below it; the flow the solver takes from it passes Verify.
func TestPathLPAgreesWithGLPK(t *testing.T) {
	if !GLPKAvailable() {
		t.Skip("glpsol not installed: apt-get install glpk-utils")
	}
	c := question64
	for _, tc := range []struct{ n, u, degree int }{{16, 4, 8}, {32, 4, 12}, {32, 8, 24}} {
		c.Nodes, c.Uplinks = tc.n, tc.u
		t.Run(fmt.Sprintf("n%d-mars-%d", tc.n, tc.degree), func(t *testing.T) {
			_, g, w := marsWorstCase(t, c, tc.degree)
			dn, err := prepare(g, w, false)
			if err != nil {
				t.Fatal(err)
			}
			s := newPathSolver(g, dn)
			_, _, _, upper, _, _ := s.solve(1e-9, 6)
			lp := s.restrictedLP()
			file := filepath.Join(t.TempDir(), "rmp.lp")
			writePathLP(t, lp, file)
			want := glpkOptimum(t, file)
			// The same LP with its arcs renumbered (as hop-seeded solves
			// call it) has the same optimum.
			re := s.restrictedLP()
			re.renumberArcs()
			writePathLP(t, re, file+".re")
			if got := glpkOptimum(t, file+".re"); math.Abs(got-want) > 1e-9*want {
				t.Errorf("renumbered arcs: GLPK's optimum %v, %v before", got, want)
			}

			// The LP alone, solved tightly: the best repaired flow.
			lp.cgMax, lp.cgTol = 2000, 1e-10
			best := 0.0
			lp.solve(40, func(x []float64) bool {
				if lam := lp.repair(x, nil); lam > 0 {
					best = max(best, 1/lam)
				}
				// Weak duality: the iterate's arc prices bound the optimum.
				if db := lp.dualBound(); db < want*(1-1e-9) {
					t.Errorf("dual bound %v below GLPK's optimum %v", db, want)
				}
				return true
			})
			if best > want*(1+1e-9) || best < want*(1-5e-4) {
				t.Errorf("interior point: best repaired θ %v, GLPK's optimum %v", best, want)
			}
			if want > upper*(1+1e-9) {
				t.Errorf("LP optimum %v above the solver's dual bound %v", want, upper)
			}

			// What the solver takes: a certified flow on those paths.
			flows, lam := s.restrictedFlow(math.Inf(1), 1e-9)
			if got := 1 / lam; got > want*(1+1e-9) || got < want*(1-1e-2) {
				t.Errorf("restrictedFlow: θ %v, GLPK's optimum %v", got, want)
			}
			verifyLPFlows(t, s, g, dn, flows, lam)

			// A hop-seeded solve's calls (the predictor's CG to 5·10⁻³, a stop
			// once the CG hits its cap without lifting the bound, gap/1 of
			// the dual bound, the arcs renumbered) still end within the gap
			// of the optimum, and their flows are certified.
			seeded, _ := (&solveState{seeded: true}).lpRule()
			for _, gap := range []float64{1e-2, 1e-3} {
				flows, lam := s.restrictedFlowRule(math.Inf(1), gap, seeded)
				if got := 1 / lam; got > want*(1+1e-9) || got < want*(1-gap) {
					t.Errorf("seeded rule, gap %v: θ %v, GLPK's optimum %v", gap, got, want)
				}
				verifyLPFlows(t, s, g, dn, flows, lam)
			}
			// With the CG capped at 20 iterations every direction is
			// inexact: the cap rule ends the call at the first iteration
			// past lpMinIter that does not lift the bound, sooner than
			// the stall rule (3 iterations without), and what it
			// returns is still a certified flow below the optimum.
			ipm := func(rule lpCallRule) (int, []pathFlow, float64) {
				before := s.lpIPM
				f, l := s.restrictedFlowRule(math.Inf(1), 1e-9, rule)
				return s.lpIPM - before, f, l
			}
			capped, cf, cl := ipm(lpCallRule{share: 1, cgMax: 20, capStop: true})
			uncapped, _, _ := ipm(lpCallRule{share: 1, cgMax: 20})
			if capped >= uncapped || capped < lpMinIter {
				t.Errorf("CG capped at 20: %d interior-point iterations with the cap rule, %d without", capped, uncapped)
			}
			if 1/cl > want*(1+1e-9) {
				t.Errorf("cap rule: θ %v above GLPK's optimum %v", 1/cl, want)
			}
			verifyLPFlows(t, s, g, dn, cf, cl)
			t.Logf("CG capped at 20: %d interior-point iterations with the cap rule (θ %.5f), %d without; optimum %.5f", capped, 1/cl, uncapped, want)
		})
	}
}

// verifyLPFlows checks that the restricted LP's path flows have congestion
// lam and, with unit lengths for the dual, pass Verify.
func verifyLPFlows(t *testing.T, s *pathSolver, g *Graph, dn [][]float64, flows []pathFlow, lam float64) {
	t.Helper()
	r := &Result{Routing: "any", Demand: dn, Flow: make([]SourceFlow, g.N), Lower: 1 / lam, Lengths: make([]float64, g.N*g.N)}
	for a, cp := range g.Cap {
		if cp > 0 {
			r.Lengths[a] = 1
		}
	}
	for a := range s.rec {
		s.rec[a].load = 0
	}
	for _, pf := range flows {
		for _, a := range s.arcs[s.off[pf.p]:s.off[pf.p+1]] {
			s.rec[a].load += pf.x
		}
	}
	if cong := s.congestion(); math.Abs(cong-lam) > 1e-12*lam {
		t.Fatalf("flows have congestion %v, restrictedFlow said %v", cong, lam)
	}
	s.packFlows(r.Flow, flows, lam)
	ub, err := dualBound(g, dn, r.Lengths)
	if err != nil {
		t.Fatal(err)
	}
	r.Upper = outwardUpper(r.Lower, ub)
	if err := Verify(g, dn, r); err != nil {
		t.Fatal(err)
	}
}

// On the Mars graphs the solver iterates longest on, the restricted LP's
// flow ends the solve sooner: fewer iterations than the solver alone, a
// certificate Verify accepts, and an interval that overlaps the solver
// alone's (both contain θ*). At n = 32 the iterations are cheap and the
// work rule keeps the LP off (the same answer as the solver alone); the
// test lifts the rule to exercise it.
func TestRestrictedLPShortensMarsSolves(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	shorter := 0
	defer func(r int) { restrictedLPWorkRatio = r }(restrictedLPWorkRatio)
	for _, degree := range []int{12, 20, 24} {
		d, g, w := marsWorstCase(t, c, degree)
		byRule, err := Throughput(g, w, &Options{Gap: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		restrictedLPWorkRatio = 0
		with, err := Throughput(g, w, &Options{Gap: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		restrictedLPAfter = math.MaxInt
		alone, err := Throughput(g, w, &Options{Gap: 1e-2})
		restrictedLPAfter, restrictedLPWorkRatio = 20, 2000
		if err != nil {
			t.Fatal(err)
		}
		if byRule.Lower != alone.Lower || byRule.Upper != alone.Upper || byRule.Iterations != alone.Iterations {
			t.Errorf("%s: the work rule called the LP at n = 32: [%v, %v] in %d, alone [%v, %v] in %d", d.Name,
				byRule.Lower, byRule.Upper, byRule.Iterations, alone.Lower, alone.Upper, alone.Iterations)
		}
		for _, r := range []*Result{with, alone} {
			if err := Verify(g, r.Demand, r); err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
		}
		t.Logf("%s: with the LP [%v, %v] in %d iterations, alone [%v, %v] in %d", d.Name,
			with.Lower, with.Upper, with.Iterations, alone.Lower, alone.Upper, alone.Iterations)
		if with.Lower > alone.Upper || alone.Lower > with.Upper {
			t.Errorf("%s: disjoint intervals", d.Name)
		}
		if with.Iterations > alone.Iterations {
			t.Errorf("%s: %d iterations with the LP, %d without", d.Name, with.Iterations, alone.Iterations)
		}
		if with.Iterations < alone.Iterations {
			shorter++
		}
	}
	if shorter == 0 {
		t.Error("the restricted LP shortened no solve")
	}
}

// The reduced solve (commodity rows eliminated by Sherman–Morrison, CG on
// the arcs' Schur complement) against the normal equations it stands for:
// with interior-point weights d spread over twelve orders of magnitude,
// as near an optimum, the y it returns satisfies A·D·Aᵀ·y = b, the product
// taken row by row from A (mulAT, the weights, mulA).
func TestSchurSolveMatchesNormalEquations(t *testing.T) {
	lp, rng := spreadWeightsLP(t, 3, func(lp *pathLP) { lp.cgMax, lp.cgTol = 100000, 1e-13 })
	b := make([]float64, lp.k+lp.m)
	for i := range b {
		b[i] = rng.Float64() - 0.5
	}
	y := make([]float64, len(b))
	lp.solveNormal(b, y)
	lp.mulAT(y, lp.tmp)
	for i, di := range lp.d {
		lp.tmp[i] *= di
	}
	got := make([]float64, len(b))
	lp.mulA(lp.tmp, got)
	worst := 0.0
	for i := range b {
		worst = max(worst, math.Abs(got[i]-b[i]))
	}
	if worst > 1e-6 {
		t.Errorf("A·D·Aᵀ·y − b: largest entry %v (%d paths, %d rows, %d CG iterations)", worst, lp.paths(), len(b), lp.cgIterations)
	}
	t.Logf("%d paths, %d rows: residual %v after %d CG iterations", lp.paths(), len(b), worst, lp.cgIterations)
}

// schurMulDot fuses the Schur product's passes over the arcs with the
// conjugate-gradient direction update and the dot product vᵀ·S·v; the
// fusion keeps each element's arithmetic and each sum's order, so it
// must equal, bit for bit, the same steps taken one loop at a time:
// v = z + β·v, out = D_s·v, per commodity the paths' terms
// d_p·(t_p − Σ d_q·t_q/D_c) scattered to their arcs, then γ·(gᵀv)·g, then
// vᵀ·out.
func TestSchurMulDotFusesBitIdentically(t *testing.T) {
	lp, rng := spreadWeightsLP(t, 5, nil)
	m, p := lp.m, lp.paths()
	for _, fused := range []bool{false, true} {
		v, z := make([]float64, m), make([]float64, m)
		for e := range v {
			v[e], z[e] = rng.Float64()-0.5, rng.Float64()-0.5
		}
		beta := rng.Float64()
		want := append([]float64(nil), v...)
		if fused {
			for e := range want {
				want[e] = z[e] + beta*want[e]
			}
		}
		ref := make([]float64, m)
		for e := range ref {
			ref[e] = lp.d[p+1+e] * want[e]
		}
		tp := make([]float64, p)
		for k := 0; k < lp.k; k++ {
			u := 0.0
			for i := lp.cstart[k]; i < lp.cstart[k+1]; i++ {
				for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
					tp[i] += want[e]
				}
				u += lp.d[i] * tp[i]
			}
			u /= lp.dc[k]
			for i := lp.cstart[k]; i < lp.cstart[k+1]; i++ {
				f := lp.d[i] * (tp[i] - u)
				for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
					ref[e] += f
				}
			}
		}
		gv := lp.gamma * dot(lp.g, want)
		for e := range ref {
			ref[e] += gv * lp.g[e]
		}
		wantDot := dot(want, ref)

		out := make([]float64, m)
		var got float64
		if fused {
			got = lp.schurMulDot(v, out, z, beta)
		} else {
			got = lp.schurMulDot(v, out, nil, 0)
		}
		for e := range out {
			if out[e] != ref[e] || v[e] != want[e] {
				t.Fatalf("fused %v, arc %d: S·v %v, loops %v; v %v, loops %v", fused, e, out[e], ref[e], v[e], want[e])
			}
		}
		if got != wantDot {
			t.Errorf("fused %v: vᵀ·S·v %v, loops %v", fused, got, wantDot)
		}
	}
}

// spreadWeightsLP is the restricted LP over mars-12's paths (n = 32, U = 4,
// worst-case permutation) after 8 solver iterations, set up (opt first
// adjusts it) with interior-point weights d spread over twelve orders of
// magnitude, as near an optimum, drawn from seed, and its Schur complement
// prepared; rng continues the draw.
func spreadWeightsLP(t *testing.T, seed uint64, opt func(*pathLP)) (*pathLP, *rand.Rand) {
	t.Helper()
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	_, g, w := marsWorstCase(t, c, 12)
	dn, err := prepare(g, w, false)
	if err != nil {
		t.Fatal(err)
	}
	s := newPathSolver(g, dn)
	s.solve(1e-9, 8)
	lp := s.restrictedLP()
	if opt != nil {
		opt(lp)
	}
	if !lp.setup() {
		t.Fatal("a commodity without a column")
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := range lp.d {
		lp.d[i] = math.Pow(10, 6-12*rng.Float64())
	}
	lp.schur()
	return lp, rng
}
