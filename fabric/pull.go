package fabric

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// Host-buffered circuit traffic (transport.kind = "pull"), RotorNet's
// design: bulk data waits at the hosts, not in the shallow ToR buffers.
//
// A pulled flow's bytes wait at its sending host. Its source ToR keeps the
// flow on a list per destination ToR (dests[t], key d: pullDest.pend) and a bitmap of the
// destinations with such flows. When an uplink of ToR t is (about to be) in
// its day with peer v, the ToR stages a few packets for it (fill): it
// reserves buffer room and sends a pull request down to a host, which
// answers with one packet. The request reaches the host after the host
// delay and the packet is put on the host's NIC then or when the NIC is
// free, whichever is later: pulls take NIC time first come, first served
// with the host's own pushed packets (computed at once, no event). RotorLB's order: first relayed traffic that
// hosts of this rack store for v, then this rack's own data for v
// (round-robin over the flows), then, with spare capacity, data for
// another destination x that v accepts to relay: v's spare capacity toward
// x is what its next circuit day to x carries minus its own backlog for x
// and minus what it already relays to x (spare). A relayed packet reaching v goes down to
// one of v's hosts (round-robin), which stores it until v pulls it for its
// circuit to x: every pulled packet crosses at most two circuits.
//
// A staged packet leaves on a circuit only when the next ToR has reserved
// room for it (flow control in startUplink), so pulled packets are never dropped. What a
// pulled packet needs at the next ToR is a host queue (last hop or relay
// storage), which drains unconditionally; the only pulled bytes that wait
// for room elsewhere are those a ToR staged itself, capped at half its
// buffer. So every buffer regains room and flow control cannot deadlock.
//
// Cost: a fill is O(packets staged), plus, when relaying, the pending
// destinations it looks at (bitRows finds each in O(1 + n/4096) words, not
// a pass over n/64); nothing is O(hosts²). What
// a ToR keeps per other ToR (dests, hops) is a flat table up to
// flatPairToRs ToRs and above exists only for the ToRs it has used
// (pairRow): memory grows with the pairs in use, not with n².

// pullState is the ToR side of host buffering.
type pullState struct {
	dests         pairTable[pullDest]   // t→d: per destination ToR d, t's pulled flows for d, its relay store and byte counts
	hops          pairTable[pullHop]    // t→v: per next-hop ToR v
	stagedTo      pairTable[int64]      // t→v: bytes t requested or holds for its circuits to v (the policy sees them in VOQ t→v; unless plain)
	storeArrays   des.Arrays[storedPkt] // the arrays drained relay stores gave back, for the next store that grows
	pending       bitRows               // row t: the d's with a non-empty pend list
	words         int
	rr            []int32             // [t]: round-robin start over relay destinations
	hostRR        []int32             // [v]: next of v's hosts to store a relayed packet
	waitBits      []uint64            // [t·words+…]: v's with a non-empty waiting list (samples read only those)
	booked        []des.Ring[booking] // [host]: the ToR→host port's bookings by pulled packets, in order
	headLeave     []rotor.Time        // [host]: leave of booked[host]'s head, rotor.MaxTime: none (settle reads these, not the rings)
	late          int64               // bytes of pulled packets that reach their host after the end of the run
	nextLeave     []rotor.Time        // [t]: earliest leave of t's bookings (settle has nothing to do before)
	staged        []int64             // [t]: bytes t has requested or holds for its circuits
	bookedTo      []int64             // [host]: bytes booked on the ToR→host port and not yet gone (the policy sees them in its host queue)
	plain         bool                // every ToR's policy is plain (tor.ToR.Plain): it admits by room alone, and stagedTo, bookedTo and left stay unused
	left          []leftHost          // scratch of settleBookings: the departures the policy hears
	heldBack      int64               // pulls and departures the buffer policy refused (the packet waited at its host or ToR)
	stageCap      int64
	depth         int // packets staged per next hop
	latency       rotor.Time
	relay         bool
	prefetchPairs bool         // n > prefetchToRs: the pick and the relay path prefetch per-pair lines
	offerAll      bool         // RotorLB offers all of a ToR's backlog, not only its excess
	stored        int64        // bytes relayed packets stored at hosts
	skipped       int64        // stored-packet offers not scheduled: no circuit up then
	storedAt      []int32      // [t]: relayed packets t's hosts store (all of t's stores; 0: fill and startUplink skip them)
	storedPeak    int32        // the most any storedAt reached (tests)
	noShortcut    bool         // tests: fill always looks at the pair's lists (mayPull answers true)
	shadow        *storeShadow // tests: the stored packets kept whole beside the entries, and compared
}

func (s *sim) initPull() {
	n := s.n
	ps := &s.pull
	ps.words = (n + 63) / 64
	rows := s.pairRows()
	ps.dests = newPairTable[pullDest](n, rows)
	ps.hops = newPairTable[pullHop](n, rows)
	ps.pending = newBitRows(n, n)
	ps.rr = make([]int32, n)
	ps.waitBits = make([]uint64, n*ps.words)
	ps.booked = make([]des.Ring[booking], n*s.H)
	ps.headLeave = make([]rotor.Time, n*s.H)
	for i := range ps.headLeave {
		ps.headLeave[i] = rotor.MaxTime
	}
	ps.nextLeave = make([]rotor.Time, n)
	ps.staged = make([]int64, n)
	ps.plain = true
	for _, tr := range s.tors {
		ps.plain = ps.plain && tr.Plain()
	}
	if !ps.plain {
		ps.bookedTo = make([]int64, n*s.H)
		ps.stagedTo = newPairTable[int64](n, rows)
	}
	ps.stageCap = max(int64(s.cfg.Buffer)/2, int64(s.cfg.MTU))
	ps.relay = s.cfg.Routing == RotorLB || s.cfg.Routing == Paths
	ps.prefetchPairs = n > prefetchToRs
	ps.offerAll = s.cfg.RelayOffer == OfferAll
	if ps.relay {
		ps.hostRR = make([]int32, n)
		ps.storedAt = make([]int32, n)
	}
	// A pull takes ps.latency: that many circuit packet times must be
	// staged to keep the uplink busy, plus slack for the host NIC.
	ps.latency = s.cfg.pullLatency()
	ps.depth = s.cfg.PullDepth
	if ps.depth == 0 {
		ps.depth = int((ps.latency+s.serMTU[linkCircuit]-1)/s.serMTU[linkCircuit]) + 2
	}
}

