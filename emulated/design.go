package emulated

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// DefaultSlots are the slot lengths DesignSpace sweeps unless told
// otherwise: 1 µs to 500 µs in 1–2–5 steps.
var DefaultSlots = []rotor.Time{
	1 * rotor.Microsecond, 2 * rotor.Microsecond, 5 * rotor.Microsecond,
	10 * rotor.Microsecond, 20 * rotor.Microsecond, 50 * rotor.Microsecond,
	100 * rotor.Microsecond, 200 * rotor.Microsecond, 500 * rotor.Microsecond,
}

// DefaultReconfFraction is Δr/Δ when neither a fixed reconfiguration time
// nor a fraction is given: 10 µs in 100 µs, the thesis' Table 7.1 network.
const DefaultReconfFraction = 0.1

// staticTries is how many random U-regular graphs the static design draws
// (keeping the largest spectral gap), as rdcn demo does.
const staticTries = 4

// DesignConfig is the design question: n ToRs with U uplinks of rate c, a
// per-ToR buffer B and a delay budget L; which design, at which slot
// length, gives the highest throughput?
type DesignConfig struct {
	Nodes   int         // n
	Uplinks int         // U
	Link    rotor.Rate  // c, one uplink
	Buffer  rotor.Bytes // B per ToR; 0: no buffer limit
	Delay   rotor.Time  // L, bound on the average route delay; 0: no limit

	// Slots are the slot lengths Δ to sweep (nil: DefaultSlots).
	Slots []rotor.Time
	// Reconf is a fixed reconfiguration time Δr at every slot (a switch's
	// hardware constant); slots not longer than it are infeasible. It is
	// used when ReconfFraction is 0.
	Reconf rotor.Time
	// ReconfFraction, when positive, sets Δr = ReconfFraction·Δ at each
	// slot (a constant duty cycle) instead.
	ReconfFraction float64

	// ReconfAlternatives are fixed reconfiguration times whose answers
	// (WithReconf) the question also decides exactly: a design is refined
	// while it could be recommended under Reconf/ReconfFraction or under
	// any of these (the CLI's 1 µs and 10 µs without --reconf).
	ReconfAlternatives []rotor.Time
	// RefineAll certifies every design to Gap. Without it a design's
	// refinement stops as soon as no recommendation can be it (Status
	// CannotWin) or every recommendation it could be is settled within
	// the gap (Status Settled), with a certified interval wider than the
	// gap; the recommended designs and slots are the same either way
	// unless two designs lie within the gap of each other.
	RefineAll bool

	Gap  float64 // certified relative gap of every θ (0: DefaultGap)
	Seed uint64  // seeds the random designs (static, Opera, Mars's shuffle)

	// Progress, when non-nil, is called as each design's solve ends (at
	// the gap, as CannotWin, or stopped) with that design, its interval
	// filled in; calls are serialised.
	Progress func(done, total int, d Design)
	// Context, when non-nil, stops the certification early: once it is
	// done, designs being solved keep the certified interval they have
	// (valid, only wider than Gap; Status Stopped) and designs not yet
	// started are left uncertified (Status Uncertified); Recommend then
	// answers from the certified ones.
	Context context.Context
}

// Certification states of a Design (Design.Status).
const (
	// Certified: the interval meets the gap ("" in JSON).
	Certified = ""
	// Stopped: the solve was stopped early; the interval is certified,
	// only wider than the gap.
	Stopped = "stopped"
	// Uncertified: stopped before its solve began; no θ.
	Uncertified = "uncertified"
)

