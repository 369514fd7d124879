package fabric

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// Event kinds. The loop in run dispatches on them with a switch.
const (
	evFlow        uint8 = iota // next flow starts
	evHostTxDone               // host NIC finished a packet (target host)
	evHostWake                 // host pacing timer (target host)
	evToRArrive                // packet reaches a ToR (target ToR, arg packet)
	evPortFree                 // a port (port.go) with global id target is free, or a booked turn starts
	evHostArrive               // packet reaches a host (target host, arg packet)
	evDay                      // switch's circuits come up (target switch)
	evNight                    // switch starts reconfiguring (target switch)
	evRTO                      // retransmission timer (target flow)
	evAckIdeal                 // out-of-band ACK reaches its sender (target host, arg packet)
	evPSArrive                 // packet reaches the packet switch (arg packet)
	evSample                   // metrics sampling
	evTick                     // buffer-policy tick (target ToR, −1: packet switch)
	evMemory                   // heap sample for the perf report (arg index)
	evTail                     // the last quarter of the run starts: the hosts' byte counts so far (metrics.tailFrom)
	evPrefetch                 // pull for the circuits of switch's next day (target switch)
	evStored                   // a relayed packet is stored at a host of ToR target, for ToR arg
	evSpineArrive              // leaf-spine: packet reaches spine target (arg packet)
	evNDPPull                  // ndp: host target's pull pacer (arg 0) or flow arg−1's may send its next PULL
	evPFC                      // a PFC frame from global port target reaches its upstream (arg class | pause<<8)
	evHandshake                // a windowed flow's handshake is over: it may send (target flow)
	evDelAck                   // a delayed ACK's timer (target flow)
	evSynTimer                 // a queued handshake's SYN timer (target flow)
)

// The event queue's ScheduleFirst keys hold kinds below des.MaxFirstKind:
// this fails to compile otherwise.
const _ = uint8(des.MaxFirstKind - 1 - evSynTimer)

type hostState struct {
	busy   bool
	wakeAt rotor.Time // pending pacing wake-up, 0: none
	active des.FIFO   // flows with data to send (ids)
	acks   des.FIFO   // ACK packets waiting for the NIC
	// lastArrival is when the last packet the host sent reaches its ToR
	// (send jitter, flowsetup.go).
	lastArrival rotor.Time
	// The host's NIC is a port (ports.nic): it is serialising until its
	// ports.freeAt, and an event that frees it is scheduled only when
	// more is waiting.
}

// flowState is a flow's state, kept for the whole run (flows.csv and the
// summary read it): 136 B, of which its transport's ends and timers are
// needed only while it runs. When it retires (retire), its ends are
// released and the four timer words hold its counts instead, so a
// finished flow costs this record and its txState (16 B).
type flowState struct {
	f      workload.Flow
	src    cc.Source  // the sending end (hosts.go); nil: retired
	sink   cc.Sink    // the receiving end; nil: retired
	finish rotor.Time // last byte delivered, 0: not yet
	// While the flow runs: timerAt, its pending timer event time;
	// ackTimerAt, its pending delayed-ACK event time; synTimerAt, a queued
	// handshake's pending SYN timer (0: none, or open, failed or no such
	// handshake); heldAck, the packet index + 1 of the ACK its sink holds
	// back (0: none). Once it retired: its counts (setCounts, counts), so
	// a handler that may see a retired flow looks at src or sink first.
	timerAt, ackTimerAt, synTimerAt rotor.Time
	heldAck                         int64
	srcToR, dstToR                  int32 // racks of the source and destination hosts
	nextPend                        int32 // the next flow on its pull list (pull.go's flowList), while on one
	syns                            uint8 // the SYNs a queued handshake sent
	maxHops                         uint8
	done                            bool
	ndpReady                        bool // in its host's list of NDP flows that may send
}

// setCounts keeps a retiring flow's counts in its timer words.
func (fs *flowState) setCounts(received, reordered, retx, timeouts int64) {
	fs.timerAt, fs.ackTimerAt, fs.synTimerAt, fs.heldAck = rotor.Time(received), rotor.Time(reordered), rotor.Time(retx), timeouts
}