// prefetchToRs is the largest fabric whose pull path asks for no
// per-pair line ahead: up to it the flat tables (2 MiB at 128 ToRs) and
// the hosts' booking rings stay in cache, and a prefetch is only cost.
const prefetchToRs = 128

// pulled reports whether flow f's data is host-buffered and pulled.
func (s *sim) pulled(fs *flowState) bool { return s.cfg.Pulled(fs.f) }

// addPulled registers a new pulled flow with its source ToR and stages
// packets for it if one of the ToR's circuits can serve it now.
func (s *sim) addPulled(id int32) {
	fs := &s.flows[id]
	t, d := int(s.torOf(int32(fs.f.Src))), int(s.torOf(int32(fs.f.Dst)))
	ps := &s.pull
	pd := ps.dests.at(t, d)
	pd.pend.push(s.flows, id)
	pd.own += fs.f.Bytes
	ps.pending.set(t, d)
	s.fillUp(t, d)
}

// fillUp stages packets at ToR t for its circuits that are up now and can
// serve destination d (directly, or any circuit when relaying).
func (s *sim) fillUp(t, d int) {
	for sw := 0; sw < s.U; sw++ {
		if v := s.peer[t*s.U+sw]; v != rotor.Idle && (int(v) == d || s.pull.relay) {
			s.fill(t, int(v), s.sw[sw].dayAt, s.sw[sw].nightAt)
		}
	}
}

// fill stages pulled packets at ToR t for the circuit to v whose day runs
// over [day, night), in RotorLB's order (see above). It stops when depth
// packets wait or are requested for v, when the staging room is used up,
// or when a packet requested now could not leave before the night.
func (s *sim) fill(t, v int, day, night rotor.Time) {
	ps := &s.pull
	// On an NDP run (opera-sim's Opera mode) most calls come after an NDP
	// packet's departure, for a ToR with no pulled flow and nothing
	// stored (78 % of them on a-opera-operasim's first 30 ms), and most
	// pairs have no waiting list: two small tables answer without reading
	// the pair's lists. On a pull-transport run they rarely would.
	if s.ndp.on && !s.mayPull(t) {
		return
	}
	now := s.q.Now()
	var w *des.Ring[pulledPkt] // created with the first packet staged
	if !s.ndp.on || ps.waitBits[t*ps.words+v>>6]>>(v&63)&1 != 0 {
		if h := ps.hops.get(t, v); h != nil {
			w = &h.waiting
		}
	}
	pkt := s.serMTU[linkCircuit]
	first := max(now+ps.latency, day) // the earliest a packet requested now is at the ToR
	for {
		staged := 0
		if w != nil {
			staged = w.Len()
		}
		if staged >= ps.depth || first+rotor.Time(staged+1)*pkt > night {
			return
		}
		// The staged packets ahead leave from ready on; a new one must
		// reach the ToR and finish crossing before the night.
		ready := max(now, day) + rotor.Time(staged)*pkt
		if ps.relay {
			if pd := ps.dests.get(t, v); pd != nil && pd.store.Len() > 0 {
				st := &pd.store
				e := st.Head()
				if e.ready > now || !s.inTime(e.keeper, ready, night) || !s.stage(t, v, e.flow, tor.Transit, e.size) {
					return
				}
				idx := s.unstore(t, v, e)
				size, keeper := e.size, e.keeper
				st.Pop()
				ps.storedAt[t]--
				if st.Len() == 0 {
					st.ReleaseTo(&ps.storeArrays, relayStoreKeep)
				}
				ps.stored -= int64(size)
				_, at := s.hostPull(keeper, size) // a stored relayed packet goes up again as is
				w = s.wait(w, t, v, pulledPkt{idx: idx, size: size, ready: at})
				continue
			}
		}
		id, via := s.pickPulled(t, v, ready, night)
		if id < 0 {
			return
		}
		fs := &s.flows[id]
		d := int(s.torOf(int32(fs.f.Dst)))
		if !s.stage(t, v, id, tor.Local, s.pulledSize(fs)) {
			return
		}
		seq, size := s.takePulled(t, d)
		if via >= 0 {
			ps.dests.at(v, d).relayed += int64(size) // v's relay room is promised now
		}
		idx := s.pool.Alloc()
		p := s.pool.At(idx)
		p.Flow, p.Kind, p.Size, p.Flags, p.Via, p.Route = id, packet.Data, size, packet.Pulled, via, packet.NoRoute
		p.SrcHost, p.DstHost = int32(fs.f.Src), int32(fs.f.Dst)
		p.DstToR, p.Seq = int32(d), seq
		start, at := s.hostPull(p.SrcHost, size)
		p.Sent = start // a new packet: injected
		s.m.injectedPkts++
		s.m.injectedBytes += int64(size)
		s.m.injectedData += int64(size)
		w = s.wait(w, t, v, pulledPkt{idx: idx, size: size, ready: at})
	}
}

