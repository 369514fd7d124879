package fabric

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// ports is the engine's one component for the link out of a switch port:
// the port picks a packet among its queues (a tor switch's), serialises
// it on its link, and the packet reaches the port's peer after the link's
// propagation delay, as that peer's arrival event. Every port of every
// topology is one: the leaf-spine's leaf and spine ports, the rotor
// fabric's packet-switch ports and the ToRs' ports to it, the rotor ToRs'
// circuit uplinks and their ports to their hosts, and the hosts' NICs.
// Ports differ only in how they pick:
//
//   - a circuit uplink (circuits.go, startUplink) serves its ToR's VOQs,
//     or pulled packets, toward the ToR its circuit reaches in the current
//     slot (s.peer, set at each day start) and sends only by day, and
//     only what ends its serialisation before the night;
//   - a booked host port (switch.go, bookHostPort) serves its host queue
//     in order, each packet's turn booked when it is queued (pulled
//     traffic books turns without queueing: pull.go), so a turn is one
//     event at a known time;
//   - every other port (portSend) serves its queues in the switch's Pick
//     order (strict priority or round robin) when it is free;
//   - a host's NIC (hosts.go, hostSend) serves the host's waiting replies
//     first, then its flows' cc sources in round robin, honouring each
//     one's pacing; its free event is the host's (evHostTxDone), which at
//     equal times comes before every switch port's.
//
// A port has an id unique in its switch (package tor's numbering: uplinks
// 0…U−1, then host ports, the packet-switch port, fabric ports) and a
// global id in the fabric, grouped by how the port picks: the circuit
// uplinks first (ToR t's uplink u is t·U+u, the index of s.peer), then the
// booked host ports (host h's is hosts0+h), then every other port (port p
// of switch sw is base[sw]+p), and last the hosts' NICs (host h's is
// nic0+h). INT records carry the global id (tor.ToR.SetINTPorts), so a
// law never compares two switches' counters as one hop. At equal times port events run in global
// id order (ScheduleFirst events and timers of one kind are ordered by
// target), so the grouping is part of the model: at one instant the
// circuit uplinks send first, then the host ports, then the others.
//
// A port's "free" event (evPortFree, target its global id) is scheduled
// only when something waits for it: a packet queued behind the one it
// sends, or one arriving while it serialises. Ports below timed use the
// timers beside the event queue (a timer moves instead of leaving a stale
// event); the others are queue events: a booked port may have several
// turns pending, and pending says which other ports have one.
type ports struct {
	sw     []*tor.ToR   // [switch]
	base   []int32      // [switch]: global id of port 0, for ports not grouped below; base[len(sw)] is the count of switch ports
	U      int32        // circuit uplinks per rotor ToR (switches 0…n−1)
	hosts0 int32        // global id of host 0's booked port; the ids before it are the uplinks
	other0 int32        // first global id of the other ports; those before it are booked host ports
	nic0   int32        // global id of host 0's NIC; the ids before it are switch ports
	timed  int32        // global ids below it use timers
	portSw []int32      // [global]: its switch (a NIC: its host's ToR or leaf)
	freeAt []rotor.Time // [global]: serialising (a booked port: booked) until then
	peer   []portPeer   // [global]: where its packets go
	timers des.Timers   // [global < timed]
	// pending [global]: a port at or above timed has its free event
	// scheduled (allocated when the first is).
	pending []bool
	// turns [host]: the booked turns of the packets in the ToR's queue to
	// host, in queue order (a packet sent at once books none). A turn
	// whose packet a push-out policy takes (always the queue's tail) is
	// given back: its event, left pending, no longer matches a turn.
	turns []des.Ring[rotor.Time]
	// dev [global switch port]: the packets in the port's transmit FIFO,
	// outside the shared buffer (LeafSpine.DeviceQueue; nil: none), at
	// most devCap waiting besides the one on the wire.
	dev    []des.Ring[int32]
	devCap int
}

// portPeer is the far end of a port's link (16 bytes: four to a cache
// line). The link's rate is s.rates[link].
type portPeer struct {
	delay  rotor.Time
	target int32 // the arrival event's target (a circuit uplink's changes with the slot: s.peer)
	ev     uint8 // the arrival event
	link   uint8 // linkHost, linkCircuit, linkPS or linkFabric: serialisation times
	hop    bool  // the crossing is a switch-to-switch hop (Packet.Hops)
	ps     bool  // its bytes count as the packet switch's (Result.PacketSwitchBytes)
}

