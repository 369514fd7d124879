package tor

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/rdcn/rdcn/internal/des"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// VOQ classes.
const (
	Transit   = 0 // relayed traffic, served first
	Local     = 1 // traffic from this rack's hosts
	HeaderVOQ = 2 // with Config.HeaderWeight: NDP's headers and control packets
)

// QueueID indexes a queue of one ToR (see ToR.VOQ, ToR.HostQueue,
// ToR.PortQueue). It is the queue's index in the ToR's Switch.
type QueueID int32

// PolicyMaker builds the buffer policy of one switch from that switch's
// configuration (policies size their state and derive defaults from it).
type PolicyMaker func(c *SwitchConfig) (BufferPolicy, error)

// Named builds the registered policy name with the parameters set (the
// others take their defaults), the oracle (Credence) and the random source
// (IB, Credence's flips); rng must not be shared between switches.
func Named(name string, set map[string]float64, oracle Oracle, rng *rand.Rand) PolicyMaker {
	return func(c *SwitchConfig) (BufferPolicy, error) {
		return NewBufferPolicy(name, set, Env{Switch: c, Oracle: oracle, Rand: rng})
	}
}

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
	MTU        int32      // a full packet (policies count packets in it); 0: rotor.DefaultMTU, at most Buffer
	RTT        rotor.Time // base round-trip time (ABM's update period, Credence's EWMAs); 0: 10 µs
	// Unsched is the bytes of a flow's start whose data packets count as
	// unscheduled (sent in the first RTT: ABM's α_unsched); 0: none.
	Unsched int64
	Policy  PolicyMaker // nil: Complete Sharing
	// Port rates, shown to policies in PortCounters.Rate; 0: 10 Gb/s.
	HostRate, UplinkRate, PacketSwitchRate, PortRate rotor.Rate
	// ECN marking (ECN.Marks: the queue an arriving packet finds, the
	// packet not counted): ECNThreshold > 0 is DCTCP's step at K on every
	// queue; otherwise ECNPorts, if set, gives each port's marking from
	// its rate (a step or RED), and ECNRand draws RED's marks.
	ECNThreshold rotor.Bytes
	ECNPorts     func(rate rotor.Rate) ECN
	ECNRand      *rand.Rand
	RecordINT    bool      // stamp INT hop records on data packets' dequeue, into Ints
	Ints         *IntStore // where INT records live (shared by all switches of a fabric); needed with RecordINT
	// PFC (SwitchConfig's fields of the same names): Lossless has bit k
	// set iff class k is lossless; every arrival must then name its
	// ingress port (EnqueueFrom).
	Lossless               uint8
	Headroom, HeadroomPool int64
	// HeaderQueue is the number of headers each port holds apart from
	// the shared buffer (EnqueueHeader; NDP's header queue); 0: none.
	HeaderQueue int
	// PortData is the bytes of data each port (a VOQ output: per
	// next-hop ToR) holds in a private queue outside the shared buffer,
	// the data packet it is sending included (EnqueuePrivate; opera-sim's
	// CompositeQueue); 0: none.
	PortData int64
	// HeaderWeight > 0 gives each VOQ output a header queue of its own
	// (HeaderVOQ) that PickCircuit serves against the data as opera-sim's
	// CompositeQueue does: while both wait, HeaderWeight headers for each
	// MTU of data, counted in bytes. 0: headers wait in the Transit class.
	HeaderWeight int
}

// MaxClasses is the most queues a port may have.
const MaxClasses = MaxQueues

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
	case c.MTU < 0:
		return fmt.Errorf("mtu %d: must not be negative", c.MTU)
	case c.RTT < 0:
		return fmt.Errorf("rtt %v: must not be negative", c.RTT)
	case c.ECNThreshold < 0:
		return fmt.Errorf("ecn threshold %d: must not be negative", c.ECNThreshold)
	case c.HeaderQueue < 0:
		return fmt.Errorf("header queue %d: must not be negative", c.HeaderQueue)
	case c.PortData < 0:
		return fmt.Errorf("port data %d: must not be negative", c.PortData)
	case c.HeaderWeight < 0:
		return fmt.Errorf("header weight %d: must not be negative", c.HeaderWeight)
	case c.HeaderWeight > 0 && c.HeaderQueue == 0:
		return fmt.Errorf("header weight %d: needs a header queue", c.HeaderWeight)
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