// counts is what setCounts kept (zero for a flow of no bytes).
func (fs *flowState) counts() (received, reordered, retx, timeouts int64) {
	return int64(fs.timerAt), int64(fs.ackTimerAt), int64(fs.synTimerAt), fs.heldAck
}

// txState mirrors a windowed flow's source for its host's NIC. It is
// refreshed after every call into the source (srcChanged), which relies
// on a source (and its law) changing only when called.
type txState struct {
	nextSend rotor.Time // pacing: the flow may not send before
	gone     bool       // retired or done: it leaves its host's active list
	canSend  bool       // its source's CanSend
}

type switchState struct {
	slot    int        // current slot index
	day     bool       // circuits up
	nightAt rotor.Time // start of the current slot's night
	dayAt   rotor.Time // start of the current day
	nextDay rotor.Time // during a night: when the next day starts
}

type sim struct {
	cfg   Config
	sched *rotor.Schedule
	n, H  int
	U     int

	q     des.Queue
	pool  packet.Pool
	ints  *packet.IntStore // INT records of the packets in pool (nil: INT off)
	tors  []*tor.ToR
	ps    *tor.ToR
	ls    *leafSpine // leaf-spine fabric (nil: rotor)
	ports ports      // every switch port: uplinks, host ports, packet-switch and leaf-spine ports (port.go)
	pfc   *pfc       // priority flow control (pfc.go); nil: off

	sw   []switchState
	peer []int32 // [t*U+s] node reached by t's uplink s in the current slot, −1 idle
	// [t*U+s] node t's uplink s reaches in the switch's next slot (as of
	// its last day start), −1 idle
	peerNext []int32
	// upToTab and nextToTab (up to circuitTableToRs ToRs, else nil):
	// [t·n+v] the bits of upTo and nextTo.
	upToTab, nextToTab []uint64

	hosts []hostState
	flows []flowState
	// tx[id] is what a NIC reads of flow id when it looks for a flow to
	// send (hosts.go), kept apart from flowState: a scan over many
	// window-limited flows touches neither their flowState nor their
	// sources.
	tx    []txState
	ack   cc.Feedback
	cc    ccState
	setup flowSetup // initial windows per class, send jitter (flowsetup.go)
	voq   *voqState // hybrid-voq and prebuffering (voq.go); nil: neither
	pairs pairStats // circuit utilisation per pair, queueing latency (circuitstats.go)

	next    workload.Flow
	hasNext bool

	rng       *rand.Rand
	sampleRng *rand.Rand // occupancy sampling times (sampleGap)
	relay     tor.Relay
	router    routing.Router
	rerouting routing.Reroute // what happens to the packets waiting for a circuit that goes down
	stamper   routing.Stamper // routing.source = nic: fixes each packet's slice at its NIC; nil: none
	hopLimit  uint8           // drop a packet that has taken this many hops; 0: no limit
	pull      pullState
	ndp       ndpState

	circuitFlows []des.FIFO    // [t·n+v]: windowed flows ToR t → ToR v, for OnCircuit
	pulling      bool          // transport pull: host-buffered circuit traffic (pull.go)
	serMTU       [4]rotor.Time // host, circuit, packet switch, leaf-spine fabric: MTU serialisation
	serByte      rotor.Time    // one byte on a circuit: an uplink with less time left before the night sends nothing
	serAck       [4]rotor.Time
	rates        [4]rotor.Rate

	ackDelayRemote, ackDelayLocal rotor.Time
	relayLimit                    int64

	m   metrics
	err error
	// collapseAt: run asks for huge pages again once this many events
	// have been processed (run.go's collapse).
	collapseAt uint64
}

const (
	linkHost = iota
	linkCircuit
	linkPS
	linkFabric
)

