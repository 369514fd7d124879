package schedules_test

import (
	"fmt"

	"github.com/rdcn/rdcn/schedules"
)

// A true rotor over 5 ToRs and 2 rotor switches: the 4 cyclic shifts in
// 2 slots, so every ToR reaches every other ToR once per period.
func ExampleBuild() {
	s, err := schedules.Build("rotornet", schedules.Params{Nodes: 5, Uplinks: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Kind, "period", s.Period, "duty cycle", s.DutyCycle())
	for sw, slots := range s.Matchings {
		for t, m := range slots {
			fmt.Printf("switch %d slot %d: %v\n", sw, t, m)
		}
	}
	_, err = schedules.Build("rotornet", schedules.Params{Nodes: 5, Uplinks: 5})
	fmt.Println(err)
	// Output:
	// rotornet period 2 duty cycle 0.9
	// switch 0 slot 0: [1 2 3 4 0]
	// switch 0 slot 1: [3 4 0 1 2]
	// switch 1 slot 0: [2 3 4 0 1]
	// switch 1 slot 1: [4 0 1 2 3]
	// rotornet: uplinks = 5: exceeds the 4 matchings of the complete graph on 5 nodes; some switches would never carry a circuit
}

// Kinds lists rdcn's kinds and the registered ones (here
// example_register_test.go's reverse-rotor), sorted.
func ExampleKinds() {
	fmt.Println(schedules.Kinds())
	// Output: [bvn mars opera reverse-rotor rotornet sirius static vermilion]
}
