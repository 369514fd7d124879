package testsched

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Cyclic is a RotorNet-style rotor on n nodes with u switches: the cyclic
// shifts first … n−1 (first = 1: a true rotor; 0: with the idle
// self-slot) dealt round-robin to the switches, so switch s in slot k maps
// i → i + first + s + k·u (mod n).
func Cyclic(n, u, first int, slot, reconf rotor.Time) (*rotor.Schedule, error) {
	shifts := n - first
	if u <= 0 || shifts <= 0 || shifts%u != 0 {
		return nil, fmt.Errorf("testsched: %d shifts do not divide over %d switches", shifts, u)
	}
	period := shifts / u
	m := make([][][]int, u)
	for s := range m {
		m[s] = make([][]int, period)
		for k := range m[s] {
			m[s][k] = shift(n, first+s+k*u)
		}
	}
	sc := &rotor.Schedule{Kind: "rotornet", Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf, Matchings: m}
	return sc, sc.Validate()
}

// DarkCircuit is four ToRs and two switches with 100 µs slots and nights
// of reconf. Switch A plays shift 1 (t → t+1) in slot 0 and shift 3
// (t → t−1) in the 11 slots after it; switch B plays shift 3 throughout,
// its slots offset by 50 µs. So 0 → 1 is up directly in A's first day
// only, and 0 → 3 → 2 → 1 over B (or A after slot 0) whenever it is dark.
// In the first 100 µs with reconf = 10 µs:
//
//	[0, 40)   A shift 1, B shift 3   0 → 1 direct (A), 0 → 3 direct (B)
//	[40, 50)  B's night: A only
//	[50, 90)  A shift 1, B shift 3
//	[90, 100) A's night: B only; 0 → 1 is next up at 1.2 ms
func DarkCircuit(reconf rotor.Time) (*rotor.Schedule, error) {
	const n, period = 4, 12
	a, b := make([][]int, period), make([][]int, period)
	for k := range a {
		a[k], b[k] = shift(n, 3), shift(n, 3)
	}
	a[0] = shift(n, 1)
	us := rotor.Microsecond
	sc := &rotor.Schedule{Kind: "test", Nodes: n, Switches: 2, Period: period, Slot: 100 * us, Reconf: reconf,
		Matchings: [][][]int{a, b}, SwitchOffsets: []rotor.Time{0, 50 * us}}
	return sc, sc.Validate()
}

// shift is the matching i → i + k (mod n).
func shift(n, k int) []int {
	row := make([]int, n)
	for i := range row {
		row[i] = (i + k) % n
	}
	return row
}
