package tor

import (
	"fmt"
	"math/bits"

	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// VOQ classes.
const (
	Transit = 0 // relayed traffic, served first
	Local   = 1 // traffic from this rack's hosts
)

// Config describes one switch. A rotor ToR has VOQs (ToRs > 0) served by
// circuit uplinks, host ports and maybe a packet-switch port; a
// leaf-spine switch has host ports (a leaf) and fabric ports with queues
// of their own; the electrical packet switch has only fabric ports.
type Config struct {
	ToRs         int  // n, number of ToRs in the fabric (VOQs per ToR); 0: no VOQs
	Hosts        int  // host ports
	Uplinks      int  // circuit uplinks (served from the VOQs)
	PacketSwitch bool // has an uplink to an electrical packet switch
	Ports        int  // fabric ports with queues of their own (leaf↔spine, packet switch→ToR)
	// Classes is the number of queues per host, packet-switch and fabric
	// port (class 0 first); 0 means 1. RoundRobin serves them in turn,
	// one packet each, instead of in strict priority.
	Classes    int
	RoundRobin bool
	Buffer     rotor.Bytes
	Policy     Policy
	// Port rates, shown to policies in QueueState.Rate (0: not known).
	HostRate, UplinkRate, PacketSwitchRate, PortRate rotor.Rate
	ECNThreshold                                     rotor.Bytes // mark packets entering a queue longer than this; 0: off
	RecordINT                                        bool        // stamp INT hop records on data packets' dequeue, into Ints
	Ints                                             *IntStore   // where INT records live (shared by all switches of a fabric); needed with RecordINT
}

// MaxClasses is the most queues a port may have.
const MaxClasses = 8

// Validate reports the first bad field.
func (c *Config) Validate() error {
	switch {
	case c.ToRs < 0:
		return fmt.Errorf("tors %d: must not be negative", c.ToRs)
	case c.Hosts < 0:
		return fmt.Errorf("hosts %d: must not be negative", c.Hosts)
	case c.Uplinks < 0:
		return fmt.Errorf("uplinks %d: must not be negative", c.Uplinks)
	case c.Ports < 0:
		return fmt.Errorf("ports %d: must not be negative", c.Ports)
	case c.Hosts+c.Ports+c.Uplinks == 0 && !c.PacketSwitch:
		return fmt.Errorf("hosts, ports and uplinks: a switch needs at least one port")
	case c.Uplinks > 0 && c.ToRs < 1:
		return fmt.Errorf("tors %d: circuit uplinks need VOQs (tors ≥ 1)", c.ToRs)
	case c.Classes < 0 || c.Classes > MaxClasses:
		return fmt.Errorf("classes %d: must be in [0, %d]", c.Classes, MaxClasses)
	case c.Buffer <= 0:
		return fmt.Errorf("buffer %d: must be positive", c.Buffer)
	case c.Policy == nil:
		return fmt.Errorf("policy: is nil")
	case c.ECNThreshold < 0:
		return fmt.Errorf("ecn threshold %d: must not be negative", c.ECNThreshold)
	case c.RecordINT && c.Ints == nil:
		return fmt.Errorf("ints: RecordINT needs an IntStore")
	}
	return nil
}

// Relay decides whether ToR via accepts a packet of size bytes that it must
// forward to ToR dst (RotorLB's offer/accept, asked per packet).
type Relay interface {
	AcceptRelay(via, dst int, size int32) bool
}

// Gate is hop-by-hop flow control: it reports whether packet p may leave
// now toward next-hop ToR v (for instance because v has reserved room for
// it). PickCircuit skips a queue whose head the gate holds back.
type Gate interface {
	Pass(v int, p *Packet) bool
}

// ToR is one switch: queues in a shared buffer.
//
// Port ids (unique in the switch; INT records and QueueState.Port use
// them): circuit uplinks 0…U−1, host ports U…U+H−1, the packet-switch
// port U+H (if any), fabric ports after it, then one virtual output per
// next-hop ToR for the VOQs (VOQPort). Queues: the VOQs first (2 per
// next-hop ToR), then Classes queues for each port with queues of its
// own, in port order.
type ToR struct {
	ID  int
	cfg Config

	pool     *Pool
	buf      BufferState
	queues   []des.FIFO
	txBytes  []int64  // per egress port
	local    []uint64 // bit v set iff VOQ(v, Local) is not empty
	voqPkts  int      // packets in all VOQs, both classes
	rr       int      // round-robin position for indirect (two-hop) service
	classes  int
	rrNext   []uint8 // RoundRobin: [own port] the class served next
	ownBase  int     // first queue of the ports with queues of their own
	ownPorts int     // host + packet-switch + fabric ports

	reserved int64 // bytes promised to packets on their way (Reserve)

	// Evicted collects packets pushed out by the policy during the last
	// Enqueue; the caller owns them and should clear the slice.
	Evicted []int32

	hooks bool // the policy's OnEnqueue/OnDequeue do something (not NoHooks'): call them

	Drops     int64 // packets dropped on arrival or pushed out
	DropBytes int64
	PeakUsed  int64 // highest buffer occupancy seen
}

// New builds switch id. Packets are looked up in pool.
func New(id int, cfg Config, pool *Pool) (*ToR, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := max(cfg.Classes, 1)
	ps := 0
	if cfg.PacketSwitch {
		ps = 1
	}
	own := cfg.Hosts + ps + cfg.Ports
	nq := 2*cfg.ToRs + own*c
	t := &ToR{
		ID:       id,
		cfg:      cfg,
		pool:     pool,
		queues:   make([]des.FIFO, nq),
		txBytes:  make([]int64, cfg.Uplinks+own),
		local:    make([]uint64, (cfg.ToRs+63)/64),
		buf:      BufferState{Size: int64(cfg.Buffer), Queues: make([]QueueState, nq)},
		classes:  c,
		rrNext:   make([]uint8, own),
		ownBase:  2 * cfg.ToRs,
		ownPorts: own,
	}
	switch cfg.Policy.(type) {
	case CompleteSharing, DynamicThresholds: // their enqueue/dequeue hooks are NoHooks'
	default:
		t.hooks = true
	}
	for v := 0; v < cfg.ToRs; v++ {
		port := int32(t.VOQPort(v))
		t.buf.Queues[2*v] = QueueState{Port: port, NextHop: int32(v), Prio: Transit, Rate: cfg.UplinkRate}
		t.buf.Queues[2*v+1] = QueueState{Port: port, NextHop: int32(v), Prio: Local, Rate: cfg.UplinkRate}
	}
	for k := 0; k < own; k++ {
		rate := cfg.PortRate
		switch {
		case k < cfg.Hosts:
			rate = cfg.HostRate
		case k < cfg.Hosts+ps:
			rate = cfg.PacketSwitchRate
		}
		for cl := 0; cl < c; cl++ {
			t.buf.Queues[t.ownBase+k*c+cl] = QueueState{Port: int32(cfg.Uplinks + k), NextHop: -1, Prio: int8(cl), Rate: rate}
		}
	}
	return t, nil
}

// VOQ is the queue toward next-hop ToR v of the given class.
func (t *ToR) VOQ(v, class int) QueueID { return QueueID(2*v + class) }

// HostQueue is the queue (class 0) toward local host h (0 ≤ h < Hosts).
func (t *ToR) HostQueue(h int) QueueID { return QueueID(t.ownBase + h*t.classes) }

// PacketSwitchQueue is the queue (class 0) toward the electrical packet
// switch (Config.PacketSwitch).
func (t *ToR) PacketSwitchQueue() QueueID {
	return QueueID(t.ownBase + t.cfg.Hosts*t.classes)
}

// PortQueue is the queue of the given class of port (a host,
// packet-switch or fabric port id).
func (t *ToR) PortQueue(port, class int) QueueID {
	return QueueID(t.ownBase + (port-t.cfg.Uplinks)*t.classes + class)
}

// HostPort is the id of the port toward local host h.
func (t *ToR) HostPort(h int) int { return t.cfg.Uplinks + h }

// PacketSwitchPort is the id of the port toward the packet switch.
func (t *ToR) PacketSwitchPort() int { return t.cfg.Uplinks + t.cfg.Hosts }

// FabricPort is the id of fabric port j (0 ≤ j < Ports).
func (t *ToR) FabricPort(j int) int { return t.cfg.Uplinks + t.ownPorts - t.cfg.Ports + j }

// VOQPort is the virtual output port of the VOQs toward next-hop ToR v.
func (t *ToR) VOQPort(v int) int { return t.cfg.Uplinks + t.ownPorts + v }

// NumPorts is the number of port ids: physical ports and VOQ outputs.
func (t *ToR) NumPorts() int { return t.cfg.Uplinks + t.ownPorts + t.cfg.ToRs }

// Classes is the number of queues per port with queues of its own.
func (t *ToR) Classes() int { return t.classes }

// Pick is the queue port serves next: its first non-empty class (strict
// priority), or with RoundRobin the first non-empty class from the one
// after the class it served last; ok is false if all are empty. With
// RoundRobin, Pick takes its turn: call it once per packet sent.
func (t *ToR) Pick(port int) (q QueueID, ok bool) {
	k := port - t.cfg.Uplinks
	base := t.ownBase + k*t.classes
	if !t.cfg.RoundRobin {
		for c := 0; c < t.classes; c++ {
			if t.queues[base+c].Len() > 0 {
				return QueueID(base + c), true
			}
		}
		return 0, false
	}
	c := int(t.rrNext[k])
	for i := 0; i < t.classes; i++ {
		if t.queues[base+c].Len() > 0 {
			next := c + 1
			if next == t.classes {
				next = 0
			}
			t.rrNext[k] = uint8(next)
			return QueueID(base + c), true
		}
		if c++; c == t.classes {
			c = 0
		}
	}
	return 0, false
}

// TxBytes is the number of bytes sent on port so far.
func (t *ToR) TxBytes(port int) int64 { return t.txBytes[port] }

// PortQueued reports whether any queue of port holds a packet.
func (t *ToR) PortQueued(port int) bool {
	base := t.ownBase + (port-t.cfg.Uplinks)*t.classes
	for c := 0; c < t.classes; c++ {
		if t.queues[base+c].Len() > 0 {
			return true
		}
	}
	return false
}

func (t *ToR) State() *BufferState   { return &t.buf }
func (t *ToR) Len(q QueueID) int     { return t.queues[q].Len() }
func (t *ToR) Bytes(q QueueID) int64 { return t.buf.Queues[q].Bytes }
func (t *ToR) Head(q QueueID) int32  { return t.queues[q].Head() }
func (t *ToR) Policy() Policy        { return t.cfg.Policy }
func (t *ToR) NumQueues() int        { return len(t.queues) }
func (t *ToR) Used() int64           { return t.buf.Used - t.reserved }
func (t *ToR) Reserved() int64       { return t.reserved }
func (t *ToR) VOQPackets() int       { return t.voqPkts } // packets in all VOQs
func (t *ToR) Config() *Config       { return &t.cfg }

// Room reports whether size more bytes fit in the buffer beside what it
// holds and what it has reserved.
func (t *ToR) Room(size int32) bool { return t.buf.Used+int64(size) <= t.buf.Size }

// Reserve promises size bytes of buffer to a packet on its way; the
// policy sees them as occupied. EnqueueReserved or Release consumes the
// promise.
func (t *ToR) Reserve(size int32) {
	t.reserved += int64(size)
	t.buf.Used += int64(size)
}

// Release gives back size bytes promised by Reserve to a packet that
// leaves without entering a queue (one whose stay the caller tracks).
func (t *ToR) Release(size int32) {
	t.reserved -= int64(size)
	t.buf.Used -= int64(size)
}

// EnqueueReserved puts packet idx, for which Reserve was called, into
// queue q without asking the policy: the room was promised.
func (t *ToR) EnqueueReserved(now rotor.Time, q QueueID, idx int32) {
	p := t.pool.At(idx)
	t.reserved -= int64(p.Size)
	t.buf.Used -= int64(p.Size)
	t.push(now, q, idx, p)
}

// Enqueue offers packet idx to queue q. It returns false if the packet was
// dropped (the caller then owns it). Packets the policy pushed out are
// appended to Evicted.
func (t *ToR) Enqueue(now rotor.Time, q QueueID, idx int32) bool {
	p := t.pool.At(idx)
	pol := t.cfg.Policy
	v := pol.Admit(now, p, q, &t.buf)
	if v.Accept {
		for _, e := range v.Evict {
			if t.queues[e].Len() == 0 {
				continue
			}
			victim := t.queues[e].PopTail()
			vp := t.pool.At(victim)
			t.remove(e, vp.Size)
			t.Drops++
			t.DropBytes += int64(vp.Size)
			pol.OnDrop(now, vp, e, &t.buf)
			t.Evicted = append(t.Evicted, victim)
		}
	}
	if !v.Accept || t.buf.Used+int64(p.Size) > t.buf.Size {
		t.Drops++
		t.DropBytes += int64(p.Size)
		pol.OnDrop(now, p, q, &t.buf)
		return false
	}
	t.push(now, q, idx, p)
	return true
}

func (t *ToR) push(now rotor.Time, q QueueID, idx int32, p *Packet) {
	t.queues[q].Push(idx)
	qs := &t.buf.Queues[q]
	qs.Bytes += int64(p.Size)
	qs.Packets++
	t.buf.Used += int64(p.Size)
	if u := t.buf.Used - t.reserved; u > t.PeakUsed {
		t.PeakUsed = u
	}
	if t.cfg.ECNThreshold > 0 && qs.Bytes > int64(t.cfg.ECNThreshold) {
		p.Set(packet.ECN)
	}
	if int(q) < 2*t.cfg.ToRs {
		t.voqPkts++
		if qs.Prio == Local && qs.Packets == 1 {
			v := int(q) >> 1
			t.local[v>>6] |= 1 << (v & 63)
		}
	}
	if t.hooks {
		t.cfg.Policy.OnEnqueue(now, p, q, &t.buf)
	}
}

func (t *ToR) remove(q QueueID, size int32) {
	qs := &t.buf.Queues[q]
	qs.Bytes -= int64(size)
	qs.Packets--
	t.buf.Used -= int64(size)
	if int(q) < 2*t.cfg.ToRs {
		t.voqPkts--
		if qs.Prio == Local && qs.Packets == 0 {
			v := int(q) >> 1
			t.local[v>>6] &^= 1 << (v & 63)
		}
	}
}

// Dequeue removes the head of q for transmission on egress port at rate,
// stamps INT on a data packet if enabled, and returns the packet index.
func (t *ToR) Dequeue(now rotor.Time, q QueueID, port int, rate rotor.Rate) int32 {
	idx := t.queues[q].Pop()
	p := t.pool.At(idx)
	t.remove(q, p.Size)
	t.txBytes[port] += int64(p.Size)
	if t.cfg.RecordINT {
		t.cfg.Ints.Stamp(idx, p, IntHop{Ts: now, Qlen: t.buf.Queues[q].Bytes, TxBytes: t.txBytes[port], Rate: rate, Port: int32(port)})
	}
	if t.hooks {
		t.cfg.Policy.OnDequeue(now, p, q, &t.buf)
	}
	return idx
}

// Take removes the head of q without transmitting it (to move it to
// another queue); the policy sees it as a dequeue.
func (t *ToR) Take(now rotor.Time, q QueueID) int32 {
	idx := t.queues[q].Pop()
	p := t.pool.At(idx)
	t.remove(q, p.Size)
	if t.hooks {
		t.cfg.Policy.OnDequeue(now, p, q, &t.buf)
	}
	return idx
}

// PickCircuit chooses the queue an uplink whose circuit reaches ToR v
// serves next, given that at most budget bytes can still be serialised
// before the circuit's night. Order: VOQ(v, Transit), VOQ(v, Local), then,
// if relay is not nil, Local traffic for other destinations sent to v as
// the first of two hops (round-robin over destinations, each accepted by
// relay). A non-nil gate may hold a queue's head back. ok is false if
// nothing fits.
func (t *ToR) PickCircuit(v int, budget int64, relay Relay, gate Gate) (q QueueID, ok bool) {
	if q := t.VOQ(v, Transit); t.sendable(q, v, budget, gate) {
		return q, true
	}
	if q := t.VOQ(v, Local); t.sendable(q, v, budget, gate) {
		return q, true
	}
	if relay == nil {
		return 0, false
	}
	n := t.cfg.ToRs
	words := len(t.local)
	start := t.rr
	for k := 0; k <= words; k++ {
		w := start>>6 + k // < 2·words: wrap by one subtraction, not a division
		if w >= words {
			w -= words
		}
		bitsW := t.local[w]
		if k == 0 {
			bitsW &= ^uint64(0) << (start & 63)
		} else if k == words {
			bitsW &= (uint64(1) << (start & 63)) - 1
		}
		for bitsW != 0 {
			b := bits.TrailingZeros64(bitsW)
			bitsW &= bitsW - 1
			x := w<<6 + b
			if x == v || x >= n || x == t.ID {
				continue
			}
			q := t.VOQ(x, Local)
			head := t.pool.At(t.queues[q].Head())
			if int64(head.Size) <= budget && relay.AcceptRelay(v, x, head.Size) && (gate == nil || gate.Pass(v, head)) {
				t.rr = (x + 1) % n
				return q, true
			}
		}
	}
	return 0, false
}

func (t *ToR) sendable(q QueueID, v int, budget int64, gate Gate) bool {
	if t.queues[q].Len() == 0 {
		return false
	}
	p := t.pool.At(t.queues[q].Head())
	return int64(p.Size) <= budget && (gate == nil || gate.Pass(v, p))
}

// AnyLocal reports whether any VOQ holds Local traffic (which RotorLB may
// relay over any circuit).
func (t *ToR) AnyLocal() bool {
	for _, w := range t.local {
		if w != 0 {
			return true
		}
	}
	return false
}

// TakeEvicted returns and clears the packets pushed out by the last
// Enqueue calls.
func (t *ToR) TakeEvicted() []int32 {
	e := t.Evicted
	t.Evicted = t.Evicted[:0]
	return e
}