// Design is one candidate network: its emulated graph's degree and period,
// the closed forms of Theorems 15–19 (VLB on the worst-case permutation)
// and the engine's certified θ.
type Design struct {
	Name   string `json:"design"` // static, rotornet, opera, mars-<d>
	Kind   string `json:"kind"`   // the schedules registry kind
	Degree int    `json:"degree"` // d of the emulated graph (n for the complete graph)
	Period int    `json:"period_slots"`
	// RouteLength is VLB's average route length on the worst-case
	// permutation, 2·log_d n (0 for the static topology, which has no delay).
	RouteLength float64 `json:"route_length"`

	// MaxSlotBuffer is the longest slot at which the design's buffer need
	// at its Theorem-17 throughput, U·c·Γ·Δ per ToR (c·d·Δ for Mars,
	// Theorem 19), fits B; MaxSlotDelay the longest at which its average
	// route delay ARL·Γ·Δ meets L (Theorem 18). 0 with no such limit
	// (no B or L given, or the static topology); −1 when no slot of even a
	// picosecond meets it.
	MaxSlotBuffer rotor.Time `json:"max_slot_buffer_ps"`
	MaxSlotDelay  rotor.Time `json:"max_slot_delay_ps"`
	// Reconfigures is false for the static topology (Γ = 1, no night):
	// every slot length suits it, and it needs neither buffer nor delay.
	Reconfigures bool `json:"reconfigures"`

	// Theta0 and Upper0 are the engine's certified any-routing interval on
	// the design's worst-case permutation without reconfiguration time;
	// at slot Δ with night Δr both scale by the duty cycle 1 − Δr/Δ
	// (θ is homogeneous in the capacities). 0 when never feasible here.
	Theta0 float64 `json:"theta0"`
	Upper0 float64 `json:"theta0_upper"`
	// Infeasible says why no slot of the sweep suits the design ("" if
	// some does).
	Infeasible string `json:"infeasible,omitempty"`
	// Status is Certified, Stopped or Uncertified (a stopped question,
	// DesignConfig.Context), CannotWin (its refinement stopped once no
	// recommendation could be it) or Settled (stopped once every
	// recommendation it could be was settled within the gap).
	Status string `json:"status,omitempty"`
	// Iterations is the number of solver iterations behind Theta0 and
	// Upper0 (Throughput with MaxPhases = Iterations certifies the same
	// interval).
	Iterations int `json:"iterations,omitempty"`
}

// DesignPoint is one design at one slot length.
type DesignPoint struct {
	Design   int         `json:"design"` // index into DesignSpace.Designs
	Slot     rotor.Time  `json:"slot_ps"`
	Reconf   rotor.Time  `json:"reconf_ps"`
	Theta    float64     `json:"theta"` // certified lower end (duty cycle included)
	Upper    float64     `json:"theta_upper"`
	Delay    rotor.Time  `json:"delay_ps"`     // ARD = ARL·Γ·Δ
	Buffer   rotor.Bytes `json:"buffer_bytes"` // per ToR, U·c·Γ·Δ
	Feasible bool        `json:"feasible"`
	// Why names the first limit the point breaks: "reconf" (Δ ≤ Δr),
	// "buffer" or "delay"; "design" when no slot suits the design,
	// "uncertified" when its θ was never computed (a stopped question);
	// "" when feasible.
	Why string `json:"why,omitempty"`
}

// DesignSpace is the answer: every design, every (design, slot) point and
// the recommendation.
type DesignSpace struct {
	Config  DesignConfig  `json:"-"`
	Designs []Design      `json:"designs"`
	Points  []DesignPoint `json:"points"`
	// Best indexes Points: the feasible point with the highest certified θ
	// (ties: less buffer, then less delay, then the earlier design and
	// slot); −1 when no point is feasible.
	Best int `json:"best"`
}

// Validate reports the first unusable field.
func (c DesignConfig) Validate() error {
	if err := validateNetwork(c.Nodes, c.Uplinks, c.Link, c.Buffer, c.Delay, c.Gap); err != nil {
		return err
	}
	switch {
	case c.Reconf < 0:
		return fmt.Errorf("reconf: must not be negative, got %v", c.Reconf)
	case !(c.ReconfFraction >= 0 && c.ReconfFraction < 1):
		return fmt.Errorf("reconf: fraction of the slot must be in [0, 1), got %v", c.ReconfFraction)
	case c.ReconfFraction > 0 && c.Reconf > 0:
		return errors.New("reconf: give a fixed time or a fraction of the slot, not both")
	}
	for _, r := range c.ReconfAlternatives {
		if r < 0 {
			return fmt.Errorf("reconf: alternative %v must not be negative", r)
		}
	}
	for _, s := range c.Slots {
		if s <= 0 || s > rotor.MaxCycle {
			return fmt.Errorf("slots: %v must be in (0, %v]", s, rotor.MaxCycle)
		}
	}
	return nil
}

// reconfAt is Δr at slot Δ.
func (c DesignConfig) reconfAt(slot rotor.Time) rotor.Time {
	if c.ReconfFraction > 0 {
		return rotor.Time(math.Round(c.ReconfFraction * float64(slot)))
	}
	return c.Reconf
}

