package tor

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// MaxQueues is the most queues a Switch port may have.
const MaxQueues = 8

// Sched is how a port picks the queue it serves next.
type Sched uint8

// Schedulers.
const (
	StrictPriority Sched = iota // lowest non-empty queue index first
	RoundRobin                  // non-empty queues in turn, one packet each
)

// ECN configures marking of one queue index (the same on every port). With
// K > 0 it is DCTCP's step: mark a packet that finds more than K bytes in
// its queue. Otherwise, with MaxTh > 0, it is RED on the instantaneous
// length: no mark below MinTh, probability MaxP·(q−MinTh)/(MaxTh−MinTh)
// between, always at or above MaxTh (RED min = max is a step at MinTh).
type ECN struct {
	K            int64
	MinTh, MaxTh int64
	MaxP         float64
}

// Marks reports whether a packet that finds queued bytes in its queue is
// marked. queued does not count the arriving packet: "the queue exceeds K
// on arrival" (RFC 8257 §3.1, the DCTCP paper's "queue occupancy greater
// than K upon its arrival"), as RED and ns-3's queue discs test the
// backlog before the enqueue. rng draws RED's marks between MinTh and
// MaxTh.
func (e *ECN) Marks(queued int64, rng *rand.Rand) bool {
	switch {
	case e.K > 0:
		return queued > e.K
	case e.MaxTh == 0 || queued < e.MinTh:
		return false
	case queued >= e.MaxTh || e.MaxP >= 1 && e.MaxTh == e.MinTh:
		return true
	}
	return rng.Float64() < e.MaxP*float64(queued-e.MinTh)/float64(e.MaxTh-e.MinTh)
}

// On reports whether e marks anything.
func (e *ECN) On() bool { return e.K > 0 || e.MaxTh > 0 }

// NeedsRand reports whether e draws random marks (RED with MaxP < 1).
func (e *ECN) NeedsRand() bool { return e.K == 0 && e.MaxP < 1 && e.MaxTh > e.MinTh }

func (e ECN) validate(i int) error {
	switch {
	case e.K < 0:
		return fmt.Errorf("ecn[%d].k %d: must not be negative", i, e.K)
	case e.MinTh < 0 || e.MaxTh < e.MinTh:
		return fmt.Errorf("ecn[%d].max_th %d: must be at least min_th %d ≥ 0", i, e.MaxTh, e.MinTh)
	case e.MaxTh > 0 && !(e.MaxP > 0 && e.MaxP <= 1):
		return fmt.Errorf("ecn[%d].max_p %v: must be in (0, 1]", i, e.MaxP)
	}
	return nil
}

// SwitchConfig describes a shared-buffer output-queued switch.
type SwitchConfig struct {
	Ports  int   // egress ports, ids 0..Ports−1
	Queues int   // queues per port, 1..MaxQueues
	Buffer int64 // B: shared buffer, bytes (unit packets in the buffer lab)
	MTU    int32 // a full packet, bytes (1 in the buffer lab); policies count "packets" in it
	// Rates are the port rates: one per port, or a single rate for all.
	Rates []rotor.Rate
	Sched Sched
	// ClassQueue maps a packet's class (priority) to a queue index; a class
	// beyond it goes to the last (lowest-priority) queue. Nil maps class c
	// to queue min(c, Queues−1).
	ClassQueue []uint8
	// ECN per queue index: none (no marking), one for all, or one each.
	ECN []ECN
	// RTT is the base round-trip time: policies that update once per RTT
	// (ABM) or average over one (Credence's features) use it.
	RTT rotor.Time
	// PFC: Lossless has bit k set iff queue index k is a lossless class.
	// Lossless packets are accounted to their ingress queue (InPort,
	// class); one that the policy does not admit to the shared pool goes
	// to headroom (at most Headroom bytes per ingress queue, HeadroomPool
	// in all, carved out of Buffer) and pauses its ingress queue.
	Lossless     uint8
	Headroom     int64
	HeadroomPool int64
	// HeaderQueue is the number of headers (NDP's trimmed headers and
	// control packets, EnqueueHeader) each port holds apart from the
	// shared buffer; 0: none.
	HeaderQueue int
	// PortData is the bytes of data each port holds in a private queue
	// outside the shared buffer (EnqueuePrivate: opera-sim's
	// CompositeQueue); 0: none.
	PortData int64
	// OnDemand is how many of the Ports exist only once addPort creates
	// them, each taking the next id (a rotor ToR's VOQ ports, one per
	// destination in use). Policies size their state and derive their
	// defaults from Ports all the same. With OnDemand > 0, Rates holds one
	// rate per port that exists from the start and one for all on-demand
	// ports (or a single rate).
	OnDemand int
}

// Initial is the number of ports that exist from the start.
func (c *SwitchConfig) Initial() int { return c.Ports - c.OnDemand }

