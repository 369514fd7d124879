package schedules

import (
	"github.com/rdcn/rdcn/rotor"
)

// shiftCount is the number of cyclic-shift matchings: n−1 shifts 1…n−1, or
// n when the idle self-matching (shift 0) is counted.
func shiftCount(p Params) int {
	if p.SelfSlot {
		return p.Nodes
	}
	return p.Nodes - 1
}

// shift is the k-th cyclic shift of the list (k = 0 is the self-matching
// when SelfSlot is set): u → (u+i) mod n with i = k+1, or i = k with SelfSlot.
func shift(p Params, k int) int {
	if p.SelfSlot {
		return k
	}
	return k + 1
}

// fillShift writes u → (u+i) mod n into m; i = 0 (the self-map) stays Idle
// because a circuit from a node to itself carries nothing.
func fillShift(m []int, i int) {
	n := len(m)
	if i%n == 0 {
		return
	}
	for u := range m {
		m[u] = (u + i) % n
	}
}

func checkShifts(kind string, p Params) error {
	if err := checkSize(kind, p); err != nil {
		return err
	}
	if m := shiftCount(p); p.Uplinks > m {
		return paramError(kind, "uplinks", p.Uplinks, "exceeds the %d matchings of the complete graph on %d nodes; some switches would never carry a circuit", m, p.Nodes)
	}
	return nil
}

// RotorNet is the true rotor: the n−1 cyclic shifts u → (u+i) mod n,
// i = 1…n−1 (plus the idle self-matching i = 0 first when p.SelfSlot),
// dealt round-robin over the U rotor switches: in slot t switch s plays
// matching t·U+s of that list. The period is ⌈count/U⌉; when U does not
// divide the count, the last slot of the highest switches is idle. Over a
// period every ordered pair u ≠ v is connected exactly once.
//
// All switches reconfigure together unless p.Stagger is set: then switch s
// is offset by ⌊s·Δ/U⌋, like Opera's rotors, so that only one switch is
// dark at a time; that needs Δr ≤ ⌊Δ/U⌋, and a longer Δr is refused.
func RotorNet(p Params) (*rotor.Schedule, error) {
	s, err := shiftSchedule("rotornet", p,
		func(s, t, u, period int) int { return t*u + s },
		"round-robin: switch s plays shift t*U+s+1 (t*U+s with self_slot) in slot t")
	if err != nil || !p.Stagger {
		return s, err
	}
	s.SwitchOffsets = staggerOffsets(s.Slot, s.Switches)
	if s.Switches > 1 && s.Reconf > s.SwitchOffsets[1] {
		return nil, paramError("rotornet", "reconf", s.Reconf,
			"stagger keeps one switch dark at a time only if the reconfiguration fits in slot/U = %v", s.SwitchOffsets[1])
	}
	s.Meta["stagger"] = "switch s offset by s*slot/U"
	return s, nil
}

// Sirius is the complete graph as a tunable-laser schedule: node u's uplink
// s (the laser feeding grating s) sweeps its own contiguous band of shifts,
// reaching (u + s·P + t + 1) mod n in slot t, where P = ⌈(n−1)/U⌉ is the
// period (with p.SelfSlot the band list starts at shift 0 and has n
// entries). In every slot the U uplinks of a node reach U distinct
// destinations; over a period every ordered pair u ≠ v is connected exactly
// once. Defaults are nanosecond scale: 3.84 ns reconfiguration in 384 ns
// slots (duty cycle 0.99).
func Sirius(p Params) (*rotor.Schedule, error) {
	return shiftSchedule("sirius", p,
		func(s, t, u, period int) int { return s*period + t },
		"per-uplink band: uplink s reaches shift s*P+t+1 (s*P+t with self_slot) in slot t")
}

// shiftSchedule deals the cyclic shifts over the U switches: switch s plays
// shift-list entry index(s, t, U, period) in slot t, or idles when the list
// is exhausted.
func shiftSchedule(kind string, p Params,
	index func(s, t, u, period int) int, assignment string) (*rotor.Schedule, error) {
	if err := checkShifts(kind, p); err != nil {
		return nil, err
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	n, u, count := p.Nodes, p.Uplinks, shiftCount(p)
	period := (count + u - 1) / u
	if err := checkCycle(kind, slot, period); err != nil {
		return nil, err
	}
	ms := emptyMatchings(u, period, n)
	for s := 0; s < u; s++ {
		for t := 0; t < period; t++ {
			if k := index(s, t, u, period); k < count {
				fillShift(ms[s][t], shift(p, k))
			}
		}
	}
	return &rotor.Schedule{
		Kind: kind, Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf,
		Matchings: ms,
		Meta: map[string]any{
			"nodes": n, "uplinks": u, "self_slot": p.SelfSlot, "matchings": count,
			"remainder_idle_slots": u*period - count,
			"assignment":           assignment,
		},
	}, nil
}
