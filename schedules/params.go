package schedules

import (
	"context"
	"fmt"
	"slices"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// Params are the inputs of every generator. Each generator reads the fields
// it needs and ignores the rest; zero values select documented defaults.
type Params struct {
	// Nodes is n, the number of ToRs (at least 2).
	Nodes int
	// Uplinks is U, the number of uplinks per node = circuit switches (at least 1).
	Uplinks int

	// Slot is Δ, the slot duration; Reconf is Δr, the reconfiguration time
	// at the end of each slot. A zero Slot selects the kind's default slot,
	// and, when Reconf is zero too, its default reconfiguration time (see
	// DefaultTiming; static has none). With an explicit Slot, a zero Reconf
	// means instantaneous reconfiguration.
	Slot, Reconf rotor.Time

	// SelfSlot adds the idle self-matching to rotornet and sirius (n
	// matchings instead of the true rotor's n−1; the thesis and Vermilion
	// convention). Opera and static ignore it.
	SelfSlot bool
	// Stagger offsets rotornet's switch s by ⌊s·Δ/U⌋ (as Opera does), so
	// the U switches reconfigure one after another rather than together:
	// with Δr ≤ ⌊Δ/U⌋ at most one switch is dark at any instant.
	Stagger bool
	// Seed seeds every random choice (opera, static, and the randomised
	// kinds); the same Seed and Params give the identical schedule.
	Seed uint64
	// Tries is how many connected candidates static draws, keeping the one
	// with the largest spectral gap (0 means 1).
	Tries int

	// Degree is the emulated-graph degree d of Mars (0: chosen from Buffer
	// and Delay).
	Degree int
	// Buffer is the per-node buffer budget Mars designs for.
	Buffer rotor.Bytes
	// Link is the capacity c of one uplink.
	Link rotor.Rate
	// Delay is the delay budget Mars designs for.
	Delay rotor.Time
	// Demand is the (predicted) demand matrix of the demand-aware kinds
	// (vermilion, bvn).
	Demand demand.Matrix
	// K and L are Vermilion's integer parameters k and ℓ (see the vermilion
	// package for their meaning).
	K, L int
	// Gamma is Vermilion-with-predictions' trust factor γ = k/ℓ.
	Gamma float64
	// Randomized selects randomised Vermilion.
	Randomized bool

	// ctx, set by BuildContext, stops a generator's long loops; nil: never.
	ctx context.Context
}

// Err is the error of a done BuildContext context, else nil. Generators
// call it in their long loops (checkEvery steps apart in the tightest
// ones) and return it.
func (p *Params) Err() error {
	if p.ctx == nil {
		return nil
	}
	return p.ctx.Err()
}

// checkEvery is how many steps of a tight loop pass between context checks.
const checkEvery = 1 << 14

// ParamError reports a parameter that a generator cannot use.
type ParamError struct {
	Kind    string // the generator, e.g. "opera"
	Field   string // the Params field in CLI spelling, e.g. "uplinks"
	Value   any    // the offending value
	Problem string // what is wrong with it
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s: %s = %v: %s", e.Kind, e.Field, e.Value, e.Problem)
}

func paramError(kind, field string, value any, format string, args ...any) error {
	return &ParamError{Kind: kind, Field: field, Value: value, Problem: fmt.Sprintf(format, args...)}
}

// Default timings. Microsecond-scale rotor switches follow the thesis'
// Table 7.1 setting (Δ = 100 µs, Δr = 10 µs, duty cycle 0.9); Sirius'
// tunable lasers reconfigure in 3.84 ns and a 384 ns slot gives the 0.99
// duty cycle the thesis quotes for it (§9.1).
const (
	DefaultSlot         = 100 * rotor.Microsecond
	DefaultReconf       = 10 * rotor.Microsecond
	DefaultSiriusSlot   = 384 * rotor.Nanosecond
	DefaultSiriusReconf = 3840 * rotor.Picosecond
)

// Timing resolves the slot and reconfiguration time of p against kind's
// defaults (DefaultTiming) and checks them: a generator's first step.
func (p Params) Timing(kind string) (slot, reconf rotor.Time, err error) {
	defSlot, defReconf, _ := DefaultTiming(kind)
	slot, reconf = p.Slot, p.Reconf
	if slot < 0 {
		return 0, 0, paramError(kind, "slot", slot, "must not be negative")
	}
	if reconf < 0 {
		return 0, 0, paramError(kind, "reconf", reconf, "must not be negative")
	}
	if slot == 0 {
		slot = defSlot
		if reconf == 0 {
			reconf = defReconf
		}
	}
	if reconf >= slot {
		return 0, 0, paramError(kind, "reconf", reconf, "must be shorter than the slot %v", slot)
	}
	if err := checkCycle(kind, slot, 1); err != nil {
		return 0, 0, err
	}
	return slot, reconf, nil
}

// checkCycle checks that a cycle of period slots of length slot fits
// rotor.MaxCycle (2^62 ps, about 53 days), so that generators and the
// schedule's queries can add times without overflowing int64.
func checkCycle(kind string, slot rotor.Time, period int) error {
	switch {
	case period == 1 && slot > rotor.MaxCycle:
		return paramError(kind, "slot", slot, "exceeds the longest cycle, %v (rotor.MaxCycle, 2^62 ps)", rotor.MaxCycle)
	case period > 1 && slot > rotor.MaxCycle/rotor.Time(period):
		return paramError(kind, "slot", slot, "× %d slots per cycle exceeds the longest cycle, %v (rotor.MaxCycle, 2^62 ps)", period, rotor.MaxCycle)
	}
	return nil
}

// checkSize checks n ≥ 2 and 1 ≤ U.
func checkSize(kind string, p Params) error {
	if p.Nodes < 2 {
		return paramError(kind, "nodes", p.Nodes, "must be at least 2")
	}
	if p.Uplinks < 1 {
		return paramError(kind, "uplinks", p.Uplinks, "must be at least 1")
	}
	return nil
}

// emptyMatchings allocates U×period idle matchings over n nodes in one block.
func emptyMatchings(switches, period, n int) [][][]int {
	buf := make([]int, switches*period*n)
	for i := range buf {
		buf[i] = rotor.Idle
	}
	m := make([][][]int, switches)
	for s := range m {
		m[s] = make([][]int, period)
		for t := range m[s] {
			off := (s*period + t) * n
			m[s][t] = buf[off : off+n : off+n]
		}
	}
	return m
}

// ReadBy returns the kinds that read the Params field named field, and
// false for a field every kind reads (or no such field). Front ends use it
// to refuse a parameter the chosen kind would silently ignore.
func ReadBy(field string) ([]string, bool) {
	if !slices.Contains(optionalFields, field) {
		return nil, false
	}
	var kinds []string
	for _, g := range generators.All() {
		if slices.Contains(g.Reads, field) {
			kinds = append(kinds, g.Kind)
		}
	}
	return kinds, true
}