// Validate reports the first bad field.
func (c *SwitchConfig) Validate() error {
	switch {
	case c.Ports < 1:
		return fmt.Errorf("ports %d: must be at least 1", c.Ports)
	case c.Queues < 1 || c.Queues > MaxQueues:
		return fmt.Errorf("queues %d: must be in 1..%d", c.Queues, MaxQueues)
	case c.Buffer <= 0:
		return fmt.Errorf("buffer %d: must be positive", c.Buffer)
	case c.MTU <= 0:
		return fmt.Errorf("mtu %d: must be positive", c.MTU)
	case c.OnDemand < 0 || c.OnDemand > c.Ports:
		return fmt.Errorf("on_demand %d: must be in [0, ports %d]", c.OnDemand, c.Ports)
	case len(c.Rates) != 1 && len(c.Rates) != c.Initial()+min(c.OnDemand, 1):
		return fmt.Errorf("rates: %d given, want 1 or %d (one per port)", len(c.Rates), c.Initial()+min(c.OnDemand, 1))
	case c.Sched > RoundRobin:
		return fmt.Errorf("sched %d: unknown scheduler", c.Sched)
	case len(c.ECN) > 1 && len(c.ECN) != c.Queues:
		return fmt.Errorf("ecn: %d given, want 0, 1 or %d (one per queue)", len(c.ECN), c.Queues)
	case c.RTT < 0:
		return fmt.Errorf("rtt %v: must not be negative", c.RTT)
	case c.Lossless>>c.Queues != 0:
		return fmt.Errorf("lossless %#b: classes beyond queues %d", c.Lossless, c.Queues)
	case c.Lossless != 0 && (c.Headroom <= 0 || c.HeadroomPool < c.Headroom || c.HeadroomPool >= c.Buffer):
		return fmt.Errorf("headroom %d, headroom_pool %d: PFC needs 0 < headroom ≤ headroom_pool < buffer %d", c.Headroom, c.HeadroomPool, c.Buffer)
	case c.Lossless == 0 && (c.Headroom != 0 || c.HeadroomPool != 0):
		return fmt.Errorf("headroom %d, headroom_pool %d: set only with lossless classes", c.Headroom, c.HeadroomPool)
	case c.HeaderQueue < 0:
		return fmt.Errorf("header_queue %d: must not be negative", c.HeaderQueue)
	case c.PortData < 0:
		return fmt.Errorf("port_data %d: must not be negative", c.PortData)
	}
	for i, r := range c.Rates {
		if r <= 0 {
			return fmt.Errorf("rates[%d] %d: must be positive", i, r)
		}
	}
	for i, q := range c.ClassQueue {
		if int(q) >= c.Queues {
			return fmt.Errorf("class_queue[%d] %d: must be below queues %d", i, q, c.Queues)
		}
	}
	for i, e := range c.ECN {
		if err := e.validate(i); err != nil {
			return err
		}
	}
	return nil
}

// Arrival is what a switch and its policy know of an arriving packet.
type Arrival struct {
	ID      int64 // packet identity (oracles and traces key on it)
	Flow    int32 // flow id (FAB and IB keep per-flow state)
	Size    int32 // bytes
	Port    int32 // egress port
	InPort  int32 // ingress port (PFC accounts lossless packets to it)
	Class   uint8 // priority class, mapped to a queue by the classifier
	Unsched bool  // sent in its flow's first RTT (ABM's unscheduled packets)
}

// QueueCounters is the occupancy of one queue.
type QueueCounters struct {
	Bytes   int64
	Packets int32
	Port    int32
}

// PortCounters is the occupancy of one port.
type PortCounters struct {
	Bytes   int64
	TxBytes int64 // bytes sent so far
	Rate    rotor.Rate
	Packets int32
	Active  uint8 // bit k set iff queue k of the port is not empty
	Night   bool  // the port's circuit is down (rotor ToRs)
	// apart is the port's state outside the shared buffer, beside its
	// counters: an NDP header or private data packet that enters or
	// leaves the port reads both, as one 64 B line (TestPortInOneLine).
	apart portApart
}

// portApart is a port's header queue (EnqueueHeader) and private data
// queue (EnqueuePrivate).
type portApart struct {
	priv int64 // bytes in the private data queue
	// wireEnd is when the private data packet on the wire (StartPrivate)
	// has left, and wireBytes its bytes; it still counts in PortData.
	wireEnd   rotor.Time
	hdrs      int32 // headers in the header queue
	lastPriv  int32 // the queue the latest private packet entered
	lastPrivH int32 // that packet's handle; −1 after PopLastPrivate
	wireBytes int32
}

// State is what a policy reads of a switch. Every field is kept up to date
// in O(1) per packet; a policy never needs to scan all queues per packet.
// Queue (port p, index k) is Queues[p·NQ+k].
type State struct {
	B, Used int64
	MTU     int32
	NQ      int // queues per port
	Queues  []QueueCounters
	Ports   []PortCounters
	// Per queue index (priority) over all ports: bytes and non-empty queues.
	PrioBytes  [MaxQueues]int64
	PrioActive [MaxQueues]int32
	Active     int32 // non-empty queues
	RTT        rotor.Time
	// PFC: ingress queues (InPort·NQ + class), and the headroom pool.
	// Used counts headroom bytes too.
	Ingress      []IngressCounters
	HeadroomPool int64
	HeadroomUsed int64
	Lossless     uint8 // bit k: queue index k is lossless
}

// IsLossless reports whether queue q carries a lossless class.
func (s *State) IsLossless(q int32) bool { return s.Lossless>>s.Prio(q)&1 != 0 }

// IngressCounters is one ingress queue (ingress port, class), kept for
// every class when PFC is on: its bytes in the shared pool, and for a
// lossless class its bytes in headroom and whether it paused its upstream.
type IngressCounters struct {
	Shared, Headroom int64
	Paused           bool
}

// SharedSize is b* = B − headroom pool, the shared pool.
func (s *State) SharedSize() int64 { return s.B - s.HeadroomPool }

// SharedFree is b* − q*: the shared pool's free bytes.
func (s *State) SharedFree() int64 { return s.SharedSize() - (s.Used - s.HeadroomUsed) }

// Free is B − Q (the shared pool's free bytes when PFC is off).
func (s *State) Free() int64 { return s.B - s.Used }

// PortOf is the port of queue q (q / NQ, kept in Queues: no division on
// the per-packet path).
func (s *State) PortOf(q int32) int32 { return s.Queues[q].Port }

// Prio is queue q's index within its port (its priority): q mod NQ.
func (s *State) Prio(q int32) int { return int(q - s.Queues[q].Port*int32(s.NQ)) }

// BufferPolicy decides which packets a shared buffer admits. Admit sees
// every arrival before the switch's own physical check (Q + size ≤ B) and
// may update state (FollowLQD's thresholds do). A policy may implement any
// of the optional hook interfaces below; the switch calls only those it
// implements, after the counters changed.
type BufferPolicy interface {
	Name() string
	Admit(now rotor.Time, a *Arrival, q int32, s *State) bool
}