// ToR is one switch: queues in a shared buffer, held by a Switch that
// runs the buffer policy.
//
// Port ids (unique in the switch; INT records use them unless SetINTPorts
// renames them): circuit uplinks
// 0…U−1, host ports U…U+H−1, the packet-switch port U+H (if any), fabric
// ports after it, then one virtual output per next-hop ToR for the VOQs
// (VOQPort). The Switch's port p is port id U+p: the uplinks have no
// queues of their own (they serve the VOQs of whichever ToR their circuit
// reaches), so the VOQs toward ToR v are the two queues (Transit, Local)
// of virtual output VOQPort(v), and its circuit day and night are those of
// the circuits toward v. Every Switch port has max(Classes, 2 if there are
// VOQs) queues; the ones beyond a port's classes stay empty.
//
// The VOQ ports exist only for the destinations in use (SwitchConfig.
// OnDemand): the first VOQ call for v creates v's port, the next of the
// Switch's port ids, so their state grows with the destinations a ToR
// sends to, not with n. Queue and port ids of VOQs are in order of first
// use; NextHop maps them back. Readers that must not create a port use
// VOQLen and VOQBytes. Up to DenseToRs ToRs, and with a CircuitAware
// policy (which hears every destination's day and night), the switch has
// all VOQ ports from the start, in destination order, and VOQ is plain
// arithmetic.
type ToR struct {
	ID  int
	cfg Config

	pool    *Pool
	sw      *Switch
	arr     Arrival  // the arrival being offered (reused: no allocation)
	nq      int32    // queues per Switch port
	voqBase int32    // first VOQ queue
	dense   bool     // every VOQ port exists, in destination order
	txBytes []int64  // per egress port id
	intPort []int32  // per egress port id: the id its INT records carry (SetINTPorts); nil: its own
	ecn     []ECN    // per Switch port: its marking (nil: none)
	local   []uint64 // bit v set iff VOQ(v, Local) is not empty
	voqPkts int      // packets in all VOQs, both classes
	rr      int      // round-robin position for indirect (two-hop) service
	classes int
	own     int // host + packet-switch + fabric ports
	// served [v]: the bytes VOQ output v served in the current round of
	// HeaderWeight's service while its headers and data both waited.
	served []int32

	Drops     int64 // packets dropped on arrival or pushed out
	DropBytes int64

	voqs    des.Index // next-hop ToR → its VOQ port's index among the VOQ ports
	voqDest []int32   // per VOQ port (in order of creation): its next-hop ToR
	ups     []upCount // next-hop ToRs that a circuit reaches now (at most Uplinks)
	scratch int32     // a spare VOQ port for AdmitHeldVOQ's stateless decisions, −1: none
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
	nq := c
	if cfg.ToRs > 0 {
		nq = max(nq, 2)
		if cfg.HeaderWeight > 0 {
			nq = max(nq, HeaderVOQ+1)
		}
	}
	sc := SwitchConfig{Ports: own + cfg.ToRs, Queues: nq, Buffer: int64(cfg.Buffer), MTU: cfg.MTU, RTT: cfg.RTT,
		Lossless: cfg.Lossless, Headroom: cfg.Headroom, HeadroomPool: cfg.HeadroomPool, HeaderQueue: cfg.HeaderQueue, PortData: cfg.PortData,
		OnDemand: cfg.ToRs}
	if sc.MTU == 0 {
		sc.MTU = int32(min(rotor.DefaultMTU, cfg.Buffer))
	}
	if sc.RTT == 0 {
		sc.RTT = 10 * rotor.Microsecond
	}
	if cfg.RoundRobin {
		sc.Sched = RoundRobin
	}
	rate := func(r rotor.Rate) rotor.Rate {
		if r == 0 {
			return 10 * rotor.Gbps
		}
		return r
	}
	sc.Rates = make([]rotor.Rate, sc.Initial()+min(sc.OnDemand, 1))
	for p := range sc.Rates {
		switch {
		case p < cfg.Hosts:
			sc.Rates[p] = rate(cfg.HostRate)
		case p < cfg.Hosts+ps:
			sc.Rates[p] = rate(cfg.PacketSwitchRate)
		case p < own:
			sc.Rates[p] = rate(cfg.PortRate)
		default:
			sc.Rates[p] = rate(cfg.UplinkRate)
		}
	}
	mk := cfg.Policy
	if mk == nil {
		mk = Named("cs", nil, nil, nil)
	}
	pol, err := mk(&sc)
	if err != nil {
		return nil, err
	}
	sw, err := NewSwitch(sc, pol, nil)
	if err != nil {
		return nil, err
	}
	ecn, err := portMarking(&cfg, sc.Rates) // the VOQ ports share the last entry
	if err != nil {
		return nil, err
	}
	var served []int32
	if cfg.HeaderWeight > 0 {
		served = make([]int32, cfg.ToRs)
	}
	t := &ToR{
		served:  served,
		ecn:     ecn,
		ID:      id,
		cfg:     cfg,
		pool:    pool,
		sw:      sw,
		nq:      int32(nq),
		voqBase: int32(own * nq),
		txBytes: make([]int64, cfg.Uplinks+own),
		local:   make([]uint64, (cfg.ToRs+63)/64),
		voqs:    des.NewIndex(cfg.ToRs + 1), // the last key: the spare port (AdmitHeldVOQ)
		scratch: -1,
		classes: c,
		own:     own,
	}
	if cfg.ToRs <= DenseToRs || sw.circ != nil || cfg.HeaderWeight > 0 || cfg.PortData > 0 { // every VOQ port, in destination order (opera-sim's port model keeps them all)
		for v := range cfg.ToRs {
			t.voqPort(v)
		}
		t.dense = true
	}
	return t, nil
}

