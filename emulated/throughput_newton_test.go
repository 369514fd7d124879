package emulated

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

// The coupled step's Hessian products (each run's basic path summed once)
// and its change of Φ (each touched arc once) equal the definitions
// evaluated arc by arc: H·v = Aᵀ·diag(β·l_e/c_e)·A·v over the incidence
// A_{e,i} = [e ∈ p_i] − [e ∈ b_i], and ΔΦ = Σ_e c_e·(e^{β(F_e+y_e)/c_e−lift}
// − e^{β·F_e/c_e−lift}) with y = A·Δx. The scratch arrays are left clear.
func TestCoupledStepAlgebra(t *testing.T) {
	s0, err := mars.Schedule(mars.Config{Nodes: 24, Uplinks: 4, Degree: 12, Slot: 100 * rotor.Microsecond},
		rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	g, w := worstCase(t, s0)
	dn, err := prepare(g, w, false)
	if err != nil {
		t.Fatal(err)
	}
	s := newPathSolver(g, dn)
	s.solve(1e-6, 12) // a state mid-way: several paths per commodity
	s.newtonVariables()
	nt := &s.nt
	m := len(nt.p)
	if m < 20 || len(nt.runs) < 5 {
		t.Fatalf("only %d variables in %d runs", m, len(nt.runs)-1)
	}
	rng := rand.New(rand.NewPCG(2, 0))
	v := make([]float64, m)
	for i := range v {
		v[i] = rng.Float64()*2 - 1
	}
	// A·v arc by arc.
	incidence := func(i int, sign float64, add func(a int32, x float64)) {
		for _, a := range s.arcs[s.off[nt.p[i]]:s.off[nt.p[i]+1]] {
			add(a, sign)
		}
		for _, a := range s.arcs[s.off[nt.b[i]]:s.off[nt.b[i]+1]] {
			add(a, -sign)
		}
	}
	y := map[int32]float64{}
	for i := range v {
		incidence(i, v[i], func(a int32, x float64) { y[a] += x })
	}
	out := make([]float64, m)
	s.hessVec(v, out)
	for i := range out {
		want := 0.0
		incidence(i, 1, func(a int32, x float64) { want += s.beta * s.rec[a].l / s.rec[a].cap * x * y[a] })
		if math.Abs(out[i]-want) > 1e-9*(math.Abs(want)+1e-9*s.beta) {
			t.Fatalf("(H·v)[%d] = %v, by definition %v", i, out[i], want)
		}
	}
	dx := make([]float64, m)
	for i := range dx {
		dx[i] = 1e-3 * v[i] * s.x[nt.p[i]]
	}
	dPhi, _ := s.stepChange(dx)
	clear(y)
	for i := range dx {
		incidence(i, dx[i], func(a int32, x float64) { y[a] += x })
	}
	want := 0.0
	for a, ya := range y {
		c := s.rec[a].cap
		z := s.beta*s.rec[a].load/c - s.lift
		want += c * (math.Exp(z+s.beta*ya/c) - math.Exp(z))
	}
	if math.Abs(dPhi-want) > 1e-9*math.Abs(want) {
		t.Errorf("ΔΦ = %v, by definition %v", dPhi, want)
	}
	for a := range s.rec {
		if s.rec[a].acc != 0 || s.mark[a] {
			t.Fatalf("scratch of arc %d left %v, %v", a, s.rec[a].acc, s.mark[a])
		}
	}
}
