package fabric

import (
	"math/rand/v2"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
)

// NDP (transport.kind = "ndp"; Handley et al., "Re-architecting datacenter
// networks and stacks for low latency and high performance", SIGCOMM
// 2017). Both flow ends are cc's (cc.NDP sends; the cc.Receiver sink
// turns data into ACKs and headers into NACKs and asks for PULLs); this
// file is the fabric's part:
//
//   - Trimming: a switch that refuses a data packet (its buffer policy
//     finds no room) cuts it to a header of transport.ack_size bytes
//     (kind Trimmed). A packet a push-out policy evicts is dropped, not
//     trimmed: trimming acts on arrivals.
//   - The header queue: headers and control packets (ACK, NACK, PULL)
//     do not enter the shared buffer. Each switch port keeps up to
//     transport.ndp_header_queue of them apart (tor.ToR.EnqueueHeader),
//     in line with the port's first class: a leaf-spine port's class 0,
//     ahead of data (in turn with it under round-robin port scheduling);
//     a rotor ToR's VOQ Transit class toward the next hop, served first;
//     class 0 of a host or packet-switch port, which with one class is
//     the data's queue (hybrid-voq gives the packet switch two). The
//     limit is per switch port, so per next-hop ToR at a rotor ToR.
//   - Return to sender: a trimmed header that finds its port's header
//     queue full goes back to its sender as a NACK flagged Bounced,
//     routed from the switch like a fresh packet; the sender queues the
//     segment with the credit it spent (the receiver will not pull for
//     it) and resends it at once; with transport.ndp_returned = swallow
//     it waits for the next PULL unless none is expected (cc.NDP's
//     SwallowReturns). A bounced NACK that finds a header
//     queue full again, a control packet that does, and a header at a
//     switch that cannot route it back (the packet switch, a spine) are
//     dropped and counted (Result.HeadersDropped for headers and
//     returned headers). With transport.ndp_ports = operasim a control
//     packet is returned as well, as opera-sim returns it (ndpReturn).
//   - The receiver answers data with an ACK and a trimmed header with a
//     NACK at once (both ahead of data on its NIC; its Sink makes them),
//     and for either asks its host's pull pacer for one PULL. The pacer, one per host, sends one PULL
//     per MTU time of the host link, for all the flows to that host in
//     arrival order: the senders together send at the receiver's line
//     rate. A flow whose receiver has everything gets no more PULLs.
//   - With transport.ndp_pull_pacing = flow, each flow has a pacer of
//     its own (one PULL per MTU time of the host link), as opera-sim
//     runs NDP: a receiver of k flows then pulls up to k times its line
//     rate.
//   - With transport.ndp_header = h > 0, as opera-sim's 64-B header:
//     an MTU-sized data packet carries MTU − h bytes of its flow (the
//     flow's ends count bytes on the wire, ndpWire; results report the
//     flow's own bytes), and the pacers space PULLs by that payload's
//     transmit time (pullGap).
//   - With transport.ndp_pulls = operasim, as opera-sim's NdpPullPacer
//     and NdpSrc: the ACK or NACK carries the PULL when its pacer is
//     idle (nothing queued, the last PULL an MTU time ago or more), and
//     PULLs carry cumulative numbers (packet.PullNo): the sender is
//     granted what a number exceeds the highest it has heard, so a lost
//     PULL is made up by the next and a late one grants nothing.
//   - Dark circuits (transport.ndp_dark = trim): when a circuit t → v
//     goes dark, the NDP packets queued at ToR t for it whose router
//     now has another next hop (reroute, circuits.go, asks ndpDark) do
//     not wait for its next day: a data packet is cut to its header (so
//     the receiver NACKs it and pulls its retransmission over the new
//     slice's paths), and headers and control packets go into the new
//     next hop's header queue (a header that finds it full returns to
//     its sender). A circuit some switch brings back within one slot
//     after the night (Mars's 2-slot cycle) is waited for, not trimmed
//     at (circuitBackWithinSlot). With wait, or with no other next hop, they wait
//     (Parked) for the circuit's next day; a flow's timeout while one
//     of its packets is parked counts as a timeout behind a dark
//     circuit.
//   - The sender sends transport.ndp_window packets (default one BDP)
//     at line rate, then one packet (retransmission first) per PULL; a
//     NACK whose sender holds credit (PULLs that came while nothing was
//     left to send) lets the retransmission go at once.
//     With transport.ndp_nic = turns a host's flows with credit take
//     turns at its NIC, one packet each; with fifo each credit queues its
//     packet at once behind those already queued (retransmissions ahead
//     of new data), as opera-sim's NIC queue does: a new flow's first
//     window then waits behind the other flows' windows. fifo picks the
//     segment when the entry leaves (a retransmission if one is queued);
//     operasim makes the packet when the credit comes, as opera-sim's
//     NdpSrc::send_packet does, so a credit files as a retransmission
//     only if one is queued then, and takes it: a flow whose
//     retransmissions wait at a busy NIC files its later credits as new
//     data, behind the new data already queued.
//     Nothing heard for transport.min_rto re-sends what is unacknowledged;
//     with transport.ndp_timeout = packet each packet is timed from when
//     it left the NIC until it is answered, and the due ones go again
//     (cc.NDP's PacketTimer; opera-sim's NdpSrc times its packets).
//   - With paths, a ToR's pull of a bulk packet takes its host's NIC
//     first come, first served with NDP's packets (transport.ndp_bulk_nic
//     = fcfs), or, with last, only while no NDP packet waits there: a
//     host that held a pull back rings its ToR's doorbell when its NDP
//     packets have left (ndpDoorbell), as opera-sim's NIC serves
//     RotorLB's queue after its NDP queues.
//
// With routing.mode paths, bulk flows (≥ routing.bulk) are host-buffered
// and pulled over RotorLB exactly as with transport pull (pull.go); the
// others run NDP: opera-sim's Opera mode.

