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

// A lossless receiver (no ACKs, no retransmissions) counts bytes and
// reordering: the second segment arrives after the third.
func ExampleNewLosslessReceiver() {
	r := cc.NewLosslessReceiver(2500, 1000)
	for _, seq := range []int64{0, 2000, 1000} {
		size := int32(min(1000, 2500-seq))
		_, done := r.OnData(seq, size)
		fmt.Println("got", seq, "complete", done)
	}
	fmt.Println("received", r.Received(), "reordered", r.Reordered)
	// Output:
	// got 0 complete false
	// got 2000 complete false
	// got 1000 complete true
	// received 2500 reordered 1
}