// mayPull reports whether ToR t has something fill could stage: a pulled
// flow with bytes not yet requested (bits) or a stored relayed packet. It
// reads two small per-ToR tables, where fill's own look would read the
// pair's lists.
func (s *sim) mayPull(t int) bool {
	ps := &s.pull
	if ps.noShortcut || ps.relay && ps.storedAt[t] > 0 {
		return true
	}
	return ps.pending.any(t)
}

// wait files packet e, which reaches ToR t at e.ready, among the packets
// waiting for t's circuit to v (w, nil if t has no list for v yet; ordered
// by arrival, equal times in request order), makes sure an idle uplink to
// v looks at it when it is there, and returns the list.
func (s *sim) wait(w *des.Ring[pulledPkt], t, v int, e pulledPkt) *des.Ring[pulledPkt] {
	if w == nil {
		w = &s.pull.hops.at(t, v).waiting
	}
	insertByReady(w, e)
	if w.Len() == 1 {
		s.pull.waitBits[t*s.pull.words+v>>6] |= 1 << (v & 63)
	}
	for m := s.upTo(t, v); m != 0; m &= m - 1 {
		u := t*s.U + bits.TrailingZeros64(m)
		s.wakeTimed(u, max(e.ready, s.ports.freeAt[u], s.q.Now()))
	}
	return w
}

// stage reserves room at ToR t for a packet of flow (size bytes) pulled
// for the circuit to v, or reports false if t's staging room is used up
// or t's buffer does not admit it: the ToR pulls only what its switch
// admits into the VOQ toward v as it would an arriving packet (class:
// Local for a flow's own data, Transit for a relayed packet's second
// hop), that VOQ holding the bytes already staged for v; a push-out
// policy may push queued packets out for it (admitHeld). A packet not
// admitted stays at its host.
func (s *sim) stage(t, v int, flow int32, class int, size int32) bool {
	ps := &s.pull
	tr := s.tors[t]
	if ps.staged[t]+int64(size) > ps.stageCap {
		return false
	}
	if ps.plain { // admitted iff it fits (roomAt)
		if !s.roomAt(t, size) {
			return false
		}
		tr.Switch().ReservePlain(size)
		ps.staged[t] += int64(size)
		return true
	}
	to := ps.stagedTo.at(t, v)
	if !s.admitHeldVOQ(tr, v, class, flow, size, to) {
		return false
	}
	ps.staged[t] += int64(size)
	*to += int64(size)
	return true
}

// admitsAt reports whether ToR v admits pulled packet p, about to leave a
// circuit toward v, into the queue of the host port it will take: its
// destination host's, or for a relayed packet the port of the host that
// will store it (hostRR), that queue holding the bytes already booked on
// it. If so, v reserves its room (flow control); a packet not admitted
// waits at the sending ToR. With plain policies the room decides, and
// pullSent reserves it.
func (s *sim) admitsAt(v int, idx int32) bool {
	p := s.pool.At(idx)
	if s.pull.plain {
		return s.roomAt(v, p.Size)
	}
	h := p.DstHost - int32(v*s.H)
	if p.DstToR != int32(v) {
		h = s.pull.hostRR[v]
	}
	tr := s.tors[v]
	return s.admitHeld(tr, tr.HostQueue(int(h)), p.Flow, p.Size, &s.pull.bookedTo[int32(v*s.H)+h])
}

// admitHeld asks ToR tr's switch to admit a pulled packet of size bytes
// of flow into queue q, which holds *held bytes of pulled packets (read
// once the buffer is settled), as it decides on an arriving packet
// (tor.ToR.AdmitHeld: the policy, the room, push-out), on a settled
// buffer. Packets it pushes out are dropped as an arrival's are; a
// refusal by the policy (not by the room) counts in heldBack.
func (s *sim) admitHeld(tr *tor.ToR, q tor.QueueID, flow int32, size int32, held *int64) bool {
	s.settle(tr.ID) // the policy sees the buffer as it is
	return s.heldVerdict(tr, tr.AdmitHeld(s.q.Now(), q, flow, size, *held))
}

// admitHeldVOQ is admitHeld for ToR tr's VOQ(v, class), which it creates
// only if the policy needs it (tor.ToR.AdmitHeldVOQ).
func (s *sim) admitHeldVOQ(tr *tor.ToR, v, class int, flow int32, size int32, held *int64) bool {
	s.settle(tr.ID)
	return s.heldVerdict(tr, tr.AdmitHeldVOQ(s.q.Now(), v, class, flow, size, *held))
}

// heldVerdict drops what admitting a held packet pushed out and counts a
// refusal.
func (s *sim) heldVerdict(tr *tor.ToR, v tor.Verdict) bool {
	s.m.pulledPushOuts += int64(len(tr.Switch().Evicted))
	s.dropEvicted(tr) // also when pushing out did not make room enough
	if v == tor.Refused {
		s.pull.heldBack++
	}
	return v == tor.Admitted
}

