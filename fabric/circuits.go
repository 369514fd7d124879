package fabric

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
)

// The rotor fabric's circuits: day and night of each switch, the uplinks
// that serve the VOQs over the circuits up, and re-routing at slice changes.

func (s *sim) beginDay(sw, k int, now, night rotor.Time) {
	st := &s.sw[sw]
	st.slot, st.day, st.dayAt, st.nightAt = k, true, now, night
	m := s.sched.Matchings[sw][k]
	active := 0
	for t := 0; t < s.n; t++ {
		v := int32(m[t])
		if v == int32(t) {
			v = rotor.Idle // a self-circuit carries nothing
		}
		s.peer[t*s.U+sw] = v
		if v != rotor.Idle {
			active++
			if s.upToTab != nil {
				s.upToTab[t*s.n+int(v)] |= 1 << sw
			}
		}
	}
	s.m.dayPorts[sw] = active
	next := s.sched.Matchings[sw][(k+1)%s.sched.Period]
	for t := 0; t < s.n; t++ {
		u := t*s.U + sw
		if s.nextToTab != nil {
			if old := s.peerNext[u]; old >= 0 {
				s.nextToTab[t*s.n+int(old)] &^= 1 << sw
			}
			if next[t] >= 0 {
				s.nextToTab[t*s.n+next[t]] |= 1 << sw
			}
		}
		s.peerNext[u] = int32(next[t])
	}
	for t := 0; t < s.n; t++ {
		if v := s.peer[t*s.U+sw]; v != rotor.Idle {
			s.circuitToR(t, v, true)
			s.pairDay(t, sw, v, now, night)
			s.notifyCircuit(t, v, true)
			if s.pulling {
				s.fill(t, int(v), now, night)
			}
			s.startUplink(t, sw)
		}
	}
}

// circuitTableToRs is the largest fabric that keeps upTo and nextTo in
// tables per ToR pair (16 B a pair, 256 KiB at 128 ToRs): one load a
// lookup while the tables stay in cache. Above, a lookup reads the
// uplinks' peers (U entries, one cache line for U ≤ 16, n·U·4 B in all):
// at 256 ToRs the 1 MiB of tables missed the cache on the per-packet
// lookups of a relayed packet (3 % of a RotorNet run's CPU, same core),
// at 64 the tables are 4 % faster (docs/perf-history.md, issue 26).
const circuitTableToRs = 128

// upTo is the set of switches (bit sw) whose circuit t→v is up now: read
// from the uplinks' peers, or up to circuitTableToRs ToRs from a table
// per ToR pair.
func (s *sim) upTo(t, v int) uint64 {
	if s.upToTab != nil {
		return s.upToTab[t*s.n+v]
	}
	return s.upToPeers(t, v)
}

func (s *sim) upToPeers(t, v int) uint64 { return peerMask(s.peer[t*s.U:(t+1)*s.U], v) }

// peerMask is the set of switches (bit sw) whose entry in peers is v.
func peerMask(peers []int32, v int) uint64 {
	var m uint64
	for sw, p := range peers {
		if p == int32(v) {
			m |= 1 << sw
		}
	}
	return m
}

// nextTo is the set of switches (bit sw) whose next slot, as of its last
// day start, holds the circuit t→x (a table up to circuitTableToRs ToRs).
func (s *sim) nextTo(t, x int) uint64 {
	if s.nextToTab != nil {
		return s.nextToTab[t*s.n+x]
	}
	return s.nextToPeers(t, x)
}

func (s *sim) nextToPeers(t, x int) uint64 { return peerMask(s.peerNext[t*s.U:(t+1)*s.U], x) }

// prefetch stages pulled packets for the circuits switch sw brings up at
// the end of its night, so that they are at the ToR when the day starts.
func (s *sim) prefetch(sw int) {
	st := &s.sw[sw]
	k := (st.slot + 1) % s.sched.Period
	day := st.nextDay
	night := day + s.sched.SlotDuration(k) - s.sched.Reconf
	for t, v := range s.sched.Matchings[sw][k] {
		if v != rotor.Idle && v != t {
			s.fill(t, v, day, night)
		}
	}
}

func (s *sim) dayStart(sw int) {
	now := s.q.Now()
	k := (s.sw[sw].slot + 1) % s.sched.Period
	night := now + s.sched.SlotDuration(k) - s.sched.Reconf
	s.beginDay(sw, k, now, night)
	s.q.Schedule(night, evNight, int32(sw), 0)
}

func (s *sim) nightStart(sw int) {
	st := &s.sw[sw]
	now := s.q.Now()
	s.m.circuitCapacity(s, sw, st.dayAt, now)
	st.day = false
	for t := 0; t < s.n; t++ {
		v := s.peer[t*s.U+sw]
		s.peer[t*s.U+sw] = rotor.Idle
		if v != rotor.Idle {
			if s.upToTab != nil {
				s.upToTab[t*s.n+int(v)] &^= 1 << sw
			}
			s.circuitToR(t, v, false)
			s.notifyCircuit(t, v, false)
		}
		if s.rerouting != routing.RerouteNone && v != rotor.Idle {
			s.reroute(t, v)
		}
	}
	s.q.Schedule(now+s.sched.Reconf, evDay, int32(sw), 0)
	if s.pulling {
		st.nextDay = now + s.sched.Reconf
		s.q.Schedule(max(now, st.nextDay-s.pull.latency), evPrefetch, int32(sw), 0)
	}
}