// ndpState is the fabric's NDP state.
type ndpState struct {
	on    bool
	iw    int // first window, packets
	hosts []ndpHost
	// trimmed counts data packets cut to headers, trimmedBytes the
	// payload bytes cut; headerDrops the headers dropped (trimmed or
	// bounced), bounced the headers returned to their senders, and
	// queueDrops the packets a full header queue dropped (headers and
	// control packets: not in any switch's Drops).
	// returned counts the control packets a full header queue sent back
	// toward their senders (ndp_ports = operasim, ndpReturn).
	trimmed, trimmedBytes, headerDrops, bounced, queueDrops, returned int64

	perFlow bool // transport.ndp_pull_pacing = flow
	fifo    bool // transport.ndp_nic = fifo or operasim
	made    bool // transport.ndp_nic = operasim: the NIC queues hold packets
	// packetTimer: transport.ndp_timeout = packet; a flow's timer is
	// armed when its packet leaves the NIC (ndpSent).
	packetTimer bool
	trimDark    bool // transport.ndp_dark = trim
	bulkLast    bool // transport.ndp_bulk_nic = last (and bulk flows are pulled)
	carry       bool // transport.ndp_pulls = operasim
	// header: transport.ndp_header, bytes of each data packet that are
	// not the flow's; pullGap: a pacer's spacing between PULLs, one
	// payload's (MTU − header) transmit time on the host link.
	header  int64
	pullGap rotor.Time
	// transport.ndp_ports = operasim: the rotor ToRs' ports are opera-sim's
	// CompositeQueue; portRand draws whether a full data queue trims its
	// last packet (½) or the arrival, and trimmedLast counts the former.
	private     bool
	portRand    *rand.Rand
	trimmedLast int64
	flows       []ndpFlow // by flow id, grown as flows start
	dark        DarkStats
}

// DarkStats counts what NDP's ToRs did with the packets queued for a
// circuit that went dark (transport.ndp_dark).
type DarkStats struct {
	Trimmed      int64 `json:"trimmed"`       // data packets cut to headers, sent on another next hop
	Moved        int64 `json:"moved"`         // headers and control packets sent on another next hop
	Parked       int64 `json:"parked"`        // packets left waiting for the circuit's next day
	Timeouts     int64 `json:"timeouts"`      // timeouts of flows with a packet parked
	TimeoutFlows int64 `json:"timeout_flows"` // flows with at least one such timeout
}

// ndpFlow is one NDP flow's fabric state: its pull pacer (per-flow
// pacing) and its packets parked behind dark circuits.
type ndpFlow struct {
	pullAt       rotor.Time // the pacer's next PULL may go then
	owed         int32      // PULLs owed
	parked       int32      // its packets parked now
	queued       int32      // its entries in its host's NIC queues (ndp_nic = fifo)
	pullNo       int32      // the PULL numbers its receiver has sent (ndp_pulls = operasim)
	armed        bool       // an evNDPPull is pending
	darkTimedOut bool       // it timed out with a packet parked
}

