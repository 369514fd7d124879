package fabric

import (
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// Run emulates the fabric described by cfg until cfg.SimTime (or until the
// context is cancelled) and returns the measurements.
func Run(cfg Config) (*Result, error) {
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s, err := newSim(cfg)
	if err != nil {
		if cerr := cfg.Context.Err(); cerr != nil {
			return nil, cerr // setup (a routing table) stopped: nothing ran
		}
		return nil, err
	}
	return s.run()
}

func (s *sim) start() {
	for sw := range s.sw {
		k, start := slotAt(s.sched, sw, 0)
		s.sw[sw].slot = k
		end := start + s.sched.SlotDuration(k)
		night := end - s.sched.Reconf
		if night > 0 {
			s.beginDay(sw, k, 0, night)
			s.q.Schedule(night, evNight, int32(sw), 0)
		} else {
			s.sw[sw].nextDay = end
			s.q.Schedule(end, evDay, int32(sw), 0)
		}
	}
	s.pullFlow()
	s.q.Schedule(s.sampleGap(), evSample, 0, 0)
	for t, tr := range s.tors {
		if d := tr.Policy().TickInterval(); d > 0 {
			s.q.Schedule(d, evTick, int32(t), 0)
		}
	}
	if s.ps != nil {
		if d := s.ps.Policy().TickInterval(); d > 0 {
			s.q.Schedule(d, evTick, -1, 0)
		}
	}
	for i, at := range s.cfg.MemoryAt {
		if at <= s.cfg.SimTime {
			s.q.Schedule(at, evMemory, 0, int32(i))
		}
	}
}

func (s *sim) run() (*Result, error) {
	s.start()
	end := s.cfg.SimTime
	done := s.cfg.Context.Done()
	complete := true
	// Ctrl-C is looked for every few thousand events (a slow event mix
	// must still stop promptly), progress reported every ProgressEvery.
	every := s.cfg.ProgressEvery
	stride := min(every, 4096)
	popped := s.q.Processed()
	check, report := popped+stride, popped+every
	for {
		kind, target, arg, ok := s.q.PopUntil(end)
		if !ok {
			break
		}
		popped++
		if kind == evUplinkFree { // most events: straight to the uplink
			s.uplinkFree(target)
		} else {
			// Start loading the next event's packet while this one is
			// handled (not around uplink wakes: Hint sees only the queue,
			// not the timers, whose next one is not known until this one
			// is set again; prefetching for them measured no faster).
			if k, tg, a, ok := s.q.Hint(0); ok {
				s.prefetchNext(k, tg, a)
			}
			s.dispatch(kind, target, arg)
		}
		if s.err != nil {
			return nil, s.err
		}
		if popped == check {
			check += stride
			if popped >= report {
				report += every
				if s.cfg.Progress != nil {
					s.cfg.Progress(s.q.Now(), s.q.Processed())
				}
			}
			select {
			case <-done:
				complete = false
			default:
			}
			if !complete {
				break
			}
		}
	}
	stop := end
	if !complete {
		stop = s.q.Now()
	}
	return s.finish(stop, complete)
}

// sampleGap is the time to the next occupancy sample: samples form a
// Poisson process (mean run.sample_interval), so by PASTA they see time
// averages, not the phase of the schedule (samples every 100 µs fell on
// every day start of 100 µs slots). They have their own random stream.
func (s *sim) sampleGap() rotor.Time {
	return max(1, rotor.Time(s.sampleRng.ExpFloat64()*float64(s.cfg.SampleInterval)))
}

// prefetchNext starts loading the packet the next event will look at first
// (the arrival's, or the head of the queue a freed port serves next), so
// that its cache miss overlaps with the current event's work. It asks the
// CPU to prefetch rather than loading it, so nothing waits for the line
// (a load here cost 3 % more on (a) RotorNet).
func (s *sim) prefetchNext(kind uint8, target, arg int32) {
	switch kind {
	case evToRArrive, evHostArrive:
		s.pool.Prefetch(arg)
	case evHostPortFree:
		t := int(target) / s.H
		tr := s.tors[t]
		if q := tr.HostQueue(int(target) - t*s.H); tr.Len(q) > 0 {
			s.pool.Prefetch(tr.Head(q))
		}
	}
}

// uplinkFree handles uplink i's timer: its ToR comes from a table, not
// from two divisions per departure.
func (s *sim) uplinkFree(i int32) {
	t := int(s.uplinkToR[i])
	s.startUplink(t, int(i)-t*s.U)
}

func (s *sim) dispatch(kind uint8, target, arg int32) {
	switch kind {
	case evToRArrive:
		s.torArrive(int(target), arg)
	case evUplinkFree: // run takes these itself, before the switch
		s.uplinkFree(target)
	case evHostPortFree:
		s.sendHostPort(target)
	case evHostArrive:
		s.hostReceive(target, arg, s.q.Now())
	case evHostTxDone:
		s.hosts[target].busy = false
		s.hostSend(target)
	case evHostWake:
		h := &s.hosts[target]
		if h.wakeAt == s.q.Now() {
			h.wakeAt = 0
		}
		if !h.busy {
			s.hostSend(target)
		}
	case evFlow:
		s.startFlow()
	case evDay:
		s.dayStart(int(target))
	case evNight:
		s.nightStart(int(target))
	case evRTO:
		s.rto(target)
	case evAckIdeal:
		s.m.idealInFlight--
		s.ackArrive(target, arg)
	case evPSUplinkFree:
		s.psUp[target] = false
		s.startPSUplink(int(target))
	case evPSArrive:
		s.psArrive(arg)
	case evPSPortFree:
		s.psPort[target] = false
		s.startPSPort(int(target))
	case evSample:
		s.sample()
		s.q.Schedule(s.q.Now()+s.sampleGap(), evSample, 0, 0)
	case evTick:
		tr := s.ps
		if target >= 0 {
			tr = s.tors[target]
			s.settle(int(target))
		}
		tr.Policy().Tick(s.q.Now(), tr.State())
		s.q.Schedule(s.q.Now()+tr.Policy().TickInterval(), evTick, target, 0)
	case evMemory:
		s.m.sampleMemory(int(arg), s.q.Now())
	case evPrefetch:
		s.prefetch(int(target))
	case evStored:
		if arg&noCircuit != 0 { // run.check: a skipped offer, which must find no circuit
			if x := int(arg &^ noCircuit); s.upTo[int(target)*s.n+x] != 0 {
				s.fail("ToR %d: the offer of a stored packet for %d was skipped, but a circuit to %d is up", target, x, x)
			}
			return
		}
		s.offerStored(int(target), int(arg))
	}
}

// ---- circuits ----

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
			s.upTo[t*s.n+int(v)] |= 1 << sw
		}
	}
	s.m.dayPorts[sw] = active
	next := s.sched.Matchings[sw][(k+1)%s.sched.Period]
	nextTo := s.pull.nextTo
	for t := 0; t < s.n; t++ {
		u := t*s.U + sw
		if nextTo != nil {
			if old := s.peerNext[u]; old >= 0 {
				nextTo[t*s.n+int(old)] &^= 1 << sw
			}
			if next[t] >= 0 {
				nextTo[t*s.n+next[t]] |= 1 << sw
			}
		}
		s.peerNext[u] = int32(next[t])
	}
	if s.cfg.Check && nextTo != nil {
		s.checkNextTo()
	}
	for t := 0; t < s.n; t++ {
		if v := s.peer[t*s.U+sw]; v != rotor.Idle {
			s.notifyCircuit(t, v, true)
			if s.pulling {
				s.fill(t, int(v), now, night)
			}
			s.startUplink(t, sw)
		}
	}
}