// PushOut is a push-out policy (LQD): when an admitted packet does not fit,
// the switch drops the tail packet of Victim's queue, repeatedly, until it
// fits. Victim returns −1 to drop the arrival instead.
type PushOut interface {
	Victim(now rotor.Time, a *Arrival, q int32, s *State) int32
}

// OnEnqueue hears every admitted packet.
type OnEnqueue interface {
	Enqueued(now rotor.Time, a *Arrival, q int32, s *State)
}

// OnDequeue hears every transmitted packet.
type OnDequeue interface {
	Dequeued(now rotor.Time, size int32, q int32, s *State)
}

// OnMove hears a packet moved from queue from to queue to inside the
// buffer (moveHead: a rotor ToR re-routing at a slice change), after the
// counters changed. Its bytes never left the buffer: it is neither a
// dequeue nor an admission. Policies that keep state derived from queue
// lengths through the other hooks implement it; the others see the new
// lengths at their next decision.
type OnMove interface {
	Moved(now rotor.Time, size int32, from, to int32, s *State)
}

// OnDrop hears every arrival the switch drops, and every pushed-out packet
// (pushed true, a nil).
type OnDrop interface {
	Dropped(now rotor.Time, a *Arrival, size int32, q int32, pushed bool, s *State)
}

// Ticker is called every Every (an RTT, an AFD window); the owner of the
// switch drives it with Switch.Tick.
type Ticker interface {
	Every() rotor.Time
	Tick(now rotor.Time, s *State)
}

// LosslessPolicy is a policy with lossless (PFC) classes. AdmitLossless
// decides whether a lossless packet may enter the shared pool, accounted
// to ingress queue iq; if not, it goes to headroom and iq pauses. Resume
// decides whether a paused ingress queue whose headroom has drained may
// resume. IngressDequeued hears a lossless packet leave, after iq's
// counters changed.
type LosslessPolicy interface {
	AdmitLossless(now rotor.Time, a *Arrival, iq int32, s *State) bool
	Resume(now rotor.Time, iq int32, s *State) bool
	IngressDequeued(now rotor.Time, size int32, iq int32, s *State)
}

// CircuitAware hears a rotor ToR's circuit day (up) and night (down) per
// port; State.Ports[p].Night is already updated.
type CircuitAware interface {
	Circuit(now rotor.Time, port int32, up bool, s *State)
}

// Switch is a shared-buffer switch: ports of up to MaxQueues FIFO queues,
// one buffer, one BufferPolicy. It stores caller handles (packet indices),
// so it allocates nothing per packet once its queues reached their size.
type Switch struct {
	cfg    SwitchConfig
	st     State
	q      []des.Ring[entry] // per queue: caller handles and sizes
	ingr   []des.FIFO        // with PFC, per queue: the packets' ingress queues (−1: lossy)
	rr     []uint8           // per port: next queue for round robin
	policy BufferPolicy
	push   PushOut
	enq    OnEnqueue
	deq    OnDequeue
	move   OnMove
	drop   OnDrop
	tick   Ticker
	circ   CircuitAware
	pfc    LosslessPolicy // nil without lossless classes
	idle   des.FIFO       // paused ingress queues whose headroom drained
	inIdle []bool         // per ingress queue: in idle
	rng    *rand.Rand
	ecn    [MaxQueues]ECN
	ecnOn  bool
	// plain: Complete Sharing without PFC or ECN, which needs no Arrival
	// (enqueuePlain; the same decisions, without building one per packet).
	plain bool

	// Evicted collects handles pushed out during the last Enqueue, and
	// EvictedFrom their queues, in step; the caller owns them and should
	// reset both slices (Evicted = Evicted[:0]).
	Evicted, EvictedFrom []int32
	reserved             int64 // Reserve's bytes, in Used but in no queue
	hdrBytes             int64 // bytes in all header queues
	privBytes            int64 // bytes in all private data queues
	// hdrOn, privOn: the ports have header queues (HeaderQueue > 0),
	// private data queues (PortData > 0); their state is PortCounters.apart.
	hdrOn, privOn bool

	// OnPFC, if set, hears every pause (pause true) and resume of ingress
	// port inPort's class: the caller stops or restarts the upstream.
	OnPFC func(now rotor.Time, inPort int32, class int, pause bool)

	Drops, PushedOut, Marks int64
	// Decisions counts the admissions the switch decided: arrivals
	// offered to the policy (Complete Sharing's fit test included) and
	// AdmitsHeld's questions; a run whose switches decided nothing never
	// read its buffer.policy.
	Decisions     int64
	PeakUsed      int64
	LosslessDrops int64 // lossless packets lost (headroom overflow): must stay 0
	Pauses        int64
}

// entry is one queued packet: the caller's handle, its size, and whether
// it sits in its port's header queue (EnqueueHeader) or private data
// queue (EnqueuePrivate) rather than the buffer. Handle and size are kept
// together (one cache line per queue head, not two) in 8 bytes: the marks
// are the top bits of the size word, read only through size, hdr and
// private.
type entry struct {
	h    int32
	word uint32 // size in bytes (< 2³⁰) | headerBit | privateBit
}

const (
	headerBit  = 1 << 31
	privateBit = 1 << 30
)

func newEntry(h, size int32, hdr bool) entry {
	e := entry{h: h, word: uint32(size)}
	if hdr {
		e.word |= headerBit
	}
	return e
}

// size is the packet's size in bytes.
func (e entry) size() int32 { return int32(e.word &^ (headerBit | privateBit)) }

// hdr reports whether the packet is in its port's header queue.
func (e entry) hdr() bool { return e.word&headerBit != 0 }

// private reports whether the packet is in its port's private data queue.
func (e entry) private() bool { return e.word&privateBit != 0 }

// outside reports whether the packet is outside the shared buffer (a
// header or private data: the policy never saw it).
func (e entry) outside() bool { return e.word&(headerBit|privateBit) != 0 }