// ser is the serialisation time of size bytes on link. It inlines (the
// rest is kept out of line), so full-size packets cost one comparison.
func (s *sim) ser(link int, size int32) rotor.Time {
	if size == s.cfg.MTU {
		return s.serMTU[link]
	}
	return s.serOther(link, size)
}

//go:noinline
func (s *sim) serOther(link int, size int32) rotor.Time {
	if size == s.cfg.AckSize {
		return s.serAck[link]
	}
	return s.rates[link].TransmitTime(rotor.Bytes(size))
}

func (s *sim) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("at %v: "+format, append([]any{s.q.Now()}, args...)...)
	}
}

func (s *sim) torOf(host int32) int32 { return host / int32(s.H) }

func newSim(cfg Config) (*sim, error) {
	sc := cfg.Schedule
	s := &sim{cfg: cfg, sched: sc, n: cfg.Leaves(), H: cfg.HostsPerToR}
	if sc != nil {
		s.U = sc.Switches
	}
	s.rng = rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	s.sampleRng = rand.New(rand.NewPCG(cfg.Seed, 0x5a3b1e))
	s.rates = [4]rotor.Rate{cfg.HostLink, cfg.CircuitLink, cfg.PacketSwitchLink}
	if cfg.LeafSpine != nil {
		s.rates[linkFabric] = cfg.LeafSpine.FabricLink
	}
	for l, r := range s.rates {
		if r > 0 {
			s.serMTU[l] = r.TransmitTime(rotor.Bytes(cfg.MTU))
			s.serAck[l] = r.TransmitTime(rotor.Bytes(cfg.AckSize))
		}
	}
	s.serByte = s.rates[linkCircuit].TransmitTime(1)
	if cfg.needsINT() {
		cfg.RecordINT = true
		s.cfg.RecordINT = true
	}
	if err := s.initCC(); err != nil {
		return nil, err
	}
	s.initSetup()
	if cfg.RecordINT {
		ints, err := packet.NewIntStore(intHops(cfg))
		if err != nil {
			return nil, cfgErr("run.int", "%v", err)
		}
		s.ints = ints
	}
	s.tors = make([]*tor.ToR, s.n)
	for t := range s.tors {
		tc := tor.Config{ToRs: s.n, Hosts: s.H, Uplinks: s.U,
			PacketSwitch: cfg.PacketSwitchLink > 0, Buffer: cfg.Buffer,
			HostRate: cfg.HostLink, UplinkRate: cfg.CircuitLink, PacketSwitchRate: cfg.PacketSwitchLink}
		if ls := cfg.LeafSpine; ls != nil { // a leaf: host ports and uplinks to the spines
			tc = tor.Config{Hosts: s.H, Ports: ls.Spines * ls.LinksPerPair, Classes: ls.Classes, RoundRobin: ls.RoundRobin,
				Buffer: cfg.Buffer, HostRate: cfg.HostLink, PortRate: ls.FabricLink}
			s.pfcSwitch(&tc, tc.Hosts+tc.Ports)
		}
		tr, err := s.newSwitch(t, t, tc)
		if err != nil {
			return nil, err
		}
		s.tors[t] = tr
	}
	if cfg.PacketSwitchLink > 0 {
		ps, err := s.newSwitch(-1, s.n, tor.Config{Ports: s.n, Classes: psClasses(cfg), Buffer: cfg.PacketSwitchBuffer, PortRate: cfg.PacketSwitchLink})
		if err != nil {
			return nil, err
		}
		s.ps = ps
	}
	s.sw = make([]switchState, s.U)
	s.peer = make([]int32, s.n*s.U)
	s.peerNext = make([]int32, s.n*s.U)
	if s.n <= circuitTableToRs {
		s.upToTab, s.nextToTab = make([]uint64, s.n*s.n), make([]uint64, s.n*s.n)
	}
	for i := range s.peer {
		s.peer[i], s.peerNext[i] = rotor.Idle, rotor.Idle
	}
	s.hosts = make([]hostState, s.n*s.H)
	if cfg.LeafSpine == nil {
		s.newRotorPorts()
	}
	s.ackDelayLocal = 2 * cfg.HostDelay
	s.ackDelayRemote = 2*cfg.HostDelay + cfg.LinkDelay
	s.relayLimit = int64(cfg.RelayLimit)
	if err := s.newRouter(); err != nil {
		return nil, err
	}
	if cfg.LeafSpine != nil {
		if err := s.newLeafSpine(); err != nil {
			return nil, err
		}
	} else if s.relayLimit == 0 {
		s.relayLimit = int64(cfg.CircuitLink.BytesIn(sc.Slot - sc.Reconf))
	}
	s.connectNICs()
	switch cfg.Routing {
	case RotorLB, Paths:
		if !cfg.pulls() { // pulled traffic is relayed when it is pulled
			s.relay = relay{s}
		}
	}
	if err := s.initVOQ(); err != nil {
		return nil, err
	}
	if cfg.pulls() {
		s.initPull()
		s.pulling = true
	}
	if err := s.initNDP(); err != nil {
		return nil, err
	}
	if err := s.m.init(s); err != nil {
		return nil, err
	}
	if err := s.initPairStats(); err != nil {
		return nil, err
	}
	return s, nil
}