// checkNextTo verifies (run.check) that nextTo holds exactly the switches
// whose next slot connects t to x, as peerNext says.
func (s *sim) checkNextTo() {
	for t := 0; t < s.n; t++ {
		for x := 0; x < s.n; x++ {
			var want uint64
			for sw := 0; sw < s.U; sw++ {
				if s.peerNext[t*s.U+sw] == int32(x) {
					want |= 1 << sw
				}
			}
			if got := s.pull.nextTo[t*s.n+x]; got != want {
				s.fail("ToR %d: next-slot circuits to %d are %b, the schedule says %b", t, x, got, want)
				return
			}
		}
	}
}

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
			s.upTo[t*s.n+int(v)] &^= 1 << sw
			s.notifyCircuit(t, v, false)
		}
		if (s.paths != nil || s.ksp != nil || s.early != nil) && v != rotor.Idle {
			s.reroute(t, v)
		}
	}
	s.q.Schedule(now+s.sched.Reconf, evDay, int32(sw), 0)
	if s.pulling {
		st.nextDay = now + s.sched.Reconf
		s.q.Schedule(max(now, st.nextDay-s.pull.latency), evPrefetch, int32(sw), 0)
	}
}

// startUplink starts the next packet on ToR t's uplink through switch sw if
// the uplink is idle, its circuit is up, and a packet can finish
// serialisation before the night.
func (s *sim) startUplink(t, sw int) {
	i := t*s.U + sw
	if s.wake.When(i) != des.Never {
		return
	}
	st := &s.sw[sw]
	v := s.peer[i]
	if !st.day || v == rotor.Idle {
		return
	}
	now := s.q.Now()
	if now < s.upFree[i] { // still serialising a packet: come back then
		s.wakeUplink(i, s.upFree[i])
		return
	}
	if st.nightAt-now < s.serByte { // not one byte fits before the night
		return
	}
	tr := s.tors[t]
	var w *des.Ring[pulledPkt] // pulled packets waiting for this circuit
	if s.pulling {
		w = &s.pull.waiting[t*s.n+int(v)]
		if s.pull.relay {
			// The fill at the end of this event looks at the stored packet
			// that waits longest for v: it was stored long ago, so start
			// loading it now.
			if st := &s.pull.store[t*s.n+int(v)]; st.Len() > 0 {
				s.pool.Prefetch(st.Head())
			}
		}
	}
	var idx int32
	var q tor.QueueID
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
	case w != nil && w.Len() > 0:
		e := w.Head()
		if e.ready > now { // not at the ToR yet: come back when it is
			s.wakeUplink(i, e.ready)
			return
		}
		if s.ser(linkCircuit, e.size) > st.nightAt-now { // it cannot cross before the night (no division per packet)
			return
		}
		// Flow control: a pulled packet leaves toward v only if v has room
		// for it. (It waits only for the circuit to its destination or to
		// the relay that promised it room when it was pulled.)
		if !s.roomAt(int(v), e.size) {
			s.retryUplink(i, now)
			return
		}
		pk := w.Pop()
		if w.Len() == 0 {
			s.pull.waitBits[t*s.pull.words+int(v)>>6] &^= 1 << (v & 63)
		}
		tr.Release(pk.size)
		idx = pk.idx
		q = tr.VOQ(int(v), tor.Local)
	default:
		return
	}
	p := s.pool.At(idx)
	nh := int32(q) >> 1
	if nh != v { // relayed by RotorLB: first of two hops
		p.Via = v
	}
	if p.Pulled {
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
	s.upFree[i] = now + ser
	s.m.circuitBytes += int64(p.Size)
	s.m.circuitSeries.Add(now, float64(p.Size))
	// The "uplink free" event is needed only if more could go now; an
	// arrival later finds upFree and schedules it then.
	if s.cfg.eagerFree || tr.VOQPackets() > 0 && (tr.Len(tr.VOQ(int(v), tor.Transit))+tr.Len(tr.VOQ(int(v), tor.Local)) > 0 || s.relay != nil && tr.AnyLocal()) {
		s.wakeUplink(i, now+ser)
	} else if w != nil && w.Len() > 0 {
		s.wakeUplink(i, max(now+ser, w.Head().ready))
	}
	if p.Pulled {
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
	s.wakeUplink(i, now+s.serMTU[linkCircuit])
}

// wakeUplink makes uplink i look for a packet to send at time at, unless
// it will already look by then; an earlier wake-up moves its timer.
func (s *sim) wakeUplink(i int, at rotor.Time) {
	if s.wake.When(i) > at {
		s.wake.Set(i, at)
	}
}

// reroute moves the multi-hop packets waiting at ToR t for the circuit to
// v, which just went down, onto their next hop in the new epoch, as Opera
// does at every slice change (Paths: the Transit class; Earliest: both
// classes, since a packet waits where its earliest path leaves). Packets
// for v itself stay.
func (s *sim) reroute(t int, v int32) {
	tr := s.tors[t]
	now := s.q.Now()
	s.settle(t)
	for class := tor.Transit; class <= tor.Local; class++ {
		if class == tor.Local && s.early == nil {
			break
		}
		q := tr.VOQ(int(v), class)
		n := tr.Len(q)
		for k := 0; k < n; k++ {
			idx := tr.Take(now, q)
			p := s.pool.At(idx)
			next, nclass := v, class
			if p.DstToR != v {
				next, nclass, _ = s.route(t, p, p.Hops == 0 && class == tor.Local)
				if s.early != nil {
					nclass = class
				}
			}
			if s.enqueue(tr, tr.VOQ(int(next), nclass), idx) {
				s.kick(t, next, false)
			}
		}
	}
}

// kick wakes the idle uplinks of ToR t that could serve VOQ(v): those whose
// circuit reaches v, and, when any=true (relay-capable Local traffic), all
// of them.
func (s *sim) kick(t int, v int32, any bool) {
	base := t * s.U
	for sw := 0; sw < s.U; sw++ {
		if s.wake.When(base+sw) == des.Never && (any || s.peer[base+sw] == v) {
			s.startUplink(t, sw)
		}
	}
}

// ---- ToRs ----

func (s *sim) enqueue(tr *tor.ToR, q tor.QueueID, idx int32) bool {
	now := s.q.Now()
	if tr.ID >= 0 {
		s.settle(tr.ID)
	}
	if !tr.Enqueue(now, q, idx) {
		s.drop(idx)
		return false
	}
	for _, e := range tr.TakeEvicted() {
		s.drop(e)
	}
	if s.cfg.Check && tr.Used() > tr.State().Size {
		s.fail("ToR %d buffer holds %d B, more than its %d B", tr.ID, tr.Used(), tr.State().Size)
	}
	return true
}

func (s *sim) drop(idx int32) {
	p := s.pool.At(idx)
	s.m.droppedPkts++
	s.m.droppedBytes += int64(p.Size)
	if p.Kind == tor.Data {
		s.m.droppedData += int64(p.Size)
	}
	s.pool.Free(idx)
}

func (s *sim) torArrive(t int, idx int32) {
	p := s.pool.At(idx)
	tr := s.tors[t]
	if p.DstToR == int32(t) {
		h := p.DstHost - int32(t*s.H)
		if s.enqueue(tr, tr.HostQueue(int(h)), idx) {
			s.bookHostPort(p.DstHost, p.Size)
		}
		return
	}
	if p.Via == int32(t) {
		p.Via = -1
	}
	if s.ksp != nil && p.Hops >= s.hopLimit {
		s.m.hopLimitDrops++
		s.drop(idx)
		return
	}
	next, class, usePS := s.route(t, p, p.Hops == 0)
	if usePS {
		if s.enqueue(tr, tr.PacketSwitchQueue(), idx) {
			s.startPSUplink(t)
		}
		return
	}
	if s.enqueue(tr, tr.VOQ(int(next), class), idx) {
		s.kick(t, next, class == tor.Local && s.relay != nil)
	}
}

// bookHostPort books the ToR→host port for the packet of size bytes just
// queued for host: the port serves its queue in order, so the packet's
// turn is when the port has finished everything booked before it. It is
// sent now or by an event then.
func (s *sim) bookHostPort(host int32, size int32) {
	hs := &s.hosts[host]
	now := s.q.Now()
	at := max(now, hs.portFree)
	hs.portFree = at + s.ser(linkHost, size)
	if at == now {
		s.sendHostPort(host)
		return
	}
	s.q.ScheduleFirst(at, evHostPortFree, host, 0)
}

// sendHostPort sends the head of host's queue at its ToR down the host
// link; its turn on the port was booked.
func (s *sim) sendHostPort(host int32) {
	t := int(s.torOf(host))
	tr := s.tors[t]
	h := int(host) - t*s.H
	q := tr.HostQueue(h)
	if tr.Len(q) == 0 {
		return // pushed out by the buffer policy
	}
	now := s.q.Now()
	s.settle(t)
	idx := tr.Dequeue(now, q, tr.HostPort(h), s.rates[linkHost])
	ser := s.ser(linkHost, s.pool.At(idx).Size)
	s.q.Schedule(now+ser+s.cfg.HostDelay, evHostArrive, host, idx)
}

// ---- packet switch ----

func (s *sim) startPSUplink(t int) {
	if s.psUp[t] {
		return
	}
	tr := s.tors[t]
	q := tr.PacketSwitchQueue()
	if tr.Len(q) == 0 {
		return
	}
	now := s.q.Now()
	s.settle(t)
	idx := tr.Dequeue(now, q, tr.PacketSwitchPort(), s.rates[linkPS])
	ser := s.ser(linkPS, s.pool.At(idx).Size)
	s.psUp[t] = true
	s.q.ScheduleFirst(now+ser, evPSUplinkFree, int32(t), 0)
	s.q.Schedule(now+ser+s.cfg.PacketSwitchDelay, evPSArrive, 0, idx)
}

func (s *sim) psArrive(idx int32) {
	p := s.pool.At(idx)
	p.Hops++
	v := p.DstToR
	if p.Via >= 0 {
		v = p.Via
	}
	if s.enqueue(s.ps, s.ps.HostQueue(int(v)), idx) {
		s.startPSPort(int(v))
	}
}

func (s *sim) startPSPort(v int) {
	if s.psPort[v] {
		return
	}
	q := s.ps.HostQueue(v)
	if s.ps.Len(q) == 0 {
		return
	}
	now := s.q.Now()
	idx := s.ps.Dequeue(now, q, v, s.rates[linkPS])
	ser := s.ser(linkPS, s.pool.At(idx).Size)
	s.psPort[v] = true
	s.m.psBytes += int64(s.pool.At(idx).Size)
	s.q.ScheduleFirst(now+ser, evPSPortFree, int32(v), 0)
	s.q.Schedule(now+ser+s.cfg.PacketSwitchDelay, evToRArrive, int32(v), idx)
}

// ---- hosts and transport ----

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
	}
	id := int32(len(s.flows))
	s.flows = append(s.flows, flowState{f: f, ideal: s.idealFCT(f)})
	fs := &s.flows[id]
	s.pullFlow()
	if f.Bytes == 0 {
		fs.done, fs.finish = true, s.q.Now()
		return
	}
	var ctl cc.Controller = &cc.Unlimited{}
	pulled := s.pulled(fs)
	reliable := s.cfg.Transport == Windowed || s.cfg.Transport == Pull && !pulled
	if reliable {
		p := cc.Params{Window: s.cfg.Window, MSS: s.cfg.MTU, HostRate: s.cfg.HostLink, BaseRTT: 2 * s.ackDelayRemote}
		var c cc.Controller
		var err error
		if s.cfg.NewController != nil {
			c, err = s.cfg.NewController(f, p)
		} else {
			c, err = cc.NewController(s.cfg.CC, p)
		}
		if err != nil {
			s.fail("transport: %v", err)
			return
		}
		ctl = c
	}
	if reliable {
		fs.recv = cc.NewReceiver(f.Bytes, s.cfg.MTU)
	} else { // pulled or line rate: each segment is sent once, nothing is acknowledged
		fs.recv = cc.NewLosslessReceiver(f.Bytes, s.cfg.MTU)
	}
	if pulled { // its ToR hands out the segments in order (fill): no sender
		s.addPulled(id)
		return
	}
	fs.sender = cc.NewSender(f.Bytes, s.cfg.MTU, reliable, ctl, s.cfg.MinRTO)
	if reliable {
		s.watchCircuit(id)
	}
	h := &s.hosts[f.Src]
	h.active.Push(id)
	if !h.busy {
		s.hostSend(int32(f.Src))
	}
}