// flow is flow id's ndpFlow.
func (nd *ndpState) flow(id int32) *ndpFlow {
	for int(id) >= len(nd.flows) {
		nd.flows = append(nd.flows, ndpFlow{})
	}
	return &nd.flows[id]
}

// ndpHost is one host's NDP state: its pull pacer (as a receiver) and its
// flows with credit (as a sender).
type ndpHost struct {
	pulls  des.FIFO   // flows owed a PULL, one entry per PULL
	pullAt rotor.Time // the pacer's next PULL may go then
	armed  bool       // an evNDPPull is pending
	ready  des.FIFO   // flows that may have credit (round-robin)
	// ndp_nic = fifo: one entry per credit, the flow's id, in the order
	// the credits came; retx holds those given while the flow had a
	// retransmission queued. operasim: the packets the credits made
	// (pool indices), retx the retransmissions.
	fresh, retx des.FIFO
	// deferred: its ToR did not pull a bulk packet from it because an
	// NDP packet waited at its NIC (ndp_bulk_nic = last; ndpDoorbell).
	deferred bool
}

// waiting reports whether a flow of the host may have a data packet to
// send.
func (nh *ndpHost) waiting() bool { return nh.ready.Len()+nh.fresh.Len()+nh.retx.Len() > 0 }

// nicNext is the NIC queue whose head goes next under ndp_nic = fifo or
// operasim: retransmissions first, then new data; nil when both are empty.
func (nh *ndpHost) nicNext() *des.FIFO {
	switch {
	case nh.retx.Len() > 0:
		return &nh.retx
	case nh.fresh.Len() > 0:
		return &nh.fresh
	}
	return nil
}

func (s *sim) initNDP() error {
	if s.cfg.Transport != NDP {
		return nil
	}
	nd := &s.ndp
	nd.on = true
	nd.perFlow = s.cfg.NDPPullPacing == NDPPaceFlow
	nd.trimDark = s.cfg.NDPDark == NDPDarkTrim
	nd.made = s.cfg.NDPNIC == NDPNICOperaSim
	nd.fifo = s.cfg.NDPNIC == NDPNICFIFO || nd.made
	nd.bulkLast = s.cfg.NDPBulkNIC == NDPBulkLast && s.pulling
	nd.carry = s.cfg.NDPPulls == NDPPullsOperaSim
	if s.cfg.NDPPorts == NDPPortsOperaSim {
		nd.private = true
		nd.portRand = rand.New(rand.NewPCG(s.cfg.Seed, 0xc0b05e))
	}
	if s.cfg.NDPDark != DefaultNDPDark && (s.cfg.LeafSpine != nil || s.rerouting == routing.RerouteNone) {
		return cfgErr("transport.ndp_dark", "routing.mode %s keeps every packet for its circuit; the key is read only with a routing that re-routes at slice changes (paths, vlb-paths, earliest)", s.cfg.Routing)
	}
	nd.header = int64(s.cfg.NDPHeader)
	nd.pullGap = s.ser(linkHost, s.cfg.MTU-s.cfg.NDPHeader)
	nd.hosts = make([]ndpHost, s.n*s.H)
	nd.iw = s.cfg.NDPWindow
	if nd.iw == 0 { // one bandwidth-delay product of the host link
		bdp := int64(s.cfg.HostLink.BytesIn(s.cfg.baseRTT()))
		nd.iw = int(max(1, (bdp+int64(s.cfg.MTU)-1)/int64(s.cfg.MTU)))
	}
	s.cc.flow.Window = nd.iw
	s.cc.flow.SwallowReturns = s.cfg.NDPReturned == NDPReturnedSwallow
	nd.packetTimer = s.cfg.NDPTimeout == NDPTimeoutPacket
	s.cc.flow.PacketTimer, s.cc.flow.StampAtSend = nd.packetTimer, nd.packetTimer && nd.made
	return nil
}

// ndpWire is the bytes on the wire of an NDP flow of size payload bytes:
// each packet of up to MTU bytes carries transport.ndp_header of them as
// its header. The flow's sender and receiver count these bytes.
func (s *sim) ndpWire(size int64) int64 {
	if s.ndp.header == 0 {
		return size
	}
	return size + s.ndp.header*((size+s.ndpPayload()-1)/s.ndpPayload())
}

