package emulated

import (
	"testing"

	"github.com/rdcn/rdcn/demand"
)

// TestRoutings: on TestVLBSliceByHand's graph plus an arc 0→2 of 1 (0→1
// of 10, 1→2 and 1→3 of 1, 3→2 of 10; demand 0→2 of 1, raw) every routing
// of the list answers under its own name, with a certificate Verify
// accepts, exactly (Lower = Upper) unless Certified, and none beats any,
// the maximum concurrent flow: θ = 3 (0→2, 0→1→2 and 0→1→3→2), against
// direct's 1.
func TestRoutings(t *testing.T) {
	g, err := FromCapacity([][]float64{
		{0, 10, 1, 0},
		{0, 0, 1, 1},
		{0, 0, 0, 0},
		{0, 0, 10, 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := demand.New(4)
	d[0][2] = 1
	rs := Routings()
	if rs[0].Name != "any" {
		t.Fatalf("first routing %s, want any", rs[0].Name)
	}
	best := 0.0
	seen := map[string]bool{}
	for _, rt := range rs {
		if seen[rt.Name] {
			t.Errorf("routing %s listed twice", rt.Name)
		}
		seen[rt.Name] = true
		if got, ok := LookupRouting(rt.Name); !ok || got.Name != rt.Name {
			t.Errorf("LookupRouting(%s) = %v, %v", rt.Name, got.Name, ok)
		}
		r, err := rt.Solve(g, d, &Options{Raw: true, Gap: 1e-6})
		if err != nil {
			t.Fatalf("%s: %v", rt.Name, err)
		}
		if r.Routing != rt.Name {
			t.Errorf("routing %s answers as %q", rt.Name, r.Routing)
		}
		if !rt.Certified && r.Lower != r.Upper {
			t.Errorf("%s: exact routing gives [%v, %v]", rt.Name, r.Lower, r.Upper)
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Errorf("%s: %v", rt.Name, err)
		}
		if rt.Name == "any" {
			if !within(r, 3) {
				t.Errorf("any θ in [%v, %v], want 3", r.Lower, r.Upper)
			}
			best = r.Upper
		} else if r.Lower > best*(1+1e-9) {
			t.Errorf("%s: θ %v above any's upper bound %v", rt.Name, r.Lower, best)
		}
	}
	if _, ok := LookupRouting("ecmp"); ok {
		t.Error("LookupRouting(ecmp) found a routing")
	}
}
