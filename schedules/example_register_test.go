package schedules_test

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// A schedule generator registers itself in an init function with its
// default timing and the optional Params fields it reads (none here):
// "reverse-rotor" plays RotorNet's n−1 cyclic shifts in reverse order
// (i → i−1 first), dealt round-robin over the U switches. Build validates
// what it returns; p.Timing resolves the slot and reconfiguration time
// against the defaults.
func init() {
	schedules.Register(schedules.Generator{
		Kind:   "reverse-rotor",
		Usage:  "RotorNet's n−1 cyclic shifts, largest first, round-robin over U switches",
		Slot:   schedules.DefaultSlot,
		Reconf: schedules.DefaultReconf,
		Build:  reverseRotor,
	})
}

func reverseRotor(p schedules.Params) (*rotor.Schedule, error) {
	if p.Nodes < 2 || p.Uplinks < 1 {
		return nil, &schedules.ParamError{Kind: "reverse-rotor", Field: "nodes", Value: p.Nodes, Problem: "need n ≥ 2 and U ≥ 1"}
	}
	slot, reconf, err := p.Timing("reverse-rotor")
	if err != nil {
		return nil, err
	}
	n, u := p.Nodes, p.Uplinks
	period := (n - 1 + u - 1) / u
	ms := make([][][]int, u)
	for s := range ms {
		ms[s] = make([][]int, period)
		for t := range ms[s] {
			m := make([]int, n)
			for i := range m {
				m[i] = rotor.Idle
				if k := s*period + t; k < n-1 {
					m[i] = (i + n - 1 - k) % n // shift n−1−k
				}
			}
			ms[s][t] = m
		}
	}
	return &rotor.Schedule{Kind: "reverse-rotor", Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf, Matchings: ms}, nil
}

func ExampleRegister() {
	s, err := schedules.Build("reverse-rotor", schedules.Params{Nodes: 4, Uplinks: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Slot, s.Reconf, s.Matchings[0])
	slot, reconf, _ := schedules.DefaultTiming("reverse-rotor")
	fmt.Println(slot, reconf)
	// Output:
	// 100us 10us [[3 0 1 2] [2 3 0 1] [1 2 3 0]]
	// 100us 10us
}
