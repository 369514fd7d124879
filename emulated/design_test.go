package emulated

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func designByName(t *testing.T, ds []Design, name string) Design {
	t.Helper()
	for _, d := range ds {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no design %s", name)
	return Design{}
}

// Theorems 18–19 solved for the slot, by hand:
//
//	Table 7.1 (n = 16, U = 2, c = 400 Gb/s, B = 20 MB, L = 850 µs):
//	  Mars d = 4: buffer c·d·Δ ≤ B ⇔ Δ ≤ 1.6e8 b / (4·400e9 b/s) = 100 µs;
//	              delay 2·log₄16·(4/2)·Δ = 8Δ ≤ L ⇔ Δ ≤ 106.25 µs;
//	  complete (Γ = 8): U·c·Γ·Δ ≤ B ⇔ Δ ≤ 1.6e8/(2·400e9·8) = 25 µs;
//	              delay 2·8·Δ ≤ L ⇔ Δ ≤ 53.125 µs.
//	The design question (n = 64, U = 8, B = 10 MB, L = 1 ms):
//	  complete (Γ = 8): Δ ≤ 8e7/(8·400e9·8) = 3.125 µs; Δ ≤ 1 ms/16 = 62.5 µs;
//	  Mars d = 16: Δ ≤ 8e7/(16·400e9) = 12.5 µs;
//	              2·log₁₆64·2·Δ = 6Δ ≤ 1 ms ⇔ Δ ≤ 166.666… µs.
func TestDesignSlotRangesByHand(t *testing.T) {
	us := func(x float64) rotor.Time { return rotor.Time(math.Floor(x * float64(rotor.Microsecond))) }
	cases := []struct {
		c              DesignConfig
		design         string
		buffer, delayT rotor.Time
	}{
		{DesignConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond}, "mars-4", us(100), us(106.25)},
		{DesignConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond}, "rotornet", us(25), us(53.125)},
		{DesignConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond}, "opera", us(25), us(53.125)},
		{DesignConfig{Nodes: 64, Uplinks: 8, Link: 400 * rotor.Gbps, Buffer: 10 * rotor.MB, Delay: rotor.Millisecond}, "rotornet", us(3.125), us(62.5)},
		{DesignConfig{Nodes: 64, Uplinks: 8, Link: 400 * rotor.Gbps, Buffer: 10 * rotor.MB, Delay: rotor.Millisecond}, "mars-16", us(12.5), us(1000.0 / 6)},
	}
	for _, tc := range cases {
		d := designByName(t, tc.c.Designs(), tc.design)
		if d.MaxSlotBuffer != tc.buffer || d.MaxSlotDelay != tc.delayT {
			t.Errorf("n = %d %s: slot ≤ %v (buffer), ≤ %v (delay); want %v, %v",
				tc.c.Nodes, tc.design, d.MaxSlotBuffer, d.MaxSlotDelay, tc.buffer, tc.delayT)
		}
	}
	st := designByName(t, cases[0].c.Designs(), "static")
	if st.Reconfigures || st.MaxSlotBuffer != 0 || st.MaxSlotDelay != 0 || st.Degree != 2 {
		t.Errorf("static: %+v, want d = U, no reconfiguration, no slot limit", st)
	}
}

// The slot ranges agree with the mars package's degree choice, which
// solves the same theorems for the degree: at every slot Δ of a grid,
// Mars d meets the buffer iff d ≤ ⌊B/(c·Δ)⌋ (Theorem 19) and meets the
// delay iff d ≤ e^{−W₋₁(k)} (Theorem 18; no degree when k < −1/e).
func TestDesignSlotRangesMatchDegreeChoice(t *testing.T) {
	for _, c := range []DesignConfig{
		{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond},
		{Nodes: 64, Uplinks: 8, Link: 400 * rotor.Gbps, Buffer: 10 * rotor.MB, Delay: rotor.Millisecond},
		{Nodes: 100, Uplinks: 4, Link: 100 * rotor.Gbps, Buffer: 3 * rotor.MB, Delay: 300 * rotor.Microsecond},
	} {
		for _, d := range c.Designs() {
			if d.Kind != mars.Kind {
				continue
			}
			for slot := 700 * rotor.Nanosecond; slot < 300*rotor.Microsecond; slot = slot*23/20 + 1 {
				bd, err := mars.BufferDegree(c.Link, slot, c.Buffer)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := slot <= d.MaxSlotBuffer, d.Degree <= bd; got != want {
					t.Errorf("n = %d %s at %v: buffer range says %v, BufferDegree %d says %v", c.Nodes, d.Name, slot, got, bd, want)
				}
				want := false
				if dd, err := mars.DelayDegree(c.Nodes, c.Uplinks, slot, c.Delay); err == nil {
					want = float64(d.Degree) <= dd*(1+1e-12)
				}
				if got := slot <= d.MaxSlotDelay; got != want {
					t.Errorf("n = %d %s at %v: delay range says %v, DelayDegree says %v", c.Nodes, d.Name, slot, got, want)
				}
			}
		}
	}
}

