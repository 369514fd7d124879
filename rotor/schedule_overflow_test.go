package rotor

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestValidateCycleOverflow: a cycle (Slot·Period or Σ SlotDurations) or a
// switch offset beyond MaxCycle is rejected naming the field. These used to
// pass and wrap around int64: CycleDuration came out 0 or negative and the
// throughput engine printed θ = 0 or θ = 3 (1200 Gbps of 400 Gbps).
func TestValidateCycleOverflow(t *testing.T) {
	base := func() *Schedule {
		return &Schedule{Kind: "x", Nodes: 4, Switches: 1, Period: 3, Slot: 100, Reconf: 10,
			Matchings: [][][]int{{{1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}}}}
	}
	tests := []struct {
		name  string
		edit  func(*Schedule)
		field string
	}{
		{"2^62 + 2^62 + 1e8", func(s *Schedule) { s.SlotDurations = []Time{1 << 62, 1 << 62, 100_000_000} }, "slot_durations_ps"},
		{"3 × MaxInt64", func(s *Schedule) { s.SlotDurations = []Time{math.MaxInt64, math.MaxInt64, math.MaxInt64} }, "slot_durations_ps"},
		{"one past MaxCycle", func(s *Schedule) { s.SlotDurations = []Time{MaxCycle - 200, 100, 101} }, "slot_durations_ps"},
		{"slot × period", func(s *Schedule) { s.Slot = 9_000_000 * Second }, "slot_ps"},
		{"slot × period just over", func(s *Schedule) { s.Slot = MaxCycle/3 + 1 }, "slot_ps"},
		{"offset", func(s *Schedule) { s.SwitchOffsets = []Time{MaxCycle + 1} }, "switch_offsets_ps[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base()
			tt.edit(s)
			err := s.Validate()
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field || !strings.Contains(ve.Problem, "exceeds") {
				t.Fatalf("Validate = %v, want a %s error about the cycle", err, tt.field)
			}
		})
	}
	// The limits themselves are accepted, and the cycle is then exact.
	for _, edit := range []func(*Schedule){
		func(s *Schedule) { s.SlotDurations = []Time{MaxCycle - 200, 100, 100} },
		func(s *Schedule) { s.Slot = MaxCycle / 3 },
		func(s *Schedule) { s.SwitchOffsets = []Time{MaxCycle} },
	} {
		s := base()
		edit(s)
		if err := s.Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}
		if c := s.CycleDuration(); c <= 0 || c > MaxCycle {
			t.Errorf("CycleDuration = %d", c)
		}
	}
}