// hostSend puts the next packet on host h's NIC: a waiting ACK first, then
// the flows with data in round-robin order.
func (s *sim) hostSend(h int32) {
	hs := &s.hosts[h]
	now := s.q.Now()
	if now < hs.nicFree {
		hs.busy = true
		s.q.ScheduleFirst(hs.nicFree, evHostTxDone, h, 0)
		return
	}
	if hs.acks.Len() > 0 {
		s.transmit(h, hs.acks.Pop())
		return
	}
	var wake rotor.Time
	for k, n := 0, hs.active.Len(); k < n; k++ {
		id := hs.active.Pop()
		fs := &s.flows[id]
		if fs.sender == nil || fs.sender.Done() {
			continue // leaves the active list
		}
		hs.active.Push(id)
		if fs.nextSend > now {
			if wake == 0 || fs.nextSend < wake {
				wake = fs.nextSend
			}
			continue
		}
		seq, size, retx, ok := fs.sender.Next(now)
		if !ok {
			continue
		}
		idx := s.pool.Alloc()
		p := s.pool.At(idx)
		p.Flow, p.Kind, p.Size, p.Seq, p.Retx, p.Sent = id, tor.Data, size, seq, retx, now
		p.SrcHost, p.DstHost = int32(fs.f.Src), int32(fs.f.Dst)
		p.SrcToR, p.DstToR, p.Via = s.torOf(p.SrcHost), s.torOf(p.DstHost), -1
		if r := fs.sender.CC.PacingRate(); r > 0 {
			fs.nextSend = now + r.TransmitTime(rotor.Bytes(size))
		}
		s.armRTO(id)
		s.m.injectedData += int64(size)
		s.transmit(h, idx)
		return
	}
	if wake > 0 && (hs.wakeAt == 0 || wake < hs.wakeAt) {
		hs.wakeAt = wake
		s.q.Schedule(wake, evHostWake, h, 0)
	}
}

