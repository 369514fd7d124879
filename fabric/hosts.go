package fabric

import (
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// Hosts drive each flow's two transport ends (cc.Source, cc.Sink, made by
// the flow's cc transport): flows start, NICs send replies and data,
// sinks turn data into replies, sources hear replies and timers, finished
// flows retire. The ends are cc's; the hosts only schedule and route.

func (s *sim) pullFlow() {
	f, ok := s.cfg.Flows.Next()
	s.next, s.hasNext = f, ok
	if ok && f.Start <= s.cfg.SimTime {
		s.q.Schedule(f.Start, evFlow, 0, 0)
	}
}

func (s *sim) startFlow() {
	f := s.next
	hosts := s.n * s.H
	switch {
	case f.Src < 0 || f.Src >= hosts:
		s.fail("flow %d: source host %d out of range [0,%d)", f.ID, f.Src, hosts)
		return
	case f.Dst < 0 || f.Dst >= hosts:
		s.fail("flow %d: destination host %d out of range [0,%d)", f.ID, f.Dst, hosts)
		return
	case f.Src == f.Dst:
		s.fail("flow %d: source and destination are both host %d", f.ID, f.Src)
		return
	case f.Bytes < 0:
		s.fail("flow %d: negative size %d", f.ID, f.Bytes)
		return
	case f.Bytes/int64(s.segmentOf(f)) >= packet.MaxSegments:
		s.fail("flow %d: %d B is more than %d segments of %d B", f.ID, f.Bytes, packet.MaxSegments, s.segmentOf(f))
		return
	}
	id := int32(len(s.flows))
	s.flows = append(s.flows, flowState{f: f, srcToR: s.torOf(int32(f.Src)), dstToR: s.torOf(int32(f.Dst))})
	s.tx = append(s.tx, txState{})
	fs := &s.flows[id]
	s.pullFlow()
	if f.Bytes == 0 {
		fs.done, fs.finish = true, s.q.Now()
		return
	}
	s.pairFlowStart(fs)
	pulled := s.pulled(fs)
	tp := s.cc.transport
	if pulled {
		tp = s.cc.pulled
	}
	flow := s.cc.flow
	flow.Size, flow.Start, flow.MSS = f.Bytes, s.q.Now(), s.segmentOf(f)
	if s.ndp.on && !pulled {
		flow.Size = s.ndpWire(f.Bytes)
	}
	if tp.Law {
		c, err := s.newLaw(f)
		if err != nil {
			s.fail("transport: %v", err)
			return
		}
		flow.Law = c
		s.m.lawFlows++
	}
	if pulled {
		s.m.pulledFlows++
	}
	fs.src, fs.sink = tp.New(flow)
	s.srcChanged(id)
	switch {
	case pulled: // its ToR pulls the segments (pull.go)
		s.addPulled(id)
	case s.ndp.on: // its first window may go now
		s.armTimer(id)
		s.ndpWake(id)
	default:
		if tp.Law {
			s.watchCircuit(id)
		}
		switch s.handshakeOf(f) { // its first data leaves after the SYN/SYN-ACK (handshake.go)
		case HandshakeIdle:
			s.q.Schedule(s.q.Now()+s.handshakeTime(f), evHandshake, id, 0)
		case HandshakeQueued:
			s.sendSyn(id)
		default:
			s.openFlow(id)
		}
	}
}

// noFlow stands for no flow where a flow id is expected.
const noFlow int32 = -1

// hostSend puts the next packet on host h's NIC: a waiting ACK first, then
// the flows with data in round-robin order.
func (s *sim) hostSend(h int32) {
	hs := &s.hosts[h]
	now := s.q.Now()
	if free := s.ports.freeAt[s.ports.nic(h)]; now < free {
		s.armNIC(hs, h, free, noFlow)
		return
	}
	if s.nicPaused(h) { // PFC (pfc.go)
		return
	}
	if hs.acks.Len() > 0 {
		s.transmit(h, hs.acks.Pop(), noFlow)
		if s.ndp.bulkLast {
			s.ndpDoorbell(h)
		}
		return
	}
	if s.ndp.on {
		s.ndpSend(h)
		if s.ndp.bulkLast {
			s.ndpDoorbell(h)
		}
		return
	}
	var wake rotor.Time
	for k, n := 0, hs.active.Len(); k < n; k++ {
		id := hs.active.Pop()
		tx := &s.tx[id]
		if tx.gone {
			continue // leaves the active list
		}
		hs.active.Push(id)
		if tx.nextSend > now {
			if wake == 0 || tx.nextSend < wake {
				wake = tx.nextSend
			}
			continue
		}
		if !tx.canSend {
			continue // Next would hand out nothing (and change nothing)
		}
		fs := &s.flows[id]
		seq, size, retx, ok := fs.src.Next(now)
		s.srcChanged(id)
		if !ok {
			continue
		}
		idx := s.dataPacket(id, seq, size, retx, now)
		if r := fs.src.Rate(); r > 0 && r < s.cfg.HostLink { // at line rate the NIC paces
			tx.nextSend = now + r.TransmitTime(rotor.Bytes(size))
		}
		s.armTimer(id)
		s.transmit(h, idx, id)
		return
	}
	if wake > 0 && (hs.wakeAt == 0 || wake < hs.wakeAt) {
		hs.wakeAt = wake
		s.q.Schedule(wake, evHostWake, h, 0)
	}
}

// dataPacket makes the data packet of flow id's segment (seq, size) its
// source handed out at now, addressed to the flow's destination, unrouted,
// and counts it injected.
func (s *sim) dataPacket(id int32, seq int64, size int32, retx bool, now rotor.Time) int32 {
	s.m.injectedData += int64(size)
	return s.newData(id, seq, size, retx, now)
}

// newData is dataPacket without the count (ndp_nic = operasim counts a
// packet when it leaves its NIC).
func (s *sim) newData(id int32, seq int64, size int32, retx bool, now rotor.Time) int32 {
	fs := &s.flows[id]
	idx := s.pool.Alloc()
	p := s.pool.At(idx)
	p.Flow, p.Kind, p.Size, p.Seq, p.Sent = id, packet.Data, size, seq, now
	if retx {
		p.Flags = packet.Retx
	}
	p.SrcHost, p.DstHost = int32(fs.f.Src), int32(fs.f.Dst)
	p.DstToR, p.Via, p.Route = fs.dstToR, packet.NoToR, packet.NoRoute
	return idx
}

// transmit puts packet idx on host h's NIC now. sent is the flow in h's
// active list that sent it (noFlow: none, or not in the list).
func (s *sim) transmit(h, idx, sent int32) {
	now := s.q.Now()
	p := s.pool.At(idx)
	g := s.ports.nic(h)
	pe := &s.ports.peer[g]
	ser := s.ser(int(pe.link), p.Size)
	s.ports.freeAt[g] = now + ser
	s.m.injectedPkts++
	s.m.injectedBytes += int64(p.Size)
	s.armNIC(&s.hosts[h], h, now+ser, sent)
	s.q.Schedule(s.hostArrival(h, now+ser+pe.delay), pe.ev, pe.target, idx)
}

// armNIC schedules what host h's NIC, busy until free, does next: its
// done event at free if an ACK waits or a flow may send then, else a
// pacing wake-up when the first paced flow may send, else nothing (an ACK,
// a timeout or a new flow that lets one send calls hostSend, which arms
// the NIC again). A paced flow thus costs one event per packet, its
// wake-up, not also the NIC's. sent is the active flow that just sent, or
// noFlow (nextReady).
func (s *sim) armNIC(hs *hostState, h int32, free rotor.Time, sent int32) {
	if s.cfg.eagerFree || hs.acks.Len() > 0 || s.ndp.on && s.ndp.hosts[h].waiting() {
		hs.busy = true
		s.q.ScheduleFirst(free, evHostTxDone, h, 0)
	} else if at, ok := s.nextReady(hs, free, sent); ok {
		if at == free {
			hs.busy = true
			s.q.ScheduleFirst(free, evHostTxDone, h, 0)
		} else if hs.wakeAt == 0 || at < hs.wakeAt { // only paced flows: wake when the first may send
			hs.wakeAt = at
			s.q.Schedule(at, evHostWake, h, 0)
		}
	}
}

// nextReady is the first time from free on at which a flow of host hs
// may send (its window open, its pacing gap over); ok is false if none
// may. It tries first the active flow sent (unless noFlow), the one that
// just sent: if it may send again at free, nothing can be earlier, and
// the scan over every active flow is saved.
func (s *sim) nextReady(hs *hostState, free rotor.Time, sent int32) (at rotor.Time, ok bool) {
	if sent != noFlow {
		if tx := &s.tx[sent]; tx.nextSend <= free && tx.canSend {
			return free, true
		}
	}
	for k, n := 0, hs.active.Len(); k < n; k++ {
		tx := &s.tx[hs.active.At(k)]
		if !tx.canSend {
			continue
		}
		t := max(free, tx.nextSend)
		if !ok || t < at {
			at, ok = t, true
			if t == free {
				break
			}
		}
	}
	return at, ok
}

// armTimer schedules flow id's timer event at its source's Timer, unless
// one is pending no later or the source wants none. A deadline that moved
// earlier than the pending event (the RTO's backoff was reset) gets an
// event of its own; the later one finds timerAt changed and is ignored.
func (s *sim) armTimer(id int32) {
	fs := &s.flows[id]
	if d := fs.src.Timer(); d != 0 && (fs.timerAt == 0 || d < fs.timerAt) {
		fs.timerAt = d
		s.q.Schedule(d, evRTO, id, 0)
	}
}

// rto fires flow id's timer event (a retransmission timeout, or NDP's);
// an event superseded by an earlier one (armTimer) does nothing.
func (s *sim) rto(id int32) {
	fs := &s.flows[id]
	if fs.src == nil || fs.timerAt != s.q.Now() { // retired, or superseded
		return
	}
	fs.timerAt = 0
	more := fs.src.OnTimeout(s.q.Now())
	if more && s.ndp.on {
		s.ndpTimedOut(id)
	}
	s.srcChanged(id)
	if more {
		s.wakeFlow(id)
	}
	if fs.src != nil {
		s.armTimer(id)
	}
}

// wakeFlow lets flow id send if its host's NIC is idle (NDP: lists it
// with the flows that have credit).
func (s *sim) wakeFlow(id int32) {
	if s.ndp.on {
		s.ndpWake(id)
		return
	}
	if h := int32(s.flows[id].f.Src); !s.hosts[h].busy {
		s.hostSend(h)
	}
}

// hostReceive delivers packet idx to host h at time at (now, or for a
// pulled data packet the time it will arrive).
func (s *sim) hostReceive(h int32, idx int32, at rotor.Time) {
	s.receive(h, idx, s.pool.At(idx), at)
}

// receive is hostReceive for a caller that holds the packet already. A
// data packet (or NDP header) goes to its flow's sink, which may turn it
// into its reply; the host sends that back. A reply goes to the flow's
// source.
func (s *sim) receive(h int32, idx int32, p *packet.Packet, at rotor.Time) {
	s.m.deliveredPkts++
	s.m.deliveredBytes += int64(p.Size)
	s.m.hostSeries.Add(at, float64(p.Size))

	switch p.Kind {
	case packet.Ack, packet.Nack, packet.Pull:
		s.replyArrive(h, idx)
		return
	case packet.Data:
		s.m.deliveredData += int64(p.Size)
		if int(p.Hops) < len(s.m.hops) {
			s.m.hops[p.Hops]++
		}
	case packet.Trimmed:
	case packet.Syn, packet.SynAck:
		s.handshakeArrive(h, idx, p)
		return
	default:
		s.fail("host %d: a %v packet reached a host", h, p.Kind)
		s.pool.Free(idx)
		return
	}
	fs := &s.flows[p.Flow]
	if p.Kind == packet.Data && p.Hops > fs.maxHops {
		fs.maxHops = p.Hops
	}
	if fs.sink == nil { // a late packet for a retired flow
		s.pool.Free(idx)
		return
	}
	if p.Kind == packet.Data {
		s.pairDelivered(fs, p, at)
	}
	id := p.Flow
	v := fs.sink.Receive(at, p)
	if v&cc.Complete != 0 {
		fs.done, fs.finish = true, at
		s.m.completed++
		s.pairFlowDone(fs)
	}
	if v&cc.WantPull != 0 {
		if !s.ndp.on { // a registered transport's Sink: PULLs are ndp's
			s.fail("transport %s: its Sink asked for a PULL (cc.WantPull), which only transport.kind ndp's pull pacers send", s.cfg.Transport)
			s.pool.Free(idx)
			return
		}
		reply := noFlow
		if v&cc.Reply != 0 {
			reply = idx
		}
		s.ndpQueuePull(h, id, reply)
	}
	if v&cc.SendHeld != 0 && fs.heldAck != 0 {
		s.sendReply(h, int32(fs.heldAck-1))
		fs.heldAck = 0
		s.m.heldAcks--
	}
	if v&(cc.Reply|cc.Hold) == 0 {
		s.pool.Free(idx)
		s.retire(id)
		return
	}
	p.DstToR = fs.srcToR // the sink made the reply; the engine routes it
	if fs.heldAck != 0 { // superseded: this ACK's cumulative point covers it
		s.pool.Free(int32(fs.heldAck - 1))
		fs.heldAck = 0
		s.m.heldAcks--
	}
	if v&cc.Hold != 0 {
		fs.heldAck = int64(idx) + 1
		s.m.heldAcks++
		s.armAckTimer(id)
		return
	}
	s.sendReply(h, idx)
}

// sendReply sends reply idx, which a sink at host h made: on the host's
// NIC, or out of band with ideal ACKs.
func (s *sim) sendReply(h, idx int32) {
	p := s.pool.At(idx)
	if s.cfg.Acks == AcksIdeal && p.Kind == packet.Ack {
		d := s.ackDelayRemote
		if fs := &s.flows[p.Flow]; fs.srcToR == fs.dstToR {
			d = s.ackDelayLocal
		}
		s.m.idealInFlight++
		s.q.Schedule(s.q.Now()+d, evAckIdeal, p.DstHost, idx)
		return
	}
	hs := &s.hosts[h]
	hs.acks.Push(idx)
	if !hs.busy {
		s.hostSend(h)
	}
}

// armAckTimer schedules flow id's delayed-ACK event at its sink's
// AckTimer, unless it is pending already.
func (s *sim) armAckTimer(id int32) {
	fs := &s.flows[id]
	if d := fs.sink.AckTimer(); d != 0 && d != fs.ackTimerAt {
		fs.ackTimerAt = d
		s.q.Schedule(d, evDelAck, id, 0)
	}
}

// delAck fires flow id's delayed-ACK event: the ACK its sink held back
// goes now, unless the event is stale.
func (s *sim) delAck(id int32) {
	fs := &s.flows[id]
	now := s.q.Now()
	if fs.sink == nil || fs.ackTimerAt != now { // retired, or superseded
		return
	}
	fs.ackTimerAt = 0
	if fs.heldAck == 0 || !fs.sink.OnAckTimer(now) {
		return
	}
	s.sendReply(int32(fs.f.Dst), int32(fs.heldAck-1))
	fs.heldAck = 0
	s.m.heldAcks--
}

// replyArrive hands reply idx (ACK, NACK or PULL), which reached host h,
// to its flow's source.
func (s *sim) replyArrive(h int32, idx int32) {
	p := s.pool.At(idx)
	id := p.Flow
	fs := &s.flows[id]
	if fs.src == nil { // a late reply for a retired flow
		s.pool.Free(idx)
		return
	}
	a := &s.ack
	a.Hops, a.Truncated = nil, false
	if p.IntN > 0 {
		a.Hops, a.Truncated = s.ints.Records(idx, p), s.ints.Truncated(p)
	}
	more := fs.src.OnReply(s.q.Now(), p, a)
	s.srcChanged(id)
	a.Hops = nil
	s.pool.Free(idx)
	s.retire(id)
	if fs.src != nil {
		s.armTimer(id)
		if more {
			s.wakeFlow(id)
		}
	}
}

// retire frees a finished flow's transport state, keeping its counts in
// its timer words (no timer of a finished flow is pending then but stale
// events, which see src nil), so a finished flow keeps its record only.
func (s *sim) retire(id int32) {
	fs := &s.flows[id]
	if !fs.done || fs.sink == nil || fs.src != nil && !fs.src.Done() {
		return
	}
	if fs.heldAck != 0 { // nothing left for it to acknowledge
		s.pool.Free(int32(fs.heldAck - 1))
		s.m.heldAcks--
	}
	received, reordered := fs.sink.Counts()
	retx, timeouts := fs.src.Counts()
	fs.setCounts(received, reordered, retx, timeouts)
	fs.src, fs.sink = nil, nil
	s.srcChanged(id)
}

// srcChanged refreshes flow id's txState after a call into its source
// (or its retirement).
func (s *sim) srcChanged(id int32) {
	fs, tx := &s.flows[id], &s.tx[id]
	if fs.src == nil {
		tx.gone, tx.canSend = true, false
		return
	}
	tx.gone, tx.canSend = fs.src.Done(), fs.src.CanSend()
}
