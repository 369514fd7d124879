package packet

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// Kind is what a packet is.
type Kind uint8

// Packet kinds.
const (
	Data    Kind = iota // payload bytes of a flow
	Ack                 // cumulative acknowledgement (Seq), answering the data segment EchoSeg
	Nack                // negative acknowledgement of the data segment EchoSeg
	Trimmed             // a data packet's header, its payload cut by a full queue
	Pull                // receiver's request for the next data packet (receiver-driven transports)
	Pause               // PFC pause of the link's class
	Resume              // PFC resume of the link's class
	Syn                 // a connection's opening from its sender: the SYN (Seq 0), then the ACK of the SYN-ACK (Seq 1)
	SynAck              // the receiver's answer to a SYN
	numKinds
)

var kindNames = [numKinds]string{"data", "ack", "nack", "trimmed", "pull", "pause", "resume", "syn", "syn-ack"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "kind?"
}

// Control reports whether k is a control packet (everything but data and
// trimmed headers): switches may give such packets a higher class.
func (k Kind) Control() bool { return k != Data && k != Trimmed }

// NoToR marks Via (and other ToR references) as unset.
const NoToR int32 = -1

// NoRoute marks Route as unset.
const NoRoute int32 = -1

// Flags are a packet's yes/no properties, one bit each.
type Flags uint8

// Flag bits.
const (
	ECN      Flags = 1 << iota // congestion experienced (set by a switch queue)
	ECE                        // ack: echo of the data packet's ECN
	Retx                       // data: a retransmission; ack: answers one (no RTT sample)
	Circuit                    // data: crossed a circuit; ack: the data packet did
	Pulled                     // host-buffered data the ToR pulled: lossless, room reserved hop by hop
	Bounced                    // nack: a header a switch returned to its sender (NDP's return to sender)
	Parked                     // ndp: waits in a ToR's VOQ for a circuit that went dark
	Returned                   // ndp: a control packet a full header queue sent back toward the host that sent it
)

// The per-kind word: a relayed pulled data packet keeps its Keeper there,
// an NDP control packet its PullNo. No packet is both, so the two share
// one word and the packet stays one cache line; each is read and written
// only through its own accessors.

// Keeper is the host of the relay rack that stores a relayed pulled data
// packet until its relay ToR pulls it again (at Ready).
func (p *Packet) Keeper() int32 { return p.kindWord }

// SetKeeper sets Keeper.
func (p *Packet) SetKeeper(host int32) { p.kindWord = host }

// PullNo is the cumulative PULL number an NDP PULL, ACK or NACK carries
// (transport.ndp_pulls = operasim; 0: none, or a PULL that grants one
// packet).
func (p *Packet) PullNo() int32 { return p.kindWord }

// SetPullNo sets PullNo.
func (p *Packet) SetPullNo(n int32) { p.kindWord = n }

// Has reports whether all of f are set.
func (p *Packet) Has(f Flags) bool { return p.Flags&f == f }

// Set sets f.
func (p *Packet) Set(f Flags) { p.Flags |= f }

// MaxSegments is the most segments a flow may have: an ACK names the
// segment it answers in 32 bits (EchoSeg).
const MaxSegments = 1<<31 - 1

// Packet is a packet of any kind. Packets live in a Pool and are passed
// around by index. It is 64 bytes, one cache line (the fields are ordered
// by size so that nothing is padded; TestSize): the simulator touches a
// packet or two per event, and at 80 bytes most packets straddled two
// lines.
type Packet struct {
	Seq  int64      // data, trimmed: byte offset of the first payload byte; ack: cumulative ack
	Sent rotor.Time // when the data packet was injected (echoed by its ACK for RTT samples)
	// Ready is when a relayed pulled packet reaches the host that keeps
	// it (Keeper()) until its relay ToR pulls it again.
	Ready   rotor.Time
	Flow    int32 // flow id
	Size    int32 // bytes on the wire
	SrcHost int32
	DstHost int32
	DstToR  int32 // rack (leaf) of DstHost
	Via     int32 // next intermediate ToR on a two-hop route, or NoToR
	// Route is the router's source-route reference, or NoRoute: with
	// k-shortest paths the packet's path; with paths' next-hop table and
	// routing.source = nic the slice whose table it reads.
	Route int32
	// kindWord holds Keeper (relayed pulled data) or PullNo (NDP control);
	// read it only through those accessors.
	kindWord int32
	EchoSeg  int32 // ack, nack: segment (offset / MSS) of the data packet answered
	Kind     Kind
	Hops     uint8 // switch-to-switch hops taken so far (circuit, packet switch, spine)
	IntN     uint8 // INT hops stamped (saturates at 255); records kept in an IntStore
	Flags    Flags
}

// Reset makes p a fresh packet of kind k: zero fields, no intermediate,
// no route.
func (p *Packet) Reset(k Kind) {
	*p = Packet{Kind: k, Via: NoToR, Route: NoRoute}
}

// Pool stores packets by index.
type Pool = des.Pool[Packet]