// ndpPayloadOf is ndpWire's inverse for wire bytes received in whole
// packets: the flow's bytes they carry.
func (s *sim) ndpPayloadOf(wire int64) int64 {
	if s.ndp.header == 0 {
		return wire
	}
	return wire - s.ndp.header*((wire+int64(s.cfg.MTU)-1)/int64(s.cfg.MTU))
}

// ndpPayload is an MTU-sized NDP packet's payload.
func (s *sim) ndpPayload() int64 { return int64(s.cfg.MTU) - s.ndp.header }

// ndpWake lists flow id with its host's flows that may send and starts
// the NIC if it is idle.
func (s *sim) ndpWake(id int32) {
	fs := &s.flows[id]
	h := int32(fs.f.Src)
	if src, ok := s.ndpFIFOSource(fs); ok {
		s.ndpQueueCredits(h, id, src)
	} else if !fs.ndpReady && fs.src.CanSend() {
		fs.ndpReady = true
		s.ndp.hosts[h].ready.Push(id)
	}
	if !s.hosts[h].busy {
		s.hostSend(h)
	}
}

// ndpHoldsNIC reports whether an NDP packet, data or control, waits at
// host h's NIC: with ndp_bulk_nic = last its ToR pulls no bulk packet
// from h then (inTime), as opera-sim's NIC serves RotorLB's queue only
// when its NDP queues are empty.
func (s *sim) ndpHoldsNIC(h int32) bool {
	return s.hosts[h].acks.Len() > 0 || s.ndp.hosts[h].waiting()
}

// ndpDoorbell lets host h's ToR pull from h again, for its circuits up
// now, once no NDP packet waits at h's NIC, if it held back a pull while
// one did (ndp_bulk_nic = last). The pulled packet follows the NDP
// packet on the wire.
func (s *sim) ndpDoorbell(h int32) {
	nh := &s.ndp.hosts[h]
	if !nh.deferred || s.ndpHoldsNIC(h) {
		return
	}
	nh.deferred = false
	t := int(s.torOf(h))
	for sw := 0; sw < s.U; sw++ {
		if v := s.peer[t*s.U+sw]; v != rotor.Idle {
			s.fill(t, int(v), s.sw[sw].dayAt, s.sw[sw].nightAt)
		}
	}
}

// ndpFIFOSource is fs's NDP sender under ndp_nic = fifo or operasim (ok false: turns,
// or a flow that does not run NDP).
func (s *sim) ndpFIFOSource(fs *flowState) (*cc.NDP, bool) {
	if !s.ndp.fifo {
		return nil, false
	}
	src, ok := fs.src.(*cc.NDP)
	return src, ok
}

// ndpQueueCredits gives flow id (source src, at host h) an entry in its
// host's NIC queues for each packet it may send now and has none for yet
// (ndp_nic = fifo); with operasim it makes those packets now.
func (s *sim) ndpQueueCredits(h, id int32, src *cc.NDP) {
	nh := &s.ndp.hosts[h]
	if s.ndp.made {
		now := s.q.Now()
		for src.Sendable() > 0 {
			seq, size, retx, ok := src.Next(now)
			if !ok {
				break
			}
			if idx := s.newData(id, seq, size, retx, now); retx {
				nh.retx.Push(idx)
			} else {
				nh.fresh.Push(idx)
			}
		}
		return
	}
	f := s.ndp.flow(id)
	for n := src.Sendable(); int(f.queued) < n; f.queued++ {
		if src.Retransmitting() {
			nh.retx.Push(id)
		} else {
			nh.fresh.Push(id)
		}
	}
}

// ndpSendFIFO is ndpSend for ndp_nic = fifo: the flow of the oldest
// entry, retransmissions' first, sends (operasim: the oldest packet).
func (s *sim) ndpSendFIFO(h int32) {
	nh := &s.ndp.hosts[h]
	if s.ndp.made {
		s.ndpSendMade(h, nh)
		return
	}
	for q := nh.nicNext(); q != nil; q = nh.nicNext() {
		id := q.Pop()
		s.ndp.flows[id].queued--
		fs := &s.flows[id]
		if fs.src == nil {
			continue
		}
		now := s.q.Now()
		seq, size, retx, ok := fs.src.Next(now)
		if !ok {
			continue
		}
		s.transmit(h, s.dataPacket(id, seq, size, retx, now), noFlow)
		s.ndpSent(id)
		return
	}
}