// pickPulled returns the flow ToR t pulls from next for the circuit to v,
// and the relay ToR (v, or −1 for direct), or −1 if none. It skips flows
// whose host could not get a packet to the ToR in time (inTime): a host's
// NIC may be busy with pulls for other circuits.
func (s *sim) pickPulled(t, v int, ready, night rotor.Time) (id int32, via int32) {
	ps := &s.pull
	if pd := ps.dests.get(t, v); pd != nil && !pd.pend.empty() {
		f := &pd.pend
		for start := f.first; ; {
			if id := f.head(); s.inTime(int32(s.flows[id].f.Src), ready, night) {
				return id, -1
			}
			f.push(s.flows, f.pop(s.flows)) // round-robin: try the next flow
			if f.first == start {
				break // each flow tried once
			}
		}
	}
	if !ps.relay {
		return -1, -1
	}
	// The destinations with pending flows, round-robin from rr[t]: [rr[t],
	// n), then [0, rr[t]).
	n := s.n
	start := int(ps.rr[t])
	for pass, lo, hi := 0, start, n; pass < 2; pass, lo, hi = pass+1, 0, start {
		for x := ps.pending.next(t, lo); x >= 0 && x < hi; x = ps.pending.next(t, x+1) {
			if x == v {
				continue
			}
			// t's list for x, read if v has room, and v's counts for x
			// are two cold lines whose addresses are known now: ask for
			// both before waiting for the second.
			if ps.prefetchPairs {
				ps.dests.prefetch(t, x)
			}
			if !ps.offerAll && ps.dests.get(t, x).own <= s.relayLimit { // x's pend list is not empty: it has an item
				continue // excess offers: t's next day to x carries its backlog
			}
			sp := s.spare(ps.dests.get(v, x))
			if sp <= 0 {
				continue // no room for any packet (a pending flow has ≥ 1 byte left): skip the flow lookup
			}
			head := ps.dests.get(t, x).pend.head()
			fs := &s.flows[head]
			// A segment is at most an MTU: most checks need not ask the
			// flow's host for its next size.
			if (sp >= int64(s.cfg.MTU) || sp >= int64(s.pulledSize(fs))) && s.inTime(int32(fs.f.Src), ready, night) {
				next := x + 1 // x+1 mod n, without a division
				if next == n {
					next = 0
				}
				ps.rr[t] = int32(next)
				// t's next relay pick (at its next departure on any
				// uplink) starts from there: ask now for the list it
				// will read first, which no reader will have touched.
				if ps.prefetchPairs {
					nx := ps.pending.next(t, next)
					if nx < 0 {
						nx = ps.pending.next(t, 0)
					}
					if nx >= 0 {
						ps.dests.prefetch(t, nx)
					}
				}
				return head, int32(v)
			}
		}
	}
	return -1, -1
}

// inTime reports whether a packet host h is asked for now reaches its ToR
// and crosses a circuit (free from ready on) before night; with
// transport.ndp_bulk_nic = last, false while an NDP packet waits at h's
// NIC.
func (s *sim) inTime(h int32, ready, night rotor.Time) bool {
	if s.ndp.bulkLast && s.ndpHoldsNIC(h) { // NDP's packets go first (ndp_bulk_nic = last)
		s.ndp.hosts[h].deferred = true
		return false
	}
	arrive := max(s.q.Now()+s.cfg.HostDelay, s.ports.freeAt[s.ports.nic(h)]) + s.serMTU[linkHost] + s.cfg.HostDelay
	return max(arrive, ready)+s.serMTU[linkCircuit] <= night
}

// pulledSize is the size of the next segment pulled flow fs hands out.
func (s *sim) pulledSize(fs *flowState) int32 { return pulledSource(fs).NextSize() }

// pulledSource is pulled flow fs's host side: its ToR asks it for
// segments (a concrete type, so that the calls inline).
func pulledSource(fs *flowState) *cc.PulledSource { return fs.src.(*cc.PulledSource) }

// takePulled requests the next segment (seq, size) of the head flow of
// pend[t·n+d] from its host and moves the flow to the tail (round-robin
// over flows), or drops it from the list once all its bytes are
// requested.
func (s *sim) takePulled(t, d int) (seq int64, size int32) {
	ps := &s.pull
	pd := ps.dests.get(t, d)
	f := &pd.pend
	id := f.pop(s.flows)
	fs := &s.flows[id]
	src := pulledSource(fs)
	seq, size, _, _ = src.Next(s.q.Now()) // the next segment in order
	pd.own -= int64(size)
	if src.Pending() > 0 {
		f.push(s.flows, id)
	} else if f.empty() {
		ps.pending.clear(t, d)
	}
	return seq, size
}

// hostPull answers a pull request for a packet of size bytes sent to host
// h now: the host gets it after the host delay and serialises the packet
// when its NIC is free. It returns when the NIC starts sending it and when
// the packet reaches h's ToR.
func (s *sim) hostPull(h int32, size int32) (start, arrive rotor.Time) {
	free := &s.ports.freeAt[s.ports.nic(h)]
	start = max(s.q.Now()+s.cfg.HostDelay, *free)
	*free = start + s.ser(linkHost, size)
	return start, *free + s.cfg.HostDelay
}

// pulledCross handles pulled packet idx, which left a circuit toward ToR v
// and reaches v at time at: v's room for it was reserved when it left. It
// goes down to its destination host or, relayed, to one of v's hosts
// (round-robin) that stores it. Its turn on the ToR→host port is booked
// now, when it leaves the previous ToR (ports serve in booking order; a
// circuit crossing takes the same time for every full-size packet, so that
// is arrival order but for shorter last packets and intra-rack traffic), and
// its reserved room is given back when the port takes it (settle). A
// packet for v's host is delivered now, stamped with its arrival time:
// nothing can happen to it on the way and its receiver answers nothing.
func (s *sim) pulledCross(v int, idx int32, p *packet.Packet, at rotor.Time) {
	ps := &s.pull
	host := p.DstHost
	relayed := p.DstToR != int32(v)
	if relayed { // store it at one of v's hosts
		p.Via = packet.NoToR
		h := ps.hostRR[v]
		if next := h + 1; next < int32(s.H) { // round-robin without a division
			ps.hostRR[v] = next
		} else {
			ps.hostRR[v] = 0
		}
		host = int32(v*s.H) + h
		// The next relayed packet reaching v, a few hundred events from
		// now, books the port of v's next host: start loading that
		// ring's tail slot, last written a round of v's hosts ago.
		if ps.prefetchPairs {
			ps.booked[int32(v*s.H)+ps.hostRR[v]].PrefetchTail()
		}
	}
	port := &s.ports.freeAt[s.ports.hosts0+host] // its ToR's port to host (booked: port.go)
	ser := s.ser(linkHost, p.Size)
	leave := max(at, *port)
	*port = leave + ser
	if ps.booked[host].Len() == 0 {
		ps.headLeave[host] = leave
	}
	ps.booked[host].Push(booking{arrive: at, leave: leave, size: p.Size})
	if !ps.plain {
		ps.bookedTo[host] += int64(p.Size)
	}
	ps.nextLeave[v] = min(ps.nextLeave[v], leave)
	done := leave + ser + s.cfg.HostDelay
	switch {
	case relayed:
		s.storeRelayed(v, host, idx, p, done)
	case done <= s.cfg.SimTime:
		s.receive(host, idx, p, done)
	default:
		ps.late += int64(p.Size) // in flight at the end of the run
	}
}

