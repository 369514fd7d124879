package fabric

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
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
		k, since := s.sched.SlotAt(sw, 0)
		start := -since
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
	s.collapseAt = s.q.Processed() + collapseFirst
	for t, tr := range s.tors {
		if d := tr.TickEvery(); d > 0 {
			s.q.Schedule(d, evTick, int32(t), 0)
		}
	}
	if s.ps != nil {
		if d := s.ps.TickEvery(); d > 0 {
			s.q.Schedule(d, evTick, -1, 0)
		}
	}
	if s.ls != nil {
		for j, sp := range s.ls.spines {
			if d := sp.TickEvery(); d > 0 {
				s.q.Schedule(d, evTick, int32(s.n+j), 0)
			}
		}
	}
	s.q.Schedule(s.m.tailFrom, evTail, 0, 0)
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
		if kind == evPortFree && target < s.ports.hosts0 { // most events: straight to the circuit uplink
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

// The run asks for huge pages behind the memory it has touched
// (des.CollapseResident) at the first occupancy sample after collapseFirst
// events, then each time the events processed have doubled, and from
// collapseEvery on every collapseEvery events: the heap grows as flows
// start and packets fill the pool, and its new pages are 4 KiB ones until
// then. A call costs a read of /proc/self/maps and a few system calls per
// 2 MiB.
const (
	collapseFirst = 1 << 16
	collapseEvery = 1 << 23
)

// collapse calls des.CollapseResident once collapseAt events have been
// processed. The samples call it, not run's loop, whose code stays small.
func (s *sim) collapse() {
	if popped := s.q.Processed(); popped >= s.collapseAt {
		des.CollapseResident()
		s.collapseAt = popped + min(popped, collapseEvery)
	}
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
	case evToRArrive, evHostArrive, evSpineArrive:
		s.pool.Prefetch(arg)
	case evPortFree: // a booked host port's turn (the uplinks' are timers)
		if pt := &s.ports; target >= pt.hosts0 && target < pt.other0 {
			t := int(pt.portSw[target])
			tr := s.tors[t]
			if q := tr.HostQueue(int(target-pt.hosts0) - t*s.H); tr.Len(q) > 0 {
				s.pool.Prefetch(tr.Head(q))
			}
		}
	}
}

func (s *sim) dispatch(kind uint8, target, arg int32) {
	switch kind {
	case evToRArrive:
		s.torArrive(int(target), arg)
	case evPortFree: // run takes the circuit uplinks' itself, before the switch
		s.portFree(target)
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
	case evHandshake:
		s.openFlow(target)
	case evDay:
		s.dayStart(int(target))
	case evNight:
		s.nightStart(int(target))
	case evRTO:
		s.rto(target)
	case evDelAck:
		s.delAck(target)
	case evSynTimer:
		s.synTimer(target)
	case evAckIdeal:
		s.m.idealInFlight--
		s.replyArrive(target, arg)
	case evPSArrive:
		s.psArrive(arg)
	case evSample:
		s.sample()
		s.q.Schedule(s.q.Now()+s.sampleGap(), evSample, 0, 0)
		s.collapse()
	case evTick:
		tr := s.ps
		switch {
		case int(target) >= s.n: // a spine
			tr = s.ls.spines[int(target)-s.n]
		case target >= 0:
			tr = s.tors[target]
			s.settle(int(target))
		}
		tr.Tick(s.q.Now())
		s.q.Schedule(s.q.Now()+tr.TickEvery(), evTick, target, 0)
	case evMemory:
		s.m.sampleMemory(int(arg), s.q.Now())
	case evTail:
		s.hostBytes(-1)
	case evSpineArrive:
		s.spineArrive(int(target), arg)
	case evNDPPull:
		s.ndpPull(target, arg)
	case evPFC:
		s.pfcArrive(target, arg)
	case evPrefetch:
		s.prefetch(int(target))
	case evStored:
		if arg&noCircuit != 0 { // run.check: a skipped offer, which must find no circuit
			if x := int(arg &^ noCircuit); s.upTo(int(target), x) != 0 {
				s.fail("ToR %d: the offer of a stored packet for %d was skipped, but a circuit to %d is up", target, x, x)
			}
			return
		}
		s.offerStored(int(target), int(arg))
	}
}