// portMarking is each Switch port's ECN marking (Config.ECNThreshold,
// ECNPorts), nil if none marks.
func portMarking(cfg *Config, rates []rotor.Rate) ([]ECN, error) {
	if cfg.ECNThreshold == 0 && cfg.ECNPorts == nil {
		return nil, nil
	}
	ecn := make([]ECN, len(rates))
	on := false
	for p, r := range rates {
		if cfg.ECNThreshold > 0 {
			ecn[p] = ECN{K: int64(cfg.ECNThreshold)}
		} else {
			ecn[p] = cfg.ECNPorts(r)
		}
		if err := ecn[p].validate(p); err != nil {
			return nil, err
		}
		if ecn[p].NeedsRand() && cfg.ECNRand == nil {
			return nil, fmt.Errorf("ecn: RED with max_p < 1 needs a random source (ECNRand)")
		}
		on = on || ecn[p].On()
	}
	if !on {
		return nil, nil
	}
	return ecn, nil
}

// DenseToRs is the largest fabric whose ToRs create every VOQ port at the
// start (in destination order, as a table indexed by destination): small
// tables cost little memory and a lookup less per packet.
const DenseToRs = 256

// upCount is a next-hop ToR and how many uplinks' circuits reach it now.
type upCount struct {
	v int32
	n uint16
}

// VOQ is the queue toward next-hop ToR v of the given class. It creates
// v's VOQ port on first use.
func (t *ToR) VOQ(v, class int) QueueID {
	if t.dense { // inlined: arithmetic
		return QueueID(t.voqBase + int32(v)*t.nq + int32(class))
	}
	return t.sparseVOQ(v, class)
}

func (t *ToR) sparseVOQ(v, class int) QueueID {
	k := t.voqs.Get(int32(v))
	if k < 0 {
		k = t.addVOQPort(v)
	}
	return QueueID(t.voqBase + k*t.nq + int32(class))
}

// voqPort is the index (among the VOQ ports) of v's port, created if v
// has none.
func (t *ToR) voqPort(v int) int32 {
	if t.dense {
		return int32(v)
	}
	if k := t.voqs.Get(int32(v)); k >= 0 {
		return k
	}
	return t.addVOQPort(v)
}

func (t *ToR) addVOQPort(v int) int32 {
	port := t.sw.addPort()
	k, _ := t.voqs.Add(int32(v)) // k = port − own: ports and slots are created together
	t.voqDest = append(t.voqDest, int32(v))
	t.sw.st.Ports[port].Night = !t.isUp(v)
	return k
}

// isUp reports whether a circuit reaches ToR v now.
func (t *ToR) isUp(v int) bool {
	for _, u := range t.ups {
		if u.v == int32(v) {
			return true
		}
	}
	return false
}

// voqQueue is VOQ(v, class), −1 (and no port created) if v has no VOQ
// port yet.
func (t *ToR) voqQueue(v, class int) QueueID {
	if t.dense { // inlined
		return QueueID(t.voqBase + int32(v)*t.nq + int32(class))
	}
	return t.sparseQueue(v, class)
}

func (t *ToR) sparseQueue(v, class int) QueueID {
	if k := t.voqs.Get(int32(v)); k >= 0 {
		return QueueID(t.voqBase + k*t.nq + int32(class))
	}
	return -1
}

// VOQLen is the number of packets in VOQ(v, class), without creating v's
// port.
func (t *ToR) VOQLen(v, class int) int {
	if t.dense {
		return t.sw.q[t.voqBase+int32(v)*t.nq+int32(class)].Len()
	}
	return t.sparseLen(v, class)
}

//go:noinline
func (t *ToR) sparseLen(v, class int) int {
	if q := t.sparseQueue(v, class); q >= 0 {
		return t.sw.q[q].Len()
	}
	return 0
}

// VOQsLen is the number of packets in both VOQs toward v, without
// creating v's port.
func (t *ToR) VOQsLen(v int) int {
	if t.dense {
		q := t.sw.q[t.voqBase+int32(v)*t.nq:]
		return q[Transit].Len() + q[Local].Len()
	}
	return t.sparseLens(v)
}

//go:noinline
func (t *ToR) sparseLens(v int) int {
	if q := t.sparseQueue(v, Transit); q >= 0 {
		return t.sw.q[q].Len() + t.sw.q[q+Local].Len()
	}
	return 0
}

