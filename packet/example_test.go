package packet_test

import (
	"fmt"

	"github.com/rdcn/rdcn/packet"
)

// A data packet crosses two switch queues, then becomes its ACK: the ACK
// carries the data path's two INT records back, and the queues it passes
// on its own way stamp nothing.
func Example() {
	ints, _ := packet.NewIntStore(4)
	var pool packet.Pool
	idx := pool.Alloc()
	p := pool.At(idx)
	p.Reset(packet.Data)
	p.Size = 1500
	ints.Stamp(idx, p, packet.IntHop{Ts: 10, Qlen: 3000, Port: 0})
	ints.Stamp(idx, p, packet.IntHop{Ts: 12, Qlen: 0, Port: 5})
	p.Kind, p.Size = packet.Ack, 64
	ints.Stamp(idx, p, packet.IntHop{Ts: 20, Port: 2}) // ACK path: ignored
	for _, h := range ints.Records(idx, p) {
		fmt.Printf("port %d at %d, %d B queued\n", h.Port, h.Ts, h.Qlen)
	}
	fmt.Println(p.Kind, p.IntN)
	// Output:
	// port 0 at 10, 3000 B queued
	// port 5 at 12, 0 B queued
	// ack 2
}
