package fabric

import (
	"context"
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// Routing modes.
const (
	Direct   = routing.Direct   // wait for a circuit to the destination ToR
	VLB      = routing.VLB      // first hop to a ToR a circuit reaches now, then direct
	RotorLB  = routing.RotorLB  // direct first; spare circuit capacity relays two-hop traffic
	Paths    = routing.Paths    // shortest paths over the circuits up now (Opera); bulk flows use rotorlb
	Hybrid   = routing.Hybrid   // a circuit if one reaches the destination now, else the packet switch
	Earliest = routing.Earliest // the temporal path that arrives first given the schedule (waiting allowed)
	VLBPaths = routing.VLBPaths // Valiant over shortest paths: to a random intermediate, then to the destination (static graphs)
	VLBSlice = routing.VLBSlice // Valiant as RotorNet sprays it: first hop over any circuit up now, then the slice's shortest paths (Mars)
)

// Transports.
const (
	Windowed = "window"   // reliable, fixed window (or a cc controller), retransmission on timeout
	LineRate = "linerate" // unreliable, no window, no ACKs: sends at the NIC rate
	Pull     = "pull"     // circuit traffic waits at the hosts; ToRs pull it when a circuit can take it (lossless); the rest as Windowed
	NDP      = "ndp"      // receiver-driven: switches trim instead of dropping, receivers pace pulls (ndp.go); with paths, bulk flows as Pull
)

// ACK paths.
const (
	// RotorLB offers (Config.RelayOffer): what a ToR offers to relay.
	OfferExcess = "excess" // only its backlog to a destination beyond what its own next circuit day there carries
	OfferAll    = "all"    // all its backlog (relays whenever an intermediate has room)

	// Multipath routing with Config.PathsK > 1 (paths, vlb-paths).
	MultipathKSP   = routing.MultipathKSP   // k shortest loopless paths per epoch, unequal cost allowed (Yen), source-routed (Opera)
	MultipathECMP  = routing.MultipathECMP  // up to k next hops on equal-cost shortest paths, hop by hop
	MultipathSpray = routing.MultipathSpray // as ecmp, each packet drawing its next hop (packet spraying)

	AcksFabric = "fabric" // ACKs are packets routed through the fabric like data
	AcksIdeal  = "ideal"  // ACKs reach the sender after the base one-way delay, out of band
)

// FlowSource yields flows in order of start time (workload.Generator does).
type FlowSource interface {
	Next() (workload.Flow, bool)
}

// SliceSource serves flows from a slice (sorted by start time).
type SliceSource struct {
	Flows []workload.Flow
	i     int
}

// Next returns the next flow.
func (s *SliceSource) Next() (workload.Flow, bool) {
	if s.i >= len(s.Flows) {
		return workload.Flow{}, false
	}
	s.i++
	return s.Flows[s.i-1], true
}

// Config describes one emulation run. Zero values of optional fields take
// the defaults documented on each field.
type Config struct {
	Schedule *rotor.Schedule // circuit schedule; Schedule.Nodes ToRs, Schedule.Switches uplinks each
	// LeafSpine, if set, replaces the rotor fabric by a two-tier Clos
	// (then Schedule is nil): the leaves are the ToRs.
	LeafSpine   *LeafSpine
	HostsPerToR int // hosts per ToR (leaf)

	HostLink          rotor.Rate // host↔ToR rate
	CircuitLink       rotor.Rate // ToR uplink rate through a rotor switch
	PacketSwitchLink  rotor.Rate // ToR↔packet switch rate; 0: no packet switch
	HostDelay         rotor.Time // host↔ToR propagation
	LinkDelay         rotor.Time // ToR↔ToR propagation through a circuit
	PacketSwitchDelay rotor.Time // ToR↔packet switch propagation (each way)
	MTU               int32      // data packet size on the wire; default 1500
	AckSize           int32      // default 64

	Buffer             rotor.Bytes                  // shared buffer per ToR
	PacketSwitchBuffer rotor.Bytes                  // shared buffer of the packet switch; default 1 MB per port
	NewPolicy          func(sw int) tor.PolicyMaker // buffer policy of switch sw (ToRs, then the packet switch or the spines); default DefaultBufferPolicy
	// ECNThreshold is DCTCP's step K on every queue; 0: a law reading ECE
	// as congestion gets its default marking per port (marking.go), any
	// other law none. RED (REDMin, REDMax, REDMaxP; 0: the defaults scaled
	// to the port's rate) is that default for DCQCN.
	ECNThreshold   rotor.Bytes
	REDMin, REDMax rotor.Bytes
	REDMaxP        float64
	RecordINT      bool             // stamp INT records on dequeue
	Prebuffer      *PrebufferConfig // reTCP's VOQ prebuffering; nil: off
	WatchPair      *[2]int          // ToR pair whose time series Result.Watch holds; nil: none
	// Lossless has bit k set iff class k is lossless: PFC pauses its
	// upstream instead of dropping (pfc.go; leaf-spine only, with a
	// policy that has lossless classes). 0: no PFC.
	Lossless uint8

	Routing    string      // see Routers(); default DesignedFor(Schedule), or Hybrid with a packet switch
	BulkBytes  int64       // paths: flows of at least this size use rotorlb; default 15 MB (Opera)
	PathsK     int         // paths, vlb-paths: spread flows over up to this many paths (by a flow hash); default 1: one shortest path
	Multipath  string      // paths, vlb-paths with PathsK > 1: MultipathKSP (default), MultipathECMP or MultipathSpray
	RelayLimit rotor.Bytes // rotorlb: what an intermediate's circuit day toward a destination carries (its relay room before its own backlog); default one day of circuit bytes
	RelayOffer string      // rotorlb with Pull: OfferAll (default) or OfferExcess
	// RoutingGuard: paths, vlb-paths (next-hop table): from this long before
	// a night, packets take the night's paths (Opera's guard δ); default
	// DefaultRoutingGuard, none.
	RoutingGuard rotor.Time
	// RoutingSource: paths with the next-hop table and NDP: where a
	// packet's slice table is fixed: RoutingSourceHop (default, every
	// ToR) or RoutingSourceNIC (its NIC; routing.Stamper).
	RoutingSource string

	Transport string            // Windowed, LineRate or Pull; default DesignedFor(Schedule)'s if Routing allows it, else Windowed
	CC        string            // congestion control for Windowed: a law of cc's registry; default "fixed"
	CCParams  map[string]string // the law's parameters (key → text, cc.ParseParams); nil: its defaults
	Window    int64             // fixed window in bytes; default DefaultWindowPackets packets
	MinRTO    rotor.Time        // default DefaultMinRTO
	MaxRTO    rotor.Time        // cap of the backed-off RTO; default DefaultMaxRTO
	RTOClock  rotor.Time        // RFC 6298's clock granularity G; default DefaultRTOClock
	DupThresh int               // fast retransmit threshold (cc.Sender.DupThresh); 0: DefaultDupThresh on a leaf-spine, timeouts only with circuits (they reorder); negative: timeouts only
	NoSACK    bool              // NewReno recovery from cumulative ACKs (RFC 6582) instead of SACK (RFC 6675)
	Acks      string            // AcksFabric (default) or AcksIdeal
	PullDepth int               // Pull: packets a ToR stages per next hop; 0: enough to cover the pull round trip, plus 2
	NDPWindow int               // NDP: packets of a flow's first window, sent without pulls; 0: one bandwidth-delay product
	// NDPHeaderQueue is NDP's header queue: the trimmed headers and
	// control packets each switch port holds apart from the shared
	// buffer (ndp.go); 0: DefaultNDPHeaderQueue.
	NDPHeaderQueue int
	// The windowed flows' set-up per traffic class: background flows
	// (Query 0) and incast responses (Query > 0). InitWindow is the law's
	// initial window in bytes (laws with the parameter init_window); 0:
	// the law's default, cc.DefaultInitWindow. IncastInitWindow: 0 as
	// InitWindow; InitWindowResponse: the whole response. Handshake: how
	// the connection opens before the first data, a name of Handshakes
	// ("": HandshakeNone; handshake.go).
	InitWindow, IncastInitWindow int64
	Handshake, IncastHandshake   string
	// SynTimeout and SynTries: a queued handshake's SYN is sent again
	// SynTimeout after the first, doubling, SynTries SYNs at most; 0:
	// DefaultSynTimeout, DefaultSynTries (read only with a queued
	// handshake).
	SynTimeout rotor.Time
	SynTries   int
	// MSS and IncastMSS: payload bytes per segment of the windowed
	// background flows and incast responses (a data packet is its
	// payload on the wire, docs/model.md); 0: MTU, IncastMSS 0: as MSS.
	MSS, IncastMSS int32
	// DelayedAck > 1: the windowed flows' receivers ACK every
	// DelayedAck-th in-order segment, or DelayedAckTimeout after the
	// first they hold back (cc.Flow.DelAck); 0: DefaultDelayedAck.
	// DelayedAckTimeout 0: DefaultDelayedAckTimeout, at most
	// MinRTO/DelayedAckRTODivisor.
	DelayedAck        int
	DelayedAckTimeout rotor.Time
	// SendJitter delays each send an ACK releases by a random time,
	// uniform in [0, SendJitter × one MTU's transmit time on the host
	// link), against phase effects (flowsetup.go); 0: DefaultSendJitter;
	// NoSendJitter: off.
	SendJitter float64
	// Slowdown is the definition of the ideal FCT (Slowdowns); default
	// DefaultSlowdown.
	Slowdown string
	// NDPDark is what a ToR does with the NDP packets queued for a
	// circuit that goes dark when the router has another next hop for
	// them (ndp.go): NDPDarkTrim (default) or NDPDarkWait.
	NDPDark string
	// NDPPullPacing is whose line rate an NDP receiver's PULLs are paced
	// at (ndp.go): NDPPaceHost (default) or NDPPaceFlow.
	NDPPullPacing string
	// NDPNIC is how an NDP sender's NIC orders its flows' data packets
	// (ndp.go): NDPNICTurns (default), NDPNICFIFO or NDPNICOperaSim.
	NDPNIC string
	// NDPBulkNIC is where a pulled bulk packet waits at its host's NIC
	// under NDP (pull.go, ndp.go): NDPBulkFCFS (default) or NDPBulkLast.
	NDPBulkNIC string
	// NDPPulls is how an NDP receiver's PULLs travel and count (ndp.go):
	// NDPPullsOwn (default) or NDPPullsOperaSim.
	NDPPulls string
	// NDPReturned is what an NDP sender does with its header a full
	// header queue returned (ndp.go): NDPReturnedResend (default) or
	// NDPReturnedSwallow.
	NDPReturned string
	// NDPTimeout is what an NDP sender's timeout measures (cc.NDP):
	// NDPTimeoutFlow (default) or NDPTimeoutPacket.
	NDPTimeout string
	// NDPPorts is the NDP port model of the rotor ToRs (ndp.go):
	// NDPPortsShared (default) or NDPPortsOperaSim. NDPPortData is, with
	// NDPPortsOperaSim, each port's private data queue in bytes.
	NDPPorts    string
	NDPPortData rotor.Bytes
	// NDPHeader is the header of each NDP data packet in bytes (ndp.go):
	// an MTU-sized packet carries MTU − NDPHeader bytes of its flow, and
	// the pull pacers space PULLs by that payload's transmit time on the
	// host link, as opera-sim's NdpSrc and NdpPullPacer do; 0
	// (DefaultNDPHeader): a packet is its payload (docs/model.md).
	NDPHeader int32
	// NewController, if set, makes the congestion-control law of each
	// windowed flow instead of cc.New(CC, env, CCParams). Each flow needs
	// a law of its own whose Window changes only in its own methods: the
	// engine keeps whether a flow may send between calls into it.
	NewController func(f workload.Flow, env cc.Env) (cc.Law, error)

	// Flows is read once by Run (a SliceSource or Generator is used up):
	// to run a Config again, give it a fresh source.
	Flows   FlowSource
	SimTime rotor.Time // stop time
	// Measure is the window of flow start times the statistics cover
	// (Result.Summarize); the zero Window measures every flow.
	Measure Window
	Check   bool   // verify invariants as the run goes; a violation fails the run
	Seed    uint64 // routing randomness

	SampleInterval rotor.Time // mean time between buffer samples (Poisson); default 100 µs
	SeriesInterval rotor.Time // time-series bin; default 1 ms
	// Progress, if set, is called about every ProgressEvery events.
	Progress      func(now rotor.Time, events uint64)
	ProgressEvery uint64
	// MemoryAt lists simulated times at which to sample the Go heap (for
	// the perf report); the values land in Result.Memory.
	MemoryAt []rotor.Time
	Context  context.Context // done: the run stops early (Result.Complete = false); if it stops a routing table's build, Run returns its error

	// eagerFree schedules every "link free" event, even when nothing waits
	// for the link; tests use it to check that skipping them changes nothing.
	eagerFree bool
	// pairRows keeps the per-pair tables as rows of the pairs in use at
	// any size, as above flatPairToRs ToRs (tests).
	pairRows bool
	// hopLimit overrides kspHopLimit (tests).
	hopLimit int
	// switchDrop, if set, hears every packet a switch drops or pushes out
	// (Credence's training traces).
	switchDrop func(idx int32)
}

// Window is an interval [From, To) of flow start times; To = 0 means no end.
// The measured flows of a run are those that start in Config.Measure:
// run.warmup to workload.duration (the arrivals' end).
type Window struct{ From, To rotor.Time }

// Contains reports whether t lies in w.
func (w Window) Contains(t rotor.Time) bool { return t >= w.From && (w.To == 0 || t < w.To) }

// ConfigError names a bad field.
type ConfigError struct{ Field, Problem string }

func (e *ConfigError) Error() string { return e.Field + ": " + e.Problem }

func cfgErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// Defaults of the optional Config fields: what a zero value stands for.
// They exist here once: Config.defaults applies them, and package
// scenario's key table prints them as the keys' defaults (formatted with
// rotor's String methods), so the CLI and the Go API agree.
const (
	DefaultMTU                       = int32(rotor.DefaultMTU) // topology.mtu
	DefaultAckSize                   = int32(64)               // transport.ack_size
	DefaultCC                        = "fixed"                 // transport.cc
	DefaultWindowPackets             = 20                      // transport.window, in packets of MTU bytes
	DefaultBufferPolicy              = "dt"                    // buffer.policy
	DefaultMinRTO                    = rotor.Millisecond       // transport.min_rto
	DefaultMaxRTO                    = 60 * rotor.Second       // transport.max_rto (RFC 6298 (2.5), ns-3)
	DefaultRTOClock                  = 10 * rotor.Nanosecond   // transport.rto_clock (the ABM ns-3 example's ClockGranularity)
	DefaultDupThresh                 = 3                       // transport.dupthresh on a leaf-spine (RFC 5681, RFC 6675)
	DefaultRelayOffer                = OfferAll                // routing.offer
	DefaultAcks                      = AcksFabric              // transport.acks
	DefaultPathsK                    = 1                       // routing.paths_k
	DefaultMultipath                 = MultipathKSP            // routing.multipath
	DefaultRoutingGuard              = rotor.Time(0)           // routing.guard: no guard
	DefaultRoutingSource             = RoutingSourceHop        // routing.source
	DefaultBulkBytes                 = rotor.Bytes(15_000_000) // routing.bulk (Opera's 15 MB)
	DefaultSampleInterval            = 100 * rotor.Microsecond // run.sample_interval
	DefaultSeriesInterval            = rotor.Millisecond       // run.series_interval
	DefaultPacketSwitchBufferPerPort = rotor.Bytes(1_000_000)  // buffer.packet_switch, per port
	DefaultSendJitter                = 1                       // transport.send_jitter, in MTU transmit times on the host link: up to one bottleneck service time (Floyd and Jacobson)
	DefaultSlowdown                  = SlowdownIdeal           // run.slowdown
	DefaultDelayedAck                = 1                       // transport.delayed_ack: every segment ACKed (the ABM, Credence and Reverie ns-3 scripts' DelAckCount 0)
	DefaultDelayedAckTimeout         = 200 * rotor.Millisecond // transport.delayed_ack_timeout (ns-3.39's DelAckTimeout; Linux's TCP_DELACK_MAX), capped at MinRTO/DelayedAckRTODivisor
	DefaultSynTimeout                = 10 * rotor.Millisecond  // transport.syn_timeout: the ABM ns-3 example's ConnTimeout (ns-3.39's own default is 3 s)
	DefaultSynTries                  = 6                       // transport.syn_tries: ns-3.39's ConnCount, which the ABM example sets again
	// DelayedAckRTODivisor caps the default delayed-ACK timeout at
	// MinRTO/5, Linux's ratio of TCP_DELACK_MIN (40 ms) to TCP_RTO_MIN
	// (200 ms): a held ACK goes before the sender's first timeout.
	DelayedAckRTODivisor = 5
	// DefaultNDPHeaderQueue is transport.ndp_header_queue: opera-sim's
	// header queue of 8 × 1 500 B per port, in headers of DefaultAckSize.
	DefaultNDPHeaderQueue = 8 * 1500 / int(DefaultAckSize)
	DefaultNDPDark        = NDPDarkTrim    // transport.ndp_dark
	DefaultNDPPullPacing  = NDPPaceHost    // transport.ndp_pull_pacing
	DefaultNDPNIC         = NDPNICTurns    // transport.ndp_nic
	DefaultNDPBulkNIC     = NDPBulkFCFS    // transport.ndp_bulk_nic
	DefaultNDPPulls       = NDPPullsOwn    // transport.ndp_pulls
	DefaultNDPPorts       = NDPPortsShared // transport.ndp_ports
	DefaultNDPHeader      = 0              // transport.ndp_header: no header bytes
	// NDPHeaderWeight is opera-sim's CompositeQueue service: 10 headers
	// for each data packet while both wait (its _ratio_high 640 B of
	// 64-B headers against _ratio_low 1 500 B).
	NDPHeaderWeight = 10
)

// routing.source: where a packet's slice table is fixed.
const (
	RoutingSourceHop = routing.SourceHop // at every ToR: the current slice's table
	RoutingSourceNIC = routing.SourceNIC // at its NIC: the table of the slice it left in, kept to the end
)

// transport.ndp_dark: NDP packets queued for a circuit that goes dark.
const (
	NDPDarkTrim = "trim" // data trimmed to headers, headers and control packets sent on the new next hop (unless the circuit is back within one slot)
	NDPDarkWait = "wait" // everything waits for the circuit's next day
)

// transport.ndp_pull_pacing: the PULL pacer of an NDP receiver.
const (
	NDPPaceHost = "host" // one pacer per receiving host, all its flows in turn (the NDP paper)
	NDPPaceFlow = "flow" // one pacer per flow, each at the host's line rate (opera-sim)
)

// transport.ndp_nic: the order of an NDP sender's data packets at its NIC.
const (
	NDPNICTurns = "turns" // the flows with credit take turns, one packet each
	NDPNICFIFO  = "fifo"  // each credit queues an entry at once, first come first served, retransmissions first; the segment is picked when it leaves
	// each credit makes its packet at once (a retransmission if one is
	// queued, else new data) and queues it in that class, first come first
	// served, retransmissions first (opera-sim's NdpSrc::send_packet and
	// PriorityQueue)
	NDPNICOperaSim = "operasim"
)

// transport.ndp_bulk_nic: a pulled bulk packet at its host's NIC, beside
// NDP's packets.
const (
	NDPBulkFCFS = "fcfs" // the ToR's pull takes the NIC first come, first served with the host's NDP packets
	NDPBulkLast = "last" // the ToR pulls from a host only while no NDP packet waits at its NIC (opera-sim's NIC serves RotorLB's queue last)
)

// transport.ndp_pulls: how an NDP receiver's PULLs travel and count.
const (
	NDPPullsOwn      = "own"      // every PULL a packet of its own, each granting one packet
	NDPPullsOperaSim = "operasim" // an ACK or NACK carries the PULL when the pacer is idle; cumulative PULL numbers (opera-sim's NdpPullPacer, NdpSrc)
)

// DefaultNDPReturned is transport.ndp_returned.
const DefaultNDPReturned = NDPReturnedResend

// DefaultNDPTimeout is transport.ndp_timeout.
const DefaultNDPTimeout = NDPTimeoutFlow

// transport.ndp_timeout: what an NDP sender's timeout (transport.min_rto)
// measures.
const (
	NDPTimeoutFlow   = "flow"   // the time since the sender last heard from the receiver: then everything unacknowledged goes again
	NDPTimeoutPacket = "packet" // each packet's time since it left the NIC, until it is answered: the due ones go again (opera-sim's NdpSrc, which times its packets)
)

// transport.ndp_returned: what an NDP sender does with its header that a
// full header queue returned.
const (
	NDPReturnedResend  = "resend"  // it goes again at once, with the credit it spent
	NDPReturnedSwallow = "swallow" // it waits for the next PULL unless none is expected (htsim's NdpSrc::processRTS, as opera-sim runs it)
)

// transport.ndp_ports: the NDP port model of a rotor ToR.
const (
	NDPPortsShared   = "shared"   // data in the shared buffer under buffer.policy; headers in line with the Transit class, served first
	NDPPortsOperaSim = "operasim" // opera-sim's CompositeQueue: a private data queue per port, a header queue per port served 10 : 1 against data, a full data queue trims the arrival or (probability ½) the last packet queued
)

func (c *Config) defaults() {
	if c.MTU == 0 {
		c.MTU = DefaultMTU
	}
	if c.AckSize == 0 {
		c.AckSize = DefaultAckSize
	}
	c.DesignModes()
	if c.CC == "" {
		c.CC = DefaultCC
	}
	if c.Window == 0 {
		c.Window = DefaultWindowPackets * int64(c.MTU)
	}
	if c.NewPolicy == nil {
		c.NewPolicy = NamedPolicy(DefaultBufferPolicy, nil, nil, c.Seed)
	}
	if c.MinRTO == 0 {
		c.MinRTO = DefaultMinRTO
	}
	if c.MaxRTO == 0 {
		c.MaxRTO = DefaultMaxRTO
	}
	if c.RTOClock == 0 {
		c.RTOClock = DefaultRTOClock
	}
	if c.DupThresh == 0 {
		c.DupThresh = -1 // rotor fabrics reorder: fast retransmit would resend what is only late
		if c.LeafSpine != nil {
			c.DupThresh = DefaultDupThresh
		}
	}
	if c.NDPHeaderQueue == 0 {
		c.NDPHeaderQueue = DefaultNDPHeaderQueue
	}
	if c.RoutingSource == "" {
		c.RoutingSource = DefaultRoutingSource
	}
	if c.NDPDark == "" {
		c.NDPDark = DefaultNDPDark
	}
	if c.NDPPullPacing == "" {
		c.NDPPullPacing = DefaultNDPPullPacing
	}
	if c.NDPNIC == "" {
		c.NDPNIC = DefaultNDPNIC
	}
	if c.NDPPorts == "" {
		c.NDPPorts = DefaultNDPPorts
	}
	if c.NDPBulkNIC == "" {
		c.NDPBulkNIC = DefaultNDPBulkNIC
	}
	if c.NDPPulls == "" {
		c.NDPPulls = DefaultNDPPulls
	}
	if c.NDPTimeout == "" {
		c.NDPTimeout = DefaultNDPTimeout
	}
	if c.NDPReturned == "" {
		c.NDPReturned = DefaultNDPReturned
	}
	if c.RelayOffer == "" {
		c.RelayOffer = DefaultRelayOffer
	}
	if c.Acks == "" {
		c.Acks = DefaultAcks
	}
	if c.PathsK == 0 {
		c.PathsK = DefaultPathsK
	}
	if c.Multipath == "" {
		c.Multipath = DefaultMultipath
	}
	if c.BulkBytes == 0 {
		c.BulkBytes = int64(DefaultBulkBytes)
	}
	if c.SendJitter == 0 {
		c.SendJitter = DefaultSendJitter
	}
	c.setupDefaults()
	if c.Slowdown == "" {
		c.Slowdown = DefaultSlowdown
	}
	if c.SampleInterval == 0 {
		c.SampleInterval = DefaultSampleInterval
	}
	if c.SeriesInterval == 0 {
		c.SeriesInterval = DefaultSeriesInterval
	}
	if c.ProgressEvery == 0 {
		c.ProgressEvery = 1 << 20
	}
	if c.PacketSwitchBuffer == 0 && c.Schedule != nil {
		c.PacketSwitchBuffer = rotor.Bytes(c.Schedule.Nodes) * DefaultPacketSwitchBufferPerPort
	}
	if c.Context == nil {
		c.Context = context.Background()
	}
}

// DesignModes fills an empty Routing and Transport with their defaults,
// as Run does: on a leaf-spine ECMP and the windowed transport; on the
// rotor fabric the schedule's design (DesignedFor; hybrid with a packet
// switch). It leaves them empty while the schedule is missing or invalid
// (Run's validation then says so).
func (c *Config) DesignModes() {
	if c.LeafSpine != nil {
		if c.Routing == "" {
			c.Routing = ECMP
		}
		if c.Transport == "" {
			c.Transport = Windowed
		}
		return
	}
	if (c.Routing == "" || c.Transport == "") && c.Schedule != nil && c.Schedule.Validate() == nil {
		d := defaultsFor(c.Schedule, c.PacketSwitchLink > 0)
		if c.Routing == "" {
			c.Routing = d.Routing
		}
		if c.Transport == "" {
			c.Transport = defaultTransport(d, c)
		}
	}
}

// Resolve fills c's defaults and checks it, as Run does before it starts:
// a Config built by hand can be checked without running it. Errors are
// *ConfigError naming the field by its configuration key.
func (c *Config) Resolve() error {
	c.defaults()
	return c.validate()
}

// Engine limits: the fabric keeps state per pair of ToRs (VOQs, and with
// pull the waiting lists, stores and counters: 80–150 B per pair, ~10 GB
// at 8192 ToRs) and per host, so larger fabrics fail with one line
// instead of the runtime's out-of-memory crash. MaxMTU bounds the packet
// size at 64 KiB (IP's largest packet is 65535 bytes).
const (
	MaxToRs  = 8192
	MaxHosts = 1 << 20
	MaxMTU   = 65536
)

// Limits on what a run records: each occupancy sample reads every VOQ,
// and each time-series bin is kept in memory.
const (
	maxSamples    = 10_000_000
	maxSeriesBins = 1_000_000
)

func (c *Config) validate() error {
	if c.LeafSpine == nil {
		if c.Schedule == nil {
			return cfgErr("schedule", "is missing")
		}
		if err := c.Schedule.Validate(); err != nil {
			return cfgErr("schedule", "%v", err)
		}
	}
	switch {
	case c.HostsPerToR < 1:
		return cfgErr("topology.hosts_per_tor", "must be at least 1, got %d", c.HostsPerToR)
	case c.HostLink <= 0:
		return cfgErr("topology.host_link", "must be positive, got %v", c.HostLink)
	case c.PacketSwitchLink < 0:
		return cfgErr("topology.packet_switch_link", "must not be negative, got %v", c.PacketSwitchLink)
	case c.HostDelay < 0:
		return cfgErr("topology.host_delay", "must not be negative, got %v", c.HostDelay)
	case c.LinkDelay < 0:
		return cfgErr("topology.link_delay", "must not be negative, got %v", c.LinkDelay)
	case c.PacketSwitchDelay < 0:
		return cfgErr("topology.packet_switch_delay", "must not be negative, got %v", c.PacketSwitchDelay)
	case c.MTU < 64 || c.MTU > MaxMTU:
		return cfgErr("topology.mtu", "must be in [64, %d] bytes, got %d", MaxMTU, c.MTU)
	case c.AckSize < 1 || c.AckSize > c.MTU:
		return cfgErr("transport.ack_size", "must be in [1, mtu], got %d", c.AckSize)
	case c.Buffer < rotor.Bytes(c.MTU):
		return cfgErr("buffer.size", "must hold at least one packet (%d B), got %d B", c.MTU, c.Buffer)
	case c.PacketSwitchLink > 0 && c.PacketSwitchBuffer < rotor.Bytes(c.MTU):
		return cfgErr("buffer.packet_switch", "must hold at least one packet, got %d B", c.PacketSwitchBuffer)
	case c.Window < 0:
		return cfgErr("transport.window", "must not be negative, got %d", c.Window)
	case c.DupThresh > 1000:
		return cfgErr("transport.dupthresh", "must be in [0, 1000], got %d", c.DupThresh)
	case c.MinRTO <= 0:
		return cfgErr("transport.min_rto", "must be positive, got %v", c.MinRTO)
	case c.MaxRTO < c.MinRTO:
		return cfgErr("transport.max_rto", "%v: must be at least transport.min_rto (%v)", c.MaxRTO, c.MinRTO)
	case c.RTOClock < 0:
		return cfgErr("transport.rto_clock", "must not be negative, got %v", c.RTOClock)
	case c.InitWindow < 0:
		return cfgErr("transport.init_window", "must be positive, got %d", c.InitWindow)
	case c.IncastInitWindow < 0 && c.IncastInitWindow != InitWindowResponse:
		return cfgErr("transport.incast_init_window", "must be positive or %q, got %d", IncastWindowResponse, c.IncastInitWindow)
	case c.SendJitter < 0 && c.SendJitter != NoSendJitter || c.SendJitter > MaxSendJitter:
		return cfgErr("transport.send_jitter", "must be in [0, %g] MTU transmit times, got %g", float64(MaxSendJitter), c.SendJitter)
	case c.SimTime <= 0:
		return cfgErr("run.sim_time", "must be positive, got %v", c.SimTime)
	case c.Measure.From >= c.SimTime:
		return cfgErr("run.warmup", "%v: must be below run.sim_time %v", c.Measure.From, c.SimTime)
	case c.Measure.From < 0 || c.Measure.To < 0 || c.Measure.To != 0 && c.Measure.To <= c.Measure.From:
		return cfgErr("run.warmup", "the measured window [%v, %v) is empty or negative (run.warmup must be below workload.duration)", c.Measure.From, c.Measure.To)
	case c.SampleInterval <= 0:
		return cfgErr("run.sample_interval", "must be positive, got %v", c.SampleInterval)
	case c.SimTime/c.SampleInterval > maxSamples:
		return cfgErr("run.sample_interval", "%v gives about %d samples over run.sim_time %v, more than %d; use at least %v",
			c.SampleInterval, c.SimTime/c.SampleInterval, c.SimTime, maxSamples, c.SimTime/maxSamples+1)
	case c.SeriesInterval <= 0:
		return cfgErr("run.series_interval", "must be positive, got %v", c.SeriesInterval)
	case c.SimTime/c.SeriesInterval > maxSeriesBins:
		return cfgErr("run.series_interval", "%v gives %d bins over run.sim_time %v, more than %d; use at least %v",
			c.SeriesInterval, c.SimTime/c.SeriesInterval, c.SimTime, maxSeriesBins, c.SimTime/maxSeriesBins+1)
	case c.BulkBytes < 0:
		return cfgErr("routing.bulk_bytes", "must not be negative, got %d", c.BulkBytes)
	case c.PathsK < 0 || c.PathsK > routing.MaxECMP:
		return cfgErr("routing.paths_k", "must be in [1, %d], got %d", routing.MaxECMP, c.PathsK)
	case c.RelayLimit < 0:
		return cfgErr("routing.relay_limit", "must not be negative, got %d", c.RelayLimit)
	case c.RoutingGuard < 0:
		return cfgErr("routing.guard", "must not be negative, got %v", c.RoutingGuard)
	case c.RoutingSource != RoutingSourceHop && c.RoutingSource != RoutingSourceNIC:
		return cfgErr("routing.source", "must be %s or %s, got %q", RoutingSourceHop, RoutingSourceNIC, c.RoutingSource)
	case c.RoutingSource == RoutingSourceNIC && (c.LeafSpine != nil || c.Routing != Paths || c.Transport != NDP):
		return cfgErr("routing.source", "nic is read only with routing.mode = paths and transport.kind = ndp, got %s and %s", c.Routing, c.Transport)
	case c.Flows == nil:
		return cfgErr("workload", "no flow source")
	}
	if c.LeafSpine != nil {
		if err := c.ValidateLeafSpine(); err != nil {
			return err
		}
	} else if err := c.validateRotor(); err != nil {
		return err
	}
	if err := c.validatePFC(); err != nil {
		return err
	}
	if c.Routing == Hybrid && c.PacketSwitchLink == 0 {
		return cfgErr("routing.mode", "hybrid needs a packet switch (set topology.packet_switch_link)")
	}
	if err := Transports().Check(c.Transport); err != nil {
		return err
	}
	if c.Transport == Pull && !pullRoutes(c.Routing) {
		return cfgErr("transport.kind", "pull works with routing.mode direct, rotorlb or paths, not %q", c.Routing)
	}
	if problem := pullProblem(c); c.Transport == Pull && problem != "" {
		return cfgErr("transport.kind", "pull can never send on this schedule: %s; use transport.kind = window", problem)
	}
	if c.Transport == NDP && c.pulls() && pullProblem(c) != "" {
		return cfgErr("transport.kind", "ndp pulls bulk flows with routing.mode paths, which can never send on this schedule: %s", pullProblem(c))
	}
	if c.NDPWindow < 0 {
		return cfgErr("transport.ndp_window", "must not be negative, got %d", c.NDPWindow)
	}
	if c.NDPHeaderQueue < 0 {
		return cfgErr("transport.ndp_header_queue", "must not be negative, got %d", c.NDPHeaderQueue)
	}
	if c.NDPHeader < 0 || c.NDPHeader >= c.MTU {
		return cfgErr("transport.ndp_header", "must be in [0, topology.mtu = %d) bytes, got %d", c.MTU, c.NDPHeader)
	}
	if c.NDPDark != NDPDarkTrim && c.NDPDark != NDPDarkWait {
		return cfgErr("transport.ndp_dark", "unknown choice %q (want trim or wait)", c.NDPDark)
	}
	if c.NDPPullPacing != NDPPaceHost && c.NDPPullPacing != NDPPaceFlow {
		return cfgErr("transport.ndp_pull_pacing", "unknown choice %q (want host or flow)", c.NDPPullPacing)
	}
	if c.NDPNIC != NDPNICTurns && c.NDPNIC != NDPNICFIFO && c.NDPNIC != NDPNICOperaSim {
		return cfgErr("transport.ndp_nic", "unknown choice %q (want turns, fifo or operasim)", c.NDPNIC)
	}
	if c.NDPBulkNIC != NDPBulkFCFS && c.NDPBulkNIC != NDPBulkLast {
		return cfgErr("transport.ndp_bulk_nic", "unknown choice %q (want %s or %s)", c.NDPBulkNIC, NDPBulkFCFS, NDPBulkLast)
	}
	if c.NDPPulls != NDPPullsOwn && c.NDPPulls != NDPPullsOperaSim {
		return cfgErr("transport.ndp_pulls", "unknown choice %q (want %s or %s)", c.NDPPulls, NDPPullsOwn, NDPPullsOperaSim)
	}
	if c.NDPTimeout != NDPTimeoutFlow && c.NDPTimeout != NDPTimeoutPacket {
		return cfgErr("transport.ndp_timeout", "unknown choice %q (want %s or %s)", c.NDPTimeout, NDPTimeoutFlow, NDPTimeoutPacket)
	}
	if c.NDPReturned != NDPReturnedResend && c.NDPReturned != NDPReturnedSwallow {
		return cfgErr("transport.ndp_returned", "unknown choice %q (want %s or %s)", c.NDPReturned, NDPReturnedResend, NDPReturnedSwallow)
	}
	if err := c.validateNDPPorts(); err != nil {
		return err
	}
	if c.PullDepth < 0 {
		return cfgErr("transport.pull_depth", "must not be negative, got %d", c.PullDepth)
	}
	if c.RelayOffer != OfferExcess && c.RelayOffer != OfferAll {
		return cfgErr("routing.offer", "unknown offer %q (want excess or all)", c.RelayOffer)
	}
	if c.Multipath != MultipathKSP && c.Multipath != MultipathECMP && c.Multipath != MultipathSpray {
		return cfgErr("routing.multipath", "unknown multipath routing %q (want ksp, ecmp or spray)", c.Multipath)
	}
	if c.Acks != AcksFabric && c.Acks != AcksIdeal {
		return cfgErr("transport.acks", "unknown ACK path %q (want fabric or ideal)", c.Acks)
	}
	if _, builtin := builtinTransport(c.Transport); !builtin && c.Acks == AcksIdeal {
		return cfgErr("transport.acks", "ideal ACKs are window's and pull's; transport.kind %s (registered) sends its replies through the fabric", c.Transport)
	}
	if err := c.validateVOQ(); err != nil {
		return err
	}
	if err := c.validateMarking(); err != nil {
		return err
	}
	if err := c.validateSetup(); err != nil {
		return err
	}
	return c.validateCC()
}

// validateNDPPorts checks transport.ndp_ports: opera-sim's port model is
// a rotor ToR's, for NDP, with a private queue of at least one packet.
func (c *Config) validateNDPPorts() error {
	switch {
	case c.NDPPorts != NDPPortsShared && c.NDPPorts != NDPPortsOperaSim:
		return cfgErr("transport.ndp_ports", "unknown choice %q (want %s or %s)", c.NDPPorts, NDPPortsShared, NDPPortsOperaSim)
	case c.NDPPorts == NDPPortsShared && c.NDPPortData != 0:
		return cfgErr("transport.ndp_ports", "a private data queue per port (%d B) is read only with %s", c.NDPPortData, NDPPortsOperaSim)
	case c.NDPPorts == NDPPortsShared:
		return nil
	case c.Transport != NDP:
		return cfgErr("transport.ndp_ports", "%s is NDP's port model; transport.kind is %s", NDPPortsOperaSim, c.Transport)
	case c.LeafSpine != nil || c.PacketSwitchLink > 0:
		return cfgErr("transport.ndp_ports", "%s models a rotor ToR's ports; not with a leaf-spine or a packet switch", NDPPortsOperaSim)
	case c.NDPPortData < rotor.Bytes(c.MTU):
		return cfgErr("buffer.per_port", "%s needs a private data queue of at least one packet (%d B), got %d B", NDPPortsOperaSim, c.MTU, c.NDPPortData)
	}
	return nil
}

// validateRotor checks what only the rotor fabric needs.
func (c *Config) validateRotor() error {
	if c.CircuitLink <= 0 {
		return cfgErr("topology.circuit_link", "must be positive, got %v", c.CircuitLink)
	}
	if problem := DayProblem(c.Schedule, c.CircuitLink, c.MTU); problem != "" {
		return cfgErr("schedule.slot", "%s", problem)
	}
	if c.Schedule.Switches > 64 {
		return cfgErr("topology.uplinks", "at most 64 supported, got %d", c.Schedule.Switches)
	}
	if c.Routing == ECMP {
		return cfgErr("routing.mode", "%s routes topology.kind %s only", ECMP, TopologyLeafSpine)
	}
	return Routers().Check(c.Routing)
}

// DayProblem says why no packet can ever cross a circuit of sc: every day
// (slot − reconf) is shorter than one mtu-byte packet on the circuit link,
// so a run would only turn days into nights. Empty when a day carries one.
func DayProblem(sc *rotor.Schedule, link rotor.Rate, mtu int32) string {
	need := link.TransmitTime(rotor.Bytes(mtu))
	longest := sc.Slot - sc.Reconf
	if sc.SlotDurations != nil {
		longest = 0
		for _, d := range sc.SlotDurations {
			longest = max(longest, d-sc.Reconf)
		}
	}
	if longest >= need {
		return ""
	}
	return fmt.Sprintf("no packet fits in a day: the longest day (slot − reconf) is %v, one %d-byte packet (topology.mtu) takes %v at topology.circuit_link %v; lengthen the slot, raise the link rate or lower the MTU",
		max(longest, 0), mtu, need, link)
}

// pulls reports whether circuit traffic is host-buffered and pulled by
// the ToRs (pull.go): with transport pull, and with ndp under paths
// routing for the bulk flows (opera-sim's Opera: NDP for short flows,
// RotorLB for bulk).
func (c *Config) pulls() bool {
	return c.Transport == Pull || c.Transport == NDP && c.Routing == Paths
}

// baseRTT is the fabric's base RTT, the one every consumer reads: the
// largest round trip, on an idle fabric, of a full-size (MTU) data packet
// and its ACK, i.e. propagation both ways plus the serialisation of the
// data packet on each link of the path and of the ACK on each link back.
// Rotor: host link, one circuit hop (two with vlb, rotorlb and the
// multi-hop modes: their usual relay), host link; with a packet switch
// the path through it, if longer. Leaf-spine: host, leaf→spine,
// spine→leaf, host. Waiting for a circuit is not part of it. It is the
// congestion-control laws' τ (cc.Env.BaseRTT), the buffer policies' RTT
// (ABM's update period and first-RTT bytes, Credence's feature window, IB's
// reference queue) and, times the host rate, NDP's first window.
func (c *Config) baseRTT() rotor.Time {
	mtu, ack := rotor.Bytes(c.MTU), rotor.Bytes(c.AckSize)
	hop := func(r rotor.Rate, d rotor.Time) rotor.Time {
		if r <= 0 { // a rate validate refuses; no division by zero before it
			return 2 * d
		}
		return r.TransmitTime(mtu) + r.TransmitTime(ack) + 2*d
	}
	host := 2 * hop(c.HostLink, c.HostDelay)
	if ls := c.LeafSpine; ls != nil {
		return host + 2*hop(ls.FabricLink, ls.FabricDelay)
	}
	circuits := rotor.Time(2)
	if c.Routing == Direct || c.Routing == Hybrid || c.Routing == HybridVOQ {
		circuits = 1
	}
	rtt := host + circuits*hop(c.CircuitLink, c.LinkDelay)
	if c.PacketSwitchLink > 0 {
		rtt = max(rtt, host+2*hop(c.PacketSwitchLink, c.PacketSwitchDelay))
	}
	return rtt
}