// settle gives back the room ToR t reserved for pulled packets that its
// host ports have taken by now. Every reader of t's buffer state calls it
// first (enqueues and dequeues, whose policy hooks see the state, samples,
// policy ticks), so what it sees is exact; room checks (roomAt) call it
// only when the room they see without it is too small.
func (s *sim) settle(t int) {
	if s.pull.booked != nil && s.q.Now() >= s.pull.nextLeave[t] { // inlined: most calls have nothing to do
		s.settleBookings(t)
	}
}

func (s *sim) settleBookings(t int) {
	now := s.q.Now()
	ps := &s.pull
	tr := s.tors[t]
	next := rotor.MaxTime
	heads := ps.headLeave[t*s.H : (t+1)*s.H]
	for k, head := range heads {
		if head <= now {
			b := &ps.booked[t*s.H+k]
			for b.Len() > 0 && b.Head().leave <= now {
				size := b.Pop().size
				tr.Release(size)
				switch {
				case ps.plain:
				case tr.HearsDequeues():
					ps.left = append(ps.left, leftHost{int32(k), size})
				default:
					ps.bookedTo[t*s.H+k] -= int64(size)
				}
			}
			head = rotor.MaxTime
			if b.Len() > 0 {
				head = b.Head().leave
			}
			heads[k] = head
		}
		next = min(next, head)
	}
	ps.nextLeave[t] = next
	// The policy hears the departures once the buffer is settled, each
	// seeing its host queue hold the bytes booked behind it.
	for _, l := range ps.left {
		b := &ps.bookedTo[t*s.H+int(l.host)]
		*b -= int64(l.size)
		tr.HeldLeft(now, tr.HostQueue(int(l.host)), l.size, *b)
	}
	ps.left = ps.left[:0]
}

// leftHost is a pulled packet that left ToR t's port to host (local
// index) during a settle.
type leftHost struct{ host, size int32 }

// pulledPresent returns the bytes of pulled packets physically in ToR t's
// buffer now (arrived, not yet gone), in total and toward v.
func (s *sim) pulledPresent(t int, voq []int64) (total int64) {
	ps := &s.pull
	now := s.q.Now()
	for h := t * s.H; h < (t+1)*s.H; h++ {
		b := &ps.booked[h]
		for i := 0; i < b.Len(); i++ {
			if e := b.At(i); e.arrive <= now {
				total += int64(e.size)
			}
		}
	}
	for k, b := range ps.waitBits[t*ps.words : (t+1)*ps.words] {
		for ; b != 0; b &= b - 1 {
			v := k<<6 + bits.TrailingZeros64(b)
			w := &ps.hops.get(t, v).waiting
			for i := 0; i < w.Len(); i++ {
				if e := w.At(i); e.ready <= now {
					total += int64(e.size)
					voq[v] += int64(e.size)
				}
			}
		}
	}
	return total
}

// pulledPkt is a pulled packet in a waiting list, with what the uplink
// decides on without touching the packet itself.
type pulledPkt struct {
	idx, size int32
	ready     rotor.Time // when it reaches the ToR
}

// insertByReady inserts e into r, which is ordered by ready time, after
// every entry not later than e (equal times keep their order). It walks
// from the tail, where e nearly always goes.
func insertByReady(r *des.Ring[pulledPkt], e pulledPkt) {
	if n := r.Len(); n == 0 || r.At(n-1).ready <= e.ready {
		r.Push(e) // the usual case: it goes last
		return
	}
	r.Push(e)
	i := r.Len() - 1
	for ; i > 0; i-- {
		prev := r.At(i - 1)
		if prev.ready <= e.ready {
			break
		}
		*r.At(i) = *prev
	}
	*r.At(i) = e
}

// checkStore reports (run.check) a relay store out of order by its
// packets' ready times (fill looks at the head only), or whose storeLast
// is not its tail's ready time, or "" if neither.
func (s *sim) checkStore(pd *pullDest) string {
	st := &pd.store
	for i := 1; i < st.Len(); i++ {
		if st.At(i-1).ready > st.At(i).ready {
			return fmt.Sprintf("is out of order at entry %d", i)
		}
	}
	if n := st.Len(); n > 0 && st.At(n-1).ready != pd.storeLast {
		return fmt.Sprintf("keeps %v as its last ready time, its tail's is %v", pd.storeLast, st.At(n-1).ready)
	}
	return ""
}

// booking is a pulled packet's stay at a ToR→host port's queue.
type booking struct {
	arrive, leave rotor.Time
	size          int32
}

// relayStoreKeep is the most entries a drained relay store keeps room
// for (256 B): a store that held more for a burst gives its array back to
// storeArrays, so the stores together hold their peak at any one time,
// not the sum of every pair's peak, and a store that grows again reuses
// a given-back array instead of allocating.
const relayStoreKeep = 8