// startUplink starts the next packet on ToR t's uplink through switch sw
// (a port, global id t·U+sw: port.go) if the uplink is idle, its circuit
// is up, and a packet can finish serialisation before the night. It
// serves the VOQs toward the circuit's peer (and, with RotorLB, relayable
// traffic), else the pulled packets waiting for the circuit.
func (s *sim) startUplink(t, sw int) {
	i := t*s.U + sw
	pt := &s.ports
	if pt.timers.When(i) != des.Never {
		return
	}
	st := &s.sw[sw]
	v := s.peer[i]
	if !st.day || v == rotor.Idle {
		return
	}
	now := s.q.Now()
	if now < pt.freeAt[i] { // still serialising a packet: come back then
		s.wakeTimed(i, pt.freeAt[i])
		return
	}
	if st.nightAt-now < s.serByte { // not one byte fits before the night
		return
	}
	tr := s.tors[t]
	var w *des.Ring[pulledPkt] // pulled packets waiting for this circuit
	if ps := &s.pull; s.pulling {
		// On an NDP run most departures are NDP packets and most pairs
		// have no pulled packet waiting: waitBits (a small table) says
		// whether to read the pair's list, a cold line. A pull-transport
		// run, whose lists are rarely empty, reads it at once.
		if !s.ndp.on || ps.waitBits[t*ps.words+int(v)>>6]>>(v&63)&1 != 0 {
			if h := ps.hops.get(t, int(v)); h != nil {
				w = &h.waiting
			}
		}
		if ps.relay && ps.storedAt[t] > 0 {
			// The fill at the end of this event looks at the store's entry
			// that waits longest for v: it was stored long ago, so start
			// loading it now.
			if pd := s.pull.dests.get(t, int(v)); pd != nil {
				pd.store.PrefetchHead()
			}
		}
	}
	var idx int32
	var q tor.QueueID
	nh := v // the packet's next hop: v, or for RotorLB's relayed Local traffic its VOQ's
	ok := false
	if tr.VOQPackets() > 0 { // host-buffered traffic never is in the VOQs
		budget := int64(s.rates[linkCircuit].BytesIn(st.nightAt - now))
		if budget > 0 {
			q, ok = tr.PickCircuit(int(v), budget, s.relay, nil)
		}
	}
	switch {
	case ok:
		s.settle(t) // the policy's dequeue hook sees the buffer
		idx = tr.Dequeue(now, q, sw, s.rates[linkCircuit])
		nh = int32(tr.NextHop(q))
		tr.PrefetchVOQ(int(v)) // this uplink's next packet
	case w != nil && w.Len() > 0:
		e := w.Head()
		if e.ready > now { // not at the ToR yet: come back when it is
			s.wakeTimed(i, e.ready)
			return
		}
		if s.ser(linkCircuit, e.size) > st.nightAt-now { // it cannot cross before the night (no division per packet)
			return
		}
		// Flow control: a pulled packet leaves toward v only if v admits
		// it. (It waits only for the circuit to its destination or to
		// the relay that promised it room when it was pulled.)
		if !s.admitsAt(int(v), e.idx) {
			s.retryUplink(i, now)
			return
		}
		pk := w.Pop()
		if w.Len() == 0 {
			s.pull.waitBits[t*s.pull.words+int(v)>>6] &^= 1 << (v & 63)
		} else if !s.ndp.on {
			// This uplink's next packet, read by admitsAt at its next
			// departure, is cold by then (on an NDP run, whose departures
			// are mostly NDP packets, it measured no faster).
			s.pool.Prefetch(w.Head().idx)
		}
		idx = pk.idx // its stay at t ends in pullSent
	default:
		return
	}
	p := s.pool.At(idx)
	if p.Has(packet.Parked) {
		s.ndpUnpark(p)
	}
	if nh != v { // relayed by RotorLB: first of two hops
		p.Via = v
	}
	if p.Has(packet.Pulled) {
		s.pullSent(t, int(v), p, nh != v)
	}
	ser := s.ser(linkCircuit, p.Size)
	if s.cfg.Check {
		if now+ser > st.nightAt {
			s.fail("packet on ToR %d uplink %d ends serialisation at %v, after night start %v", t, sw, now+ser, st.nightAt)
		}
		if int32(s.sched.Matchings[sw][st.slot][t]) != v {
			s.fail("ToR %d uplink %d sends to %d, matching holds %d", t, sw, v, s.sched.Matchings[sw][st.slot][t])
		}
	}
	p.Hops++
	p.Set(packet.Circuit)
	pt.freeAt[i] = now + ser
	s.m.circuitBytes += int64(p.Size)
	if now >= s.m.tailFrom {
		s.m.tailUp[t] += int64(p.Size)
	}
	s.pairSent(t, i, v, p.Size, now)
	s.m.circuitSeries.Add(now, float64(p.Size))
	// The "uplink free" event is needed only if more could go now; an
	// arrival later finds freeAt and schedules it then.
	if s.cfg.eagerFree || tr.VOQPackets() > 0 && (tr.VOQsLen(int(v)) > 0 || s.ndp.private && tr.VOQLen(int(v), tor.HeaderVOQ) > 0 || s.relay != nil && tr.AnyLocal()) {
		s.wakeTimed(i, now+ser)
	} else if w != nil && w.Len() > 0 {
		s.wakeTimed(i, max(now+ser, w.Head().ready))
	}
	// The uplinks' peers all have the circuit link's delay and ToR
	// arrivals (read here from the configuration, not their peer[i]: a
	// cache line less per packet); the target is the slot's peer.
	if p.Has(packet.Pulled) {
		s.pulledCross(int(v), idx, p, now+ser+s.cfg.LinkDelay)
	} else {
		s.q.Schedule(now+ser+s.cfg.LinkDelay, evToRArrive, v, idx)
	}
	if s.pulling {
		s.fill(t, int(v), st.dayAt, st.nightAt)
	}
}

