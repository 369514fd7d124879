package schedules

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestSliceGraphsAgreeWithRotor checks the slice enumeration against the
// rotor package's own clock (CircuitUp / SlotAt) at every slice start and
// just before the next one, including a reconfiguration longer than Δ/U.
func TestSliceGraphsAgreeWithRotor(t *testing.T) {
	for _, reconf := range []rotor.Time{0, 3 * rotor.Microsecond, 40 * rotor.Microsecond} {
		s, err := Opera(Params{Nodes: 24, Uplinks: 6, Seed: 5, Slot: 100 * rotor.Microsecond, Reconf: reconf})
		if err != nil {
			t.Fatal(err)
		}
		slices := sliceGraphs(s)
		for i, sl := range slices {
			end := s.CycleDuration()
			if i+1 < len(slices) {
				end = slices[i+1].start
			}
			for _, at := range []rotor.Time{sl.start, end - 1} {
				var want [][2]int
				for sw := 0; sw < s.Switches; sw++ {
					if s.CircuitUp(sw, at) {
						slot, _ := s.SlotAt(sw, at)
						want = append(want, [2]int{sw, slot})
					}
				}
				if len(want) != len(sl.up) || !subset(want, sl.up) {
					t.Fatalf("reconf %v, slice %d at %v: up %v, rotor says %v", reconf, i, at, sl.up, want)
				}
			}
		}
	}
}