// NewSwitch builds a switch. rng draws RED's marks and is passed to
// nothing else; it may be nil when no queue uses RED.
func NewSwitch(cfg SwitchConfig, p BufferPolicy, rng *rand.Rand) (*Switch, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("policy: is nil")
	}
	n := cfg.Initial() * cfg.Queues
	sw := &Switch{cfg: cfg, q: make([]des.Ring[entry], n), rr: make([]uint8, cfg.Initial()), policy: p, rng: rng}
	sw.st = State{B: cfg.Buffer, MTU: cfg.MTU, NQ: cfg.Queues, RTT: cfg.RTT,
		Queues: make([]QueueCounters, n), Ports: make([]PortCounters, cfg.Initial())}
	for i := range sw.st.Queues {
		sw.st.Queues[i].Port = int32(i / cfg.Queues)
	}
	for p := range sw.st.Ports {
		sw.st.Ports[p].Rate = cfg.Rates[min(p, len(cfg.Rates)-1)]
	}
	for k := 0; k < cfg.Queues && len(cfg.ECN) > 0; k++ {
		e := cfg.ECN[min(k, len(cfg.ECN)-1)]
		sw.ecn[k] = e
		if e.On() {
			sw.ecnOn = true
			if e.NeedsRand() && rng == nil {
				return nil, fmt.Errorf("ecn[%d]: RED with max_p < 1 needs a random source", k)
			}
		}
	}
	sw.push, _ = p.(PushOut)
	sw.enq, _ = p.(OnEnqueue)
	sw.deq, _ = p.(OnDequeue)
	sw.move, _ = p.(OnMove)
	sw.drop, _ = p.(OnDrop)
	sw.tick, _ = p.(Ticker)
	sw.circ, _ = p.(CircuitAware)
	sw.hdrOn, sw.privOn = cfg.HeaderQueue > 0, cfg.PortData > 0
	for p := range sw.st.Ports {
		sw.initApart(p)
	}
	_, cs := p.(CompleteSharingPolicy)
	sw.plain = cs && cfg.Lossless == 0 && !sw.ecnOn
	if cfg.Lossless != 0 {
		lp, ok := p.(LosslessPolicy)
		if !ok {
			return nil, fmt.Errorf("lossless: policy %s has no lossless classes (PFC needs reverie, sonic, sonic-abm or dt)", p.Name())
		}
		sw.pfc = lp
		sw.ingr = make([]des.FIFO, n)
		sw.inIdle = make([]bool, n)
		sw.st.Ingress = make([]IngressCounters, n)
		sw.st.HeadroomPool = cfg.HeadroomPool
		sw.st.Lossless = cfg.Lossless
	}
	return sw, nil
}

// addPort creates the next on-demand port (SwitchConfig.OnDemand), with
// the on-demand ports' rate and empty queues, and returns its id. It
// allocates: it is called on a destination's first use, not per packet.
// One port beyond Ports may be created, as a spare for decisions of a
// policy without hooks (stateless), which keeps nothing per port.
func (sw *Switch) addPort() int32 {
	id := len(sw.st.Ports)
	if id > sw.cfg.Ports || id == sw.cfg.Ports && !sw.stateless() {
		panic(fmt.Sprintf("tor: addPort: all %d ports exist", sw.cfg.Ports))
	}
	sw.st.Ports = append(sw.st.Ports, PortCounters{Rate: sw.cfg.Rates[len(sw.cfg.Rates)-1]})
	sw.initApart(id)
	sw.rr = append(sw.rr, 0)
	for range sw.cfg.Queues {
		sw.st.Queues = append(sw.st.Queues, QueueCounters{Port: int32(id)})
		sw.q = append(sw.q, des.Ring[entry]{})
		if sw.pfc != nil {
			sw.ingr = append(sw.ingr, des.FIFO{})
			sw.inIdle = append(sw.inIdle, false)
			sw.st.Ingress = append(sw.st.Ingress, IngressCounters{})
		}
	}
	return int32(id)
}

// initApart sets port's private data queue state: no packet taken last
// (PopLastPrivate then looks at its first queue).
func (sw *Switch) initApart(port int) {
	a := &sw.st.Ports[port].apart
	a.lastPriv, a.lastPrivH = int32(port*sw.cfg.Queues), -1
}

// stateless reports whether the policy keeps no state of its own between
// decisions (it has none of the hooks): its answers depend on State alone.
func (sw *Switch) stateless() bool {
	return sw.push == nil && sw.enq == nil && sw.deq == nil && sw.move == nil && sw.drop == nil && sw.tick == nil && sw.circ == nil && sw.pfc == nil
}

// State is the switch's counters (read only for callers).
func (sw *Switch) State() *State { return &sw.st }

// Policy is the switch's buffer policy.
func (sw *Switch) Policy() BufferPolicy { return sw.policy }

// Config is the switch's configuration.
func (sw *Switch) Config() *SwitchConfig { return &sw.cfg }

// classify maps a class to a queue index.
func (sw *Switch) classify(class uint8) int {
	if sw.cfg.ClassQueue == nil {
		return min(int(class), sw.cfg.Queues-1)
	}
	if int(class) >= len(sw.cfg.ClassQueue) {
		return sw.cfg.Queues - 1
	}
	return int(sw.cfg.ClassQueue[class])
}

// queueOf is the queue an arrival goes to.
func (sw *Switch) queueOf(a *Arrival) int32 {
	return a.Port*int32(sw.cfg.Queues) + int32(sw.classify(a.Class))
}

// Enqueue offers packet h to the switch. It reports whether the packet was
// admitted and whether it was ECN-marked. Packets pushed out to make room
// are appended to Evicted.
func (sw *Switch) Enqueue(now rotor.Time, a *Arrival, h int32) (ok, mark bool) {
	return sw.EnqueueQueue(now, a, sw.queueOf(a), h)
}

