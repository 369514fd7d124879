package testsched_test

import (
	"fmt"

	"github.com/rdcn/rdcn/internal/testsched"
	"github.com/rdcn/rdcn/rotor"
)

// A rotor on 5 ToRs with 2 switches: shifts 1 and 2 in slot 0, 3 and 4 in
// slot 1, so every pair meets once in the period of 2 slots.
func ExampleCyclic() {
	sc, err := testsched.Cyclic(5, 2, 1, 100*rotor.Microsecond, 10*rotor.Microsecond)
	fmt.Println(err, sc.Period, sc.Matchings[0][0], sc.Matchings[1][1])
	_, err = testsched.Cyclic(5, 3, 1, 100*rotor.Microsecond, 0)
	fmt.Println(err)
	// Output:
	// <nil> 2 [1 2 3 4 0] [4 0 1 2 3]
	// testsched: 4 shifts do not divide over 3 switches
}
