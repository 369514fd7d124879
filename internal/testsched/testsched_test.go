package testsched

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestCyclicMeetsEveryPairOnce: over a period every ordered pair (i, j),
// i ≠ j, is matched exactly once across the switches (first = 1), and the
// self-slot appears exactly once per ToR with first = 0.
func TestCyclicMeetsEveryPairOnce(t *testing.T) {
	for _, c := range []struct{ n, u, first int }{{8, 1, 1}, {8, 7, 1}, {9, 4, 1}, {8, 4, 0}, {16, 2, 0}} {
		sc, err := Cyclic(c.n, c.u, c.first, 100*rotor.Microsecond, 10*rotor.Microsecond)
		if err != nil {
			t.Fatal(err)
		}
		met := make([]int, c.n*c.n)
		for s := range sc.Matchings {
			for _, row := range sc.Matchings[s] {
				for i, j := range row {
					met[i*c.n+j]++
				}
			}
		}
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.n; j++ {
				want := 1
				if i == j && c.first == 1 {
					want = 0
				}
				if met[i*c.n+j] != want {
					t.Errorf("%+v: pair %d → %d met %d times, want %d", c, i, j, met[i*c.n+j], want)
				}
			}
		}
	}
}

// TestDarkCircuitUpTimes: 0 → 1 is direct only in switch A's slot 0; every
// other slot of A and all of B map 0 → 3.
func TestDarkCircuitUpTimes(t *testing.T) {
	sc, err := DarkCircuit(10 * rotor.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	direct := 0
	for s := range sc.Matchings {
		for k, row := range sc.Matchings[s] {
			switch {
			case row[0] == 1:
				direct++
				if s != 0 || k != 0 {
					t.Errorf("0 → 1 up on switch %d slot %d, want only switch 0 slot 0", s, k)
				}
			case row[0] != 3:
				t.Errorf("switch %d slot %d maps 0 → %d, want 1 or 3", s, k, row[0])
			}
		}
	}
	if direct != 1 || sc.SwitchOffsets[1] != 50*rotor.Microsecond {
		t.Errorf("0 → 1 direct in %d slots, B offset %v: want 1 slot and 50 µs", direct, sc.SwitchOffsets[1])
	}
}