// EnqueueQueue is Enqueue into queue q, for callers with their own
// classifier (a rotor ToR's VOQs); q must be a queue of port a.Port.
func (sw *Switch) EnqueueQueue(now rotor.Time, a *Arrival, q int32, h int32) (ok, mark bool) {
	s := &sw.st
	sw.Decisions++
	iq, lossless := int32(-1), false
	if sw.pfc != nil {
		iq, lossless = a.InPort*int32(s.NQ)+int32(s.Prio(q)), s.IsLossless(q)
	}
	if lossless {
		if !sw.admitLossless(now, a, iq) {
			sw.LosslessDrops++
			sw.dropArrival(now, a, q)
			return false, false
		}
	} else if sw.admit(now, a, q) != Admitted {
		sw.dropArrival(now, a, q)
		return false, false
	}
	if sw.ecnOn {
		mark = sw.mark(q)
		if mark {
			sw.Marks++
		}
	}
	sw.place(now, a, q, h, lossless, iq)
	return true, mark
}

// Verdict is a switch's answer to an arrival into a lossy class.
type Verdict uint8

// Verdicts.
const (
	Admitted Verdict = iota // admitted (after pushing out what the policy named)
	NoRoom                  // it does not fit the shared pool, even after the policy pushed out what it named (Evicted holds those all the same)
	Refused                 // it fits, but the policy refuses it
)

// admit is the admission of arrival a into queue q of a lossy class, the
// same for a packet that arrives (EnqueueQueue) and for one that is held
// (AdmitHeld): the policy's Admit, then the shared pool's room; while it
// lacks room a push-out policy names victims, whose tail packets leave
// the buffer (Evicted). Held packets are not in the queues and so are
// never victims. The caller drops or holds back what is not admitted.
func (sw *Switch) admit(now rotor.Time, a *Arrival, q int32) Verdict {
	s := &sw.st
	size := int64(a.Size)
	if !sw.policy.Admit(now, a, q, s) {
		if s.Used-s.HeadroomUsed+size > s.SharedSize() {
			return NoRoom
		}
		return Refused
	}
	if s.Used-s.HeadroomUsed+size <= s.SharedSize() {
		return Admitted
	}
	if sw.push == nil {
		return NoRoom
	}
	for s.Used-s.HeadroomUsed+size > s.SharedSize() {
		v := sw.push.Victim(now, a, q, s)
		if v < 0 || sw.q[v].Len() == 0 || sw.q[v].At(sw.q[v].Len()-1).outside() { // headers and private data are not in the buffer
			return NoRoom
		}
		e := sw.q[v].PopTail()
		vh, vsize := e.h, e.size()
		if sw.pfc != nil { // push-out policies have no lossless classes
			s.Ingress[sw.ingr[v].PopTail()].Shared -= int64(vsize)
		}
		sw.sub(v, vsize)
		sw.PushedOut++
		sw.Evicted = append(sw.Evicted, vh)
		sw.EvictedFrom = append(sw.EvictedFrom, v)
		if sw.drop != nil {
			sw.drop.Dropped(now, nil, vsize, v, true, s)
		}
	}
	return Admitted
}

// enqueuePlain is EnqueueQueue for a plain switch (Complete Sharing, no
// PFC, no ECN): packet h of size bytes enters q if it fits.
func (sw *Switch) enqueuePlain(q int32, h int32, size int32) bool {
	s := &sw.st
	sw.Decisions++
	if s.Used-s.HeadroomUsed+int64(size) > s.SharedSize() {
		sw.Drops++
		return false
	}
	sw.placePlain(q, h, size)
	return true
}

// placePlain is place for a plain switch.
func (sw *Switch) placePlain(q int32, h int32, size int32) {
	sw.q[q].Push(newEntry(h, size, false))
	sw.add(q, size)
	if u := sw.st.Used - sw.reserved + sw.privBytes; u > sw.PeakUsed {
		sw.PeakUsed = u
	}
}

// place puts admitted packet h into queue q.
func (sw *Switch) place(now rotor.Time, a *Arrival, q int32, h int32, lossless bool, iq int32) {
	s := &sw.st
	size := int64(a.Size)
	sw.q[q].Push(newEntry(h, a.Size, false))
	if sw.pfc != nil {
		sw.ingr[q].Push(iq)
		if !lossless && iq >= 0 {
			s.Ingress[iq].Shared += size
		}
	}
	sw.add(q, a.Size)
	if u := s.Used - sw.reserved + sw.privBytes; u > sw.PeakUsed {
		sw.PeakUsed = u
	}
	if sw.enq != nil {
		sw.enq.Enqueued(now, a, q, s)
	}
}

// EnqueueHeader puts header h (NDP: a trimmed header or a control
// packet) of size bytes into queue q, in line with q's packets, if q's
// port has fewer than HeaderQueue headers queued. A header is not in the
// shared buffer: it counts in its queue's and port's lengths (Queues,
// Ports, PrioBytes: it waits in that line) but not in Used, the policy
// neither decides on it nor hears of it, and it is never pushed out.
func (sw *Switch) EnqueueHeader(q int32, h int32, size int32) bool {
	a := &sw.st.Ports[sw.st.Queues[q].Port].apart
	if !sw.hdrOn || a.hdrs >= int32(sw.cfg.HeaderQueue) {
		return false
	}
	a.hdrs++
	sw.hdrBytes += int64(size)
	sw.pushApart(q, newEntry(h, size, true), size)
	return true
}

// pushApart queues entry e of size bytes at q outside the shared buffer:
// in q's line and in its queue's and port's lengths, not in Used.
func (sw *Switch) pushApart(q int32, e entry, size int32) {
	sw.q[q].Push(e)
	if sw.pfc != nil {
		sw.ingr[q].Push(-1)
	}
	sw.add(q, size)
	sw.st.Used -= int64(size) // not in the shared buffer
}

// subHeader takes a header of size bytes off queue q's counters.
func (sw *Switch) subHeader(q int32, size int32) {
	sw.st.Ports[sw.st.Queues[q].Port].apart.hdrs--
	sw.hdrBytes -= int64(size)
	sw.st.Used += int64(size) // sub takes it off Used, which never had it
	sw.sub(q, size)
}

// Headers is the number of headers in port's header queue.
func (sw *Switch) Headers(port int) int {
	return int(sw.st.Ports[port].apart.hdrs)
}

