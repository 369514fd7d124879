package routing

import (
	"slices"

	"github.com/rdcn/rdcn/rotor"
)

// Epochs are the intervals of a schedule's cycle in which no switch
// changes state: between two of their bounds every circuit is either up
// for the whole interval or down for all of it. Every table of this
// package is indexed by epoch.
type Epochs struct {
	Cycle  rotor.Time   // the schedule's cycle
	Bounds []rotor.Time // epoch starts within [0, Cycle), ascending, Bounds[0] = 0
}

// NewEpochs finds the epochs of sc: the starts of its slots and of their
// nights, switch by switch, as rotor's SlotAt reports them over one cycle.
func NewEpochs(sc *rotor.Schedule) *Epochs {
	cycle := sc.CycleDuration()
	bounds := []rotor.Time{0}
	eachSlot(sc, cycle, func(start, night rotor.Time) {
		bounds = append(bounds, start, night)
	})
	slices.Sort(bounds)
	return &Epochs{Cycle: cycle, Bounds: slices.Compact(bounds)}
}

// eachSlot calls fn with the start of every slot of every switch over one
// cycle and the start of its night, both within [0, cycle).
func eachSlot(sc *rotor.Schedule, cycle rotor.Time, fn func(start, night rotor.Time)) {
	mod := func(t rotor.Time) rotor.Time { return (t%cycle + cycle) % cycle }
	for sw := 0; sw < sc.Switches; sw++ {
		for at := rotor.Time(0); at < cycle; {
			k, since := sc.SlotAt(sw, at)
			start := at - since
			d := sc.SlotDuration(k)
			fn(mod(start), mod(start+d-sc.Reconf))
			at = start + d
		}
	}
}

// Len is the number of epochs per cycle.
func (ep *Epochs) Len() int { return len(ep.Bounds) }

// Span is epoch e's interval [start, end) within the cycle.
func (ep *Epochs) Span(e int) (start, end rotor.Time) {
	end = ep.Cycle
	if e+1 < len(ep.Bounds) {
		end = ep.Bounds[e+1]
	}
	return ep.Bounds[e], end
}

// Index is the index of the epoch holding time t ≥ 0.
func (ep *Epochs) Index(t rotor.Time) int {
	rel := t % ep.Cycle
	lo, hi := 0, len(ep.Bounds) // first bound > rel
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ep.Bounds[mid] > rel {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}

// NextStart is the start of the epoch after the one holding time t ≥ 0.
func (ep *Epochs) NextStart(t rotor.Time) rotor.Time {
	base := t - t%ep.Cycle
	rel := t % ep.Cycle
	for _, b := range ep.Bounds {
		if b > rel {
			return base + b
		}
	}
	return base + ep.Cycle
}

// circuits calls fn(e, cs) for every epoch e in order, cs holding the
// circuits up during e (rotor's AppendCircuitsAt in its middle; u → u
// and idle ports left out). cs is reused between calls. This is the
// one place the tables learn which circuits an epoch has.
func (ep *Epochs) circuits(sc *rotor.Schedule, fn func(e int, cs []rotor.Circuit)) {
	var cs []rotor.Circuit
	for e := range ep.Bounds {
		start, end := ep.Span(e)
		cs = sc.AppendCircuitsAt(cs[:0], start+(end-start)/2)
		fn(e, cs)
	}
}
