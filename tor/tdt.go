package tor

import "github.com/rdcn/rdcn/rotor"

// TDT port states.
const (
	tdtNormal uint8 = iota
	tdtAbsorb
	tdtEvacuate
)

type tdtPort struct {
	state                  uint8
	nec, oc1, dc, dec, oc2 int64
}

// TDT is Traffic-aware Dynamic Threshold: each port runs a three-state
// machine driven by counters of its own enqueues, dequeues and drops (no
// timers). Normal ports get DT's α·(B − Q); a port that grows fast with no
// drop (NEC reaches its threshold within OC1 dequeues) absorbs a burst with
// B/n_abs; a port that keeps dropping (DC) is evacuated to B/n. DEC
// consecutive dequeues with no arrival end either state; OC2 dequeues or a
// buffer overflow end absorption; a queue below LB ends evacuation. The
// threshold applies to the port's bytes over all its queues.
type TDT struct {
	alpha                            float64
	necTh, oc1Th, dcTh, decTh, oc2Th int64 // packets
	lb                               int64 // bytes
	ports                            []tdtPort
	nAbs                             int
}

func (TDT) Name() string { return "tdt" }

func (t *TDT) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	p := s.PortOf(q)
	t.ports[p].dec = 0 // an arrival, admitted or not, breaks a run of dequeues
	var th float64
	switch t.ports[p].state {
	case tdtAbsorb:
		th = float64(s.B) / float64(t.nAbs)
	case tdtEvacuate:
		th = float64(s.B) / float64(len(t.ports))
	default:
		th = t.alpha * float64(s.Free())
	}
	return float64(s.Ports[p].Bytes+int64(a.Size)) <= th
}

func (t *TDT) set(p *tdtPort, st uint8) {
	if p.state == tdtAbsorb {
		t.nAbs--
	}
	if st == tdtAbsorb {
		t.nAbs++
		p.oc2 = 0
	}
	p.state = st
}

func (t *TDT) Enqueued(_ rotor.Time, _ *Arrival, q int32, s *State) {
	p := &t.ports[s.PortOf(q)]
	p.nec++
	if p.state == tdtNormal && p.nec >= t.necTh {
		t.set(p, tdtAbsorb)
	}
}

func (t *TDT) Dequeued(_ rotor.Time, _ int32, q int32, s *State) {
	port := s.PortOf(q)
	p := &t.ports[port]
	p.nec = max(p.nec-1, 0)
	p.oc1++
	p.dec++
	if p.oc1 >= t.oc1Th {
		p.nec, p.oc1 = 0, 0
	}
	if p.dec >= t.decTh {
		p.dc = 0
		if p.state != tdtNormal {
			t.set(p, tdtNormal)
		}
	}
	switch p.state {
	case tdtAbsorb:
		p.oc2++
		if p.oc2 >= t.oc2Th {
			t.set(p, tdtNormal)
		}
	case tdtEvacuate:
		if s.Ports[port].Bytes < t.lb {
			t.set(p, tdtNormal)
		}
	}
}

func (t *TDT) Dropped(_ rotor.Time, a *Arrival, size int32, q int32, pushed bool, s *State) {
	p := &t.ports[s.PortOf(q)]
	p.nec, p.oc1 = 0, 0
	p.dc++
	switch {
	case p.state == tdtNormal && p.dc >= t.dcTh:
		p.dc = 0
		t.set(p, tdtEvacuate)
	case p.state == tdtAbsorb && !pushed && s.Used+int64(size) > s.B:
		t.set(p, tdtNormal)
	}
}

// State reports port p's TDT state: "normal", "absorption" or "evacuation".
func (t *TDT) State(p int) string {
	return [...]string{"normal", "absorption", "evacuation"}[t.ports[p].state]
}

type edtPort struct {
	unctl  bool
	since  rotor.Time // entered the uncontrolled state
	cool   rotor.Time // may not become uncontrolled again before
	net    int64      // enqueues − dequeues since the port was last empty or dropped
	deqRun int64      // consecutive dequeues with no enqueue
}

