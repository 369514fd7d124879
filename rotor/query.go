package rotor

import "fmt"

// Circuit is a unidirectional circuit: the uplink of Src on Switch reaches
// Dst.
type Circuit struct {
	Switch, Src, Dst int
}

// The queries below treat the schedule as running forever in both
// directions: switch sw starts slot 0 at SwitchOffsets[sw] + k·CycleDuration()
// for every integer k (offset 0 when SwitchOffsets is nil). Slot t occupies
// [start_t, start_t + SlotDuration(t)); its day, when the circuit carries
// traffic, is the first SlotDuration(t) − Reconf of it, the night the rest.
// They assume a valid schedule (see Validate) and a switch index in range.

// phase is the position of switch sw within its cycle at time t, in
// [0, CycleDuration()), and the time at which that cycle began.
func (s *Schedule) phase(sw int, t Time) (pos, cycleStart Time) {
	c := s.CycleDuration()
	rel := t
	if s.SwitchOffsets != nil {
		rel -= s.SwitchOffsets[sw]
	}
	pos = rel % c
	if pos < 0 {
		pos += c
	}
	return pos, t - pos
}

// slotOf finds the slot containing cycle position pos and the time since
// that slot began.
func (s *Schedule) slotOf(pos Time) (slot int, since Time) {
	if s.SlotDurations == nil {
		return int(pos / s.Slot), pos % s.Slot
	}
	for t, d := range s.SlotDurations {
		if pos < d {
			return t, pos
		}
		pos -= d
	}
	panic("rotor: cycle position beyond the cycle") // unreachable for a valid schedule
}

// SlotAt is the slot switch sw plays at time t and how long ago that slot
// began.
func (s *Schedule) SlotAt(sw int, t Time) (slot int, sinceSlotStart Time) {
	pos, _ := s.phase(sw, t)
	return s.slotOf(pos)
}

// SlotStart is the offset of slot t from the start of the cycle: the sum of
// the durations of slots 0..t-1.
func (s *Schedule) SlotStart(t int) Time {
	if s.SlotDurations == nil {
		return Time(t) * s.Slot
	}
	var sum Time
	for _, d := range s.SlotDurations[:t] {
		sum += d
	}
	return sum
}

// CircuitUp reports whether switch sw is in the day part of a slot at time
// t, i.e. its circuits carry traffic (false during reconfiguration).
func (s *Schedule) CircuitUp(sw int, t Time) bool {
	slot, since := s.SlotAt(sw, t)
	return since < s.SlotDuration(slot)-s.Reconf
}

// CircuitsAt lists the circuits that carry traffic at time t, by switch and
// then source. Idle ports and self-maps (u → u) are left out.
func (s *Schedule) CircuitsAt(t Time) []Circuit {
	return s.AppendCircuitsAt(nil, t)
}

// AppendCircuitsAt appends the circuits up at time t to dst and returns the
// extended slice; with a dst of sufficient capacity it does not allocate.
func (s *Schedule) AppendCircuitsAt(dst []Circuit, t Time) []Circuit {
	for sw := range s.Switches {
		slot, since := s.SlotAt(sw, t)
		if since >= s.SlotDuration(slot)-s.Reconf {
			continue
		}
		for u, v := range s.Matchings[sw][slot] {
			if v != Idle && v != u {
				dst = append(dst, Circuit{Switch: sw, Src: u, Dst: v})
			}
		}
	}
	return dst
}

// NextConnection is the earliest time at or after from at which some uplink
// of u has a circuit to v that carries traffic (day time), together with
// the switch and the slot of that circuit. If from falls inside such a day,
// it returns from. Ties go to the lowest switch index. It returns
// ErrNeverConnected if no slot of any switch maps u to v, and an error if u
// or v is out of range or u == v.
func (s *Schedule) NextConnection(u, v int, from Time) (start Time, sw, slot int, err error) {
	if u < 0 || u >= s.Nodes || v < 0 || v >= s.Nodes {
		return 0, -1, -1, fmt.Errorf("rotor: NextConnection(%d, %d): node out of range [0,%d)", u, v, s.Nodes)
	}
	if u == v {
		return 0, -1, -1, fmt.Errorf("rotor: NextConnection(%d, %d): a node needs no circuit to itself", u, v)
	}
	c := s.CycleDuration()
	best, bestSw, bestSlot := Time(0), -1, -1
	for w := range s.Switches {
		pos, cycleStart := s.phase(w, from)
		var slotStart Time
		for t, m := range s.Matchings[w] {
			d := s.SlotDuration(t)
			if m[u] == v {
				var at Time
				switch day := d - s.Reconf; {
				case pos < slotStart:
					at = cycleStart + slotStart // later in this cycle
				case pos < slotStart+day:
					at = from // inside the day right now
				default:
					at = cycleStart + c + slotStart // in the next cycle
				}
				if bestSw < 0 || at < best {
					best, bestSw, bestSlot = at, w, t
				}
			}
			slotStart += d
		}
	}
	if bestSw < 0 {
		return 0, -1, -1, ErrNeverConnected
	}
	return best, bestSw, bestSlot, nil
}
