package emulated

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// concat plays a then b: one schedule whose slots are a's, then b's (by
// hand, per-slot durations so the two slot lengths may differ).
func concat(a, b *rotor.Schedule) *rotor.Schedule {
	s := &rotor.Schedule{Nodes: a.Nodes, Switches: a.Switches, Period: a.Period + b.Period, Slot: a.Slot, Reconf: a.Reconf}
	for t := range a.Period {
		s.SlotDurations = append(s.SlotDurations, a.SlotDuration(t))
	}
	for t := range b.Period {
		s.SlotDurations = append(s.SlotDurations, b.SlotDuration(t))
	}
	s.Matchings = make([][][]int, a.Switches)
	for sw := range s.Matchings {
		s.Matchings[sw] = append(slices.Clone(a.Matchings[sw]), b.Matchings[sw]...)
	}
	return s
}

// TestPoolIsTheConcatenation compares Pool with Corollary 1 applied to the
// concatenated schedule, and checks that the order of Add does not matter.
func TestPoolIsTheConcatenation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	a := randomSchedule(8, 2, 3, rng) // 3 slots of 10 µs
	b := randomSchedule(8, 2, 5, rng)
	b.Slot = 25 * rotor.Microsecond // 5 slots of 25 µs: weight 125 against 30
	var ab, ba Pool
	for _, s := range []*rotor.Schedule{a, b} {
		if err := ab.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*rotor.Schedule{b, a} {
		if err := ba.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	g1, err := ab.Graph(100 * rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := ba.Graph(100 * rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g1.Cap, g2.Cap) {
		t.Errorf("pool depends on the order of Add")
	}
	want := mustGraph(t, concat(a, b))
	if diff := cmp.Diff(want.Matrix(), g1.Matrix(), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("pool vs concatenated schedule (-want +got):\n%s", diff)
	}
	if g1.Period != 8 || g1.Cycle != 155*rotor.Microsecond || g1.NodeCapacity != 2 || g1.Reconf != rotor.Microsecond {
		t.Errorf("period %d cycle %v node capacity %v reconf %v", g1.Period, g1.Cycle, g1.NodeCapacity, g1.Reconf)
	}
	if ab.Len() != 2 {
		t.Errorf("Len %d", ab.Len())
	}
}

// TestPoolConcavity: a flow of θ_i·D in graph i, scaled by w_i and summed,
// fits the pooled graph Σ w_i·graph_i and routes Σ w_i·θ_i·D, so θ(pool) ≥
// Σ w_i θ_i with w_i the cycle shares. Certified: Upper(pool) ≥ Σ w_i·Lower_i,
// and Lower(pool) ≥ (1 − gap)·Σ w_i·Lower_i. The pooled certificate passes
// Verify.
func TestPoolConcavity(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	const gap = 1e-3
	for trial := range 6 {
		var p Pool
		var ss []*rotor.Schedule
		total := 0.0
		for range 3 {
			s := randomSchedule(10, 2, 1+rng.IntN(4), rng)
			ss = append(ss, s)
			total += float64(s.CycleDuration())
			if err := p.Add(s); err != nil {
				t.Fatal(err)
			}
		}
		d := demand.Random(10, rng)
		mixed := 0.0
		for _, s := range ss {
			r, err := Throughput(mustGraph(t, s), d, &Options{Gap: gap})
			if err != nil {
				t.Fatal(err)
			}
			mixed += float64(s.CycleDuration()) / total * r.Lower
		}
		g, err := p.Graph(0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Throughput(g, d, &Options{Gap: gap})
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Errorf("trial %d: pooled certificate: %v", trial, err)
		}
		if r.Upper < mixed || r.Lower < (1-gap)*mixed {
			t.Errorf("trial %d: pooled θ in [%v, %v], below the cycle-weighted mean %v of the parts", trial, r.Lower, r.Upper, mixed)
		}
	}
}

func TestPoolErrors(t *testing.T) {
	var p Pool
	if _, err := p.Graph(0); err == nil {
		t.Error("empty pool: no error")
	}
	if err := p.Add(rotorSchedule(8, 2, false)); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*rotor.Schedule{
		"nodes":    rotorSchedule(6, 2, false),
		"switches": rotorSchedule(8, 4, false),
		"reconf":   func() *rotor.Schedule { s := rotorSchedule(8, 2, false); s.Reconf = 1; return s }(),
	} {
		if err := p.Add(s); err == nil {
			t.Errorf("%s mismatch: no error", name)
		}
	}
	if p.Len() != 1 {
		t.Errorf("failed adds changed the pool: Len %d", p.Len())
	}
}
