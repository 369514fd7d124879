package tor

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Day is one circuit day of a ToR pair: the circuit carries traffic in
// [Start, End).
type Day struct{ Start, End rotor.Time }

// Prebuffer is the capacity schedule of a VOQ under reTCP's prebuffering
// ("Adapting TCP for Reconfigurable Datacenter Networks"): the VOQ holds
// Small bytes, grows to Big bytes Lead (τ_pre) before each of its circuit's
// days begins, and shrinks back to Small when the day ends. The days
// repeat every Cycle. Shrinking never drops packets already queued: the
// ToR only refuses new arrivals while the occupancy is at or above the
// capacity.
//
// Capacity is a pure function of time, so the ToR can ask it on every
// admission, or schedule its changes with NextChange.
type Prebuffer struct {
	Small, Big int64
	Lead       rotor.Time
	Cycle      rotor.Time
	Days       []Day // the pair's days in one cycle (any phase)
}

// NewPrebuffer checks and returns a prebuffer schedule.
func NewPrebuffer(small, big int64, lead, cycle rotor.Time, days []Day) (*Prebuffer, error) {
	switch {
	case lead < 0:
		return nil, fmt.Errorf("tau_pre %v: must not be negative", lead)
	case small < 0:
		return nil, fmt.Errorf("small capacity %d: must not be negative", small)
	case big < small:
		return nil, fmt.Errorf("big capacity %d: must be at least the small capacity %d", big, small)
	case cycle <= 0:
		return nil, fmt.Errorf("cycle %v: must be positive", cycle)
	case len(days) == 0:
		return nil, fmt.Errorf("no circuit days: prebuffering needs a circuit schedule")
	}
	for i, d := range days {
		if d.End <= d.Start || d.End-d.Start > cycle {
			return nil, fmt.Errorf("day %d [%v, %v): must be non-empty and at most one cycle (%v)", i, d.Start, d.End, cycle)
		}
	}
	return &Prebuffer{Small: small, Big: big, Lead: lead, Cycle: cycle, Days: days}, nil
}

// mod is x mod m in [0, m).
func mod(x, m rotor.Time) rotor.Time {
	r := x % m
	if r < 0 {
		r += m
	}
	return r
}

// Capacity is the VOQ's capacity at t: Big in [Start − Lead, End) of any
// day (in any cycle), Small otherwise.
func (p *Prebuffer) Capacity(t rotor.Time) int64 {
	for _, d := range p.Days {
		span := d.End - d.Start + p.Lead
		if span >= p.Cycle || mod(t-(d.Start-p.Lead), p.Cycle) < span {
			return p.Big
		}
	}
	return p.Small
}

// NextChange is the first time after t at which the capacity changes, or
// rotor.MaxTime if it never does.
func (p *Prebuffer) NextChange(t rotor.Time) rotor.Time {
	c := p.Capacity(t)
	best := rotor.MaxTime
	for _, d := range p.Days {
		if d.End-d.Start+p.Lead >= p.Cycle {
			return rotor.MaxTime // always big
		}
		// The capacity is periodic and changes only at these edges, so the
		// first change is the earliest edge occurrence in (t, t + Cycle]
		// at which the capacity differs from now (where the windows of two
		// days touch, an edge changes nothing).
		for _, edge := range [2]rotor.Time{d.Start - p.Lead, d.End} {
			at := t + mod(edge-t-1, p.Cycle) + 1
			if at < best && p.Capacity(at) != c {
				best = at
			}
		}
	}
	return best
}

// CircuitDays lists the days in one cycle of schedule s on which some
// uplink of ToR u has a circuit to ToR v, starting with the first day that
// ends after time 0, and returns the cycle length.
func CircuitDays(s *rotor.Schedule, u, v int) ([]Day, rotor.Time, error) {
	cycle := s.CycleDuration()
	var days []Day
	for from := rotor.Time(0); ; {
		at, sw, slot, err := s.NextConnection(u, v, from)
		if err != nil {
			return nil, 0, err
		}
		_, since := s.SlotAt(sw, at)
		start := at - since
		if len(days) > 0 && start >= days[0].Start+cycle {
			return days, cycle, nil
		}
		end := start + s.SlotDuration(slot) - s.Reconf
		days = append(days, Day{Start: start, End: end})
		from = end
	}
}