// HeaderBytes is the bytes in all header queues (not in State.Used).
func (sw *Switch) HeaderBytes() int64 { return sw.hdrBytes }

// EnqueuePrivate puts data packet h of size bytes into queue q, in the
// private data queue of q's port (opera-sim's CompositeQueue), if the
// port's private data, the private data packet it is sending at now
// (StartPrivate) and size fit in PortData bytes: as htsim's queues, a
// packet leaves the queue when its last bit has left. Like a header it
// is outside the shared buffer: it counts in its queue's and port's
// lengths but not in Used, and the policy neither decides on it nor
// hears of it.
func (sw *Switch) EnqueuePrivate(now rotor.Time, q int32, h int32, size int32) bool {
	a := &sw.st.Ports[sw.st.Queues[q].Port].apart
	if !sw.privOn || a.priv+int64(size)+a.onWire(now) > sw.cfg.PortData {
		return false
	}
	a.priv += int64(size)
	a.lastPriv, a.lastPrivH = q, h
	sw.privBytes += int64(size)
	e := newEntry(h, size, false)
	e.word |= privateBit
	sw.pushApart(q, e, size)
	if u := sw.st.Used - sw.reserved + sw.privBytes; u > sw.PeakUsed {
		sw.PeakUsed = u
	}
	return true
}

// StartPrivate notes that q's port sends a private data packet of size
// bytes from now until end: EnqueuePrivate counts it until then.
func (sw *Switch) StartPrivate(q int32, size int32, end rotor.Time) {
	a := &sw.st.Ports[sw.st.Queues[q].Port].apart
	a.wireBytes, a.wireEnd = size, end
}

// onWire is the bytes of the private data packet the port is sending at
// now.
func (a *portApart) onWire(now rotor.Time) int64 {
	if now < a.wireEnd {
		return int64(a.wireBytes)
	}
	return 0
}

// subPrivate takes a private data packet of size bytes off queue q's
// counters.
func (sw *Switch) subPrivate(q int32, size int32) {
	sw.st.Ports[sw.st.Queues[q].Port].apart.priv -= int64(size)
	sw.privBytes -= int64(size)
	sw.st.Used += int64(size) // sub takes it off Used, which never had it
	sw.sub(q, size)
}

// PopLastPrivate removes the private data packet that entered port's
// private queue last, if it is still the tail of its queue, and if it is
// at least atLeast bytes long (opera-sim trims it to make room for an
// arrival of atLeast bytes, and only if it makes that room). When that
// packet has left its tail (sent, moved, or taken by the last call), the
// candidate is the tail of the port's first queue whose tail is private
// data. ok is false if the candidate is too small or there is none (a
// header behind the last data packet of a single-queue port hides it:
// only tails are taken).
func (sw *Switch) PopLastPrivate(port int, atLeast int32) (h int32, q int32, size int32, ok bool) {
	if !sw.privOn {
		return 0, 0, 0, false
	}
	a := &sw.st.Ports[port].apart
	q = a.lastPriv
	if r := &sw.q[q]; r.Len() == 0 || r.At(r.Len()-1).h != a.lastPrivH || !r.At(r.Len()-1).private() {
		base := int32(port * sw.cfg.Queues)
		for q = base; q < base+int32(sw.cfg.Queues) && !sw.privateTail(q); q++ {
		}
		if q == base+int32(sw.cfg.Queues) {
			return 0, 0, 0, false
		}
	}
	r := &sw.q[q]
	if r.At(r.Len()-1).size() < atLeast {
		return 0, 0, 0, false
	}
	e := r.PopTail()
	if sw.pfc != nil {
		sw.ingr[q].PopTail()
	}
	sw.subPrivate(q, e.size())
	a.lastPrivH = -1
	return e.h, q, e.size(), true
}

// privateTail reports whether queue q's tail is a private data packet.
func (sw *Switch) privateTail(q int32) bool {
	r := &sw.q[q]
	return r.Len() > 0 && r.At(r.Len()-1).private()
}

// PrivateBytes is the bytes in all private data queues (not in
// State.Used), and portPrivate those of port's.
func (sw *Switch) PrivateBytes() int64 { return sw.privBytes }

func (sw *Switch) portPrivate(port int) int64 {
	return sw.st.Ports[port].apart.priv
}

// reserve promises size bytes of buffer to a packet on its way (hop-by-hop
// flow control): the policy sees them as occupied until placeReserved or
// release.
func (sw *Switch) reserve(size int32) {
	sw.reserved += int64(size)
	sw.st.Used += int64(size)
}

// release gives back size reserved bytes.
func (sw *Switch) release(size int32) {
	sw.reserved -= int64(size)
	sw.st.Used -= int64(size)
}

// AdmitHeld decides on arrival a into queue q for a packet that waits
// outside the queues (a pulled packet: host-buffered traffic whose room a
// ToR promises before the packet is there), held being the bytes of such
// packets already promised to q. The decision is an arrival's (admit):
// the policy's Admit, the room, and a push-out policy's victims, which
// are queued packets only (the caller takes them, TakeEvicted). Unlike
// an arrival, a packet that cannot fit and for which nothing could be
// pushed out is not offered to the policy at all: it never arrives (flow
// control holds it back), so a policy that learns from arrivals
// (FollowLQD's virtual LQD, EDT) does not hear the repeated asks. If
// admitted, the packet's room is reserved (reserve) and the policy's
// enqueue hook hears it; release and heldLeft end its stay. A packet not
// admitted is not dropped: it waits where it is, and the drop hook does
// not hear it. The policy and its hooks see q holding the held bytes
// (and this packet's, once admitted); other queues' held bytes are in
// Used only.
func (sw *Switch) AdmitHeld(now rotor.Time, a *Arrival, q int32, held int64) Verdict {
	if sw.plain {
		if sw.ReservePlain(a.Size) {
			return Admitted
		}
		return NoRoom
	}
	s := &sw.st
	if sw.push == nil && s.Used-s.HeadroomUsed+int64(a.Size) > s.SharedSize() {
		return NoRoom // nothing can make room: the packet is not offered (flow control), it waits
	}
	sw.Decisions++
	sw.showHeld(q, held)
	v := sw.admit(now, a, q)
	sw.hideHeld(q, held)
	if v != Admitted {
		return v
	}
	sw.reserve(a.Size)
	if sw.enq != nil {
		sw.showHeld(q, held+int64(a.Size))
		sw.enq.Enqueued(now, a, q, &sw.st)
		sw.hideHeld(q, held+int64(a.Size))
	}
	return Admitted
}

