package experiment_test

import (
	"fmt"

	"github.com/rdcn/rdcn/experiment"
)

// The registry says which experiments run and why the others do not yet.
func ExampleList() {
	for _, e := range experiment.List() {
		fmt.Println(e.Name, e.Available)
	}
	// Output:
	// abm true
	// abm-load true
	// credence true
	// mars-small-buffers true
	// powertcp-rdcn true
	// protean true
	// reverie true
	// tdt true
	// tradeoff true
	// vermilion-noise true
	// fb false
}