// newRotorPorts connects the rotor fabric's ports: each ToR's circuit
// uplinks (to the ToR its circuit reaches: s.peer) and booked host ports,
// and with a packet switch (switch n) its ports and the ToRs' ports to it.
func (s *sim) newRotorPorts() {
	cfg := &s.cfg
	switches := s.tors
	if s.ps != nil {
		switches = append(append([]*tor.ToR(nil), s.tors...), s.ps)
	}
	pt := &s.ports
	pt.init(switches, true, &s.q)
	uplink := portPeer{delay: cfg.LinkDelay, link: linkCircuit, ev: evToRArrive, target: rotor.Idle, hop: true}
	ps := portPeer{delay: cfg.PacketSwitchDelay, link: linkPS}
	for t, tr := range s.tors {
		for u := 0; u < s.U; u++ {
			pt.connect(t, u, uplink)
		}
		for h := 0; h < s.H; h++ {
			pt.connect(t, tr.HostPort(h), portPeer{delay: cfg.HostDelay, link: linkHost,
				ev: evHostArrive, target: int32(t*s.H + h)})
		}
		if s.ps != nil {
			up, down := ps, ps
			up.ev = evPSArrive
			down.ev, down.target, down.ps = evToRArrive, int32(t), true
			pt.connect(t, tr.PacketSwitchPort(), up)
			pt.connect(s.n, s.ps.FabricPort(t), down)
		}
	}
}

// intHops is the most INT records a data packet of this fabric collects:
// one per switch queue it leaves (circuit uplinks, packet-switch ports,
// the last ToR's host port). Routes with a hop bound get exactly that;
// routes that may re-route at every slice change (paths, vlb-paths,
// earliest) get the store's limit, and a longer path is flagged to the
// controller (cc.Feedback.Truncated).
func intHops(cfg Config) int {
	switch cfg.Routing {
	case ECMP: // leaf-spine: leaf uplink, spine, leaf to host
		return 3
	case Direct:
		return 2
	case VLB, RotorLB, Hybrid, HybridVOQ:
		return 3
	case Paths, VLBPaths:
		ksp := cfg.PathsK > 1 && cfg.Multipath == MultipathKSP
		if ksp && cfg.hopLimit > 0 && cfg.hopLimit < packet.MaxHopsLimit {
			return cfg.hopLimit + 1
		}
	}
	return packet.MaxHopsLimit
}

// relay implements tor.Relay: RotorLB's acceptance rule. The intermediate
// accepts while its queue toward dst (both classes) stays within the bytes
// one circuit day carries, so relayed traffic can leave on its next circuit
// to dst.
type relay struct{ s *sim }

func (r relay) AcceptRelay(via, dst int, size int32) bool {
	t := r.s.tors[via]
	return t.VOQBytes(dst)+int64(size) <= r.s.relayLimit
}
