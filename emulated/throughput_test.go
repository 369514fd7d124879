package emulated

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func mustGraph(t testing.TB, s *rotor.Schedule) *Graph {
	t.Helper()
	g, err := FromSchedule(s, 400*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// marsWorstCase is the emulated graph of c's Mars design of the given
// degree and its worst-case permutation, as the design question
// certifies it.
func marsWorstCase(t testing.TB, c DesignConfig, degree int) (Design, *Graph, demand.Matrix) {
	t.Helper()
	d := Design{Name: fmt.Sprintf("mars-%d", degree), Kind: "mars", Degree: degree}
	sched, err := c.schedule(&d)
	if err != nil {
		t.Fatal(err)
	}
	g, w := worstCase(t, sched)
	return d, g, w
}

// worstCase is s's emulated graph and its worst-case permutation.
func worstCase(t testing.TB, s *rotor.Schedule) (*Graph, demand.Matrix) {
	t.Helper()
	g := mustGraph(t, s)
	w, err := WorstCaseDemand(g)
	if err != nil {
		t.Fatal(err)
	}
	return g, w
}

// within reports whether want lies in the certified interval [Lower, Upper]
// (with a little floating-point slack).
func within(r *Result, want float64) bool {
	return r.Lower <= want*(1+1e-9) && want <= r.Upper*(1+1e-9)
}

// Closed forms of docs/model.md (c = 1, Δr = 0).
func TestThroughputGolden(t *testing.T) {
	cases := []struct {
		name string
		n, u int
		self bool
		d    func(int) demand.Matrix
		want float64
	}{
		{"rotornet self-slot permutation n=8", 8, 4, true, permutationDemand, 0.5},
		{"rotornet self-slot permutation n=16", 16, 4, true, permutationDemand, 0.5},
		{"rotornet self-slot uniform n=8", 8, 4, true, uniformDemand, 7.0 / 8},
		{"rotornet self-slot uniform n=16", 16, 4, true, uniformDemand, 15.0 / 16},
		{"true rotor permutation n=8 U=1", 8, 1, false, permutationDemand, 8.0 / 14},
		{"true rotor permutation n=8 U=7", 8, 7, false, permutationDemand, 8.0 / 14},
		{"true rotor permutation n=16 U=5", 16, 5, false, permutationDemand, 16.0 / 30},
		// Same-colour chessboard: n/2-node groups; direct arcs inside a
		// group plus two-hop detours through the other group give
		// θ = 3/4 − 1/n (0.625 for n = 8).
		{"rotornet self-slot chessboard n=8", 8, 4, true, chessboardDemand, 0.625},
		{"rotornet self-slot chessboard n=16", 16, 4, true, chessboardDemand, 0.75 - 1.0/16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := mustGraph(t, rotorSchedule(c.n, c.u, c.self))
			r, err := Throughput(g, c.d(c.n), nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Gap > DefaultGap {
				t.Errorf("gap %v > %v after %d phases", r.Gap, DefaultGap, r.Iterations)
			}
			if !within(r, c.want) {
				t.Errorf("θ = %v not in [%v, %v]", c.want, r.Lower, r.Upper)
			}
			if err := Verify(g, r.Demand, r); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSingleHopGolden(t *testing.T) {
	for _, n := range []int{8, 16, 32} {
		g := mustGraph(t, rotorSchedule(n, 4, true))
		r, err := SingleHop(g, permutationDemand(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Theta-1/float64(n)) > 1e-12 {
			t.Errorf("n=%d: single-hop θ = %v, want 1/n = %v", n, r.Theta, 1/float64(n))
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Error(err)
		}
	}
}

// On a directed ring 0→1→2→0 the pair 0→2 has no arc, so direct θ = 0;
// Verify accepts that certificate and rejects θ = 0 where every demanded
// pair has an arc.
func TestSingleHopZeroVerifies(t *testing.T) {
	capm := make([]float64, 9)
	capm[0*3+1], capm[1*3+2], capm[2*3+0] = 1, 1, 1
	g := newGraph(3, capm)
	g.NodeCapacity = 1
	d := demand.Matrix{{0, 0, 1}, {0, 0, 0}, {0, 0, 0}}
	r, err := SingleHop(g, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Theta != 0 {
		t.Fatalf("θ = %v, want 0", r.Theta)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Errorf("θ = 0 with no arc 0→2: %v", err)
	}
	served := demand.Matrix{{0, 1, 0}, {0, 0, 0}, {0, 0, 0}}
	fake := &Result{Routing: "direct", Demand: served, Flow: make([]SourceFlow, 3)}
	if err := Verify(g, served, fake); err == nil {
		t.Error("θ = 0 accepted although the demanded pair 0→1 has an arc")
	}
}

func TestVLBCompleteGraph(t *testing.T) {
	// On K_n every leg is one hop. Each arc s→t carries the first legs
	// Σ_d D_sd/n plus the second legs Σ_s' D_s't/n: with a hose-saturated
	// permutation (row and column sums U) that is 2U/n per arc, against a
	// capacity of U/n (self-slot rotor): θ = 1/2 for any permutation.
	for _, n := range []int{8, 16} {
		g := mustGraph(t, rotorSchedule(n, 4, true))
		r, err := VLB(g, permutationDemand(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Theta-0.5) > 1e-12 {
			t.Errorf("n=%d: VLB θ = %v, want 1/2", n, r.Theta)
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Error(err)
		}
	}
}

func TestVLBDeBruijnMatchesPairwise(t *testing.T) {
	g := deBruijnGraph(16, 2)
	d := permutationDemand(16)
	r, err := VLB(g, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
	// VLB never beats the best routing.
	best, err := Throughput(g, d, &Options{Gap: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Theta > best.Upper*(1+1e-9) {
		t.Errorf("VLB θ %v exceeds the optimum's upper bound %v", r.Theta, best.Upper)
	}
}

func TestFromSchedule(t *testing.T) {
	// Two switches, three nodes, period 2, slots of 100 and 300 µs,
	// reconfiguration 20 µs: cycle 400 µs, days 80/400 and 280/400.
	s := &rotor.Schedule{Nodes: 3, Switches: 2, Period: 2, Slot: 100 * rotor.Microsecond,
		Reconf:        20 * rotor.Microsecond,
		SlotDurations: []rotor.Time{100 * rotor.Microsecond, 300 * rotor.Microsecond},
		Matchings: [][][]int{
			{{1, 2, 0}, {0, 1, 2}},          // shift 1, then the identity (carries nothing)
			{{1, rotor.Idle, 0}, {2, 0, 1}}, // partial matching, then shift 2
		},
	}
	g, err := FromSchedule(s, 100*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{0, 0.2 + 0.2, 0.7},
		{0.7, 0, 0.2},
		{0.2 + 0.2, 0.7, 0},
	}
	if diff := cmp.Diff(want, g.Matrix(), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("capacities (-want +got):\n%s", diff)
	}
	// Switch offsets shift time, not capacity.
	s.SwitchOffsets = []rotor.Time{0, 50 * rotor.Microsecond}
	g2, err := FromSchedule(s, 100*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g.Cap, g2.Cap); diff != "" {
		t.Errorf("offsets changed capacities:\n%s", diff)
	}
	if g.NodeCapacity != 2 || g.Period != 2 || g.Cycle != 400*rotor.Microsecond {
		t.Errorf("node capacity %v period %d cycle %v", g.NodeCapacity, g.Period, g.Cycle)
	}
}

func TestDutyCycleScalesThroughput(t *testing.T) {
	// Δr/Δ = 1/10 removes a tenth of every capacity: θ scales by 0.9.
	s := rotorSchedule(8, 4, true)
	s.Reconf = s.Slot / 10
	g := mustGraph(t, s)
	r, err := Throughput(g, permutationDemand(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !within(r, 0.45) {
		t.Errorf("θ = 0.45 not in [%v, %v]", r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
}

func TestThroughputDisconnected(t *testing.T) {
	c := [][]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}
	g, err := FromCapacity(c)
	if err != nil {
		t.Fatal(err)
	}
	d := demand.New(3)
	d[0][1], d[0][2] = 1, 1
	r, err := Throughput(g, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lower != 0 || r.Upper != 0 {
		t.Errorf("disconnected demand: [%v, %v], want 0", r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
}

func TestThroughputBadInput(t *testing.T) {
	g := completeGraph(3, 1)
	cases := []struct {
		name string
		d    demand.Matrix
		opt  *Options
	}{
		{"not square", demand.Matrix{{0, 1, 1}, {1, 0}, {1, 1, 0}}, nil},
		{"wrong size", demand.New(2), nil},
		{"negative", demand.Matrix{{0, -1, 1}, {1, 0, 1}, {1, 1, 0}}, nil},
		{"NaN", demand.Matrix{{0, math.NaN(), 1}, {1, 0, 1}, {1, 1, 0}}, nil},
		{"all zero", demand.New(3), nil},
		{"gap", uniformDemand(3), &Options{Gap: 2}},
	}
	for _, c := range cases {
		if _, err := Throughput(g, c.d, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestVerifyRejectsTamperedCertificates(t *testing.T) {
	g := mustGraph(t, rotorSchedule(8, 4, true))
	r, err := Throughput(g, permutationDemand(8), &Options{Gap: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	tamper := []struct {
		name string
		f    func(r *Result)
	}{
		{"lower raised", func(r *Result) { r.Lower *= 1.01 }},
		{"upper lowered", func(r *Result) { r.Upper *= 0.99 }},
		{"flow over capacity", func(r *Result) {
			for s := range r.Flow {
				for i := range r.Flow[s].X {
					r.Flow[s].X[i] *= 1.5
				}
			}
			r.Lower *= 1.5
			r.Upper *= 1.5
		}},
		{"length changed", func(r *Result) { r.Lengths[1] *= 3 }},
	}
	for _, c := range tamper {
		cp := *r
		cp.Flow = make([]SourceFlow, len(r.Flow))
		for i, f := range r.Flow {
			cp.Flow[i] = SourceFlow{Arcs: append([]int32(nil), f.Arcs...), X: append([]float64(nil), f.X...)}
		}
		cp.Lengths = append([]float64(nil), r.Lengths...)
		c.f(&cp)
		if err := Verify(g, cp.Demand, &cp); err == nil {
			t.Errorf("%s: Verify accepted it", c.name)
		}
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Errorf("untampered: %v", err)
	}
}

// Tighter than the default gap, against closed forms: the certified
// interval must shrink around the exact value.
func TestThroughputTightGap(t *testing.T) {
	cases := []struct {
		name string
		g    *Graph
		gap  float64
		want float64
	}{
		{"rotornet self-slot n=32", mustGraph(t, rotorSchedule(32, 4, true)), 1e-7, 0.5},
		{"true rotor n=16 U=5", mustGraph(t, rotorSchedule(16, 5, false)), 1e-7, 16.0 / 30},
		// K_n, capacity 1, hose-normalised permutation: direct arc plus
		// two-hop detours fill every arc, θ = n/(2(n−1)).
		{"K64", completeGraph(64, 1), 1e-4, 64.0 / 126},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Throughput(c.g, permutationDemand(c.g.N), &Options{Gap: c.gap})
			if err != nil {
				t.Fatal(err)
			}
			if r.Gap > c.gap {
				t.Errorf("gap %v > %v after %d iterations", r.Gap, c.gap, r.Iterations)
			}
			if !within(r, c.want) {
				t.Errorf("θ = %v not in [%v, %v]", c.want, r.Lower, r.Upper)
			}
			if err := Verify(c.g, r.Demand, r); err != nil {
				t.Error(err)
			}
		})
	}
}

// An iteration limit stops the solver early with a valid, wider certificate.
func TestThroughputMaxPhases(t *testing.T) {
	g := deBruijnGraph(32, 2)
	r, err := Throughput(g, uniformDemand(32), &Options{Gap: 1e-6, MaxPhases: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Iterations != 3 || !(r.Gap > 1e-6) || !(r.Lower > 0) {
		t.Errorf("iterations %d, certificate [%v, %v]", r.Iterations, r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
}

// A gap below what floating point allows ends by the stall rule, not by
// the iteration limit, with a valid certificate close to the exact value.
func TestThroughputUnreachableGap(t *testing.T) {
	g := mustGraph(t, rotorSchedule(16, 5, false))
	r, err := Throughput(g, permutationDemand(16), &Options{Gap: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	if r.Iterations >= 1_000_000 || r.Gap > 1e-6 || !within(r, 16.0/30) {
		t.Errorf("iterations %d, certificate [%v, %v]", r.Iterations, r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Error(err)
	}
}

// Random graphs of three kinds (schedules, capacity matrices, deBruijn)
// with random sparse demands: every certificate passes Verify, contains
// glpsol's exact optimum and meets its gap.
func TestThroughputRandomAgainstGLPK(t *testing.T) {
	if !GLPKAvailable() {
		t.Skip("glpsol not installed: apt-get install glpk-utils")
	}
	rng := rand.New(rand.NewPCG(99, 0))
	for i := 0; i < 40; i++ {
		n := 2 + rng.IntN(15)
		var g *Graph
		switch i % 3 {
		case 0:
			g = mustGraph(t, randomSchedule(n, 1+rng.IntN(3), 1+rng.IntN(3), rng))
		case 1:
			m := make([][]float64, n)
			for u := range m {
				m[u] = make([]float64, n)
				for v := range m[u] {
					if u != v && rng.Float64() < 0.4 {
						m[u][v] = 3 * rng.Float64()
					}
				}
			}
			var err error
			if g, err = FromCapacity(m); err != nil {
				t.Fatal(err)
			}
		default:
			g = deBruijnGraph(n, 2+rng.IntN(3))
		}
		d := demand.New(n)
		for u := range d {
			for v := range d[u] {
				if u != v && rng.Float64() < 0.3 {
					d[u][v] = rng.Float64()
				}
			}
		}
		d[0][n-1] += 1
		if g.NodeCapacity == 0 {
			continue // nothing to normalise against
		}
		exact, err := ThroughputGLPK(context.Background(), g, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, gap := range []float64{1e-3, 1e-4} {
			r, err := Throughput(g, d, &Options{Gap: gap})
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(g, r.Demand, r); err != nil {
				t.Errorf("instance %d (n=%d), gap %g: %v", i, n, gap, err)
			}
			if !within(r, exact.Lower) && !(exact.Lower == 0 && r.Upper == 0) {
				t.Errorf("instance %d (n=%d), gap %g: GLPK θ = %v outside [%v, %v]", i, n, gap, exact.Lower, r.Lower, r.Upper)
			}
			if r.Gap > gap {
				t.Errorf("instance %d (n=%d): gap %v > %v after %d iterations", i, n, r.Gap, gap, r.Iterations)
			}
		}
	}
}

// TestIntervalNeverUpsideDown: Sirius on uniform demand has θ* =
// 0.99·31/32 = 0.9590625 exactly, where the dual bound's sums used to land
// below the feasible flow's 1/λ; the certificate's lower end never exceeds
// its upper end, and both stay within 1e-9 of θ*.
func TestIntervalNeverUpsideDown(t *testing.T) {
	sc, err := schedules.Build("sirius", schedules.Params{Nodes: 32, Uplinks: 4})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FromSchedule(sc, 400*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Throughput(g, demand.Uniform(32), nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = 0.99 * 31 / 32
	if r.Lower > r.Upper || math.Abs(r.Lower-want) > 1e-9 || math.Abs(r.Upper-want) > 1e-9 {
		t.Errorf("interval [%.17g, %.17g], want lower ≤ upper around %v", r.Lower, r.Upper, want)
	}
}