// init numbers the ports of switches; peers are set with connect. The
// first switches are the rotor ToRs if their Config has Uplinks; with
// bookHosts their host ports are booked ports (all switches with hosts
// have the same number). The circuit uplinks' free events are timers of
// q; without uplinks, every switch port's are. The hosts' NICs, one per
// host of the switches with hosts, come last.
func (pt *ports) init(switches []*tor.ToR, bookHosts bool, q *des.Queue) {
	*pt = ports{sw: switches, base: make([]int32, len(switches)+1)}
	var next int32
	for _, tr := range switches { // the circuit uplinks
		c := tr.Config()
		if c.Uplinks > 0 {
			pt.U = int32(c.Uplinks)
		}
		next += int32(c.Uplinks)
	}
	pt.hosts0 = next
	if bookHosts {
		for _, tr := range switches {
			next += int32(tr.Config().Hosts)
		}
	}
	pt.other0 = next
	first := make([]int32, len(switches)) // each switch's first port among the others
	for i, tr := range switches {
		c := tr.Config()
		first[i] = int32(c.Uplinks)
		if bookHosts {
			first[i] += int32(c.Hosts)
		}
		pt.base[i] = next - first[i]
		next += int32(tr.NumPorts()-c.ToRs) - first[i] // physical ports, not the VOQs' virtual ones
	}
	pt.base[len(switches)] = next
	pt.nic0 = next
	for _, tr := range switches {
		next += int32(tr.Config().Hosts)
	}
	pt.portSw = make([]int32, next)
	pt.freeAt = make([]rotor.Time, next)
	pt.peer = make([]portPeer, next)
	nic := pt.nic0
	for i, tr := range switches {
		for p := 0; p < tr.NumPorts()-tr.Config().ToRs; p++ {
			pt.portSw[pt.id(i, p)] = int32(i)
		}
		for h := 0; h < tr.Config().Hosts; h++ {
			pt.portSw[nic] = int32(i)
			nic++
		}
	}
	for i, tr := range switches { // INT records name a hop by its global id
		ids := make([]int32, tr.NumPorts()-tr.Config().ToRs)
		for p := range ids {
			ids[p] = pt.id(i, p)
		}
		tr.SetINTPorts(ids)
	}
	pt.turns = make([]des.Ring[rotor.Time], pt.other0-pt.hosts0)
	pt.timed = pt.hosts0
	if pt.timed == 0 {
		pt.timed = pt.nic0
	}
	pt.timers = *des.NewTimers(int(pt.timed))
	q.AttachTimers(&pt.timers, evPortFree)
}

// id is the global id of port (tor's numbering) of switch sw.
func (pt *ports) id(sw, port int) int32 {
	c := pt.sw[sw].Config()
	switch {
	case port < c.Uplinks:
		return int32(sw)*pt.U + int32(port)
	case port < c.Uplinks+c.Hosts && pt.other0 > pt.hosts0:
		return pt.hosts0 + int32(sw*c.Hosts+port-c.Uplinks)
	}
	return pt.base[sw] + int32(port)
}

// port is the switch and the port id (tor's numbering) of global id g.
func (pt *ports) port(g int32) (sw, port int) {
	sw = int(pt.portSw[g])
	switch {
	case g < pt.hosts0:
		return sw, int(g - int32(sw)*pt.U)
	case g < pt.other0:
		c := pt.sw[sw].Config()
		return sw, c.Uplinks + int(g-pt.hosts0) - sw*c.Hosts
	}
	return sw, int(g - pt.base[sw])
}

// nic is the global id of host h's NIC.
func (pt *ports) nic(h int32) int32 { return pt.nic0 + h }

// connectNICs sets every host's NIC's peer: its ToR or leaf (s.torOf),
// over the host link.
func (s *sim) connectNICs() {
	for h := range s.hosts {
		s.ports.peer[s.ports.nic(int32(h))] = portPeer{delay: s.cfg.HostDelay, link: linkHost, ev: evToRArrive, target: s.torOf(int32(h))}
	}
}

// connect sets the peer of port of switch sw.
func (pt *ports) connect(sw, port int, p portPeer) { pt.peer[pt.id(sw, port)] = p }

// wakePort makes port g look for a packet at time at, unless it will
// already look by then; an earlier wake-up moves its timer.
func (s *sim) wakePort(g int32, at rotor.Time) {
	if g < s.ports.timed {
		s.wakeTimed(int(g), at)
		return
	}
	s.schedulePort(g, at)
}

// wakeTimed is wakePort for a port whose free event is a timer (every
// circuit uplink's): it inlines on the uplinks' path.
func (s *sim) wakeTimed(g int, at rotor.Time) {
	if w := &s.ports.timers; w.When(g) > at {
		w.Set(g, at)
	}
}