// VOQBytes is the bytes in both VOQs toward v, without creating v's port.
func (t *ToR) VOQBytes(v int) int64 {
	if t.dense {
		q := t.sw.st.Queues[t.voqBase+int32(v)*t.nq:]
		return q[Transit].Bytes + q[Local].Bytes
	}
	return t.sparseBytes(v)
}

//go:noinline
func (t *ToR) sparseBytes(v int) int64 {
	if q := t.sparseQueue(v, Transit); q >= 0 {
		return t.sw.st.Queues[q].Bytes + t.sw.st.Queues[q+Local].Bytes
	}
	return 0
}

// voqPorts is the number of VOQ ports created so far (the destinations
// used, and a spare port if AdmitHeldVOQ needed one).
func (t *ToR) voqPorts() int { return len(t.sw.st.Ports) - t.own }

// HostQueue is the queue (class 0) toward local host h (0 ≤ h < Hosts).
func (t *ToR) HostQueue(h int) QueueID { return QueueID(int32(h) * t.nq) }

// PacketSwitchQueue is the queue (class 0) toward the electrical packet
// switch (Config.PacketSwitch).
func (t *ToR) PacketSwitchQueue() QueueID { return QueueID(int32(t.cfg.Hosts) * t.nq) }

// PortQueue is the queue of the given class of port (a host,
// packet-switch or fabric port id).
func (t *ToR) PortQueue(port, class int) QueueID {
	return QueueID(int32(port-t.cfg.Uplinks)*t.nq + int32(class))
}

// HostPort is the id of the port toward local host h.
func (t *ToR) HostPort(h int) int { return t.cfg.Uplinks + h }

// PacketSwitchPort is the id of the port toward the packet switch.
func (t *ToR) PacketSwitchPort() int { return t.cfg.Uplinks + t.cfg.Hosts }

// FabricPort is the id of fabric port j (0 ≤ j < Ports).
func (t *ToR) FabricPort(j int) int { return t.cfg.Uplinks + t.own - t.cfg.Ports + j }

// VOQPort is the virtual output port of the VOQs toward next-hop ToR v
// (created on first use).
func (t *ToR) VOQPort(v int) int { return t.cfg.Uplinks + t.own + int(t.voqPort(v)) }

// NumPorts is the number of port ids: physical ports and VOQ outputs.
func (t *ToR) NumPorts() int { return t.cfg.Uplinks + t.own + t.cfg.ToRs }

// SetINTPorts makes INT records name egress port p by ids[p] (one per
// physical port: NumPorts() − ToRs), for instance an id unique in the
// fabric, so that records of different switches never compare as one hop.
func (t *ToR) SetINTPorts(ids []int32) {
	if len(ids) != len(t.txBytes) {
		panic(fmt.Sprintf("tor: SetINTPorts: %d ids for %d ports", len(ids), len(t.txBytes)))
	}
	t.intPort = ids
}

// QueuePort is the port id queue q drains into (a VOQ: its virtual
// output), and NextHop the ToR a VOQ leads to (−1 for other queues).
func (t *ToR) QueuePort(q QueueID) int { return t.cfg.Uplinks + int(t.sw.st.PortOf(int32(q))) }

// NextHop is the next-hop ToR of VOQ q, −1 if q is not a VOQ.
func (t *ToR) NextHop(q QueueID) int {
	if int32(q) < t.voqBase {
		return -1
	}
	return t.voqHop(q)
}

// voqHop is NextHop of a VOQ q: read from voqDest (destination order for a
// dense ToR), a small table, not from the queue's counters, which may be
// cold (a pulled packet's VOQ).
func (t *ToR) voqHop(q QueueID) int { return int(t.voqDest[(int32(q)-t.voqBase)/t.nq]) }

// queueClass is queue q's class (a VOQ's: Transit or Local).
func (t *ToR) queueClass(q QueueID) int { return t.sw.st.Prio(int32(q)) }

// Classes is the number of queues per port with queues of its own.
func (t *ToR) Classes() int { return t.classes }

// Pick is the queue port serves next: its first non-empty class (strict
// priority), or with RoundRobin the first non-empty class from the one
// after the class it served last (the turn passes on Dequeue); ok is
// false if all are empty.
func (t *ToR) Pick(port int) (q QueueID, ok bool) {
	k := t.sw.pick(port - t.cfg.Uplinks)
	return QueueID(k), k >= 0
}

// PickExcept is Pick among the port's queues whose bit is not set in
// skip (bit k: queue index k, e.g. a class that PFC paused).
func (t *ToR) PickExcept(port int, skip uint8) (q QueueID, ok bool) {
	k := t.sw.pickExcept(port-t.cfg.Uplinks, skip)
	return QueueID(k), k >= 0
}

