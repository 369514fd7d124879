package experiment_test

import (
	"fmt"

	"github.com/rdcn/rdcn/experiment"
)

// The registry says which experiments run and why the others do not yet.
func ExampleList() {
	for _, e := range experiment.List()[:4] {
		fmt.Println(e.Name, e.Available)
	}
	// Output:
	// mars-small-buffers true
	// tradeoff true
	// vermilion-noise true
	// abm false
}