// Designs lists the candidates for n and U: the static topology (a random
// U-regular graph, d = U), RotorNet (the complete graph with the idle
// self-slot, Γ = ⌈n/U⌉), Opera (U ≥ 2) and Mars at every multiple of U
// strictly between U and n, with their slot ranges.
func (c DesignConfig) Designs() []Design {
	n, u := c.Nodes, c.Uplinks
	out := []Design{{Name: "static", Kind: "static", Degree: u, Period: 1}}
	complete := (n + u - 1) / u
	out = append(out, Design{Name: "rotornet", Kind: "rotornet", Degree: n, Period: complete, RouteLength: 2, Reconfigures: true})
	op := Design{Name: "opera", Kind: "opera", Degree: n, Period: complete, RouteLength: 2, Reconfigures: true}
	if u < 2 {
		op.Infeasible = "Opera needs at least 2 uplinks (one reconfigures while the others carry traffic)"
	}
	out = append(out, op)
	for d := 2 * u; d < n; d += u {
		out = append(out, Design{Name: fmt.Sprintf("mars-%d", d), Kind: mars.Kind, Degree: d, Period: d / u,
			RouteLength: mars.VLBRouteLength(n, d), Reconfigures: true})
	}
	for i := range out {
		c.slotRange(&out[i])
	}
	return out
}

// slotRange solves Theorems 18 and 19 for the slot: the buffer need
// θ·U·c·ARD = U·c·Γ·Δ (θ = 1/ARL) fits B for Δ ≤ 8·B/(U·c·Γ), exactly in
// integers (U·Γ = d for Mars: Theorem 19's ⌊B/(c·Δ)⌋ ≥ d); the delay
// ARL·Γ·Δ meets L for Δ ≤ L/(ARL·Γ) (Theorem 18's e^{−W₋₁(k)} ≥ d for
// d ≥ e, floored to the picosecond with a 10⁻¹² relative slack as
// mars.ChooseDegree uses).
func (c DesignConfig) slotRange(d *Design) {
	if !d.Reconfigures {
		return
	}
	if c.Buffer > 0 {
		num := new(big.Int).Mul(big.NewInt(int64(c.Buffer)), big.NewInt(8e12))
		den := new(big.Int).Mul(big.NewInt(int64(c.Link)), big.NewInt(int64(c.Uplinks*d.Period)))
		q := new(big.Int).Quo(num, den)
		d.MaxSlotBuffer = rotor.MaxCycle
		if q.IsInt64() && q.Int64() < int64(rotor.MaxCycle) {
			d.MaxSlotBuffer = rotor.Time(q.Int64())
		}
		if d.MaxSlotBuffer == 0 {
			d.MaxSlotBuffer = -1 // no slot at all
		}
	}
	if c.Delay > 0 {
		x := math.Floor(float64(c.Delay) / (d.RouteLength * float64(d.Period)) * (1 + 1e-12))
		d.MaxSlotDelay = rotor.Time(min(x, float64(rotor.MaxCycle)))
		if d.MaxSlotDelay == 0 {
			d.MaxSlotDelay = -1
		}
	}
}

// point evaluates design d at slot Δ (θ from Theta0 by the duty cycle).
func (c DesignConfig) point(i int, d *Design, slot rotor.Time) DesignPoint {
	p := DesignPoint{Design: i, Slot: slot, Theta: d.Theta0, Upper: d.Upper0, Feasible: true}
	if !d.Reconfigures {
		return p
	}
	p.Reconf = c.reconfAt(slot)
	duty := 1 - float64(p.Reconf)/float64(slot)
	p.Theta, p.Upper = d.Theta0*duty, d.Upper0*duty
	p.Delay = rotor.Time(math.Round(d.RouteLength * float64(d.Period) * float64(slot)))
	p.Buffer = rotor.Bytes(math.Round(float64(c.Uplinks*d.Period) * float64(c.Link) * float64(slot) / 8e12))
	switch {
	case p.Reconf >= slot:
		p.Why = "reconf"
	case d.MaxSlotBuffer != 0 && slot > d.MaxSlotBuffer:
		p.Why = "buffer"
	case d.MaxSlotDelay != 0 && slot > d.MaxSlotDelay:
		p.Why = "delay"
	}
	p.Feasible = p.Why == ""
	return p
}

// Recommend answers the design question: it sweeps every design over
// every slot, solves the slot ranges of Theorems 18–19, computes each
// design's certified θ (once, with the engine, for the designs feasible at
// some slot; refined to the gap only while the design could be
// recommended, unless RefineAll) and picks the feasible point with the
// highest certified θ.
func Recommend(c DesignConfig) (*DesignSpace, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Slots == nil {
		c.Slots = DefaultSlots
	}
	if c.Gap == 0 {
		c.Gap = DefaultGap
	}
	ds := &DesignSpace{Config: c, Designs: c.Designs(), Best: -1}
	todo := ds.markInfeasible()
	certify := c.certifyDecided
	if c.RefineAll {
		certify = c.certifyAll
	}
	if err := certify(ds.Designs, todo); err != nil {
		return nil, err
	}
	ds.evaluate()
	return ds, nil
}