// TxBytes is the number of bytes sent on port so far.
func (t *ToR) TxBytes(port int) int64 { return t.txBytes[port] }

// PortQueued reports whether any queue of port holds a packet.
func (t *ToR) PortQueued(port int) bool { return t.sw.st.Ports[port-t.cfg.Uplinks].Active != 0 }

func (t *ToR) Len(q QueueID) int     { return t.sw.q[q].Len() }
func (t *ToR) Bytes(q QueueID) int64 { return t.sw.st.Queues[q].Bytes }
func (t *ToR) Head(q QueueID) int32  { return t.sw.q[q].Head().h }
func (t *ToR) numQueues() int        { return len(t.sw.q) }
func (t *ToR) Used() int64           { return t.sw.st.Used - t.sw.reserved }
func (t *ToR) VOQPackets() int       { return t.voqPkts } // packets in all VOQs
func (t *ToR) Config() *Config       { return &t.cfg }
func (t *ToR) Switch() *Switch       { return t.sw } // its queues, counters and policy
func (t *ToR) BufferSize() int64     { return t.sw.st.B }
func (t *ToR) PeakUsed() int64       { return t.sw.PeakUsed } // highest occupancy seen, reservations not counted

// Room reports whether size more bytes fit in the buffer beside what it
// holds and what it has reserved.
func (t *ToR) Room(size int32) bool { return t.sw.st.Used+int64(size) <= t.sw.st.B }

// Reserve promises size bytes of buffer to a packet on its way; the
// policy sees them as occupied. enqueueReserved or Release consumes the
// promise.
func (t *ToR) Reserve(size int32) { t.sw.reserve(size) }

// AdmitHeld decides on a packet of size bytes of flow for queue q that
// will wait outside the queues (a pulled packet), with held bytes of such
// packets already promised to q, as on an arriving packet: if admitted
// its room is reserved, and packets the policy pushed out to make room
// are kept for TakeEvicted (Switch.AdmitHeld).
func (t *ToR) AdmitHeld(now rotor.Time, q QueueID, flow int32, size int32, held int64) Verdict {
	if t.sw.plain {
		if t.sw.ReservePlain(size) {
			return Admitted
		}
		return NoRoom
	}
	a := &t.arr
	port := t.sw.st.PortOf(int32(q))
	a.ID, a.Flow, a.Size, a.Port, a.InPort = -1, flow, size, port, -1
	a.Class = uint8(int32(q) - port*t.nq)
	a.Unsched = false
	n0 := len(t.sw.Evicted)
	v := t.sw.AdmitHeld(now, a, int32(q), held)
	t.evicted(n0)
	return v
}

// AdmitHeldVOQ is AdmitHeld for VOQ(v, class). A switch whose policy
// keeps no state of its own (Switch.stateless) decides for a ToR without
// a VOQ port toward v on a spare port set up as v's would be (empty, v's
// day or night), so that pulling for a circuit creates no port.
func (t *ToR) AdmitHeldVOQ(now rotor.Time, v, class int, flow int32, size int32, held int64) Verdict {
	if t.sw.plain {
		return t.AdmitHeld(now, 0, flow, size, held) // the queue is not read
	}
	q := t.voqQueue(v, class)
	ok := q >= 0
	if !ok && t.sw.stateless() {
		if t.scratch < 0 {
			t.scratch = t.sw.addPort()
			t.voqs.Add(int32(t.cfg.ToRs))
			t.voqDest = append(t.voqDest, -1)
		}
		t.sw.st.Ports[t.scratch].Night = !t.isUp(v)
		return t.AdmitHeld(now, QueueID(t.scratch*t.nq+int32(class)), flow, size, held)
	}
	if !ok {
		q = t.VOQ(v, class)
	}
	return t.AdmitHeld(now, q, flow, size, held)
}

// HeldLeftVOQ is HeldLeft for VOQ(v, class); it creates no port for a
// policy that hears no dequeues.
func (t *ToR) HeldLeftVOQ(now rotor.Time, v, class int, size int32, held int64) {
	if t.sw.deq != nil {
		t.sw.heldLeft(now, int32(t.VOQ(v, class)), size, held)
	}
}

// HeldLeft tells the policy that a held packet left q after Release
// (Switch.heldLeft); held: the bytes still promised to q.
func (t *ToR) HeldLeft(now rotor.Time, q QueueID, size int32, held int64) {
	t.sw.heldLeft(now, int32(q), size, held)
}

// Plain reports whether the switch admits whatever fits and hears
// nothing (Complete Sharing without ECN or PFC): its decisions need no
// settled view of the buffer beyond the room itself.
func (t *ToR) Plain() bool { return t.sw.plain }

// HearsDequeues reports whether the policy has a dequeue hook.
func (t *ToR) HearsDequeues() bool { return t.sw.deq != nil }

