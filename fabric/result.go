package fabric

import (
	"slices"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// FlowResult is one flow's outcome. FCT runs from the flow's start to the
// arrival of its last byte at the receiver (a handshake included); Ideal
// is what its slowdown divides FCT by, by Config.Slowdown's definition
// (ideal.go).
type FlowResult struct {
	workload.Flow
	Done        bool
	FCT, Ideal  rotor.Time
	Received    int64
	Reordered   int64
	Retransmits int64
	Timeouts    int64
	MaxHops     int
	Pulled      bool // its ToR pulled it (its data waited at its host)
}

// Counters are packet and byte totals. Injected counts every packet a host
// put on its link (data, retransmissions and, with fabric ACKs, ACKs);
// Delivered every packet that reached a host; Dropped every packet a buffer
// refused or pushed out; InFlight what is still in buffers or on links.
// Injected = Delivered + Dropped + InFlight (bytes: + TrimmedBytes).
type Counters struct {
	InjectedPackets, DeliveredPackets, DroppedPackets, InFlightPackets int64
	InjectedBytes, DeliveredBytes, DroppedBytes, InFlightBytes         int64
	InjectedData, DeliveredData, DroppedData                           int64
	// HopLimitDropped counts the source-routed packets (routing.multipath
	// = ksp) dropped at kspHopLimit hops; they are in DroppedPackets too.
	HopLimitDropped int64
	// PrebufferDropped counts the packets refused at a VOQ's prebuffer
	// capacity (buffer.prebuffer); they are in DroppedPackets too.
	PrebufferDropped int64
	// Handshake counts the queued handshakes' SYNs; nil without one.
	Handshake *HandshakeStats
	// Trimmed counts the data packets switches cut to headers (transport
	// ndp), TrimmedBytes the payload bytes cut, HeadersBounced the
	// headers a full header queue returned to their senders, and
	// HeadersDropped the headers (trimmed or returned) dropped (in
	// DroppedPackets too).
	Trimmed, TrimmedBytes, HeadersBounced, HeadersDropped int64
	// ControlReturned counts the ACKs, NACKs and PULLs a full header
	// queue sent back toward their senders (transport.ndp_ports =
	// operasim).
	ControlReturned int64
	// NDPDark is what NDP's rotor ToRs did at dark circuits
	// (transport.ndp_dark); nil without NDP or on a leaf-spine.
	NDPDark *DarkStats
}

// Result is what a run measured.
type Result struct {
	Complete bool       // false if the run was interrupted
	SimTime  rotor.Time // simulated time covered
	Events   uint64

	Flows []FlowResult
	// Slowdown is the definition of the flows' Ideal (Config.Slowdown).
	Slowdown string
	Counters

	// HostUtilization is bytes delivered to hosts over host downlink
	// capacity; CircuitUtilization bytes sent over circuits over the
	// circuits' capacity during days (idle self-circuits excluded).
	HostUtilization    float64
	CircuitUtilization float64
	PacketSwitchBytes  int64
	CircuitBytes       int64
	// DemandCircuitUtilization is the circuit utilisation on the days
	// that carried demand (circuitstats.go), over all pairs; −1 if no day
	// did. PairCircuits has it per ToR pair with such days.
	DemandCircuitUtilization float64
	PairCircuits             []PairCircuit
	// QueueingLatency: the data packets' time in queues (one-way delay
	// minus the idle path's), percentiles in µs, of the packets injected
	// in Measure.
	QueueingLatency LatencyQuantiles
	// Watch is the time series of Config.WatchPair; nil without one.
	Watch *PairSeries

	SeriesInterval rotor.Time
	HostSeries     []float64 // host downlink utilisation per bin
	CircuitSeries  []float64 // circuit uplink utilisation per bin (nights included)
	BufferSeries   []float64 // mean ToR buffer occupancy per bin, bytes
	VOQSeries      []float64 // mean VOQ occupancy per bin (over all n(n−1) VOQs), bytes

	BufferCDF  []stats.CDFPoint // ToR buffer occupancy, bytes, sampled
	VOQCDF     []stats.CDFPoint // VOQ occupancy (both classes), bytes, sampled
	BufferMean float64
	BufferPeak int64 // highest ToR buffer occupancy
	VOQMean    float64

	Hops          []int64 // data packets delivered after k circuit/packet-switch hops
	Reordered     int64
	Retransmits   int64
	Timeouts      int64
	FlowsStarted  int
	FlowsComplete int

	// Measure is Config.Measure; Hosts and HostLink give the capacity
	// the loads of Summarize are fractions of.
	Measure  Window
	Hosts    int
	HostLink rotor.Rate

	Memory []MemorySample
	// PathCache describes the k-shortest-path cache (routing.multipath =
	// ksp with paths_k > 1); nil otherwise.
	PathCache *PathCacheStats
	// PFC is what priority flow control did (buffer.lossless); nil without.
	PFC *PFCStats
	// ECN is the switches' marking per port rate (marking.go); nil: none.
	ECN []PortMarking
	// Tail is how busy the ports were in the run's last quarter
	// (Diagnose reads it).
	Tail Tail
	// Reads is what the run asked of its congestion-control law and
	// buffer policies: a key set but never asked was not read.
	Reads Reads
}

// Tail is the utilisation of the ports in the last quarter of a run,
// [From, SimTime): each host's downlink (Rx) and NIC (Tx), each ToR's
// circuit uplinks together (Up, nights included); MTU for scale.
type Tail struct {
	From        rotor.Time
	Rx, Tx, Up  []float64
	HostsPerToR int
	MTU         int32
}

// Reads counts what a run asked of the components its keys select.
type Reads struct {
	// LawFlows: flows driven by a congestion-control law (transport.cc),
	// i.e. windowed flows, not pulled ones; PulledFlows: flows the ToRs
	// pulled (transport.kind pull, or ndp's bulk flows with paths).
	LawFlows, PulledFlows int
	// PolicyDecisions: admissions the switches' buffer policies decided
	// (buffer.policy), pulled packets' included; PolicyHeldBack: of those,
	// pulls and pulled departures the policy refused (the packet waited
	// at its host or ToR instead).
	PolicyDecisions, PolicyHeldBack int64
}

func (s *sim) finish(stop rotor.Time, complete bool) (*Result, error) {
	m := &s.m
	for sw := range s.sw {
		if st := s.sw[sw]; st.day {
			m.circuitCapacity(s, sw, st.dayAt, min(stop, st.nightAt))
		}
	}
	if s.cfg.Check {
		s.checkConservation(true)
		if s.err != nil {
			return nil, s.err
		}
	}
	r := &Result{Complete: complete, SimTime: stop, Events: s.q.Processed(), SeriesInterval: s.cfg.SeriesInterval}
	r.InjectedPackets, r.DeliveredPackets, r.DroppedPackets = m.injectedPkts, m.deliveredPkts, m.droppedPkts
	r.InjectedBytes, r.DeliveredBytes, r.DroppedBytes = m.injectedBytes, m.deliveredBytes, m.droppedBytes
	r.InFlightPackets = m.injectedPkts - m.deliveredPkts - m.droppedPkts
	r.InFlightBytes = m.injectedBytes - m.deliveredBytes - m.droppedBytes - s.ndp.trimmedBytes
	r.Trimmed, r.TrimmedBytes, r.HeadersBounced, r.HeadersDropped = s.ndp.trimmed, s.ndp.trimmedBytes, s.ndp.bounced, s.ndp.headerDrops
	r.ControlReturned = s.ndp.returned
	if s.ndp.on && s.ls == nil {
		d := s.ndp.dark
		r.NDPDark = &d
	}
	r.InjectedData, r.DeliveredData, r.DroppedData = m.injectedData, m.deliveredData, m.droppedData
	r.HopLimitDropped, r.PrebufferDropped = m.hopLimitDrops, m.prebufferDrops
	r.Handshake = s.handshakeSummary()
	s.fillPairs(r, stop)
	r.PFC = s.pfcStats(stop)
	r.ECN = s.markings()

	hosts := s.n * s.H
	if stop > 0 {
		hostCap := float64(s.rates[linkHost].BytesIn(stop)) * float64(hosts)
		r.HostUtilization = float64(m.deliveredBytes) / hostCap
	}
	if m.capBytes > 0 {
		r.CircuitUtilization = float64(m.circuitBytes) / float64(m.capBytes)
	}
	r.CircuitBytes, r.PacketSwitchBytes = m.circuitBytes, m.psBytes
	// All series get the same bins: the run's, and one more if something
	// happened at its very end.
	bins := int((stop + s.cfg.SeriesInterval - 1) / s.cfg.SeriesInterval)
	series := []*stats.TimeSeries{m.hostSeries, m.circuitSeries, m.bufferSeries, m.voqSeries, m.sampleCount}
	for _, ts := range series {
		bins = max(bins, len(ts.Bins()))
	}
	for _, ts := range series {
		ts.Extend(bins)
	}
	r.HostSeries = scale(m.hostSeries.Utilization(s.rates[linkHost]), 1/float64(hosts))
	r.CircuitSeries = scale(m.circuitSeries.Utilization(s.rates[linkCircuit]), 1/float64(s.n*s.U))
	r.BufferSeries = append([]float64(nil), m.bufferSeries.Bins()...)
	r.VOQSeries = append([]float64(nil), m.voqSeries.Bins()...)
	for i, c := range m.sampleCount.Bins() { // the mean over the bin's samples
		if c > 0 {
			r.BufferSeries[i] /= c
			r.VOQSeries[i] /= c
		}
	}
	r.BufferCDF, r.VOQCDF = m.bufferHist.CDF(), m.voqHist.CDF()
	r.BufferMean, r.VOQMean = m.bufferHist.Mean(), m.voqHist.Mean()
	r.BufferPeak = m.sampledPeak
	for _, tr := range s.tors {
		r.BufferPeak = max(r.BufferPeak, tr.PeakUsed())
	}
	r.Hops = append([]int64(nil), m.hops[:]...)
	for len(r.Hops) > 1 && r.Hops[len(r.Hops)-1] == 0 {
		r.Hops = r.Hops[:len(r.Hops)-1]
	}
	r.Flows = make([]FlowResult, len(s.flows))
	for i := range s.flows {
		fs := &s.flows[i]
		fr := FlowResult{Flow: fs.f, Done: fs.done, Ideal: s.idealFCT(fs.f), MaxHops: int(fs.maxHops), Pulled: s.pulled(fs)}
		if fs.done {
			fr.FCT = fs.finish - fs.f.Start
			r.FlowsComplete++
		}
		switch {
		case fs.sink != nil:
			fr.Received, fr.Reordered = fs.sink.Counts()
			fr.Retransmits, fr.Timeouts = fs.src.Counts()
		case fs.f.Bytes == 0:
		default: // retired
			fr.Received, fr.Reordered, fr.Retransmits, fr.Timeouts = fs.counts()
		}
		if s.ndp.on && !fr.Pulled {
			fr.Received = s.ndpPayloadOf(fr.Received)
		}
		r.Reordered += fr.Reordered
		r.Retransmits += fr.Retransmits
		r.Timeouts += fr.Timeouts
		r.Flows[i] = fr
	}
	r.FlowsStarted = len(s.flows)
	r.Slowdown = s.cfg.Slowdown
	r.Measure, r.Hosts, r.HostLink = s.cfg.Measure, hosts, s.cfg.HostLink
	r.Memory = m.memory
	r.Tail = s.tail(stop)
	r.Reads.LawFlows, r.Reads.PulledFlows, r.Reads.PolicyHeldBack = m.lawFlows, m.pulledFlows, s.pull.heldBack
	for _, sw := range s.ports.sw { // every switch: ToRs, packet switch, spines
		r.Reads.PolicyDecisions += sw.Switch().Decisions
	}
	if c, ok := s.router.(routing.PathCacher); ok {
		r.PathCache = c.PathCache()
	}
	return r, nil
}

// hostBytes adds sign × the payload bytes each host has received and
// sent so far (its flows' distinct bytes received, and bytes handed out
// once) to the tail counters: once at tailFrom (−1) and once at the end
// (+1), so no packet pays for them. ACKs and retransmissions are left
// out.
func (s *sim) hostBytes(sign int64) {
	m := &s.m
	for i := range s.flows {
		fs := &s.flows[i]
		got, _, _, _ := fs.counts() // retired: done
		sent := fs.f.Bytes
		if fs.sink != nil {
			got, _ = fs.sink.Counts()
			sent = fs.f.Bytes - fs.src.Pending()
		}
		if s.ndp.header > 0 && !s.pulled(fs) { // counted on the wire (ndpWire)
			got = s.ndpPayloadOf(got)
			if fs.sink != nil {
				sent = fs.f.Bytes - s.ndpPayloadOf(fs.src.Pending())
			}
		}
		m.tailRx[fs.f.Dst] += sign * got
		m.tailTx[fs.f.Src] += sign * sent
	}
}

// tail is the ports' utilisation over [tailFrom, stop).
func (s *sim) tail(stop rotor.Time) Tail {
	m := &s.m
	t := Tail{From: m.tailFrom, HostsPerToR: s.H, MTU: s.cfg.MTU}
	util := func(bytes []int64, capacity rotor.Bytes) []float64 {
		out := make([]float64, len(bytes))
		for i, b := range bytes {
			if capacity > 0 {
				out[i] = float64(b) / float64(capacity)
			}
		}
		return out
	}
	if stop > m.tailFrom {
		s.hostBytes(+1)
		host := s.rates[linkHost].BytesIn(stop - m.tailFrom)
		t.Rx, t.Tx = util(m.tailRx, host), util(m.tailTx, host)
		if s.ls == nil {
			t.Up = util(m.tailUp, rotor.Bytes(s.U)*s.rates[linkCircuit].BytesIn(stop-m.tailFrom))
		}
	}
	return t
}

func scale(x []float64, f float64) []float64 {
	for i := range x {
		x[i] *= f
	}
	return x
}

// Queries digests the incast queries of the run (flows with Query > 0,
// grouped by it): how many started, how many completed (all their flows
// done), and each completed query's completion time in µs, from its first
// flow's start to its last flow's end, in query order.
func (r *Result) Queries() (started, completed int, qctUs []float64) {
	type span struct {
		first, last rotor.Time
		open        bool // a flow not done
	}
	byQuery := map[int]*span{}
	var order []int
	for _, f := range r.Flows {
		if f.Query <= 0 {
			continue
		}
		q := byQuery[f.Query]
		if q == nil {
			q = &span{first: f.Start, last: f.Start}
			byQuery[f.Query] = q
			order = append(order, f.Query)
		}
		q.first = min(q.first, f.Start)
		if f.Done {
			q.last = max(q.last, f.Start+f.FCT)
		} else {
			q.open = true
		}
	}
	slices.Sort(order)
	for _, id := range order {
		if q := byQuery[id]; !q.open {
			completed++
			qctUs = append(qctUs, float64(q.last-q.first)/float64(rotor.Microsecond))
		}
	}
	return len(order), completed, qctUs
}

// Records returns the completed measured flows (those that started in
// r.Measure) as stats records (for SummarizeFlows).
func (r *Result) Records() []stats.FlowRecord {
	var out []stats.FlowRecord
	for _, f := range r.Flows {
		if f.Done && r.Measure.Contains(f.Start) {
			out = append(out, stats.FlowRecord{Bytes: f.Bytes, FCT: f.FCT, Ideal: f.Ideal})
		}
	}
	return out
}

// PathCacheStats describes the k-shortest-path cache of a run
// (routing.multipath = ksp).
type PathCacheStats = routing.PathCacheStats
