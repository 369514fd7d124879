package schedules

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/rdcn/rdcn/rotor"
)

// generator is one registry entry.
type generator struct {
	kind  string
	usage string
	// slot and reconf are the kind's default timing (see DefaultTiming).
	slot, reconf rotor.Time
	build        func(Params) (*rotor.Schedule, error)
}

// generators is the registry: one entry per kind, sorted by kind, with its
// default timing. Mars, Vermilion and BvN add their entries here. The
// static topology never reconfigures, so its default has no night.
func generators() []generator {
	return []generator{
		{"bvn", "demand-aware Birkhoff–von Neumann baseline: weighted permutations on all U switches, variable slots", DefaultSlot, DefaultReconf, BvN},
		{"mars", "d-regular deBruijn digraph (degree from Degree, or from Buffer/Link/Delay by Theorems 18–19) factorised into d matchings, d/U per switch", DefaultSlot, DefaultReconf, Mars},
		{"opera", "n matchings of a random 1-factorisation of K_n on U staggered rotors; every slice an expander", DefaultSlot, DefaultReconf, Opera},
		{"rotornet", "n−1 cyclic shifts (n with SelfSlot) round-robin over U rotor switches (Stagger: offsets of Δ/U)", DefaultSlot, DefaultReconf, RotorNet},
		{"sirius", "per-uplink tunable-laser sweep over the complete graph (ns slots)", DefaultSiriusSlot, DefaultSiriusReconf, Sirius},
		{"static", "U random derangements: a static connected U-regular digraph (no reconfiguration)", DefaultSlot, 0, Static},
		{"vermilion", "demand-aware: rounded demand + ℓ-complete graph + configuration model, k·n matchings (trust γ = k/ℓ)", DefaultSlot, DefaultReconf, Vermilion},
	}
}

// Kinds lists the schedule kinds Build knows, sorted.
func Kinds() []string {
	gs := generators()
	kinds := make([]string, len(gs))
	for i, g := range gs {
		kinds[i] = g.kind
	}
	sort.Strings(kinds)
	return kinds
}

// Usage is a one-line description of kind, or "" if kind is unknown.
func Usage(kind string) string {
	for _, g := range generators() {
		if g.kind == kind {
			return g.usage
		}
	}
	return ""
}

// DefaultTiming is the slot and reconfiguration time kind uses when
// Params.Slot is zero: 100 µs with 10 µs for the rotor kinds, 384 ns with
// 3.84 ns for sirius, and 100 µs with no reconfiguration for static.
func DefaultTiming(kind string) (slot, reconf rotor.Time, ok bool) {
	for _, g := range generators() {
		if g.kind == kind {
			return g.slot, g.reconf, true
		}
	}
	return 0, 0, false
}

// Build generates a schedule of the given kind. The result passes
// Validate; bad parameters give a *ParamError naming the field.
func Build(kind string, p Params) (*rotor.Schedule, error) {
	return BuildContext(context.Background(), kind, p)
}

// BuildContext is Build that gives up when ctx is done, returning
// ctx.Err(): the generators check it in their long loops.
func BuildContext(ctx context.Context, kind string, p Params) (*rotor.Schedule, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.ctx = ctx
	for _, g := range generators() {
		if g.kind != kind {
			continue
		}
		s, err := g.build(p)
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, err
		}
		if err := s.Validate(); err != nil {
			// A cycle beyond rotor.MaxCycle is the slot's fault (generators
			// that know their period check it first; this catches the rest).
			var ve *rotor.ValidationError
			if errors.As(err, &ve) && (ve.Field == "slot_ps" || ve.Field == "slot_durations_ps") {
				return nil, paramError(kind, "slot", s.Slot, "the %d-slot cycle is too long: %s", s.Period, ve.Problem)
			}
			return nil, fmt.Errorf("schedules: %s generated an invalid schedule: %w", kind, err)
		}
		return s, nil
	}
	return nil, &ParamError{Kind: "schedules", Field: "kind", Value: fmt.Sprintf("%q", kind),
		Problem: "unknown; valid kinds are " + strings.Join(Kinds(), ", ")}
}