// Release gives back size bytes promised by Reserve to a packet that
// leaves without entering a queue (one whose stay the caller tracks).
func (t *ToR) Release(size int32) { t.sw.release(size) }

// arrival fills t.arr for packet idx (p) entering queue q; its ID is idx.
func (t *ToR) arrival(idx int32, p *Packet, q QueueID) *Arrival {
	// Field by field, not a composite literal copied from the stack.
	a := &t.arr
	port := t.sw.st.PortOf(int32(q))
	a.ID, a.Flow, a.Size, a.Port, a.InPort = int64(idx), p.Flow, p.Size, port, -1
	a.Class = uint8(int32(q) - port*t.nq)
	a.Unsched = t.cfg.Unsched > 0 && p.Kind == packet.Data && p.Seq < t.cfg.Unsched
	return a
}

// enqueueReserved puts packet idx, for which Reserve was called, into
// queue q without asking the policy: the room was promised.
func (t *ToR) enqueueReserved(now rotor.Time, q QueueID, idx int32) {
	p := t.pool.At(idx)
	if t.sw.plain {
		t.sw.release(p.Size)
		t.sw.placePlain(int32(q), idx, p.Size)
	} else {
		t.sw.placeReserved(now, t.arrival(idx, p, q), int32(q), idx)
	}
	t.queued(q, p)
}

// Enqueue offers packet idx to queue q. It returns false if the packet was
// dropped (the caller then owns it). Packets the policy pushed out are
// kept for TakeEvicted.
func (t *ToR) Enqueue(now rotor.Time, q QueueID, idx int32) bool {
	return t.EnqueueFrom(now, q, idx, -1)
}

// EnqueueFrom is Enqueue for a packet that came in on port inPort (PFC
// accounts lossless packets to it and pauses it); −1: unknown, which a
// switch with lossless classes refuses.
func (t *ToR) EnqueueFrom(now rotor.Time, q QueueID, idx int32, inPort int) bool {
	p := t.pool.At(idx)
	if t.sw.plain { // no Arrival to build, nothing pushed out
		if !t.sw.enqueuePlain(int32(q), idx, p.Size) {
			t.Drops++
			t.DropBytes += int64(p.Size)
			return false
		}
		t.queued(q, p)
		return true
	}
	n0 := len(t.sw.Evicted)
	a := t.arrival(idx, p, q)
	if inPort >= 0 {
		a.InPort = int32(inPort - t.cfg.Uplinks)
	} else if t.cfg.Lossless != 0 {
		panic("tor: a switch with lossless classes needs each arrival's ingress port (EnqueueFrom)")
	}
	ok, _ := t.sw.EnqueueQueue(now, a, int32(q), idx)
	t.evicted(n0)
	if !ok {
		t.Drops++
		t.DropBytes += int64(p.Size)
		return false
	}
	t.queued(q, p)
	return true
}

// evicted counts the packets pushed out since Evicted held n0 as drops.
func (t *ToR) evicted(n0 int) {
	for i := n0; i < len(t.sw.Evicted); i++ {
		t.Drops++
		t.DropBytes += int64(t.pool.At(t.sw.Evicted[i]).Size)
		t.removed(QueueID(t.sw.EvictedFrom[i]))
	}
}

// EnqueueHeader puts packet idx (NDP: a trimmed header or a control
// packet) into queue q outside the shared buffer, in the header queue of
// q's port (Switch.EnqueueHeader). It returns false if that is full (the
// caller then owns the packet; it is not counted in Drops).
func (t *ToR) EnqueueHeader(q QueueID, idx int32) bool { return t.enqueueApart(0, q, idx, false) }

// HeaderBytes is the bytes in the header queues (not in Used).
func (t *ToR) HeaderBytes() int64 { return t.sw.hdrBytes }

// EnqueuePrivate puts data packet idx into queue q outside the shared
// buffer, in the private data queue of q's port (Config.PortData;
// Switch.EnqueuePrivate: the private packet the port is sending at now
// counts too). It returns false if that is full (the caller then owns
// the packet; Refused counts it if the caller refuses it).
func (t *ToR) EnqueuePrivate(now rotor.Time, q QueueID, idx int32) bool {
	return t.enqueueApart(now, q, idx, true)
}

// enqueueApart puts packet idx into queue q outside the shared buffer, in
// its port's private data queue (private) or header queue, and, if it
// fits, counts it as queued.
func (t *ToR) enqueueApart(now rotor.Time, q QueueID, idx int32, private bool) bool {
	p := t.pool.At(idx)
	var ok bool
	if private {
		ok = t.sw.EnqueuePrivate(now, int32(q), idx, p.Size)
	} else {
		ok = t.sw.EnqueueHeader(int32(q), idx, p.Size)
	}
	if !ok {
		return false
	}
	t.queued(q, p)
	return true
}