// ndpSent arms flow id's timer after it sent a packet, if each packet is
// timed (transport.ndp_timeout = packet): its first unanswered packet
// may have just left.
func (s *sim) ndpSent(id int32) {
	if s.ndp.packetTimer {
		s.armTimer(id)
	}
}

// ndpSendMade puts host h's oldest queued NDP packet, retransmissions
// first, on its NIC (ndp_nic = operasim). A packet of a flow that has
// finished meanwhile is discarded: it was never on the wire.
func (s *sim) ndpSendMade(h int32, nh *ndpHost) {
	for q := nh.nicNext(); q != nil; q = nh.nicNext() {
		idx := q.Pop()
		p := s.pool.At(idx)
		if s.flows[p.Flow].src == nil {
			s.pool.Free(idx)
			continue
		}
		p.Sent = s.q.Now()
		s.m.injectedData += int64(p.Size)
		s.transmit(h, idx, noFlow)
		if next := nh.nicNext(); next != nil { // it leaves one packet time from now, cold by then
			s.pool.Prefetch(next.Head())
		}
		if s.ndp.packetTimer {
			s.flows[p.Flow].src.(*cc.NDP).Sent(p.Seq, p.Sent)
			s.armTimer(p.Flow)
		}
		return
	}
}

// ndpSend puts the next NDP data packet of host h on its NIC (the NIC is
// free and no ACK waits): the flows with credit take turns.
func (s *sim) ndpSend(h int32) {
	if s.ndp.fifo {
		s.ndpSendFIFO(h)
		return
	}
	r := &s.ndp.hosts[h].ready
	for r.Len() > 0 {
		id := r.Pop()
		fs := &s.flows[id]
		if fs.src == nil {
			continue
		}
		now := s.q.Now()
		seq, size, retx, ok := fs.src.Next(now)
		if fs.ndpReady = fs.src.CanSend(); fs.ndpReady {
			r.Push(id)
		}
		if !ok {
			continue
		}
		s.transmit(h, s.dataPacket(id, seq, size, retx, now), noFlow) // NDP flows are in no active list
		s.ndpSent(id)
		return
	}
}

// ndpQueuePull asks host h's pacer (or flow id's) for one PULL for flow
// id. With ndp_pulls = operasim, reply (the ACK or NACK the receiver is
// sending, or noFlow) carries it instead when the pacer is idle: nothing
// queued and its last PULL an MTU time ago or more (ndpCarryPull).
func (s *sim) ndpQueuePull(h, id, reply int32) {
	if s.ndp.carry && reply != noFlow && s.ndpCarryPull(h, id, reply) {
		return
	}
	if s.ndp.perFlow {
		f := s.ndp.flow(id)
		f.owed++
		if !f.armed {
			f.armed = true
			s.q.Schedule(max(s.q.Now(), f.pullAt), evNDPPull, h, id+1)
		}
		return
	}
	nh := &s.ndp.hosts[h]
	nh.pulls.Push(id)
	if !nh.armed {
		nh.armed = true
		s.q.Schedule(max(s.q.Now(), nh.pullAt), evNDPPull, h, 0)
	}
}

// ndpCarryPull lets reply carry flow id's next PULL number if the pacer
// (flow id's, or host h's) is idle, as opera-sim's NdpPullPacer sends an
// ACK or NACK with its PULL bit set when its queue is empty and its last
// PULL left a drain time (one MTU at the host's line rate) ago or more;
// the pacer then counts it as its last PULL. It reports whether reply
// carries it.
func (s *sim) ndpCarryPull(h, id, reply int32) bool {
	now := s.q.Now()
	f := s.ndp.flow(id)
	if s.ndp.perFlow {
		if f.owed > 0 || f.armed || now < f.pullAt {
			return false
		}
		f.pullAt = now + s.ndp.pullGap
	} else {
		nh := &s.ndp.hosts[h]
		if nh.pulls.Len() > 0 || nh.armed || now < nh.pullAt {
			return false
		}
		nh.pullAt = now + s.ndp.pullGap
	}
	f.pullNo++
	s.pool.At(reply).SetPullNo(f.pullNo)
	return true
}