// storedPkt is a relayed pulled packet that a host of relay ToR v keeps
// for destination ToR x (v's store for x): what the model reads of it
// after its first circuit, 32 B, two to a cache line. The packet itself
// (64 B) goes back to the pool when it is stored and is made again when v
// pulls it (unstore), so that a store is read in the order it was
// written, one line per two packets, and a pulled packet's line is the
// pool's most recently freed one. Its other fields are the same for every
// stored packet (unstore), but Sent and SrcHost, which nothing reads after
// a pulled packet left its host: the packet made again has Sent 0 and
// SrcHost −1.
type storedPkt struct {
	ready   rotor.Time // when it is at its keeper (Packet.Ready)
	seq     int64
	flow    int32
	size    int32
	keeper  int32 // the host that keeps it (Packet.Keeper)
	dstHost int32
}

// storedFlags are the flags of every stored relayed packet: pulled, and
// across one circuit.
const storedFlags = packet.Pulled | packet.Circuit

// storeRelayed keeps relayed packet idx, which reaches host (of ToR v) at
// time at, until v pulls it for a circuit to its destination x. It joins
// v's store for x now as an entry (storedPkt; the packet goes back to the
// pool), ordered by arrival (equal times in arrival order of the calls),
// and cannot be pulled before at. If a circuit v→x may be up then (up
// now, or in the next slot of a switch), an event at that time offers it
// to those circuits.
func (s *sim) storeRelayed(v int, host int32, idx int32, p *packet.Packet, at rotor.Time) {
	ps := &s.pull
	x := int(p.DstToR)
	e := storedPkt{ready: at, seq: p.Seq, flow: p.Flow, size: p.Size, keeper: host, dstHost: p.DstHost}
	if s.cfg.Check && (p.Kind != packet.Data || p.Hops != 1 || p.Flags != storedFlags || p.IntN != 0 ||
		p.Via != packet.NoToR || p.Route != packet.NoRoute || p.EchoSeg != 0) {
		s.fail("relayed packet of flow %d (seq %d) stored at ToR %d is not what its entry makes again: kind %v, %d hops, flags %b, INT %d, via %d, route %d, echo %d",
			p.Flow, p.Seq, v, p.Kind, p.Hops, p.Flags, p.IntN, p.Via, p.Route, p.EchoSeg)
	}
	if ps.shadow != nil {
		ps.shadow.keep(v, x, idx, p, at, host)
	} else {
		s.pool.Free(idx)
	}
	pd := ps.dests.at(v, x)
	st, last := &pd.store, &pd.storeLast
	st.PushFrom(&ps.storeArrays, e)
	if st.Len() > 1 && at < *last { // it arrives before the last one stored (about 1 store in 5 in (a) RotorNet)
		k := st.Len() - 1
		for ; k > 0 && st.At(k-1).ready > at; k-- {
			*st.At(k) = *st.At(k - 1)
		}
		*st.At(k) = e
	} else {
		*last = at
	}
	ps.stored += int64(e.size)
	if ps.storedAt[v]++; ps.storedAt[v] > ps.storedPeak {
		ps.storedPeak = ps.storedAt[v]
	}
	if s.upTo(v, x)|s.nextTo(v, x) == 0 {
		return // no circuit v→x now or in a switch's next slot
	}
	// The offer stages nothing if no circuit v→x is up at its time (it
	// falls in a night, or in a day to another ToR): then it is not
	// scheduled. With run.check it is, marked, and checked.
	for sw := 0; sw < s.U; sw++ {
		if s.circuitMayBeUp(sw, v, x, at) {
			s.q.Schedule(at, evStored, int32(v), int32(x))
			return
		}
	}
	s.pull.skipped++
	if s.cfg.Check {
		s.q.Schedule(at, evStored, int32(v), int32(x)|noCircuit)
	}
}

// unstore makes stored relayed packet e of relay ToR v's store for x
// into a packet again (storedPkt), which v has just pulled, and returns
// its index.
func (s *sim) unstore(v, x int, e *storedPkt) int32 {
	idx := s.pool.Alloc()
	p := s.pool.At(idx)
	p.Seq, p.Ready = e.seq, e.ready
	p.Flow, p.Size, p.SrcHost, p.DstHost, p.DstToR = e.flow, e.size, -1, e.dstHost, int32(x)
	p.Via, p.Route = packet.NoToR, packet.NoRoute
	p.SetKeeper(e.keeper)
	p.Kind, p.Hops, p.Flags = packet.Data, 1, storedFlags
	if s.pull.shadow != nil {
		s.pull.shadow.compare(s, v, x, idx, p)
	}
	return idx
}

// storeShadow (tests) keeps every stored relayed packet whole in the pool
// beside its entry, as the stores did before entries, each store's in
// arrival order, and checks each packet unstore makes against the one a
// store of whole packets would give now: of the packets stored for the
// pair, the earliest ready, of equal ones the earliest stored. It must
// be the same but for Sent and SrcHost (storedPkt).
type storeShadow struct {
	stored   map[[2]int][]shadowPkt
	arrivals int64
	compared int64
}

type shadowPkt struct {
	idx     int32
	ready   rotor.Time
	arrival int64
}

func (sh *storeShadow) keep(v, x int, idx int32, p *packet.Packet, at rotor.Time, host int32) {
	p.Ready = at
	p.SetKeeper(host)
	sh.arrivals++
	k := [2]int{v, x}
	sh.stored[k] = append(sh.stored[k], shadowPkt{idx, at, sh.arrivals})
}

