package rotor

import (
	"fmt"
	"sort"
)

// Timetable is a read-only index of a schedule for hot paths: it answers
// NextConnection in O(log(U·Γ) + k), k the number of slots that link the
// pair, instead of scanning all U·Γ slots, and SlotAt in O(log Γ) for
// variable slot durations. Build it once with NewTimetable; it is safe for
// concurrent use and must not outlive changes to the schedule.
type Timetable struct {
	s         *Schedule
	cycle     Time
	slotStart []Time // len Period+1: start of slot t within the cycle
	first     []int32
	links     []link // by source, then destination, switch, slot
}

type link struct {
	dst, sw, slot int32
}

// NewTimetable validates s and indexes its circuits. Memory is about 12
// bytes per non-idle circuit, U·Γ·n in the worst case.
func NewTimetable(s *Schedule) (*Timetable, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	tt := &Timetable{s: s, cycle: s.CycleDuration(), slotStart: make([]Time, s.Period+1)}
	for t := range s.Period {
		tt.slotStart[t+1] = tt.slotStart[t] + s.SlotDuration(t)
	}
	// Two stable counting-sort passes (by destination, then by source)
	// order the links by (source, destination) and keep the scan order
	// (switch, slot) among equal pairs, in O(U·Γ·n) time.
	n := s.Nodes
	bySrc, byDst := make([]int32, n+1), make([]int32, n+1)
	for _, slots := range s.Matchings {
		for _, m := range slots {
			for u, v := range m {
				if v != Idle && v != u {
					bySrc[u+1]++
					byDst[v+1]++
				}
			}
		}
	}
	for x := range n {
		bySrc[x+1] += bySrc[x]
		byDst[x+1] += byDst[x]
	}
	type pending struct{ src, dst, sw, slot int32 }
	tmp := make([]pending, byDst[n])
	next := append([]int32(nil), byDst[:n]...)
	for sw, slots := range s.Matchings {
		for t, m := range slots {
			for u, v := range m {
				if v != Idle && v != u {
					tmp[next[v]] = pending{int32(u), int32(v), int32(sw), int32(t)}
					next[v]++
				}
			}
		}
	}
	tt.first = bySrc
	tt.links = make([]link, bySrc[n])
	next = append(next[:0], bySrc[:n]...)
	for _, p := range tmp {
		tt.links[next[p.src]] = link{dst: p.dst, sw: p.sw, slot: p.slot}
		next[p.src]++
	}
	return tt, nil
}

// Schedule is the indexed schedule.
func (tt *Timetable) Schedule() *Schedule { return tt.s }

// SlotAt is Schedule.SlotAt with a binary search over slot starts.
func (tt *Timetable) SlotAt(sw int, t Time) (slot int, sinceSlotStart Time) {
	pos := tt.pos(sw, t)
	if tt.s.SlotDurations == nil {
		return int(pos / tt.s.Slot), pos % tt.s.Slot
	}
	slot = sort.Search(tt.s.Period, func(i int) bool { return tt.slotStart[i+1] > pos })
	return slot, pos - tt.slotStart[slot]
}

func (tt *Timetable) pos(sw int, t Time) Time {
	rel := t
	if tt.s.SwitchOffsets != nil {
		rel -= tt.s.SwitchOffsets[sw]
	}
	p := rel % tt.cycle
	if p < 0 {
		p += tt.cycle
	}
	return p
}

// NextConnection is Schedule.NextConnection (same results, same errors)
// answered from the index. It does not allocate.
func (tt *Timetable) NextConnection(u, v int, from Time) (start Time, sw, slot int, err error) {
	s := tt.s
	if u < 0 || u >= s.Nodes || v < 0 || v >= s.Nodes {
		return 0, -1, -1, fmt.Errorf("rotor: NextConnection(%d, %d): node out of range [0,%d)", u, v, s.Nodes)
	}
	if u == v {
		return 0, -1, -1, fmt.Errorf("rotor: NextConnection(%d, %d): a node needs no circuit to itself", u, v)
	}
	l := tt.links[tt.first[u]:tt.first[u+1]]
	i := sort.Search(len(l), func(i int) bool { return l[i].dst >= int32(v) })
	best, bestSw, bestSlot := Time(0), -1, -1
	for ; i < len(l) && l[i].dst == int32(v); i++ {
		w, t := int(l[i].sw), int(l[i].slot)
		pos := tt.pos(w, from)
		cycleStart := from - pos
		begin := tt.slotStart[t]
		day := tt.slotStart[t+1] - begin - s.Reconf
		var at Time
		switch {
		case pos < begin:
			at = cycleStart + begin
		case pos < begin+day:
			at = from
		default:
			at = cycleStart + tt.cycle + begin
		}
		// Links are sorted by switch, so ties keep the lowest switch.
		if bestSw < 0 || at < best {
			best, bestSw, bestSlot = at, w, t
		}
	}
	if bestSw < 0 {
		return 0, -1, -1, ErrNeverConnected
	}
	return best, bestSw, bestSlot, nil
}