// better orders feasible points: higher certified θ, then less buffer,
// then less delay (earlier points win the remaining ties).
func better(p, q DesignPoint) bool {
	if p.Theta != q.Theta {
		return p.Theta > q.Theta
	}
	if p.Buffer != q.Buffer {
		return p.Buffer < q.Buffer
	}
	return p.Delay < q.Delay
}

// NoSlotFits begins Design.Infeasible when the buffer, delay or
// reconfiguration limits leave the design no swept slot.
const NoSlotFits = "no swept slot is feasible"

// infeasibleReason says in one phrase why no swept slot suits d.
func (c DesignConfig) infeasibleReason(d *Design, whys map[string]bool) string {
	var parts []string
	if whys["buffer"] {
		if d.MaxSlotBuffer < 0 {
			parts = append(parts, fmt.Sprintf("no slot fits B = %v (it needs U·c·Γ·Δ per ToR)", c.Buffer))
		} else {
			parts = append(parts, fmt.Sprintf("B = %v needs Δ ≤ %v", c.Buffer, d.MaxSlotBuffer))
		}
	}
	if whys["delay"] {
		if d.MaxSlotDelay < 0 {
			parts = append(parts, fmt.Sprintf("no slot meets L = %v", c.Delay))
		} else {
			parts = append(parts, fmt.Sprintf("L = %v needs Δ ≤ %v", c.Delay, d.MaxSlotDelay))
		}
	}
	if whys["reconf"] {
		parts = append(parts, fmt.Sprintf("Δ must exceed Δr = %v", c.Reconf))
	}
	msg := NoSlotFits
	for i, p := range parts {
		if i == 0 {
			msg += ": "
		} else {
			msg += "; "
		}
		msg += p
	}
	return msg
}

// schedule builds the design's schedule without reconfiguration time (the
// slot is immaterial then: θ depends on the duty cycle only).
func (c DesignConfig) schedule(d *Design) (*rotor.Schedule, error) {
	const slot = 100 * rotor.Microsecond
	if d.Kind == mars.Kind {
		return mars.Schedule(mars.Config{Nodes: c.Nodes, Uplinks: c.Uplinks, Degree: d.Degree, Slot: slot},
			rand.New(rand.NewPCG(c.Seed, 0)))
	}
	return schedules.Build(d.Kind, schedules.Params{Nodes: c.Nodes, Uplinks: c.Uplinks, Slot: slot,
		SelfSlot: true, Seed: c.Seed, Tries: staticTries})
}