func (s *sim) transmit(h int32, idx int32) {
	now := s.q.Now()
	p := s.pool.At(idx)
	ser := s.ser(linkHost, p.Size)
	hs := &s.hosts[h]
	hs.nicFree = now + ser
	s.m.injectedPkts++
	s.m.injectedBytes += int64(p.Size)
	if s.cfg.eagerFree || hs.acks.Len()+hs.active.Len() > 0 {
		hs.busy = true
		s.q.ScheduleFirst(now+ser, evHostTxDone, h, 0)
	}
	s.q.Schedule(now+ser+s.cfg.HostDelay, evToRArrive, s.torOf(h), idx)
}

func (s *sim) armRTO(id int32) {
	fs := &s.flows[id]
	if d := fs.sender.Deadline; d != 0 && fs.timerAt == 0 {
		fs.timerAt = d
		s.q.Schedule(d, evRTO, id, 0)
	}
}

func (s *sim) rto(id int32) {
	fs := &s.flows[id]
	fs.timerAt = 0
	if fs.sender == nil {
		return
	}
	if fs.sender.OnTimeout(s.q.Now()) {
		h := int32(fs.f.Src)
		if !s.hosts[h].busy {
			s.hostSend(h)
		}
		return
	}
	s.armRTO(id)
}

// hostReceive delivers packet idx to host h at time at (now, or for a
// pulled data packet the time it will arrive).
func (s *sim) hostReceive(h int32, idx int32, at rotor.Time) {
	s.receive(h, idx, s.pool.At(idx), at)
}