// ReservePlain is AdmitHeld for a plain switch (Complete Sharing without
// ECN or PFC), which needs no arrival: size bytes are admitted iff they
// fit.
func (sw *Switch) ReservePlain(size int32) bool {
	s := &sw.st
	if s.Used-s.HeadroomUsed+int64(size) > s.SharedSize() {
		return false
	}
	sw.Decisions++
	sw.reserve(size)
	return true
}

// heldLeft tells the policy's dequeue hook that a held packet of size
// bytes left queue q (AdmitHeld), its room given back already (release);
// the hook sees q hold the held bytes that remain.
func (sw *Switch) heldLeft(now rotor.Time, q int32, size int32, held int64) {
	if sw.deq != nil {
		sw.showHeld(q, held)
		sw.deq.Dequeued(now, size, q, &sw.st)
		sw.hideHeld(q, held)
	}
}

// showHeld counts held bytes (already in Used) in queue q and its port,
// as one packet, for a policy's view; hideHeld takes them back out
// exactly.
func (sw *Switch) showHeld(q int32, held int64) {
	if held > 0 {
		sw.add(q, int32(held))
		sw.st.Used -= held
	}
}

func (sw *Switch) hideHeld(q int32, held int64) {
	if held > 0 {
		sw.st.Used += held
		sw.sub(q, int32(held))
	}
}

// placeReserved puts packet h, whose room reserve promised, into queue q
// without asking the policy (it still hears the enqueue). Not for
// lossless classes.
func (sw *Switch) placeReserved(now rotor.Time, a *Arrival, q int32, h int32) {
	sw.release(a.Size)
	sw.place(now, a, q, h, false, -1)
}

// admitLossless accounts a lossless packet to ingress queue iq: in the
// shared pool if the policy admits it there and it fits, else in
// headroom, pausing iq. It reports false only when headroom overflows.
func (sw *Switch) admitLossless(now rotor.Time, a *Arrival, iq int32) bool {
	s := &sw.st
	ing := &s.Ingress[iq]
	size := int64(a.Size)
	if !ing.Paused && sw.pfc.AdmitLossless(now, a, iq, s) && s.Used-s.HeadroomUsed+size <= s.SharedSize() {
		ing.Shared += size
		return true
	}
	if ing.Headroom+size > sw.cfg.Headroom || s.HeadroomUsed+size > s.HeadroomPool {
		return false
	}
	ing.Headroom += size
	s.HeadroomUsed += size
	if !ing.Paused {
		ing.Paused = true
		sw.Pauses++
		if sw.OnPFC != nil {
			sw.OnPFC(now, iq/int32(s.NQ), int(iq)%s.NQ, true)
		}
	}
	return true
}

// leaveLossless takes a departing lossless packet off ingress queue iq
// (headroom first) and resumes paused ingress queues that may resume: iq
// itself, and one of those waiting, in turn, so that a queue that drained
// while the pool was congested resumes later.
func (sw *Switch) leaveLossless(now rotor.Time, size int32, iq int32) {
	s := &sw.st
	ing := &s.Ingress[iq]
	d := min(int64(size), ing.Headroom)
	ing.Headroom -= d
	s.HeadroomUsed -= d
	ing.Shared -= int64(size) - d
	sw.pfc.IngressDequeued(now, size, iq, s)
	if ing.Paused && ing.Headroom == 0 && !sw.tryResume(now, iq) && !sw.inIdle[iq] {
		sw.inIdle[iq] = true
		sw.idle.Push(iq)
	}
	sw.recheck(now)
}

// recheck gives one paused, drained ingress queue, in turn, a chance to
// resume (the pool may have freed up by another queue's departure).
func (sw *Switch) recheck(now rotor.Time) {
	if sw.idle.Len() > 0 {
		w := sw.idle.Pop()
		ing := &sw.st.Ingress[w]
		if ing.Paused && (ing.Headroom > 0 || !sw.tryResume(now, w)) {
			sw.idle.Push(w)
		} else {
			sw.inIdle[w] = false
		}
	}
}

func (sw *Switch) tryResume(now rotor.Time, iq int32) bool {
	s := &sw.st
	if !sw.pfc.Resume(now, iq, s) {
		return false
	}
	s.Ingress[iq].Paused = false
	if sw.OnPFC != nil {
		sw.OnPFC(now, iq/int32(s.NQ), int(iq)%s.NQ, false)
	}
	return true
}

func (sw *Switch) dropArrival(now rotor.Time, a *Arrival, q int32) {
	sw.Drops++
	if sw.drop != nil {
		sw.drop.Dropped(now, a, a.Size, q, false, &sw.st)
	}
}

func (sw *Switch) mark(q int32) bool {
	return sw.ecn[sw.st.Prio(q)].Marks(sw.st.Queues[q].Bytes, sw.rng)
}

func (sw *Switch) add(q int32, size int32) {
	s := &sw.st
	c := &s.Queues[q]
	p := &s.Ports[c.Port]
	k := int(q - c.Port*int32(s.NQ)) // Prio, with c at hand
	if c.Packets == 0 {
		p.Active |= 1 << k
		s.PrioActive[k]++
		s.Active++
	}
	c.Bytes += int64(size)
	c.Packets++
	p.Bytes += int64(size)
	p.Packets++
	s.PrioBytes[k] += int64(size)
	s.Used += int64(size)
}

