package schedules

import (
	"errors"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

func TestMarsEntry(t *testing.T) {
	us := rotor.Microsecond
	tests := []struct {
		name   string
		p      Params
		degree int
		field  string // ParamError field, "" for success
	}{
		// Thesis Table 7.1 ④: 20 MB and 850 µs give d = 4 (period 2).
		{"table 7.1", Params{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 20_000_000, Delay: 850 * us}, 4, ""},
		{"given degree", Params{Nodes: 16, Uplinks: 2, Degree: 8, Seed: 5}, 8, ""},
		{"delay only", Params{Nodes: 15, Uplinks: 2, Delay: rotor.Second}, 14, ""}, // a loose delay: d = n rounded down to U
		{"unconstrained", Params{Nodes: 15, Uplinks: 2}, 0, "degree"},
		{"odd degree", Params{Nodes: 16, Uplinks: 2, Degree: 3}, 0, "degree"},
		{"tiny buffer", Params{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Buffer: 1000}, 0, "buffer"},
		{"buffer without link", Params{Nodes: 16, Uplinks: 2, Buffer: 1000}, 0, "link"},
		{"nodes", Params{Nodes: 1, Uplinks: 1}, 0, "nodes"},
	}
	for _, tc := range tests {
		s, err := Build("mars", tc.p)
		if tc.field != "" {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != tc.field || pe.Kind != "mars" {
				t.Errorf("%s: err = %v, want a ParamError on %q", tc.name, err, tc.field)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s.Kind != "mars" || s.Meta["degree"] != tc.degree || s.Period != tc.degree/tc.p.Uplinks ||
			s.Slot != DefaultSlot || s.Reconf != DefaultReconf {
			t.Errorf("%s: kind %q degree %v period %d slot %v reconf %v", tc.name, s.Kind, s.Meta["degree"], s.Period, s.Slot, s.Reconf)
		}
	}
}
