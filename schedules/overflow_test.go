package schedules

import (
	"errors"
	"math/big"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// TestBuildSlotOverflow: a slot whose cycle (slot × period) exceeds
// rotor.MaxCycle is a *ParamError on "slot" for every kind. rotornet with
// 4 ToRs, 1 uplink and a 9·10^6 s slot used to build a schedule whose cycle
// had wrapped around int64.
func TestBuildSlotOverflow(t *testing.T) {
	for _, kind := range Kinds() {
		for _, slot := range []rotor.Time{9_000_000 * rotor.Second, 2_000_000 * rotor.Second} {
			if kind == "static" && slot < rotor.MaxCycle {
				continue // period 1: a valid slot
			}
			p := Params{Nodes: 8, Uplinks: 2, Slot: slot, Demand: demand.Uniform(8), Degree: 8}
			_, err := Build(kind, p)
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != "slot" {
				t.Errorf("%s slot %v: %v, want a *ParamError on slot", kind, slot, err)
			}
		}
	}
	// The largest rotornet slot is accepted.
	if _, err := Build("rotornet", Params{Nodes: 4, Uplinks: 1, Slot: rotor.MaxCycle / 3}); err != nil {
		t.Errorf("rotornet at MaxCycle: %v", err)
	}
}

// TestOperaOffsetsLargeSlot: the switch offsets ⌊slot·s/U⌋ are exact even
// when slot·s does not fit int64 (U > Γ lets slot reach MaxCycle).
func TestOperaOffsetsLargeSlot(t *testing.T) {
	slot := rotor.MaxCycle - 12345
	s, err := Build("opera", Params{Nodes: 8, Uplinks: 8, Slot: slot})
	if err != nil {
		t.Fatal(err)
	}
	for sw, got := range s.SwitchOffsets {
		want := new(big.Int).Mul(big.NewInt(int64(slot)), big.NewInt(int64(sw)))
		want.Quo(want, big.NewInt(8))
		if int64(got) != want.Int64() || got < 0 {
			t.Errorf("offset[%d] = %d, want %v", sw, got, want)
		}
	}
}