func (sw *Switch) sub(q int32, size int32) {
	s := &sw.st
	c := &s.Queues[q]
	p := &s.Ports[c.Port]
	k := int(q - c.Port*int32(s.NQ)) // Prio, with c at hand
	c.Bytes -= int64(size)
	c.Packets--
	if c.Packets == 0 {
		p.Active &^= 1 << k
		s.PrioActive[k]--
		s.Active--
	}
	p.Bytes -= int64(size)
	p.Packets--
	s.PrioBytes[k] -= int64(size)
	s.Used -= int64(size)
}

// pick is the queue port would serve next, or −1 if all its queues are
// empty. It does not change the round-robin position.
func (sw *Switch) pick(port int) int32 { return sw.pickExcept(port, 0) }

// pickExcept is pick among the port's queues whose bit is not set in skip
// (bit k: queue index k, e.g. a class paused by PFC).
func (sw *Switch) pickExcept(port int, skip uint8) int32 {
	act := uint32(sw.st.Ports[port].Active &^ skip)
	if act == 0 {
		return -1
	}
	base := int32(port * sw.cfg.Queues)
	if sw.cfg.Sched == StrictPriority {
		return base + int32(bits.TrailingZeros32(act))
	}
	r := uint32(sw.rr[port])
	rot := act>>r | act<<(uint32(sw.cfg.Queues)-r)
	k := (r + uint32(bits.TrailingZeros32(rot))) % uint32(sw.cfg.Queues)
	return base + int32(k)
}

// Dequeue sends the next packet of port: its handle and size, ok false if
// the port is empty.
func (sw *Switch) Dequeue(now rotor.Time, port int) (h int32, size int32, ok bool) {
	q := sw.pick(port)
	if q < 0 {
		return 0, 0, false
	}
	return sw.dequeueQueue(now, q)
}

// dequeueQueue sends the head packet of queue q (for callers with their
// own scheduler, such as a rotor ToR serving VOQs by circuit).
func (sw *Switch) dequeueQueue(now rotor.Time, q int32) (h int32, size int32, ok bool) {
	if sw.q[q].Len() == 0 {
		return 0, 0, false
	}
	e := sw.q[q].Pop()
	h, size = e.h, e.size()
	iq := int32(-1)
	if sw.pfc != nil {
		iq = sw.ingr[q].Pop()
	}
	switch {
	case e.hdr():
		sw.subHeader(q, size)
	case e.private():
		sw.subPrivate(q, size)
	default:
		sw.sub(q, size)
	}
	port := sw.st.Queues[q].Port
	sw.st.Ports[port].TxBytes += int64(size)
	if sw.cfg.Sched == RoundRobin {
		sw.rr[port] = uint8((sw.st.Prio(q) + 1) % sw.cfg.Queues)
	}
	if e.outside() { // the policy never saw it
		return h, size, true
	}
	if sw.deq != nil {
		sw.deq.Dequeued(now, size, q, &sw.st)
	}
	switch {
	case iq < 0:
	case sw.st.IsLossless(q):
		sw.leaveLossless(now, size, iq)
	default:
		sw.st.Ingress[iq].Shared -= int64(size)
		sw.recheck(now)
	}
	return h, size, true
}

// moveHead moves the head packet of queue from to the tail of queue to
// without it leaving the buffer: the policy does not decide on it and
// hears no dequeue (OnMove tells it of the new lengths), it is neither
// marked nor dropped, and the port it left counts no bytes sent. A header
// moves between its ports' header queues, private data between their
// private queues (the port it enters may then hold more than PortData). It returns the packet's handle;
// ok is false if from is empty.
func (sw *Switch) moveHead(now rotor.Time, from, to int32) (h int32, ok bool) {
	if sw.q[from].Len() == 0 {
		return 0, false
	}
	e := sw.q[from].Pop()
	size := e.size()
	if sw.pfc != nil {
		sw.ingr[to].Push(sw.ingr[from].Pop())
	}
	sw.sub(from, size)
	sw.add(to, size)
	switch {
	case e.hdr():
		sw.st.Ports[sw.st.Queues[from].Port].apart.hdrs--
		sw.st.Ports[sw.st.Queues[to].Port].apart.hdrs++
	case e.private(): // a move is never refused: the port may hold more than PortData
		sw.st.Ports[sw.st.Queues[from].Port].apart.priv -= int64(size)
		sw.st.Ports[sw.st.Queues[to].Port].apart.priv += int64(size)
	}
	sw.q[to].Push(e)
	if !e.outside() && sw.move != nil {
		sw.move.Moved(now, size, from, to, &sw.st)
	}
	return e.h, true
}

// dequeuePlain is dequeueQueue for a plain switch (no PFC, no dequeue
// hook) whose queue q is not empty.
func (sw *Switch) dequeuePlain(q int32) (h int32, size int32) {
	e := sw.q[q].Pop()
	switch {
	case e.hdr():
		sw.subHeader(q, e.size())
	case e.private():
		sw.subPrivate(q, e.size())
	default:
		sw.sub(q, e.size())
	}
	port := sw.st.Queues[q].Port
	sw.st.Ports[port].TxBytes += int64(e.size())
	if sw.cfg.Sched == RoundRobin {
		sw.rr[port] = uint8((sw.st.Prio(q) + 1) % sw.cfg.Queues)
	}
	return e.h, e.size()
}

// TickEvery is the policy's tick period, 0 if it has no ticks.
func (sw *Switch) TickEvery() rotor.Time {
	if sw.tick == nil {
		return 0
	}
	return sw.tick.Every()
}

// Tick runs the policy's periodic update.
func (sw *Switch) Tick(now rotor.Time) {
	if sw.tick != nil {
		sw.tick.Tick(now, &sw.st)
	}
}

// setCircuit records that port's circuit went up (day) or down (night)
// and tells the policy.
func (sw *Switch) setCircuit(now rotor.Time, port int, up bool) {
	sw.st.Ports[port].Night = !up
	if sw.circ != nil {
		sw.circ.Circuit(now, int32(port), up, &sw.st)
	}
}
