package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// A fixed window of two segments: the sender stops after two packets and
// continues when an ACK frees the window.
func Example() {
	s := cc.NewSender(3000, 1000, true, &cc.Fixed{Bytes: 2000}, rotor.Millisecond)
	for {
		seq, _, _, ok := s.Next(0)
		if !ok {
			break
		}
		fmt.Println("send", seq)
	}
	var a cc.Ack
	s.OnAck(5*rotor.Microsecond, 1000, 0, 0, false, &a)
	seq, _, _, _ := s.Next(5 * rotor.Microsecond)
	fmt.Println("ack, rtt", a.RTT, "then send", seq)
	// Output:
	// send 0
	// send 1000
	// ack, rtt 5us then send 2000
}
