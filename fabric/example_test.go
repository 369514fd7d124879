package fabric_test

import (
	"fmt"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// One 3000-byte flow on a 4-ToR rotor whose circuit 0→2 is up in slot 1
// ([10 µs, 19 µs)): the packets wait in the VOQ for it.
func Example() {
	shift := func(k int) []int { return []int{k % 4, (1 + k) % 4, (2 + k) % 4, (3 + k) % 4} }
	sc := &rotor.Schedule{Nodes: 4, Switches: 1, Period: 3, Slot: 10 * rotor.Microsecond,
		Reconf: rotor.Microsecond, Matchings: [][][]int{{shift(1), shift(2), shift(3)}}}
	r, err := fabric.Run(fabric.Config{
		Schedule: sc, HostsPerToR: 1,
		HostLink: 10 * rotor.Gbps, CircuitLink: 10 * rotor.Gbps,
		HostDelay: 100 * rotor.Nanosecond, LinkDelay: 100 * rotor.Nanosecond,
		Buffer: 1_000_000, Routing: fabric.Direct,
		Flows:   &fabric.SliceSource{Flows: []workload.Flow{{Src: 0, Dst: 2, Bytes: 3000}}},
		SimTime: rotor.Millisecond, Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := r.Flows[0]
	fmt.Println("FCT", f.FCT, "ideal", f.Ideal, "hops", f.MaxHops)
	// Output:
	// FCT 13.8us ideal 5.1us hops 1
}
