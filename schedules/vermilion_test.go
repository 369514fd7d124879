package schedules_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/vermilion"
)

func TestVermilionRegistry(t *testing.T) {
	d := demand.Ring(16)
	slot := 10 * rotor.Microsecond
	// Gamma alone picks the smallest ℓ; the registry matches the package.
	got, err := schedules.Build("vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, Gamma: 2.5, Slot: slot, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	want, err := vermilion.Schedule(d, vermilion.Config{Nodes: 16, Uplinks: 4, K: 5, L: 2, Slot: slot, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("registry vs vermilion.Schedule (-want +got):\n%s", diff)
	}
	// Defaults: k = 3, ℓ = 1.
	s, err := schedules.Build("vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d})
	if err != nil || s.Meta["k"] != 3 || s.Meta["l"] != 1 || s.Period != 12 {
		t.Fatalf("defaults: %v, meta %v", err, s.Meta)
	}
	s, err = schedules.Build("vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, K: 4, Randomized: true, Seed: 1})
	if err != nil || s.Meta["randomized"] != true {
		t.Fatalf("randomized: %v", err)
	}
	s, err = schedules.Build("bvn", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, Slot: slot})
	if err != nil || s.Period != 1 || s.CycleDuration() != 12*slot {
		t.Fatalf("bvn: %v", err)
	}
	for _, tc := range []struct {
		kind  string
		p     schedules.Params
		field string
	}{
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4}, "demand"},
		{"bvn", schedules.Params{Nodes: 16, Uplinks: 4}, "demand"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: demand.New(16)}, "demand"}, // all zero
		{"bvn", schedules.Params{Nodes: 16, Uplinks: 4, Demand: demand.New(16)}, "demand"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, K: 3, Gamma: 2.5}, "gamma"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, L: 2, Gamma: 2}, "l"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, K: 2, L: 3}, "l"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, Gamma: 0.5}, "gamma"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: demand.Ring(8)}, "demand"},
		{"vermilion", schedules.Params{Nodes: 16, Uplinks: 4, Demand: d, K: 4, L: 2, Randomized: true}, "l"},
	} {
		_, err := schedules.Build(tc.kind, tc.p)
		var pe *schedules.ParamError
		if !errors.As(err, &pe) || pe.Field != tc.field {
			t.Errorf("%s %+v: error %v, want a ParamError on %q", tc.kind, tc.p, err, tc.field)
		}
	}
}
