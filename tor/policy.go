package tor

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// QueueID indexes a queue of one ToR (see ToR.VOQ, ToR.HostQueue,
// ToR.PacketSwitchQueue).
type QueueID int32

// QueueState is the occupancy of one queue and the port it drains into.
type QueueState struct {
	Bytes   int64
	Rate    rotor.Rate // rate of the port the queue drains into (0: not configured)
	Packets int32
	// Port is the queue's egress port id, unique within the switch: a
	// physical port for host, packet-switch and fabric queues; for a VOQ,
	// the virtual output toward its next-hop ToR (ToR.VOQPort), since a
	// VOQ leaves by whichever uplink's circuit reaches that ToR.
	Port    int32
	NextHop int32 // VOQ: next-hop ToR; −1 for other queues
	Prio    int8  // VOQ: Transit (0, high) or Local (1); other queues: class, 0 served first
}

// BufferState is what a policy sees of a ToR's shared buffer.
type BufferState struct {
	Size   int64        // B, bytes
	Used   int64        // Q, bytes occupied
	Queues []QueueState // indexed by QueueID
}

// Free is B − Q.
func (s *BufferState) Free() int64 { return s.Size - s.Used }

// Verdict is a policy's decision on an arriving packet.
type Verdict struct {
	Accept bool
	// Evict lists push-out victims: the tail packet of each queue is
	// dropped, in order, before the arrival is enqueued. The slice belongs
	// to the policy and must stay valid only until its next call.
	Evict []QueueID
}

// Policy decides which packets a shared buffer admits. Admit is called on
// every arrival; the hooks are called after the buffer state changed (on
// dequeue after the bytes were removed). Tick is called every TickInterval
// when that is positive.
type Policy interface {
	Name() string
	Admit(now rotor.Time, p *Packet, q QueueID, s *BufferState) Verdict
	OnEnqueue(now rotor.Time, p *Packet, q QueueID, s *BufferState)
	OnDequeue(now rotor.Time, p *Packet, q QueueID, s *BufferState)
	OnDrop(now rotor.Time, p *Packet, q QueueID, s *BufferState)
	Tick(now rotor.Time, s *BufferState)
	TickInterval() rotor.Time
}

// NoHooks gives a Policy empty hooks; embed it and write Admit.
type NoHooks struct{}

func (NoHooks) OnEnqueue(rotor.Time, *Packet, QueueID, *BufferState) {}
func (NoHooks) OnDequeue(rotor.Time, *Packet, QueueID, *BufferState) {}
func (NoHooks) OnDrop(rotor.Time, *Packet, QueueID, *BufferState)    {}
func (NoHooks) Tick(rotor.Time, *BufferState)                        {}
func (NoHooks) TickInterval() rotor.Time                             { return 0 }

// CompleteSharing admits a packet iff it fits in the free buffer:
// Q + size ≤ B.
type CompleteSharing struct{ NoHooks }

func (CompleteSharing) Name() string { return "cs" }

func (CompleteSharing) Admit(_ rotor.Time, p *Packet, _ QueueID, s *BufferState) Verdict {
	return Verdict{Accept: s.Used+int64(p.Size) <= s.Size}
}

// DynamicThresholds is Choudhury and Hahne's rule: a queue may grow to
// T = α·(B − Q); admit iff q + size ≤ T and Q + size ≤ B.
type DynamicThresholds struct {
	NoHooks
	Alpha float64
}

func (DynamicThresholds) Name() string { return "dt" }

func (d DynamicThresholds) Admit(_ rotor.Time, p *Packet, q QueueID, s *BufferState) Verdict {
	size := int64(p.Size)
	if s.Used+size > s.Size {
		return Verdict{}
	}
	t := d.Alpha * float64(s.Size-s.Used)
	return Verdict{Accept: float64(s.Queues[q].Bytes+size) <= t}
}

// NewPolicy returns the policy called name ("cs", "dt") with DT's α.
func NewPolicy(name string, alpha float64) (Policy, error) {
	switch name {
	case "cs", "complete-sharing":
		return CompleteSharing{}, nil
	case "dt", "dynamic-thresholds":
		if !(alpha > 0) {
			return nil, fmt.Errorf("alpha %v: must be positive", alpha)
		}
		return DynamicThresholds{Alpha: alpha}, nil
	}
	return nil, fmt.Errorf("unknown buffer policy %q (want cs or dt)", name)
}