// receive is hostReceive for a caller that holds the packet already.
func (s *sim) receive(h int32, idx int32, p *tor.Packet, at rotor.Time) {
	s.m.deliveredPkts++
	s.m.deliveredBytes += int64(p.Size)
	s.m.hostSeries.Add(at, float64(p.Size))
	if p.Kind == tor.Ack {
		s.ackArrive(h, idx)
		return
	}
	s.m.deliveredData += int64(p.Size)
	if int(p.Hops) < len(s.m.hops) {
		s.m.hops[p.Hops]++
	}
	fs := &s.flows[p.Flow]
	if p.Hops > fs.maxHops {
		fs.maxHops = p.Hops
	}
	if fs.recv == nil { // a late duplicate for a retired flow
		s.pool.Free(idx)
		return
	}
	cum, complete := fs.recv.OnData(p.Seq, p.Size)
	if complete {
		fs.done, fs.finish = true, at
		s.m.completed++
	}
	if s.cfg.Transport == LineRate || p.Pulled {
		s.pool.Free(idx)
		s.retire(p.Flow)
		return
	}
	// Turn the data packet into its ACK in place.
	p.Kind, p.SackSeq, p.Seq, p.Size = tor.Ack, p.Seq, cum, s.cfg.AckSize
	p.ECE, p.Circuit = p.ECN, p.Hops > 0
	p.ECN, p.Hops, p.Via = false, 0, -1
	p.SrcHost, p.DstHost = p.DstHost, p.SrcHost
	p.SrcToR, p.DstToR = p.DstToR, p.SrcToR
	if s.cfg.Acks == AcksIdeal {
		d := s.ackDelayRemote
		if p.SrcToR == p.DstToR {
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

func (s *sim) ackArrive(h int32, idx int32) {
	p := s.pool.At(idx)
	id := p.Flow
	fs := &s.flows[id]
	if fs.sender == nil { // a late ACK for a retired flow
		s.pool.Free(idx)
		return
	}
	a := &s.ack
	a.ECE, a.Circuit, a.Int = p.ECE, p.Circuit, nil
	if p.IntN > 0 {
		a.Int = s.ints.Hops(idx)[:p.IntN]
	}
	newly := fs.sender.OnAck(s.q.Now(), p.Seq, p.SackSeq, p.Sent, p.Retx, a)
	a.Int = nil
	s.pool.Free(idx)
	s.retire(id)
	if newly > 0 && fs.sender != nil {
		s.armRTO(id)
		if !s.hosts[h].busy {
			s.hostSend(h)
		}
	}
}

// retire frees a finished flow's transport state (keeping its statistics),
// so memory does not grow with the number of flows served.
func (s *sim) retire(id int32) {
	fs := &s.flows[id]
	if !fs.done || fs.recv == nil || fs.sender != nil && !fs.sender.Done() {
		return
	}
	fs.received, fs.reordered = fs.recv.Received(), fs.recv.Reordered
	if fs.sender != nil {
		fs.retx, fs.timeouts = fs.sender.Retransmits, fs.sender.Timeouts
	}
	fs.sender, fs.recv = nil, nil
}
