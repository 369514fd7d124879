package cputime_test

import (
	"fmt"

	"github.com/rdcn/rdcn/internal/cputime"
)

func ExampleProcess() {
	before, _, ok := cputime.Process()
	x := 0
	for i := 0; i < 1e7; i++ {
		x += i & 1
	}
	after, rss, _ := cputime.Process()
	fmt.Println(!ok || after >= before && rss > 0, x)
	// Output: true 5000000
}
