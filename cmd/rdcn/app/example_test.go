package app

import (
	"fmt"
	"os"
)

// Half way from all-to-all to a permutation on 3 ToRs, hose-normalised to
// capacity 1 (rows and columns sum to 1), then a bad flag:
// status 2 and one stderr line naming the field.
func Example() {
	code := run([]string{"rdcn", "demand", "--pattern", "skew:0.5", "--tors", "3", "--normalize", "1"}, os.Stdout, os.Stdout)
	fmt.Println("status", code)
	code = run([]string{"rdcn", "demand", "--pattern", "uniform", "--tors", "1"}, os.Stdout, os.Stdout)
	fmt.Println("status", code)
	// Output:
	// 0 0.75 0.25
	// 0.25 0 0.75
	// 0.75 0.25 0
	// status 0
	// rdcn: tors: 1, want at least 2
	// status 2
}
