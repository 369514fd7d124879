package sweep_test

import (
	"fmt"
	"strings"

	"github.com/rdcn/rdcn/sweep"
)

// A sweep of the certified throughput of RotorNet and Opera schedules
// over the number of ToRs: the product of the axes, each point named by
// its values.
func ExampleParse() {
	s, err := sweep.Parse(strings.NewReader(`
kind = "throughput"
[base]
"throughput.demand" = "uniform"
[axes]
"topology.tors" = [8, 16]
"schedule.kind" = ["rotornet", "opera"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range s.Points() {
		fmt.Println(p.Index, p.Name)
	}
	// Output:
	// 0 tors=8_kind=rotornet
	// 1 tors=8_kind=opera
	// 2 tors=16_kind=rotornet
	// 3 tors=16_kind=opera
}
