package tor

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// MaxINT is the number of INT hop records a packet can carry.
const MaxINT = 4

// IntHop is one in-band telemetry record, stamped when the packet leaves a
// queue.
type IntHop struct {
	Ts      rotor.Time // dequeue time
	Qlen    int64      // bytes left in the queue after this packet left
	TxBytes int64      // bytes dequeued from the egress port so far, this packet included
	Rate    rotor.Rate // egress link rate
	Port    int32      // egress port id, unique within the ToR
}

// Packet kinds.
const (
	Data uint8 = iota
	Ack
)

// Packet is a data packet or an acknowledgement. Packets live in a Pool and
// are passed around by index. It is 64 bytes, one cache line (the fields
// are ordered by size so that nothing but the tail is padded; TestPacketSize): the
// simulator touches a packet or two per event, and at 80 bytes most
// packets straddled two lines.
type Packet struct {
	Seq     int64 // data: byte offset of the first payload byte; ack: cumulative ack
	SackSeq int64 // ack: offset of the data packet this ack answers; relayed pulled data: see Ready
	Sent    rotor.Time
	Flow    int32 // flow id
	Size    int32 // bytes on the wire
	SrcHost int32
	DstHost int32
	SrcToR  int32
	DstToR  int32
	Via     int32 // next intermediate ToR on a two-hop route, or -1
	Keeper  int32 // pulled and relayed: the host of the relay rack that stores it
	Kind    uint8
	Hops    uint8 // circuit (or packet-switch) hops taken so far
	ECN     bool  // congestion experienced (set by a ToR queue)
	ECE     bool  // ack: echo of ECN
	Retx    bool  // a retransmission
	Circuit bool  // ack: the data packet crossed a circuit
	Pulled  bool  // host-buffered data the ToR pulled: lossless, room reserved hop by hop
	IntN    uint8 // INT records stamped so far (kept in an IntStore)
}

// Ready is when a relayed pulled packet reaches the host that stores it.
// Data packets have no use for SackSeq, so it holds it.
func (p *Packet) Ready() rotor.Time { return rotor.Time(p.SackSeq) }

// SetReady sets Ready.
func (p *Packet) SetReady(t rotor.Time) { p.SackSeq = int64(t) }

// IntStore keeps the INT hop records of packets beside them, indexed by
// packet index, so that packets stay small when INT is off.
type IntStore struct {
	recs [][MaxINT]IntHop
}

// Hops returns the records of packet idx (valid up to its IntN).
func (s *IntStore) Hops(idx int32) *[MaxINT]IntHop {
	for int(idx) >= len(s.recs) {
		s.recs = append(s.recs, [MaxINT]IntHop{})
	}
	return &s.recs[idx]
}

// Pool stores packets by index.
type Pool = des.Pool[Packet]