// retryUplink looks at uplink i again one packet time after now: flow
// control holds its next packet back.
func (s *sim) retryUplink(i int, now rotor.Time) {
	s.wakeTimed(i, now+s.serMTU[linkCircuit])
}

// uplinkFree handles uplink port g's free event: its ToR comes from a
// table, not from two divisions per departure.
func (s *sim) uplinkFree(g int32) {
	t := int(s.ports.portSw[g])
	s.startUplink(t, int(g)-t*s.U)
}

// reroute moves the multi-hop packets waiting at ToR t for the circuit to
// v, which just went down, onto their next hop in the new epoch, as Opera
// does at every slice change (Paths: the Transit class; Earliest: both
// classes, since a packet waits where its earliest path leaves; with
// transport.ndp_ports = operasim, NDP's header class too). Packets
// for v itself stay. The packets never leave the buffer: they move
// between queues without the policy's admission, an ECN mark, a drop, or
// bytes counted as sent (tor.ToR.Move); run.check verifies it.
func (s *sim) reroute(t int, v int32) {
	tr := s.tors[t]
	now := s.q.Now()
	s.settle(t)
	last := tor.Local
	if s.ndp.private { // NDP's headers wait in a class of their own
		last = tor.HeaderVOQ
	}
	for class := tor.Transit; class <= last; class++ {
		if class == tor.Local && s.rerouting != routing.RerouteAll {
			continue
		}
		n := tr.VOQLen(int(v), class)
		if n == 0 {
			continue // (and creates no VOQ port toward v)
		}
		q := tr.VOQ(int(v), class)
		for k := 0; k < n; k++ {
			p := s.pool.At(tr.Head(q))
			next, nclass := v, class
			if p.DstToR != v {
				if s.stamper != nil { // its slice's hop went dark: the new slice's, from here
					p.Route = packet.NoRoute
				}
				next, nclass, _ = s.route(t, p, p.Hops == 0 && class == tor.Local)
				if s.rerouting == routing.RerouteAll || class == tor.HeaderVOQ {
					nclass = class
				}
			}
			if next == v && s.ndp.on && s.ndpDark(t, v, q, class) {
				continue
			}
			if s.cfg.Check {
				s.checkedMove(tr, q, tr.VOQ(int(next), nclass), p)
			} else {
				tr.Move(now, q, tr.VOQ(int(next), nclass))
			}
			s.kick(t, next, false)
		}
		s.m.rerouted += int64(n)
	}
}

// checkedMove is reroute's move with run.check: it counts what the move
// changed that it must not (buffer bytes, an ECN mark, bytes the queue it
// left counts as sent) and fails the run if anything did.
func (s *sim) checkedMove(tr *tor.ToR, from, to tor.QueueID, p *packet.Packet) {
	st := tr.Switch().State()
	port := st.PortOf(int32(from))
	used, marked, sent := tr.Used(), p.Has(packet.ECN), st.Ports[port].TxBytes
	tr.Move(s.q.Now(), from, to)
	if d := used - tr.Used(); d != 0 {
		s.m.rerouteLost++
	}
	if !marked && p.Has(packet.ECN) {
		s.m.rerouteMarks++
	}
	s.m.rerouteDrained += st.Ports[port].TxBytes - sent
	if tr.Used() != used || p.Has(packet.ECN) != marked || st.Ports[port].TxBytes != sent {
		s.fail("ToR %d: moving a packet at a slice change changed its buffer (%d → %d B), ECN mark or sent bytes", tr.ID, used, tr.Used())
	}
}

// kick wakes the idle uplinks of ToR t that could serve VOQ(v): those whose
// circuit reaches v, and, when any=true (relay-capable Local traffic), all
// of them.
func (s *sim) kick(t int, v int32, any bool) {
	base, w := t*s.U, &s.ports.timers
	for sw := 0; sw < s.U; sw++ {
		if w.When(base+sw) == des.Never && (any || s.peer[base+sw] == v) {
			s.startUplink(t, sw)
		}
	}
}