// ndpPull sends host h's next paced PULL (flow ≥ 1: flow−1's own
// pacer's): to the first flow owed one that still misses data. The next
// goes one MTU time of the host link later.
func (s *sim) ndpPull(h int32, flow int32) {
	if flow > 0 {
		s.ndpFlowPull(h, flow-1)
		return
	}
	nh := &s.ndp.hosts[h]
	nh.armed = false
	for nh.pulls.Len() > 0 {
		id := nh.pulls.Pop()
		fs := &s.flows[id]
		if fs.sink == nil || fs.done {
			continue
		}
		s.ndpSendPull(h, id)
		nh.pullAt = s.q.Now() + s.ndp.pullGap
		if nh.pulls.Len() > 0 {
			nh.armed = true
			s.q.Schedule(nh.pullAt, evNDPPull, h, 0)
		}
		return
	}
}

// ndpFlowPull is ndpPull for flow id's own pacer at host h.
func (s *sim) ndpFlowPull(h int32, id int32) {
	f := &s.ndp.flows[id]
	f.armed = false
	if fs := &s.flows[id]; fs.sink == nil || fs.done {
		f.owed = 0
		return
	}
	f.owed--
	s.ndpSendPull(h, id)
	f.pullAt = s.q.Now() + s.ndp.pullGap
	if f.owed > 0 {
		f.armed = true
		s.q.Schedule(f.pullAt, evNDPPull, h, id+1)
	}
}

// ndpSendPull puts a PULL of flow id on host h's NIC, ahead of data.
func (s *sim) ndpSendPull(h int32, id int32) {
	fs := &s.flows[id]
	idx := s.pool.Alloc()
	p := s.pool.At(idx)
	cc.MakePull(p, id, h, int32(fs.f.Src), s.cfg.AckSize, s.q.Now())
	p.DstToR = fs.srcToR
	if s.ndp.carry { // cumulative: the pacer's PULLs leave in the order they were asked for
		f := s.ndp.flow(id)
		f.pullNo++
		p.SetPullNo(f.pullNo)
	}
	hs := &s.hosts[h]
	hs.acks.Push(idx)
	if !hs.busy {
		s.hostSend(h)
	}
}

// ndpEnqueue is enqueue (in: the ingress port) under NDP: a data packet
// into queue q of the shared buffer, else trimmed to its header; headers
// and control packets into the header queue of q's port, in line with
// its first class. A header that finds that full is returned to its
// sender; other packets refused are dropped. It reports whether idx is
// queued at tr in the port of q.
func (s *sim) ndpEnqueue(tr *tor.ToR, q tor.QueueID, idx int32, in int) bool {
	p := s.pool.At(idx)
	if p.Kind == packet.Data {
		if s.ndp.private && tr.ID >= 0 && !p.Has(packet.Pulled) {
			if s.ndpPortEnqueue(tr, q, idx) {
				return true
			}
		} else if tr.EnqueueFrom(s.q.Now(), q, idx, in) {
			return true
		}
		if !s.trim(idx) {
			s.switchDrop(idx)
			return false
		}
	}
	return s.ndpEnqueueHeader(tr, q, idx)
}

// ndpPortEnqueue puts data packet idx into the private data queue of q's
// port at rotor ToR tr (transport.ndp_ports = operasim), as opera-sim's
// CompositeQueue does: if it is full, with probability ½ the port's last
// queued data packet, if at least as large, is trimmed to its header
// (which goes into the port's header queue, or back to its sender) and
// idx takes its place. It reports whether idx is queued; if not, the
// port refused it (counted in tr's Drops) and the caller trims it.
func (s *sim) ndpPortEnqueue(tr *tor.ToR, q tor.QueueID, idx int32) bool {
	if tr.EnqueuePrivate(s.q.Now(), q, idx) {
		return true
	}
	p := s.pool.At(idx)
	if s.ndp.portRand.Float64() < 0.5 {
		if last, from, ok := tr.PopLastPrivate(q, p.Size); ok {
			lp := s.pool.At(last)
			host := tr.NextHop(from) < 0 // a booked ToR→host port
			if host {
				s.giveBackTurn(lp.DstHost, lp.Size)
			}
			s.trim(last)
			s.ndp.trimmedLast++
			if s.ndpEnqueueHeader(tr, from, last) && host {
				s.bookHostPort(lp.DstHost, lp.Size)
			}
			if tr.EnqueuePrivate(s.q.Now(), q, idx) { // it may not fit a port that packets moved into at a slice change
				return true
			}
		}
	}
	tr.Refused(p.Size)
	return false
}

