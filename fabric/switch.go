package fabric

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/tor"
)

// ToR queues (admission, drops, the booked ToR→host ports) and the
// electrical packet switch of the rotor fabric.

func (s *sim) enqueue(tr *tor.ToR, q tor.QueueID, idx int32) bool {
	return s.enqueueFrom(tr, q, idx, -1)
}

// enqueueFrom is enqueue for a packet that came in on port in (−1:
// unknown, only without PFC).
func (s *sim) enqueueFrom(tr *tor.ToR, q tor.QueueID, idx int32, in int) bool {
	now := s.q.Now()
	if tr.ID >= 0 {
		s.settle(tr.ID)
	}
	ok := true
	if s.ndp.on {
		ok = s.ndpEnqueue(tr, q, idx, in)
	} else if !tr.EnqueueFrom(now, q, idx, in) {
		s.switchDrop(idx)
		ok = false
	}
	s.dropEvicted(tr) // also when the arrival was dropped after pushing packets out
	return ok
}

// dropEvicted drops the packets tr's policy just pushed out (for an
// arriving or a pulled packet); one from a host queue gives its booked
// turn on the ToR→host port back.
func (s *sim) dropEvicted(tr *tor.ToR) {
	for _, e := range tr.TakeEvicted() {
		if p := s.pool.At(e); s.ls == nil && p.DstToR == int32(tr.ID) { // from a booked host queue
			s.m.hostPushOuts++
			s.giveBackTurn(p.DstHost, p.Size)
		}
		s.switchDrop(e)
	}
	if s.cfg.Check && tr.Used() > tr.BufferSize() {
		s.fail("ToR %d buffer holds %d B, more than its %d B", tr.ID, tr.Used(), tr.BufferSize())
	}
}

func (s *sim) drop(idx int32) {
	p := s.pool.At(idx)
	if p.Has(packet.Parked) {
		s.ndpUnpark(p)
	}
	s.m.droppedPkts++
	s.m.droppedBytes += int64(p.Size)
	if p.Kind == packet.Data {
		s.m.droppedData += int64(p.Size)
	} else if p.Kind == packet.Trimmed || p.Has(packet.Bounced) {
		s.ndp.headerDrops++
	}
	s.pool.Free(idx)
}

func (s *sim) torArrive(t int, idx int32) {
	if s.ls != nil {
		s.leafArrive(t, idx)
		return
	}
	p := s.pool.At(idx)
	tr := s.tors[t]
	if p.DstToR == int32(t) {
		if s.cc.circuitECE && p.Kind == packet.Ack {
			s.circuitECE(t, p)
		}
		h := p.DstHost - int32(t*s.H)
		if s.enqueue(tr, tr.HostQueue(int(h)), idx) {
			s.bookHostPort(p.DstHost, p.Size)
		}
		return
	}
	if p.Via == int32(t) {
		p.Via = packet.NoToR
	}
	if s.hopLimit > 0 && p.Hops >= s.hopLimit {
		s.m.hopLimitDrops++
		s.drop(idx)
		return
	}
	next, class, usePS := s.route(t, p, p.Hops == 0)
	if s.stamper != nil && class == tor.Transit && !usePS && s.upTo(t, int(next)) == 0 {
		next = s.ndpStaleHop(t, p, next)
	}
	if usePS {
		if s.enqueue(tr, tr.PacketSwitchQueue(), idx) {
			s.portSend(t, tr.PacketSwitchPort())
		}
		return
	}
	if s.voq != nil {
		s.voqArrive(t, next, class, idx)
		return
	}
	if s.enqueue(tr, tr.VOQ(int(next), class), idx) {
		s.kick(t, next, class == tor.Local && s.relay != nil)
	}
}

// bookHostPort books the ToR→host port (a booked port: port.go) for the
// packet of size bytes just queued for host: the port serves its queue in
// order, so the packet's turn is when the port has finished everything
// booked before it. It is sent now or by the port's event then.
func (s *sim) bookHostPort(host int32, size int32) {
	pt := &s.ports
	g := pt.hosts0 + host
	now := s.q.Now()
	at := max(now, pt.freeAt[g])
	pt.freeAt[g] = at + s.ser(linkHost, size)
	if at == now {
		s.sendHostPort(g)
		return
	}
	pt.turns[host].Push(at)
	s.q.ScheduleFirst(at, evPortFree, g, 0)
}

// hostTurn handles an event of booked host port g: the turn of the head
// of its queue, unless that turn was given back (giveBackTurn).
func (s *sim) hostTurn(g int32) {
	pt := &s.ports
	r := &pt.turns[g-pt.hosts0]
	if r.Len() == 0 || *r.Head() != s.q.Now() {
		return // a given-back turn's event
	}
	r.Pop()
	s.sendHostPort(g)
}

// giveBackTurn releases the booked turn of the packet of size bytes that
// a push-out policy took from the tail of host's queue: the port is free
// again from that turn's start, unless a pulled packet has booked the port
// after it (its time is promised), in which case the turn stays idle and
// counts as a phantom turn.
func (s *sim) giveBackTurn(host int32, size int32) {
	pt := &s.ports
	r := &pt.turns[host]
	if r.Len() == 0 {
		s.fail("host %d: a packet pushed out of its ToR queue had no booked turn", host)
		return
	}
	at := r.PopTail()
	g := pt.hosts0 + host
	if pt.freeAt[g] == at+s.ser(linkHost, size) {
		pt.freeAt[g] = at
	} else {
		s.m.phantomTurns++
	}
}

// sendHostPort sends the head of the host queue of booked host port g
// down the host link; its turn on the port was booked.
func (s *sim) sendHostPort(g int32) {
	pt := &s.ports
	t := int(pt.portSw[g])
	tr := s.tors[t]
	h := int(g-pt.hosts0) - t*s.H
	q := tr.HostQueue(h)
	if tr.Len(q) == 0 { // a turn always has its packet: turns follow the queue
		if s.cfg.Check {
			s.fail("ToR %d: host port %d has a turn and nothing to send", t, h)
		}
		return
	}
	now := s.q.Now()
	s.settle(t)
	pe := &pt.peer[g]
	idx := tr.Dequeue(now, q, tr.HostPort(h), s.rates[linkHost])
	ser := s.ser(linkHost, s.pool.At(idx).Size)
	s.q.Schedule(now+ser+pe.delay, pe.ev, pe.target, idx)
}

// ---- packet switch ----

func (s *sim) psArrive(idx int32) {
	p := s.pool.At(idx)
	p.Hops++
	v := p.DstToR
	if p.Via >= 0 {
		v = p.Via
	}
	if port := s.ps.FabricPort(int(v)); s.enqueue(s.ps, s.ps.PortQueue(port, s.psClass(p)), idx) {
		s.portSend(s.n, port)
	}
}
