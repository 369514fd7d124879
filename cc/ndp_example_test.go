package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// An NDP sender of a 4-packet flow with a first window of 2: it sends
// two packets, then one per PULL; a NACKed segment (its payload trimmed
// by a switch) goes before new data.
func ExampleNDP() {
	s := cc.NewNDP(6000, 1500, 2, rotor.Millisecond, 0)
	send := func() {
		for {
			seq, _, retx, ok := s.Next(0)
			if !ok {
				return
			}
			fmt.Printf("send %d retx=%v\n", seq/1500, retx)
		}
	}
	send()
	s.OnAck(0, 10)
	s.OnNack(1, 10)
	s.OnPull(10)
	send()
	s.OnPull(12)
	s.OnPull(12)
	send()
	for seg := int64(1); seg < 4; seg++ {
		s.OnAck(seg, 20)
	}
	fmt.Println("done:", s.Done(), "retransmits:", s.Retransmits)
	// Output:
	// send 0 retx=false
	// send 1 retx=false
	// send 1 retx=true
	// send 2 retx=false
	// send 3 retx=false
	// done: true retransmits: 1
}