// ndpEnqueueHeader puts header or control packet idx into the header
// queue of q's port at tr, in line with its first class (with
// transport.ndp_ports = operasim, a VOQ output's own header queue). A
// header that finds it full is returned to its sender; other packets
// refused are dropped. It reports whether idx is queued.
func (s *sim) ndpEnqueueHeader(tr *tor.ToR, q tor.QueueID, idx int32) bool {
	p := s.pool.At(idx)
	hq := tr.PortQueue(tr.QueuePort(q), 0)
	if v := tr.NextHop(q); v >= 0 {
		hq = tr.VOQ(v, s.ndpHeaderClass())
	}
	if tr.EnqueueHeader(hq, idx) {
		return true
	}
	if tr.ID >= 0 && tr.ID < len(s.tors) && s.tors[tr.ID] == tr { // a rotor ToR: it can route idx back
		switch {
		case p.Kind == packet.Trimmed:
			s.ndpBounce(tr.ID, idx)
			return false
		case s.ndp.private && !p.Has(packet.Bounced) && !p.Has(packet.Returned):
			s.ndpReturn(tr.ID, idx)
			return false
		}
	}
	s.ndp.queueDrops++
	if s.pfc != nil {
		s.pfcDropped(idx)
	}
	s.drop(idx)
	return false
}

// ndpHeaderClass is the VOQ class NDP's headers wait in.
func (s *sim) ndpHeaderClass() int {
	if s.ndp.private {
		return tor.HeaderVOQ
	}
	return tor.Transit
}

// trim cuts data packet idx, refused by a switch, to its header; false
// if idx is not a trimmable data packet (pulled packets have room
// reserved).
func (s *sim) trim(idx int32) bool {
	p := s.pool.At(idx)
	if p.Has(packet.Pulled) {
		return false
	}
	hdr := min(p.Size, s.cfg.AckSize)
	s.ndp.trimmed++
	s.ndp.trimmedBytes += int64(p.Size - hdr)
	p.Kind, p.Size = packet.Trimmed, hdr
	return true
}

// ndpBounce returns trimmed header idx, refused by ToR (or leaf) t's
// header queue, to its sender: it becomes a NACK flagged Bounced that
// arrives at t now as a fresh packet toward the sender's rack.
func (s *sim) ndpBounce(t int, idx int32) {
	p := s.pool.At(idx)
	s.ndp.bounced++
	cc.MakeNack(p, s.cfg.MTU, p.Size) // the header's own size
	p.Set(packet.Bounced)
	p.DstToR = s.flows[p.Flow].srcToR
	s.q.Schedule(s.q.Now(), evToRArrive, int32(t), idx)
}

// ndpReturn sends control packet idx (ACK, NACK or PULL), refused by
// rotor ToR t's full header queue, back toward the host that sent it
// (transport.ndp_ports = operasim), as opera-sim's CompositeQueue returns
// every header-only packet. opera-sim's last link hands an ACK, NACK or
// PULL to its flow's sender whichever host it reaches, so the returned
// packet reaches the source when it reaches the host it came from
// (receive hands every reply to its flow's source): delayed, not lost.
// Routed from t like a fresh packet; one that finds a header queue full
// again is dropped.
func (s *sim) ndpReturn(t int, idx int32) {
	p := s.pool.At(idx)
	s.ndp.returned++
	p.Set(packet.Returned)
	p.SrcHost, p.DstHost = p.DstHost, p.SrcHost
	p.Hops, p.Via, p.Route, p.DstToR = 0, packet.NoToR, packet.NoRoute, s.flows[p.Flow].dstToR
	s.q.Schedule(s.q.Now(), evToRArrive, int32(t), idx)
}