func (sh *storeShadow) compare(s *sim, v, x int, idx int32, p *packet.Packet) {
	k := [2]int{v, x}
	l := sh.stored[k]
	if len(l) == 0 {
		s.fail("ToR %d: a packet for %d was made from its store, which held none", v, x)
		return
	}
	first := 0
	for i, e := range l {
		if e.ready < l[first].ready || e.ready == l[first].ready && e.arrival < l[first].arrival {
			first = i
		}
	}
	want := *s.pool.At(l[first].idx)
	s.pool.Free(l[first].idx)
	sh.stored[k] = append(l[:first], l[first+1:]...)
	got := *p
	got.Sent, got.SrcHost = want.Sent, want.SrcHost
	if got != want {
		s.fail("ToR %d: the packet made from its store for %d is %+v, the one stored %+v", v, x, got, want)
	}
	sh.compared++
}

// noCircuit marks (in its arg) a stored-packet offer that would have been
// skipped; only run.check schedules those.
const noCircuit = 1 << 30

// circuitMayBeUp reports whether switch sw's circuit from ToR v to ToR x
// can be in its day at time at ≥ now. It answers false only when at lies
// inside an interval known to hold no such circuit: the rest of the
// current day (another peer), the night, the next day (another peer);
// on a boundary between them, or further ahead, it answers true.
func (s *sim) circuitMayBeUp(sw, v, x int, at rotor.Time) bool {
	st := &s.sw[sw]
	dayStart := st.nextDay // in a night: when the next day starts
	if st.day {
		if at < st.nightAt {
			return s.peer[v*s.U+sw] == int32(x)
		}
		if at == st.nightAt {
			return true
		}
		dayStart = st.nightAt + s.sched.Reconf
	}
	switch {
	case at < dayStart:
		return false
	case at == dayStart:
		return true
	}
	k := (st.slot + 1) % s.sched.Period
	if at < dayStart+s.sched.SlotDuration(k)-s.sched.Reconf {
		return s.peerNext[v*s.U+sw] == int32(x)
	}
	return true
}

// offerStored stages stored relayed packets at ToR v for its circuits up
// now to x.
func (s *sim) offerStored(v, x int) {
	for m := s.upTo(v, x); m != 0; m &= m - 1 {
		sw := bits.TrailingZeros64(m)
		s.fill(v, x, s.sw[sw].dayAt, s.sw[sw].nightAt)
	}
}

// roomAt reports whether ToR t has room for size more bytes. Settling only
// gives room back, so it settles only when the room it sees without
// settling is too small: the answer is the same, and most checks find room
// at once. (What settling changes besides the room, the reserved bytes, is
// read only by callers that settle first: enqueues, dequeues, samples,
// policy ticks.)
func (s *sim) roomAt(t int, size int32) bool {
	return s.tors[t].Room(size) || s.roomSettled(t, size) // inlined: most checks find room at once
}

func (s *sim) roomSettled(t int, size int32) bool {
	s.settle(t)
	return s.tors[t].Room(size)
}

// spare is RotorLB's acceptance rule: the bytes intermediate v can still
// take to relay to x, i.e. what its next circuit day to x carries
// (routing.relay_limit, default one day) minus what it needs there for its
// own direct traffic to x (the bytes its hosts hold for x, not yet
// requested) and minus what it already stores or was promised for x.
// Direct traffic keeps priority at the intermediate, and what it accepts
// can leave on its next circuit to x. (The few packets staged at v for x
// are left out: relayed ones are already in relayed[v·n+x].) d is v's
// state toward x, dests.get(v, x) (nil: none).
func (s *sim) spare(d *pullDest) int64 {
	if d == nil {
		return s.relayLimit
	}
	return s.relayLimit - d.own - d.relayed
}

// pullSent does the bookkeeping of a pulled packet leaving ToR t for v
// (whose room at v admitsAt reserved): its stay in t's VOQ toward v ends;
// relayNow says PickCircuit's RotorLB rule chose v as its relay just now.
func (s *sim) pullSent(t, v int, p *packet.Packet, relayNow bool) {
	ps := &s.pull
	ps.staged[t] -= int64(p.Size)
	tr := s.tors[t]
	if ps.plain {
		s.tors[v].Reserve(p.Size) // it fits (roomAt): admitted
		tr.Release(p.Size)
	} else {
		to := ps.stagedTo.get(t, v)
		*to -= int64(p.Size)
		class := tor.Local
		if p.Hops > 0 { // a relayed packet's second hop: staged in the relay class
			class = tor.Transit
		}
		if tr.HearsDequeues() {
			s.settle(t) // the policy hears the departure on a settled buffer
		}
		tr.Release(p.Size)
		tr.HeldLeftVOQ(s.q.Now(), v, class, p.Size, *to)
	}
	if p.Hops > 0 { // second hop of a relayed packet
		ps.dests.at(t, int(p.DstToR)).relayed -= int64(p.Size)
	}
	if relayNow {
		ps.dests.at(v, int(p.DstToR)).relayed += int64(p.Size)
	}
}

// pairTable is what each ToR keeps per other ToR. Up to flatPairToRs ToRs
// it is a plain table of n² items (flat), indexed by t·n+x: one load per
// lookup, on transparent huge pages where the kernel gives them (a lookup
// of a pair met long ago then misses the cache but not the TLB). Above, a row per ToR (pairRow) holds the pairs in use only: an
// item is created on first use (at) and kept for the rest of the run, so
// memory grows with the pairs in use, not with n².
type pairTable[T any] struct {
	n    int
	flat []T
	rows []pairRow[T]
	// The rows' lookups, as func values rather than methods: a generic
	// method that calls another costs the inliner more than its budget,
	// and get and at are on the per-packet path of the flat tables.
	rowGet, rowAt func(t, x int) *T
}

// pairRow is one ToR's items, in order of creation, and their ToRs.
type pairRow[T any] struct {
	index des.Index
	items []T
	keys  []int32
}

