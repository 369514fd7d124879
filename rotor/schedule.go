package rotor

import (
	"errors"
	"fmt"
)

// Idle marks a port that has no circuit during a slot.
const Idle = -1

// Schedule is a periodic circuit schedule. Switch s plays Matchings[s][0],
// Matchings[s][1], …, Matchings[s][Period-1] and repeats. Matchings[s][t][u]
// = v means node u's uplink on switch s reaches node v during slot t, or Idle.
// A slot lasts Slot (or SlotDurations[t]); its last Reconf picoseconds are
// the "night" during which the circuit reconfigures and carries nothing.
type Schedule struct {
	Kind          string         // generator name, e.g. "rotornet"
	Nodes         int            // n, the number of ToRs
	Switches      int            // U, the number of circuit switches (uplinks per node)
	Period        int            // Γ, slots per cycle
	Slot          Time           // Δ, default slot duration
	Reconf        Time           // Δr, reconfiguration time at the end of each slot
	SlotDurations []Time         // optional per-slot durations (len Period) overriding Slot
	SwitchOffsets []Time         // optional per-switch shifts of the slot boundaries (len Switches)
	Matchings     [][][]int      // [switch][slot][node] → destination node or Idle
	Meta          map[string]any // generator parameters, seed, …
}

// MaxCycle is the longest cycle (sum of the slot durations) and the largest
// switch offset Validate accepts: 2^62 ps, about 53 days. It leaves a
// factor of two below MaxTime (2^63 − 1 ps, about 106 days), so that a cycle
// plus an offset, or a position in one cycle plus a whole cycle (what
// NextConnection and the simulator's slot arithmetic add), still fits int64.
const MaxCycle Time = 1 << 62

// ValidationError names the offending field and what is wrong with it.
type ValidationError struct {
	Field   string
	Problem string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Problem }

func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// Validate checks the schedule's shape and that every matching is injective.
// The returned error is a *ValidationError.
func (s *Schedule) Validate() error {
	if s == nil {
		return invalid("schedule", "is nil")
	}
	if s.Nodes < 1 {
		return invalid("nodes", "must be at least 1, got %d", s.Nodes)
	}
	if s.Switches < 1 {
		return invalid("switches", "must be at least 1, got %d", s.Switches)
	}
	if s.Period < 1 {
		return invalid("period", "must be at least 1, got %d", s.Period)
	}
	if s.Slot <= 0 {
		return invalid("slot_ps", "must be positive, got %d", s.Slot)
	}
	if s.Reconf < 0 {
		return invalid("reconf_ps", "must not be negative, got %d", s.Reconf)
	}
	if s.SlotDurations != nil {
		if len(s.SlotDurations) != s.Period {
			return invalid("slot_durations_ps", "has %d entries, period is %d", len(s.SlotDurations), s.Period)
		}
		var cycle Time
		for t, d := range s.SlotDurations {
			if d <= 0 {
				return invalid(fmt.Sprintf("slot_durations_ps[%d]", t), "must be positive, got %d", d)
			}
			if s.Reconf >= d {
				return invalid("reconf_ps", "%d is not shorter than slot %d (%d ps)", s.Reconf, t, d)
			}
			if d > MaxCycle-cycle { // cycle ≤ MaxCycle, so this cannot overflow
				return invalid("slot_durations_ps", "the cycle (sum of the durations) exceeds %d ps (about 53 days) at slot %d", MaxCycle, t)
			}
			cycle += d
		}
	} else {
		if s.Reconf >= s.Slot {
			return invalid("reconf_ps", "%d is not shorter than slot_ps %d", s.Reconf, s.Slot)
		}
		if s.Slot > MaxCycle/Time(s.Period) {
			return invalid("slot_ps", "%d × period %d exceeds the longest cycle, %d ps (about 53 days)", s.Slot, s.Period, MaxCycle)
		}
	}
	if s.SwitchOffsets != nil {
		if len(s.SwitchOffsets) != s.Switches {
			return invalid("switch_offsets_ps", "has %d entries, switches is %d", len(s.SwitchOffsets), s.Switches)
		}
		for i, o := range s.SwitchOffsets {
			if o < 0 {
				return invalid(fmt.Sprintf("switch_offsets_ps[%d]", i), "must not be negative, got %d", o)
			}
			if o > MaxCycle {
				return invalid(fmt.Sprintf("switch_offsets_ps[%d]", i), "%d exceeds %d ps (about 53 days)", o, MaxCycle)
			}
		}
	}
	if len(s.Matchings) != s.Switches {
		return invalid("matchings", "has %d switches, want %d", len(s.Matchings), s.Switches)
	}
	var seen []int // allocated once a matching has shown Nodes entries
	stamp := 0
	for sw, slots := range s.Matchings {
		if len(slots) != s.Period {
			return invalid(fmt.Sprintf("matchings[%d]", sw), "has %d slots, period is %d", len(slots), s.Period)
		}
		for t, m := range slots {
			// Field names are formatted only on failure: Validate runs on
			// every decoded schedule and must stay cheap for n = 1024.
			field := func() string { return fmt.Sprintf("matchings[%d][%d]", sw, t) }
			if len(m) != s.Nodes {
				return invalid(field(), "has %d entries, want %d nodes", len(m), s.Nodes)
			}
			if seen == nil {
				seen = make([]int, s.Nodes)
			}
			stamp++
			for u, v := range m {
				if v == Idle {
					continue
				}
				if v < 0 || v >= s.Nodes {
					return invalid(fmt.Sprintf("%s[%d]", field(), u), "destination %d out of range [0,%d)", v, s.Nodes)
				}
				if seen[v] == stamp {
					return invalid(field(), "is not a matching: destination %d is used twice", v)
				}
				seen[v] = stamp
			}
		}
	}
	return nil
}

// SlotDuration is the length of slot t (0 ≤ t < Period).
func (s *Schedule) SlotDuration(t int) Time {
	if s.SlotDurations != nil {
		return s.SlotDurations[t]
	}
	return s.Slot
}

// CycleDuration is the length of one period. Validate ensures it is at most
// MaxCycle; on an unvalidated schedule it may overflow.
func (s *Schedule) CycleDuration() Time {
	if s.SlotDurations == nil {
		return s.Slot * Time(s.Period)
	}
	var sum Time
	for _, d := range s.SlotDurations {
		sum += d
	}
	return sum
}

// DutyCycle is the fraction of time circuits carry traffic:
// Σ_t (Δ_t − Δr) / Σ_t Δ_t.
func (s *Schedule) DutyCycle() float64 {
	c := s.CycleDuration()
	return float64(c-Time(s.Period)*s.Reconf) / float64(c)
}

// ErrNeverConnected is returned by NextConnection when no slot links u to v.
var ErrNeverConnected = errors.New("rotor: nodes are never connected")