// EDT is Enhanced Dynamic Threshold: a port detected in a microburst is
// "uncontrolled" and may grow to B/n' (n' uncontrolled ports); the others
// follow DT. The seeds give only the threshold rule and the parameters
// (C1 = 3, C2 = 8, TM1 = 2.1 ms, TM2 = 10 ms); our transitions (doc.go): a
// port becomes uncontrolled when its queue grew by C2 packets with no drop
// since it was last empty or dropped, unless it left that state less than
// TM2 ago; it returns to control after C1 consecutive dequeues with no
// arrival, after TM1, or on a buffer overflow.
type EDT struct {
	alpha    float64
	c1, c2   int64
	tm1, tm2 rotor.Time
	ports    []edtPort
	nUnctl   int
}

func (EDT) Name() string { return "edt" }

func (e *EDT) control(now rotor.Time, p *edtPort) {
	p.unctl = false
	p.cool = now + e.tm2
	e.nUnctl--
}

func (e *EDT) Admit(now rotor.Time, a *Arrival, q int32, s *State) bool {
	port := s.PortOf(q)
	p := &e.ports[port]
	p.deqRun = 0
	if p.unctl && now-p.since >= e.tm1 {
		e.control(now, p)
	}
	th := e.alpha * float64(s.Free())
	if p.unctl {
		th = float64(s.B) / float64(e.nUnctl)
	}
	return float64(s.Ports[port].Bytes+int64(a.Size)) <= th
}

func (e *EDT) Enqueued(now rotor.Time, _ *Arrival, q int32, s *State) {
	p := &e.ports[s.PortOf(q)]
	p.net++
	if !p.unctl && now >= p.cool && p.net >= e.c2 {
		p.unctl, p.since = true, now
		e.nUnctl++
	}
}

func (e *EDT) Dequeued(now rotor.Time, _ int32, q int32, s *State) {
	port := s.PortOf(q)
	p := &e.ports[port]
	p.deqRun++
	p.net--
	if s.Ports[port].Packets == 0 {
		p.net = 0
	}
	if p.unctl && (p.deqRun >= e.c1 || now-p.since >= e.tm1) {
		e.control(now, p)
	}
}

func (e *EDT) Dropped(now rotor.Time, _ *Arrival, size int32, q int32, pushed bool, s *State) {
	p := &e.ports[s.PortOf(q)]
	p.net = 0
	if p.unctl && !pushed && s.Used+int64(size) > s.B {
		e.control(now, p)
	}
}

// Protean: short-flow packets (their queue) share completely, long-flow
// packets follow DT with α_long, and every other queue (incast) is held to
// a per-port threshold that each dequeue sets from the queue's smoothed
// length gradient G (normalised to the port rate): G·α_incast·(B − Q) when
// G exceeds the build-up threshold, α_incast·(B − Q) otherwise.
type Protean struct {
	shortQ, longQ          int
	alphaLong, alphaIncast float64
	beta, buildup          float64
	thr                    []float64 // per port; valid where thrSet
	thrSet                 []bool
	qPrev                  []int64 // per queue
	tPrev                  []rotor.Time
	g                      []float64
	seen                   []bool
}

func (Protean) Name() string { return "protean" }

func (pr *Protean) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	k := s.Prio(q)
	want := float64(s.Queues[q].Bytes + int64(a.Size))
	switch {
	case k == pr.shortQ:
		return true
	case k == pr.longQ:
		return want <= pr.alphaLong*float64(s.Free())
	}
	p := s.PortOf(q)
	if !pr.thrSet[p] {
		return want <= pr.alphaIncast*float64(s.Free())
	}
	return want <= pr.thr[p]
}

func (pr *Protean) Dequeued(now rotor.Time, _ int32, q int32, s *State) {
	k := s.Prio(q)
	if k == pr.shortQ || k == pr.longQ {
		return
	}
	b := s.Queues[q].Bytes
	if !pr.seen[q] || now == pr.tPrev[q] {
		pr.seen[q] = true
		pr.qPrev[q], pr.tPrev[q] = b, now
		return
	}
	p := s.PortOf(q)
	rate := float64(s.Ports[p].Rate) / 8 // bytes/s
	inst := float64(b-pr.qPrev[q]) / (now - pr.tPrev[q]).Seconds() / rate
	pr.qPrev[q], pr.tPrev[q] = b, now
	pr.g[q] = pr.beta*inst + (1-pr.beta)*pr.g[q]
	th := pr.alphaIncast * float64(s.Free())
	if pr.g[q] > pr.buildup {
		th *= pr.g[q]
	}
	pr.thr[p], pr.thrSet[p] = th, true
}
