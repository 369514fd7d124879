package routing_test

import (
	"fmt"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
)

// A four-ToR rotor with one switch: slot k (10 µs, the last 1 µs a night)
// connects every ToR i to i+k+1 (mod 4). A packet from ToR 0 to ToR 3
// takes the ring 0→1→2→3 in slot 0 (paths and earliest agree); in slot 1
// ToR 0 reaches only ToR 2, so paths waits for slot 2's direct circuit
// and so does earliest.
func Example() {
	us := rotor.Microsecond
	m := [][][]int{{{1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}}}
	sc := &rotor.Schedule{Nodes: 4, Switches: 1, Period: 3, Slot: 10 * us, Reconf: us, Matchings: m}
	fmt.Println("epochs start at", routing.NewEpochs(sc).Bounds)
	p := &packet.Packet{Kind: packet.Data, DstToR: 3, Via: packet.NoToR, Route: packet.NoRoute}
	for _, mode := range []string{routing.Direct, routing.Paths, routing.Earliest} {
		r, err := routing.New(mode, routing.Setup{Schedule: sc, PathsK: 1, Bulk: func(int32) bool { return false }})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, at := range []rotor.Time{5 * us, 15 * us} {
			fmt.Printf("%s at %v: ToR 0 → %d\n", mode, at, r.Next(at, 0, p, true).To)
		}
	}
	// Output:
	// epochs start at [0s 9us 10us 19us 20us 29us]
	// direct at 5us: ToR 0 → 3
	// direct at 15us: ToR 0 → 3
	// paths at 5us: ToR 0 → 1
	// paths at 15us: ToR 0 → 3
	// earliest at 5us: ToR 0 → 1
	// earliest at 15us: ToR 0 → 3
}