// PopLastPrivate takes the private data packet of q's port that entered
// last, if it has at least atLeast bytes (Switch.PopLastPrivate), and
// counts it as pushed out (Drops): the caller owns it. ok is false if
// there is none.
func (t *ToR) PopLastPrivate(q QueueID, atLeast int32) (idx int32, from QueueID, ok bool) {
	idx, f, size, ok := t.sw.PopLastPrivate(int(t.sw.st.PortOf(int32(q))), atLeast)
	if !ok {
		return 0, 0, false
	}
	t.Drops++
	t.DropBytes += int64(size)
	t.removed(QueueID(f))
	return idx, QueueID(f), true
}

// Refused counts an arrival of size bytes refused outside the policy
// (a full private data queue) in Drops.
func (t *ToR) Refused(size int32) {
	t.Drops++
	t.DropBytes += int64(size)
}

// PrivateBytes is the bytes in the private data queues (not in Used).
func (t *ToR) PrivateBytes() int64 { return t.sw.privBytes }

// queued updates the ToR's own counters after p entered q.
func (t *ToR) queued(q QueueID, p *Packet) {
	if t.ecn != nil && t.ecn[min(int(t.sw.st.PortOf(int32(q))), len(t.ecn)-1)].Marks(t.sw.st.Queues[q].Bytes-int64(p.Size), t.cfg.ECNRand) {
		p.Set(packet.ECN)
	}
	t.added(q)
}

// added updates the VOQ counters after a packet entered q.
func (t *ToR) added(q QueueID) {
	if int32(q) >= t.voqBase {
		t.voqPkts++
		if t.queueClass(q) == Local && t.sw.st.Queues[q].Packets == 1 {
			v := t.voqHop(q)
			t.local[v>>6] |= 1 << (v & 63)
		}
	}
}

// removed updates the ToR's own counters after a packet left q.
func (t *ToR) removed(q QueueID) {
	if int32(q) >= t.voqBase {
		t.voqPkts--
		if t.queueClass(q) == Local && t.sw.st.Queues[q].Packets == 0 {
			v := t.voqHop(q)
			t.local[v>>6] &^= 1 << (v & 63)
		}
	}
}

// Dequeue removes the head of q for transmission on egress port at rate,
// stamps INT on a data packet if enabled, and returns the packet index.
func (t *ToR) Dequeue(now rotor.Time, q QueueID, port int, rate rotor.Rate) int32 {
	var idx, size int32
	if t.sw.privOn && rate > 0 && t.sw.q[q].Len() > 0 && t.sw.q[q].Head().private() {
		s := t.sw.q[q].Head().size()
		t.sw.StartPrivate(int32(q), s, now+rate.TransmitTime(rotor.Bytes(s)))
	}
	if t.sw.plain {
		idx, size = t.sw.dequeuePlain(int32(q))
	} else {
		idx, size, _ = t.sw.dequeueQueue(now, int32(q))
	}
	t.removed(q)
	t.txBytes[port] += int64(size)
	if t.cfg.RecordINT {
		id := int32(port)
		if t.intPort != nil {
			id = t.intPort[port]
		}
		t.cfg.Ints.Stamp(idx, t.pool.At(idx), IntHop{Ts: now, Qlen: t.sw.st.Queues[q].Bytes, TxBytes: t.txBytes[port], Rate: rate, Port: id})
	}
	return idx
}

// Move moves the head of queue from to the tail of queue to inside the
// buffer (Switch.MoveHead: no admission, no ECN mark, no drop, no bytes
// sent) and returns its packet index; from must not be empty.
func (t *ToR) Move(now rotor.Time, from, to QueueID) int32 {
	idx, _ := t.sw.moveHead(now, int32(from), int32(to))
	t.removed(from)
	t.added(to)
	return idx
}

// Take removes the head of q without transmitting it; the policy sees it
// as a dequeue (to move a packet to another queue inside the buffer, use
// Move).
func (t *ToR) Take(now rotor.Time, q QueueID) int32 {
	idx, _, _ := t.sw.dequeueQueue(now, int32(q))
	t.removed(q)
	return idx
}

// TickEvery is the policy's tick period, 0 if it has none.
func (t *ToR) TickEvery() rotor.Time { return t.sw.TickEvery() }

// Tick runs the policy's periodic update.
func (t *ToR) Tick(now rotor.Time) { t.sw.Tick(now) }

