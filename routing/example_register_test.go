package routing_test

import (
	"fmt"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
)

// A routing mode registers itself in an init function: "ring" relays
// every packet one ToR onward (t → t+1) until it reaches its destination
// ToR. Needs says what of the Setup it reads; routing.New refuses a Setup
// without it.
func init() {
	routing.Register(routing.Mode{
		Name:  "ring",
		Doc:   "one ToR onward per hop, t → t+1 (mod n), until the destination",
		Needs: routing.NeedSchedule,
		New: func(s routing.Setup) (routing.Router, error) {
			return ring{n: int32(s.Schedule.Nodes)}, nil
		},
	})
}

type ring struct{ n int32 }

func (r ring) Next(_ rotor.Time, at int, p *packet.Packet, _ bool) routing.Hop {
	return routing.Hop{To: (int32(at) + 1) % r.n}
}

func (ring) Reroute() routing.Reroute { return routing.RerouteNone }

func ExampleRegister() {
	sc := &rotor.Schedule{Nodes: 4, Switches: 1, Period: 3, Slot: rotor.Microsecond,
		Matchings: [][][]int{{{1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}}}}
	r, err := routing.New("ring", routing.Setup{Schedule: sc})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &packet.Packet{Kind: packet.Data, DstToR: 2, Via: packet.NoToR, Route: packet.NoRoute}
	fmt.Println(r.Next(0, 0, p, true).To, r.Next(0, 3, p, false).To)
	_, err = routing.New("ring", routing.Setup{})
	fmt.Println(err)
	// Output:
	// 1 0
	// routing.mode: ring needs a schedule (Setup.Schedule)
}