// ndpStaleHop: with routing.source = nic, packet p reached ToR t while
// the next hop of the slice it left its NIC in, v, is dark. The
// transport.ndp_dark rule applies as to a packet queued for v when it went
// dark (ndpDark): with trim, unless v is back within a slot, p takes the
// next hop of the slice now (fixed from here), a data packet cut to its
// header (opera-sim drops it). It returns p's next hop.
func (s *sim) ndpStaleHop(t int, p *packet.Packet, v int32) int32 {
	if !s.ndp.trimDark || p.Has(packet.Pulled) || s.circuitBackWithinSlot(t, v) {
		return v
	}
	p.Route = packet.NoRoute
	next, _, usePS := s.route(t, p, p.Hops == 0)
	if next == v || usePS {
		return v
	}
	s.ndpOffDark(p)
	return next
}

// ndpOffDark counts p, leaving a circuit that went dark for another next
// hop: a data packet is cut to its header (trimmed), any other is moved.
func (s *sim) ndpOffDark(p *packet.Packet) {
	if p.Kind == packet.Data {
		hdr := min(p.Size, s.cfg.AckSize)
		s.ndp.trimmedBytes += int64(p.Size - hdr)
		p.Kind, p.Size = packet.Trimmed, hdr
		s.ndp.dark.Trimmed++
	} else {
		s.ndp.dark.Moved++
	}
}

// ndpDark handles the NDP packet at the head of ToR t's queue q (in
// class), which waited for the circuit to v that just went dark and which
// the router still sends to v (reroute); nothing changes while another
// switch connects t to v. With trim and another next hop now, it leaves
// q (and the shared buffer), a data packet is cut to its header and the packet goes into that hop's header queue
// (returned to its sender if that is full); true: it left q.
// Otherwise it stays parked for the circuit's next day.
func (s *sim) ndpDark(t int, v int32, q tor.QueueID, class int) bool {
	tr := s.tors[t]
	idx := tr.Head(q)
	p := s.pool.At(idx)
	if p.Has(packet.Pulled) || s.upTo(t, int(v)) != 0 { // a bulk flow's (waits, as RotorLB does), or another switch still connects t to v
		return false
	}
	if s.ndp.trimDark && !s.circuitBackWithinSlot(t, v) {
		if s.stamper != nil { // its NIC's slice sends it to v: the slice of now decides, as in ndpStaleHop
			p.Route = packet.NoRoute
		}
		next, _, usePS := s.route(t, p, p.Hops == 0 && class == tor.Local)
		if next != v && !usePS {
			tr.Take(s.q.Now(), q)
			if p.Has(packet.Parked) {
				s.ndpUnpark(p)
			}
			s.ndpOffDark(p)
			if s.enqueue(tr, tr.VOQ(int(next), tor.Transit), idx) {
				s.kick(t, next, false)
			}
			return true
		}
	}
	if !p.Has(packet.Parked) {
		p.Set(packet.Parked)
		s.ndp.flow(p.Flow).parked++
		s.ndp.dark.Parked++
	}
	return false
}

// circuitBackWithinSlot reports whether some switch connects ToR t to v
// again by the end of the slot after the night that starts now, i.e.
// within Δr + Δ (Mars's 2-slot cycle: the other half of its degree in
// between). Such a packet waits for its circuit rather than being
// trimmed: its wait is at most one slot, no timeout can follow from it,
// and the trim would send its bytes again over the new slice's longer
// paths (docs/mars.md: the trim cut Mars's throughput by a third).
func (s *sim) circuitBackWithinSlot(t int, v int32) bool {
	limit := s.q.Now() + s.sched.Reconf + s.sched.Slot
	for sw := range s.sw {
		st := &s.sw[sw]
		k, at := st.slot, st.nightAt+s.sched.Reconf // the next slot's day begins
		for at <= limit {
			k = (k + 1) % s.sched.Period
			if int32(s.sched.Matchings[sw][k][t]) == v {
				return true
			}
			at += s.sched.SlotDuration(k)
		}
	}
	return false
}

// ndpUnpark notes that parked packet p leaves its VOQ.
func (s *sim) ndpUnpark(p *packet.Packet) {
	p.Flags &^= packet.Parked
	s.ndp.flows[p.Flow].parked--
}

// ndpTimedOut counts flow id's timeout if one of its packets is parked
// behind a dark circuit.
func (s *sim) ndpTimedOut(id int32) {
	if int(id) >= len(s.ndp.flows) {
		return
	}
	f := &s.ndp.flows[id]
	if f.parked == 0 {
		return
	}
	s.ndp.dark.Timeouts++
	if !f.darkTimedOut {
		f.darkTimedOut = true
		s.ndp.dark.TimeoutFlows++
	}
}