// SetCircuit records that an uplink's circuit toward ToR v went up or
// down. The VOQs toward v have day while at least one circuit reaches v;
// the policy hears the changes between day and night.
func (t *ToR) SetCircuit(now rotor.Time, v int, up bool) {
	i := 0
	for i < len(t.ups) && t.ups[i].v != int32(v) {
		i++
	}
	var n uint16
	switch {
	case i < len(t.ups):
		n = t.ups[i].n
	case !up:
		return // no circuit reached v
	default:
		t.ups = append(t.ups, upCount{v: int32(v)})
	}
	m := n + 1
	if !up {
		m = n - 1
	}
	t.ups[i].n = m
	if m == 0 {
		t.ups = append(t.ups[:i], t.ups[i+1:]...) // order kept: at most Uplinks entries
	}
	if k := t.voqs.Get(int32(v)); k >= 0 && (n == 0) != (m == 0) {
		t.sw.setCircuit(now, t.own+int(k), up)
	}
}

// PickCircuit chooses the queue an uplink whose circuit reaches ToR v
// serves next, given that at most budget bytes can still be serialised
// before the circuit's night. Order: VOQ(v, Transit), VOQ(v, Local), then,
// if relay is not nil, Local traffic for other destinations sent to v as
// the first of two hops (round-robin over destinations, each accepted by
// relay). A non-nil gate may hold a queue's head back. ok is false if
// nothing fits.
func (t *ToR) PickCircuit(v int, budget int64, relay Relay, gate Gate) (q QueueID, ok bool) {
	if t.served != nil {
		if q, ok := t.pickWeighted(v, budget, gate); ok {
			return q, true
		}
	} else if q := t.voqQueue(v, Transit); q >= 0 {
		if t.sendable(q, v, budget, gate) {
			return q, true
		}
		if q++; t.sendable(q, v, budget, gate) { // Local
			return q, true
		}
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
			e := t.sw.q[q].Head()
			if int64(e.size()) <= budget && relay.AcceptRelay(v, x, e.size()) && (gate == nil || gate.Pass(v, t.pool.At(e.h))) {
				t.rr = (x + 1) % n
				return q, true
			}
		}
	}
	return 0, false
}

// pickWeighted is PickCircuit's choice between VOQ output v's header
// queue and its data (Transit, then Local) under Config.HeaderWeight, as
// opera-sim's CompositeQueue: while both can send, a round serves
// headers while the bytes served in it are below HeaderWeight headers'
// bytes, then data up to one MTU beyond that, and starts again; the
// bytes count only while both wait. The choice is the service: the
// caller sends what it returns.
func (t *ToR) pickWeighted(v int, budget int64, gate Gate) (QueueID, bool) {
	hq := t.VOQ(v, HeaderVOQ)
	dq, data := t.VOQ(v, Transit), false
	if t.sendable(dq, v, budget, gate) {
		data = true
	} else if dq = t.VOQ(v, Local); t.sendable(dq, v, budget, gate) {
		data = true
	}
	hdr := t.sendable(hq, v, budget, gate)
	switch {
	case hdr && data:
		hsize := t.sw.q[hq].Head().size()
		hi := int32(t.cfg.HeaderWeight) * hsize
		c := &t.served[v]
		if *c >= hi+t.sw.st.MTU {
			*c = 0
		}
		if *c < hi {
			*c += hsize
			return hq, true
		}
		*c += t.sw.q[dq].Head().size()
		return dq, true
	case hdr:
		return hq, true
	case data:
		return dq, true
	}
	return 0, false
}

func (t *ToR) sendable(q QueueID, v int, budget int64, gate Gate) bool {
	f := &t.sw.q[q]
	if f.Len() == 0 {
		return false
	}
	e := f.Head() // its size is at hand: the packet itself is read only for a gate
	return int64(e.size()) <= budget && (gate == nil || gate.Pass(v, t.pool.At(e.h)))
}

// PrefetchVOQ starts loading the packets at the heads of the VOQs toward
// v (a dense ToR's; a sparse one does nothing): what the uplink serving v
// sends next, one packet time from now. A packet that waited in a VOQ is
// cold, and the uplink's free event gets no prefetch from the event loop.
func (t *ToR) PrefetchVOQ(v int) {
	if !t.dense {
		return
	}
	q := t.sw.q[t.voqBase+int32(v)*t.nq:][:t.nq]
	for c := range q {
		if q[c].Len() > 0 {
			t.pool.Prefetch(q[c].Head().h)
		}
	}
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
// Enqueue calls; the slice is valid until the next Enqueue.
func (t *ToR) TakeEvicted() []int32 {
	e := t.sw.Evicted
	t.sw.Evicted, t.sw.EvictedFrom = t.sw.Evicted[:0], t.sw.EvictedFrom[:0]
	return e
}

// QueuedBytes recounts the bytes of the packets in all queues from the
// pool, independently of the counters (for conservation checks; O(packets)).
func (t *ToR) QueuedBytes() int64 {
	var b int64
	for q := range t.sw.q {
		f := &t.sw.q[q]
		for i := range f.Len() {
			b += int64(t.pool.At(f.At(i).h).Size)
		}
	}
	return b
}
