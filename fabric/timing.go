package fabric

import "github.com/rdcn/rdcn/rotor"

// slotAt returns the slot switch sw is in at time t and when that slot
// started, honouring per-slot durations and the switch's offset: switch sw
// starts slot 0 at SwitchOffsets[sw] + k·cycle.
func slotAt(sc *rotor.Schedule, sw int, t rotor.Time) (slot int, start rotor.Time) {
	cycle := sc.CycleDuration()
	var off rotor.Time
	if sc.SwitchOffsets != nil {
		off = sc.SwitchOffsets[sw]
	}
	rel := (t - off) % cycle
	if rel < 0 {
		rel += cycle
	}
	if sc.SlotDurations == nil {
		k := int(rel / sc.Slot)
		return k, t - (rel - rotor.Time(k)*sc.Slot)
	}
	var acc rotor.Time
	for k, d := range sc.SlotDurations {
		if rel < acc+d {
			return k, t - (rel - acc)
		}
		acc += d
	}
	return sc.Period - 1, t - (rel - (acc - sc.SlotDurations[sc.Period-1]))
}