// certifyAll certifies the designs todo indexes, on up to GOMAXPROCS
// goroutines. Each design is built and solved on its own (its schedule's
// rand.Rand is seeded from c.Seed alone, the solver is deterministic), and
// each writes only its own Design, so the result does not depend on the
// number of goroutines or on the order in which designs finish (unless
// c.Context stops it). Progress counts finished designs. The first error
// in design order is returned.
func (c DesignConfig) certifyAll(designs []Design, todo []int) error {
	errs := make([]error, len(todo))
	var (
		mu   sync.Mutex
		done int
	)
	parallelFor(len(todo), func(k int) {
		d := &designs[todo[k]]
		if c.Context != nil && c.Context.Err() != nil {
			d.Status = Uncertified
			return
		}
		s, err := c.schedule(d)
		if err != nil { // e.g. no connected Opera draw for small U
			d.Infeasible = "no schedule: " + err.Error()
		} else if d.Theta0, d.Upper0, d.Iterations, d.Status, err = c.certify(s); err != nil {
			errs[k] = fmt.Errorf("%s: %w", d.Name, err)
		}
		if c.Progress != nil {
			mu.Lock()
			done++
			c.Progress(done, len(todo), *d)
			mu.Unlock()
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// certify returns the engine's certified interval on the schedule's
// worst-case permutation, and its Status (Stopped when c.Context ended
// the solve early).
func (c DesignConfig) certify(s *rotor.Schedule) (lo, hi float64, iters int, status string, err error) {
	g, err := FromSchedule(s, c.Link)
	if err != nil {
		return 0, 0, 0, "", err
	}
	worst, err := WorstCaseDemand(g)
	if err != nil {
		return 0, 0, 0, "", err
	}
	if c.Context != nil && c.Context.Err() != nil { // stopped while building: no first certificate
		return 0, 0, 0, Uncertified, nil
	}
	r, err := Throughput(g, worst, &Options{Gap: c.Gap, Context: c.Context})
	if err != nil {
		return 0, 0, 0, "", err
	}
	if r.Interrupted {
		status = Stopped
	}
	return r.Lower, r.Upper, r.Iterations, status, nil
}

// Unfinished names the designs a stopped question left uncertified and
// those whose interval is wider than the gap (both empty when it ran to
// the end).
func (ds *DesignSpace) Unfinished() (uncertified, stopped []string) {
	for _, d := range ds.Designs {
		switch d.Status {
		case Uncertified:
			uncertified = append(uncertified, d.Name)
		case Stopped:
			stopped = append(stopped, d.Name)
		}
	}
	return uncertified, stopped
}

// Recommended is the chosen point and its design (ok false when no point
// is feasible).
func (ds *DesignSpace) Recommended() (DesignPoint, Design, bool) {
	if ds.Best < 0 {
		return DesignPoint{}, Design{}, false
	}
	p := ds.Points[ds.Best]
	return p, ds.Designs[p.Design], true
}

// Margin is how far the recommendation's certified θ may lie below the
// highest θ* of any feasible point: θ ≥ (1 − Shortfall) × every feasible
// point's upper bound, so no design beats the recommendation by more than
// Shortfall (the sense of the gap in the settle rule). A question
// refined to the end has Shortfall ≤ leaderGap·Gap; a stopped one says
// here how much its open designs could still gain.
type Margin struct {
	Shortfall float64 // ≥ 0
	Top       int     // index into Points of the highest upper bound
}

// Margin is the recommendation's Margin; ok is false when nothing is
// recommended or a design that fits the limits was never certified (it
// has no upper bound).
func (ds *DesignSpace) Margin() (m Margin, ok bool) {
	if ds.Best < 0 {
		return Margin{}, false
	}
	m.Top = -1
	for k, p := range ds.Points {
		if p.Why == Uncertified {
			return Margin{}, false
		}
		if p.Feasible && (m.Top < 0 || p.Upper > ds.Points[m.Top].Upper) {
			m.Top = k
		}
	}
	m.Shortfall = max(0, 1-ds.Points[ds.Best].Theta/ds.Points[m.Top].Upper)
	return m, true
}

// Reason is the one-line justification of the recommendation.
func (ds *DesignSpace) Reason() string {
	p, d, ok := ds.Recommended()
	c := ds.Config
	if !ok {
		if un, _ := ds.Unfinished(); len(un) > 0 {
			return "no design certified before the stop meets the limits at any swept slot; not certified: " + strings.Join(un, ", ")
		}
		return "no design meets the limits at any swept slot; try shorter slots (--slots) or a larger buffer or delay"
	}
	feasible := 0
	for _, q := range ds.Points {
		if q.Feasible {
			feasible++
		}
	}
	limits := ""
	if c.Buffer > 0 {
		limits += fmt.Sprintf(", buffer %s ≤ %s per ToR", siBytes(p.Buffer), siBytes(c.Buffer))
	}
	if c.Delay > 0 {
		limits += fmt.Sprintf(", delay %s ≤ %v", shortDelay(p.Delay), c.Delay)
	}
	slot := fmt.Sprintf(" at Δ = %v", p.Slot)
	if !d.Reconfigures {
		slot = " (never reconfigures: any slot)"
	}
	return fmt.Sprintf("%s (d = %d)%s: certified θ ≥ %.4f on its worst-case permutation%s; the highest of the %d feasible (design, slot) points",
		d.Name, d.Degree, slot, p.Theta, limits, feasible)
}

// siBytes prints a size in decimal units with four significant digits.
func siBytes(b rotor.Bytes) string {
	x := float64(b)
	for _, u := range []string{"B", "kB", "MB", "GB"} {
		if x < 1000 {
			return fmt.Sprintf("%.4g%s", x, u)
		}
		x /= 1000
	}
	return fmt.Sprintf("%.4gTB", x)
}

// shortDelay prints a delay with four significant digits in µs or ms.
func shortDelay(t rotor.Time) string {
	switch {
	case t == 0:
		return "0s"
	case t < rotor.Millisecond:
		return fmt.Sprintf("%.4gus", float64(t)/float64(rotor.Microsecond))
	}
	return fmt.Sprintf("%.4gms", float64(t)/float64(rotor.Millisecond))
}
