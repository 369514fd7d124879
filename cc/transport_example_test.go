package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// A host drives any transport through its two flow ends: it asks the
// Source for segments, hands each data packet to the Sink at the
// receiver, which turns it into its reply in place, and hands the reply
// back to the Source. Here the windowed transport with a fixed window of
// two segments carries a 2,500-byte flow; the network is a 10 µs wire.
func ExampleSource() {
	spec, _ := cc.LookupTransport(cc.TransportWindow)
	src, sink := spec.New(cc.Flow{Size: 2500, MSS: 1000, AckSize: 64,
		MinRTO: rotor.Millisecond, Law: &cc.Fixed{Bytes: 2000}})
	const wire = 10 * rotor.Microsecond
	var now rotor.Time
	var inFlight []packet.Packet
	var fb cc.Feedback
	for !src.Done() {
		for src.CanSend() {
			seq, size, _, _ := src.Next(now)
			p := packet.Packet{Kind: packet.Data, Seq: seq, Size: size, Sent: now, SrcHost: 0, DstHost: 1}
			inFlight = append(inFlight, p)
			fmt.Printf("%v: send %d+%d\n", now, seq, size)
		}
		now += wire
		p := inFlight[0]
		inFlight = inFlight[1:]
		v := sink.Receive(now, &p) // p is now the ACK, addressed to host 0
		fmt.Printf("%v: %v to host %d, cum %d, complete %v\n", now, p.Kind, p.DstHost, p.Seq, v&cc.Complete != 0)
		now += wire
		src.OnReply(now, &p, &fb)
	}
	got, _ := sink.Counts()
	fmt.Println("received", got)
	// Output:
	// 0s: send 0+1000
	// 0s: send 1000+1000
	// 10us: ack to host 0, cum 1000, complete false
	// 20us: send 2000+500
	// 30us: ack to host 0, cum 2000, complete false
	// 50us: ack to host 0, cum 2500, complete true
	// received 2500
}
