package experiment_test

import (
	"fmt"

	"github.com/rdcn/rdcn/experiment"
)

// The registry lists every named experiment and whether it can run.
func ExampleList() {
	for _, e := range experiment.List() {
		fmt.Println(e.Name, e.Available)
	}
	// Output:
	// abm true
	// abm-load true
	// credence true
	// fb true
	// mars-small-buffers true
	// powertcp-rdcn true
	// protean true
	// reverie true
	// tdt true
	// tradeoff true
	// vermilion-noise true
}