// flatPairToRs is the largest fabric whose per-pair tables are flat: at
// 1,024 ToRs the tables of a pull run are about 134 MB (64 B pullDest
// with its flowList, 32 B pullHop, 24 B pairStat, 8 B stagedTo a pair;
// resident from the start on huge pages), and with RotorLB nearly every
// pair is used within a rotor period there, so rows would save little
// memory and cost a lookup through des.Index (two dependent loads and a
// call) per item; at 8,192 ToRs flat tables would be 9 GB.
const flatPairToRs = 1024

// pairRows reports whether the per-pair tables are rows (pairTable).
func (s *sim) pairRows() bool { return s.n > flatPairToRs || s.cfg.pairRows }

// newPairTable is a table of n ToRs, flat unless sparse.
func newPairTable[T any](n int, sparse bool) pairTable[T] {
	if !sparse {
		flat := make([]T, n*n)
		des.HugePages(flat)
		return pairTable[T]{n: n, flat: flat}
	}
	rows := make([]pairRow[T], n)
	for i := range rows {
		rows[i].index = des.NewIndex(n)
	}
	return pairTable[T]{n: n, rows: rows,
		rowGet: func(t, x int) *T { return rows[t].get(x) },
		rowAt:  func(t, x int) *T { return rows[t].at(x) }}
}

// get is the item of pair t→x, nil if it has none (a flat table has
// every item); the pointer is valid until the next at of a new pair of
// row t.
func (p *pairTable[T]) get(t, x int) *T {
	if p.flat != nil { // inlined
		return &p.flat[t*p.n+x]
	}
	return p.rowGet(t, x)
}

// prefetch starts loading the item of pair t→x of a flat table into the
// CPU cache (rows: nothing; their lookup would load).
func (p *pairTable[T]) prefetch(t, x int) {
	if p.flat != nil {
		des.Prefetch(&p.flat[t*p.n+x])
	}
}

// at is the item of pair t→x, created (zero) if it has none.
func (p *pairTable[T]) at(t, x int) *T {
	if p.flat != nil { // inlined
		return &p.flat[t*p.n+x]
	}
	return p.rowAt(t, x)
}

// each calls f for the items of row t, in the order of their ToRs (not
// per packet: it allocates for a sparse row).
func (p *pairTable[T]) each(t int, f func(x int, it *T)) {
	if p.flat != nil {
		for x := range p.n {
			f(x, &p.flat[t*p.n+x])
		}
		return
	}
	r := &p.rows[t]
	order := make([]int32, len(r.items))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(r.keys[a] - r.keys[b]) })
	for _, k := range order {
		f(int(r.keys[k]), &r.items[k])
	}
}

func (r *pairRow[T]) get(x int) *T {
	if k := r.index.Get(int32(x)); k >= 0 {
		return &r.items[k]
	}
	return nil
}

func (r *pairRow[T]) at(x int) *T {
	k, added := r.index.Add(int32(x))
	if added {
		var zero T
		r.items = append(r.items, zero)
		r.keys = append(r.keys, int32(x))
	}
	return &r.items[k]
}

// pullDest is what ToR t keeps toward destination ToR d (dests[t], key
// d): 64 bytes, so that an item of a flat table (page-aligned) is one
// cache line. A relayed packet's store and its byte counts share it: the
// packet's arrival at relay v reads store and storeLast of (v, d), its
// second hop the store and relayed, and pickPulled's spare for it own
// and relayed. So does t's list of pulled flows for d: a pick for d
// reads the list's head and takePulled then own, and a departure toward
// d reads the store, then fill the list, each pair one line.
type pullDest struct {
	store     des.Ring[storedPkt] // relayed packets t's hosts store for d
	own       int64               // unrequested bytes of t's own pulled flows for d
	relayed   int64               // bytes t stores or was promised for d
	storeLast rotor.Time          // Ready of the last packet in store
	pend      flowList            // t's pulled flows for d with unrequested bytes
}

// flowList is ToR t's list of pulled flows toward destination ToR d
// (pullDest.pend), first in first out, linked through the flows'
// nextPend: the head flow is read from the item itself (pickPulled looks
// at the heads of many pairs, one cold line each), and a list of one flow
// (most of them) touches no other line. 8 bytes, the room pullDest has
// left in its line: the first and last flow's number plus one, 0 when
// empty (the zero item is an empty list), and no count (a flow is on at
// most one list, so one flow is first = last).
type flowList struct {
	first, last int32 // first and last flow + 1; 0: empty
}

// empty reports whether the list holds no flow.
func (l *flowList) empty() bool { return l.first == 0 }

// head is the first flow; the list must not be empty.
func (l *flowList) head() int32 { return l.first - 1 }

// push appends flow id; a flow is on at most one list.
func (l *flowList) push(flows []flowState, id int32) {
	if l.first == 0 {
		l.first = id + 1
	} else {
		flows[l.last-1].nextPend = id
	}
	l.last = id + 1
}

// pop removes and returns the head flow; the list must not be empty.
func (l *flowList) pop(flows []flowState) int32 {
	id := l.first - 1
	if l.first == l.last {
		l.first, l.last = 0, 0
	} else {
		l.first = flows[id].nextPend + 1
	}
	return id
}

// count is the number of flows on the list (run.check and tests: it
// walks them).
func (l *flowList) count(flows []flowState) int {
	if l.empty() {
		return 0
	}
	n := 1
	for id := l.first - 1; id != l.last-1; id = flows[id].nextPend {
		n++
	}
	return n
}

// pullHop is what ToR t keeps for its circuits to next hop v (hops[t],
// key v): 32 bytes, so that an item of a flat table (page-aligned) is in
// one cache line.
type pullHop struct {
	waiting des.Ring[pulledPkt] // packets t pulled for its circuit to v (requested or at t), by arrival at t
}