// schedulePort schedules the free event of port g, which uses queue
// events, at at.
func (s *sim) schedulePort(g int32, at rotor.Time) {
	pt := &s.ports
	if pt.pending == nil {
		pt.pending = make([]bool, len(pt.freeAt))
	}
	pt.pending[g] = true
	s.q.ScheduleFirst(at, evPortFree, g, 0)
}

// portFree handles port g's free event: the port looks for its next
// packet.
func (s *sim) portFree(g int32) {
	pt := &s.ports
	switch {
	case g < pt.hosts0:
		s.uplinkFree(g)
	case g < pt.other0:
		s.hostTurn(g)
	default:
		if pt.pending != nil {
			pt.pending[g] = false
		}
		sw := int(pt.portSw[g])
		s.portSend(sw, int(g-pt.base[sw]))
	}
}

// portSend starts the next packet on port of switch sw (a port that is
// neither a circuit uplink nor a booked host port) if the port is idle:
// the switch's pick among the port's queues, serialise, propagate.
func (s *sim) portSend(sw, port int) {
	pt := &s.ports
	g := pt.base[sw] + int32(port)
	if pt.dev != nil { // an arrival enters the FIFO at once if it has room
		s.fillDevice(sw, port, g)
	}
	if g < pt.timed && pt.timers.When(int(g)) != des.Never || pt.pending != nil && pt.pending[g] {
		return // its free event is pending
	}
	now := s.q.Now()
	if now < pt.freeAt[g] { // serialising: come back when it is done
		s.wakePort(g, pt.freeAt[g])
		return
	}
	if pt.dev != nil {
		s.deviceSend(sw, port, g)
		return
	}
	tr := pt.sw[sw]
	var q tor.QueueID
	var ok bool
	if s.pfc != nil { // not the classes PFC paused
		q, ok = tr.PickExcept(port, s.pfc.paused[g])
	} else {
		q, ok = tr.Pick(port)
	}
	if !ok && s.voqFeedsPS(tr) && port == tr.PacketSwitchPort() {
		q, ok = s.pickVOQ(tr.ID) // hybrid-voq: the port drains VOQs
	}
	if !ok {
		return
	}
	if tr.ID >= 0 {
		s.settle(tr.ID) // the policy's dequeue hook sees the buffer
	}
	pe := &pt.peer[g]
	idx := tr.Dequeue(now, q, port, s.rates[pe.link])
	if s.pfc != nil {
		s.pfc.sent(g, idx)
	}
	s.portTransmit(g, idx, s.cfg.eagerFree || tr.PortQueued(port) || s.voqFeedsPS(tr))
}

// fillDevice moves packets from the queues of port of switch sw (global
// id g) into its transmit FIFO while it has room, in the switch's pick
// order; they leave the shared buffer there.
func (s *sim) fillDevice(sw, port int, g int32) {
	pt := &s.ports
	d, tr := &pt.dev[g], pt.sw[sw]
	for d.Len() < pt.devCap {
		q, ok := tr.Pick(port)
		if !ok {
			return
		}
		if tr.ID >= 0 {
			s.settle(tr.ID)
		}
		d.Push(tr.Dequeue(s.q.Now(), q, port, s.rates[pt.peer[g].link]))
	}
}

// deviceSend starts the head of idle port g's transmit FIFO, if any, and
// refills the FIFO from the port's queues.
func (s *sim) deviceSend(sw, port int, g int32) {
	d := &s.ports.dev[g]
	if d.Len() == 0 {
		return
	}
	idx := d.Pop()
	s.fillDevice(sw, port, g)
	s.portTransmit(g, idx, s.cfg.eagerFree || d.Len() > 0)
}

// portTransmit serialises packet idx on idle port g and sends it to the
// port's peer; wake: something waits for the port to be free again.
func (s *sim) portTransmit(g int32, idx int32, wake bool) {
	pt := &s.ports
	now := s.q.Now()
	pe := &pt.peer[g]
	p := s.pool.At(idx)
	ser := s.ser(int(pe.link), p.Size)
	pt.freeAt[g] = now + ser
	if wake {
		s.wakePort(g, now+ser)
	}
	if pe.hop {
		p.Hops++
	}
	if s.stamper != nil && g >= pt.nic0 { // leaves its NIC (routing.source = nic)
		s.stamper.Stamp(now, p)
	}
	if pe.ps {
		s.m.psBytes += int64(p.Size)
	}
	s.q.Schedule(now+ser+pe.delay, pe.ev, pe.target, idx)
}