// The recommendation against an exhaustive comparison: every design at
// every slot built as its real schedule with that slot's Δr, θ certified
// directly (no duty-cycle scaling), buffer and delay from Theorems 15–16
// through BufferBound, the best feasible point picked here. Recommend's
// intervals must intersect the direct ones (both contain θ*), and its
// choice must be feasible and within the certified gap of the best.
func TestRecommendExhaustive(t *testing.T) {
	c := DesignConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB,
		Delay: 850 * rotor.Microsecond, Reconf: 2 * rotor.Microsecond, Gap: 1e-3, Seed: 3,
		Slots: []rotor.Time{2 * rotor.Microsecond, 5 * rotor.Microsecond, 20 * rotor.Microsecond, 50 * rotor.Microsecond, 100 * rotor.Microsecond}}
	ds, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Points) != len(ds.Designs)*len(c.Slots) {
		t.Fatalf("%d points for %d designs × %d slots", len(ds.Points), len(ds.Designs), len(c.Slots))
	}
	bestTheta, best := -1.0, -1
	for k, p := range ds.Points {
		d := ds.Designs[p.Design]
		reconf := c.Reconf
		if !d.Reconfigures {
			reconf = 0
		}
		feasible := p.Slot > reconf && d.Infeasible == ""
		var lo, hi float64
		if feasible {
			var s *rotor.Schedule
			if d.Kind == mars.Kind {
				s, err = mars.Schedule(mars.Config{Nodes: c.Nodes, Uplinks: c.Uplinks, Degree: d.Degree, Slot: p.Slot, Reconf: reconf},
					rand.New(rand.NewPCG(c.Seed, 0)))
			} else {
				s, err = schedules.Build(d.Kind, schedules.Params{Nodes: c.Nodes, Uplinks: c.Uplinks, Slot: p.Slot, Reconf: reconf,
					SelfSlot: true, Seed: c.Seed, Tries: staticTries})
			}
			if err != nil {
				t.Fatal(err)
			}
			g, worst := worstCase(t, s)
			r, err := Throughput(g, worst, &Options{Gap: c.Gap})
			if err != nil {
				t.Fatal(err)
			}
			lo, hi = r.Lower, r.Upper
		}
		if d.Reconfigures && feasible {
			arl := 2 * math.Log(float64(c.Nodes)) / math.Log(float64(d.Degree))
			ard := rotor.Time(math.Round(arl * float64(d.Period) * float64(p.Slot)))
			_, perNode, err := BufferBound(1/arl, float64(c.Nodes*c.Uplinks), c.Link, ard, c.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			feasible = ard <= c.Delay && perNode <= c.Buffer
			if ard != p.Delay || math.Abs(float64(perNode-p.Buffer)) > 1 {
				t.Errorf("%s at %v: delay %v buffer %v, direct %v %v", d.Name, p.Slot, p.Delay, p.Buffer, ard, perNode)
			}
		}
		if feasible != p.Feasible {
			t.Errorf("%s at %v: feasible %v (%s), direct %v", d.Name, p.Slot, p.Feasible, p.Why, feasible)
		}
		if !feasible {
			continue
		}
		if p.Theta > hi*(1+1e-9) || lo > p.Upper*(1+1e-9) {
			t.Errorf("%s at %v: [%v, %v] and direct [%v, %v] are disjoint", d.Name, p.Slot, p.Theta, p.Upper, lo, hi)
		}
		if lo > bestTheta {
			bestTheta, best = lo, k
		}
	}
	if best < 0 || ds.Best < 0 {
		t.Fatalf("best %d, recommended %d", best, ds.Best)
	}
	rec, exh := ds.Points[ds.Best], ds.Points[best]
	if !rec.Feasible || rec.Theta < bestTheta*(1-2*c.Gap) {
		t.Errorf("recommended %s at %v (θ ≥ %v), exhaustive best %s at %v (θ ≥ %v)",
			ds.Designs[rec.Design].Name, rec.Slot, rec.Theta, ds.Designs[exh.Design].Name, exh.Slot, bestTheta)
	}
	t.Logf("recommended: %s", ds.Reason())
}
