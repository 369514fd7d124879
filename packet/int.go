package packet

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// IntHop is one in-band telemetry record, stamped when a data packet
// leaves a switch queue.
type IntHop struct {
	Ts      rotor.Time // dequeue time
	Qlen    int64      // bytes left in the queue after this packet left
	TxBytes int64      // bytes dequeued from the egress port so far, this packet included
	Rate    rotor.Rate // egress link rate
	Port    int32      // egress port id: the fabric's global port id (unique in the fabric); a lone switch's own id
}

// MaxHopsLimit is the most records a store keeps per packet (IntN counts
// to 255).
const MaxHopsLimit = 64

// IntStore keeps the INT records of packets beside them, indexed by packet
// index, so that packets stay small when INT is off. It holds MaxHops
// records per packet.
type IntStore struct {
	hops int
	recs []IntHop // [idx·hops + i]
}

// NewIntStore returns a store for up to maxHops records per packet
// (1 ≤ maxHops ≤ MaxHopsLimit).
func NewIntStore(maxHops int) (*IntStore, error) {
	if maxHops < 1 || maxHops > MaxHopsLimit {
		return nil, fmt.Errorf("INT hops %d: must be in [1, %d]", maxHops, MaxHopsLimit)
	}
	return &IntStore{hops: maxHops}, nil
}

// MaxHops is the number of records kept per packet.
func (s *IntStore) MaxHops() int { return s.hops }

// Stamp records h as the next hop of data packet p (index idx). Packets
// of other kinds are not stamped. Hops past MaxHops are counted in IntN
// but not kept.
func (s *IntStore) Stamp(idx int32, p *Packet, h IntHop) {
	if p.Kind != Data {
		return
	}
	if n := int(p.IntN); n < s.hops {
		base := int(idx) * s.hops
		for base+s.hops > len(s.recs) {
			s.recs = append(s.recs, make([]IntHop, s.hops)...)
		}
		s.recs[base+n] = h
	}
	if p.IntN < 255 {
		p.IntN++
	}
}

// Records returns the kept records of packet p (index idx), in hop order.
// The slice aliases the store and is valid until the packet is reused.
func (s *IntStore) Records(idx int32, p *Packet) []IntHop {
	n := min(int(p.IntN), s.hops)
	if n == 0 {
		return nil
	}
	base := int(idx) * s.hops
	return s.recs[base : base+n : base+n]
}

// Truncated reports whether p took more hops than the store keeps.
func (s *IntStore) Truncated(p *Packet) bool { return int(p.IntN) > s.hops }
