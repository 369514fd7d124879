package bufferlab

import (
	"fmt"
	"maps"
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// Sequence is an arrival sequence: Slots[t] lists the destination ports
// of the packets arriving in slot t, in arrival order. Packet ids number
// the arrivals in that order from 0.
type Sequence struct {
	N     int
	Slots [][]int32
}

// Packets is the number of arrivals.
func (s *Sequence) Packets() int {
	n := 0
	for _, a := range s.Slots {
		n += len(a)
	}
	return n
}

// Validate reports the first arrival to a port outside 0..N−1.
func (s *Sequence) Validate() error {
	if s.N < 1 {
		return fmt.Errorf("ports %d: must be at least 1", s.N)
	}
	for t, a := range s.Slots {
		for _, p := range a {
			if p < 0 || int(p) >= s.N {
				return fmt.Errorf("slot %d: port %d outside 0..%d", t, p, s.N-1)
			}
		}
	}
	return nil
}

// Slot is one time slot of the lab; rate and RTT make a slot last one
// microsecond with unit (one-byte) packets.
const Slot = rotor.Microsecond

// SwitchConfig is the lab's switch: N ports of one queue, a buffer of B
// unit packets, one packet per port per slot.
func SwitchConfig(n int, b int64) tor.SwitchConfig {
	return tor.SwitchConfig{Ports: n, Queues: 1, Buffer: b, MTU: 1,
		Rates: []rotor.Rate{8 * rotor.Mbps}, RTT: Slot}
}

// Result is one run.
type Result struct {
	Policy      string
	Transmitted int64  // packets sent, the buffer drained after the last slot
	Dropped     []bool // per packet id: dropped on arrival or pushed out
}

// idler is a virtual-LQD policy (FollowLQD, Credence) whose threshold
// drains in slots where its real queue sent nothing.
type idler interface {
	IdleSlot(q int32, size int64)
}

// Run plays seq through a switch with buffer b under policy p (built for
// SwitchConfig(seq.N, b)): in each slot the arrivals first, then every
// non-empty port sends one packet; after the last slot the buffer drains.
func Run(seq *Sequence, b int64, p tor.BufferPolicy) (*Result, error) {
	if err := seq.Validate(); err != nil {
		return nil, err
	}
	sw, err := tor.NewSwitch(SwitchConfig(seq.N, b), p, nil)
	if err != nil {
		return nil, err
	}
	res := &Result{Policy: p.Name(), Dropped: make([]bool, seq.Packets())}
	idle, _ := p.(idler)
	var id int64
	a := tor.Arrival{Size: 1, Flow: -1}
	for t := 0; ; t++ {
		now := rotor.Time(t) * Slot
		if t < len(seq.Slots) {
			for _, port := range seq.Slots[t] {
				a.ID, a.Port = id, port
				if ok, _ := sw.Enqueue(now, &a, int32(id)); !ok {
					res.Dropped[id] = true
				}
				for _, h := range sw.Evicted {
					res.Dropped[h] = true
				}
				sw.Evicted = sw.Evicted[:0]
				id++
			}
		} else if sw.State().Used == 0 {
			return res, nil
		}
		for port := 0; port < seq.N; port++ {
			if _, _, ok := sw.Dequeue(now, port); ok {
				res.Transmitted++
			} else if idle != nil {
				idle.IdleSlot(int32(port), 1)
			}
		}
		if sw.TickEvery() > 0 {
			sw.Tick(now + Slot)
		}
	}
}

// Policy builds a registered policy for the lab's switch.
func Policy(name string, set map[string]float64, n int, b int64, oracle tor.Oracle, rng *rand.Rand) (tor.BufferPolicy, error) {
	cfg := SwitchConfig(n, b)
	if name == "followlqd" || name == "credence" {
		if _, ok := set["reset_empty"]; !ok {
			set = maps.Clone(set)
			if set == nil {
				set = map[string]float64{}
			}
			set["reset_empty"] = 0 // the paper's rule: virtual queues drain on their own
		}
	}
	return tor.NewBufferPolicy(name, set, tor.Env{Switch: &cfg, Oracle: oracle, Rand: rng})
}
