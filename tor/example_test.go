package tor_test

import (
	"fmt"

	"github.com/rdcn/rdcn/tor"
)

// A ToR with a 6000-byte shared buffer under Dynamic Thresholds (α = 1):
// a single queue may hold α·B/(1+α) = 3000 bytes.
func Example() {
	pool := &tor.Pool{}
	t, _ := tor.New(0, tor.Config{ToRs: 4, Hosts: 2, Uplinks: 2, Buffer: 6000,
		Policy: tor.DynamicThresholds{Alpha: 1}}, pool)
	q := t.VOQ(2, tor.Local)
	for k := 0; k < 4; k++ {
		i := pool.Alloc()
		pool.At(i).Size = 1500
		fmt.Println(t.Enqueue(0, q, i), t.Bytes(q))
	}
	// Output:
	// true 1500
	// true 3000
	// false 3000
	// false 3000
}
