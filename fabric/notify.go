package fabric

import "github.com/rdcn/rdcn/internal/des"

// Circuit notifications (cc.Law.OnCircuit), for reTCP-like
// congestion control: when a circuit from ToR t to ToR v comes up or goes
// down, every windowed flow from a host of t to a host of v hears it.
// Each ToR keeps, per destination ToR, the list of its windowed flows
// (circuitFlows[t·n+v]); a notification walks that list and drops the
// flows that finished on the way, so it costs O(active flows t→v).

func (s *sim) watchCircuit(id int32) {
	fs := &s.flows[id]
	t, v := s.torOf(int32(fs.f.Src)), s.torOf(int32(fs.f.Dst))
	if t == v {
		return
	}
	if s.circuitFlows == nil {
		s.circuitFlows = make([]des.FIFO, s.n*s.n)
	}
	s.circuitFlows[int(t)*s.n+int(v)].Push(id)
}

func (s *sim) notifyCircuit(t int, v int32, up bool) {
	if !up {
		s.voqNight(t)
	}
	if s.circuitFlows == nil {
		return
	}
	l := &s.circuitFlows[t*s.n+int(v)]
	now := s.q.Now()
	for k, n := 0, l.Len(); k < n; k++ {
		id := l.Pop()
		fs := &s.flows[id]
		if fs.src == nil || fs.src.Done() {
			continue
		}
		l.Push(id)
		fs.src.OnCircuit(now, up)
		s.srcChanged(id)
	}
}
