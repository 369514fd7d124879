package emulated

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdcn/rdcn/rotor"
)

// TestWithReconfIsRecommend: the answer under a fixed Δr derived from the
// default (Δr = Δ/10) answer is the one Recommend gives when asked with
// that Δr, which certifies every design again: the same designs, points
// and recommendation (every design refined to the gap, so that both
// certify the same intervals), for Δr = 1 µs and 10 µs (at 10 µs the slots up to
// 10 µs are infeasible, and the answer changes).
func TestWithReconfIsRecommend(t *testing.T) {
	c := DesignConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond,
		ReconfFraction: DefaultReconfFraction, Gap: 1e-3, Seed: 3, RefineAll: true}
	ds, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond} {
		fixed := c
		fixed.ReconfFraction, fixed.Reconf = 0, r
		want, err := Recommend(fixed)
		if err != nil {
			t.Fatal(err)
		}
		want.Config.Slots = nil
		got := ds.WithReconf(r)
		got.Config.Slots = nil
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(DesignConfig{}, "Progress")); diff != "" {
			t.Errorf("Δr = %v: WithReconf differs from Recommend (-Recommend +WithReconf):\n%s", r, diff)
		}
		if want.Reason() != got.Reason() {
			t.Errorf("Δr = %v: %q, want %q", r, got.Reason(), want.Reason())
		}
		t.Logf("Δr = %v: %s", r, got.Reason())
	}
}
