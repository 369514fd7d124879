package schedules

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rdcn/rdcn/internal/registry"
	"github.com/rdcn/rdcn/rotor"
)

// Generator is one schedule kind: its name, a one-line usage, its default
// timing, the Params fields it reads beyond those every kind reads
// (Nodes, Uplinks, Slot, Reconf, Seed), and the function that builds it.
type Generator struct {
	Kind  string
	Usage string
	// Slot and Reconf are the kind's default timing (see DefaultTiming;
	// Params.Timing resolves a Params against them).
	Slot, Reconf rotor.Time
	// Reads lists the other Params fields the kind reads, by Go name
	// ("SelfSlot", "Demand", …): front ends refuse a flag or key that
	// sets a field the chosen kind would ignore (ReadBy).
	Reads []string
	// Build generates the schedule. Build (the package function) checks
	// the result with rotor.Schedule.Validate; a long loop should return
	// p.Err() when it is not nil.
	Build func(p Params) (*rotor.Schedule, error)
}

// generators is the registry, rdcn's kinds first. Mars, Vermilion and BvN
// add their entries here. The static topology never reconfigures, so its
// default has no night.
var generators = registry.New[Generator]("schedules", "schedule generator", func(g Generator) string { return g.Kind })

func init() {
	for _, g := range []Generator{
		{"bvn", "demand-aware Birkhoff–von Neumann baseline: weighted permutations on all U switches, variable slots", DefaultSlot, DefaultReconf, []string{"Demand", "K"}, BvN},
		{"mars", "d-regular deBruijn digraph (degree from Degree, or from Buffer/Link/Delay by Theorems 18–19) factorised into d matchings, d/U per switch", DefaultSlot, DefaultReconf, []string{"Degree", "Buffer", "Link", "Delay"}, Mars},
		{"opera", "n matchings of a random 1-factorisation of K_n on U staggered rotors; every slice an expander", DefaultSlot, DefaultReconf, nil, Opera},
		{"rotornet", "n−1 cyclic shifts (n with SelfSlot) round-robin over U rotor switches (Stagger: offsets of Δ/U)", DefaultSlot, DefaultReconf, []string{"SelfSlot", "Stagger"}, RotorNet},
		{"sirius", "per-uplink tunable-laser sweep over the complete graph (ns slots)", DefaultSiriusSlot, DefaultSiriusReconf, []string{"SelfSlot"}, Sirius},
		{"static", "U random derangements: a static connected U-regular digraph (no reconfiguration)", DefaultSlot, 0, []string{"Tries"}, Static},
		{"vermilion", "demand-aware: rounded demand + ℓ-complete graph + configuration model, k·n matchings (trust γ = k/ℓ)", DefaultSlot, DefaultReconf, []string{"Demand", "K", "L", "Gamma", "Randomized"}, Vermilion},
	} {
		generators.Add(g)
	}
}

// optionalFields are the Params fields a kind reads only if its Reads
// lists them; the others every kind reads (or may read harmlessly).
var optionalFields = []string{"SelfSlot", "Stagger", "Tries", "Degree", "Buffer", "Link", "Delay", "Demand", "K", "L", "Gamma", "Randomized"}

// Register adds a schedule kind; call it from an init function. A kind
// already taken, a missing Build, a Reads entry that is not an optional
// Params field, or a call after the registry has been read (a run has
// started) panics with the kind.
func Register(g Generator) {
	if g.Build == nil {
		panic("schedules: schedule generator " + g.Kind + " registered without Build")
	}
	for _, f := range g.Reads {
		if !slices.Contains(optionalFields, f) {
			panic(fmt.Sprintf("schedules: schedule generator %s reads %q, not one of the optional Params fields %s", g.Kind, f, strings.Join(optionalFields, ", ")))
		}
	}
	generators.Add(g)
}

// Lookup returns the generator of kind.
func Lookup(kind string) (Generator, bool) { return generators.Lookup(kind) }

// Kinds lists the schedule kinds Build knows, sorted.
func Kinds() []string {
	kinds := generators.Names()
	sort.Strings(kinds)
	return kinds
}

// Usage is a one-line description of kind, or "" if kind is unknown.
func Usage(kind string) string {
	g, _ := Lookup(kind)
	return g.Usage
}

// DefaultTiming is the slot and reconfiguration time kind uses when
// Params.Slot is zero: 100 µs with 10 µs for the rotor kinds, 384 ns with
// 3.84 ns for sirius, and 100 µs with no reconfiguration for static.
func DefaultTiming(kind string) (slot, reconf rotor.Time, ok bool) {
	g, ok := Lookup(kind)
	return g.Slot, g.Reconf, ok
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
	if g, ok := Lookup(kind); ok {
		s, err := g.Build(p)
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
