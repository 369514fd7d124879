package fabric

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// route picks the next hop for packet p at ToR t (source: it came from a
// local host) and the VOQ class it waits in; usePS sends it to the
// electrical packet switch instead.
func (s *sim) route(t int, p *packet.Packet, source bool) (next int32, class int, usePS bool) {
	class = tor.Transit
	if source {
		class = tor.Local
	}
	dst := p.DstToR
	if p.Via >= 0 {
		if s.cfg.Routing != VLBPaths {
			return p.Via, class, false
		}
		dst = p.Via // VLB first leg: shortest paths to the intermediate
	}
	switch s.cfg.Routing {
	case VLB:
		if source {
			if via := s.vlbVia(t); via != dst {
				p.Via = via
				return via, class, false
			}
		}
	case Paths:
		if p.Kind == packet.Data && s.flows[p.Flow].f.Bytes >= s.cfg.BulkBytes {
			return dst, class, false // bulk: direct, RotorLB relays spare capacity
		}
		// Low-latency traffic rides the expander in the high-priority class.
		if s.ksp != nil {
			return s.sourceRoute(t, p, dst), tor.Transit, false
		}
		if nh := s.paths.Pick(s.q.Now(), t, int(dst), p.Flow); nh >= 0 {
			return int32(nh), tor.Transit, false
		}
		return dst, tor.Transit, false
	case VLBPaths:
		if s.ksp != nil {
			return s.vlbSourceRoute(t, p, source), tor.Transit, false
		}
		if source && p.Via < 0 && s.n > 2 {
			w := s.rng.IntN(s.n - 2) // uniformly among the other n−2 ToRs
			if lo, hi := min(int32(t), dst), max(int32(t), dst); int32(w) >= lo {
				w++
				if int32(w) >= hi {
					w++
				}
			}
			p.Via, dst = int32(w), int32(w)
		}
		if nh := s.paths.Pick(s.q.Now(), t, int(dst), p.Flow); nh >= 0 {
			return int32(nh), tor.Transit, false
		}
		return dst, tor.Transit, false
	case Earliest:
		if nh := s.early.Next(s.q.Now(), t, int(dst)); nh >= 0 {
			return int32(nh), class, false
		}
	case Hybrid:
		if source && !s.circuitUp(t, dst) {
			return 0, class, true
		}
	}
	return dst, class, false
}

// sourceRoute is the next hop of low-latency packet p at ToR t toward
// target on k-shortest-path source routes (routing.multipath = ksp). p
// follows its path (it carries the reference in Route) while the
// path's next circuit is up; when it is down — at a ToR, or while p waits
// for it — p takes one of the current epoch's paths from t, chosen by the
// same flow hash.
func (s *sim) sourceRoute(t int, p *packet.Packet, target int32) int32 {
	now := s.q.Now()
	if p.Route != packet.NoRoute {
		next, ok, lost := s.ksp.Follow(now, p.Route, t)
		if ok {
			return next
		}
		if lost && s.cfg.Check {
			s.fail("packet of flow %d at ToR %d is not on its source route %d", p.Flow, t, p.Route)
		}
	}
	ref, next := s.ksp.Choose(now, t, int(target), p.Flow)
	if ref < 0 { // never connected: wait for a direct circuit
		p.Route = packet.NoRoute
		return target
	}
	p.Route = ref
	return next
}

// vlbSourceRoute is sourceRoute for vlb-paths: the source picks a
// uniformly random intermediate ToR w (neither source nor destination); the
// first leg's paths end at w, the second leg's at the destination.
func (s *sim) vlbSourceRoute(t int, p *packet.Packet, source bool) int32 {
	target := p.DstToR
	switch {
	case p.Route != packet.NoRoute:
		if w := s.ksp.Target(p.Route); int(w) != t {
			target = w // first leg under way
		}
	case source && s.n > 2:
		w := s.rng.IntN(s.n - 2) // uniformly among the other n−2 ToRs
		if lo, hi := min(int32(t), target), max(int32(t), target); int32(w) >= lo {
			w++
			if int32(w) >= hi {
				w++
			}
		}
		target = int32(w)
	}
	return s.sourceRoute(t, p, target)
}

// vlbVia is the intermediate for a VLB packet entering at ToR t: the ToR
// one of t's circuits reaches now, rotating over the uplinks; if no circuit
// is up, a uniformly random other ToR.
func (s *sim) vlbVia(t int) int32 {
	rr := int(s.vlbRR[t])
	for i := 0; i < s.U; i++ {
		sw := (rr + i) % s.U
		if v := s.peer[t*s.U+sw]; v != rotor.Idle {
			s.vlbRR[t] = int32((sw + 1) % s.U)
			return v
		}
	}
	if s.n == 1 {
		return int32(t)
	}
	v := s.rng.IntN(s.n - 1)
	if v >= t {
		v++
	}
	return int32(v)
}

func (s *sim) circuitUp(t int, dst int32) bool {
	for sw := 0; sw < s.U; sw++ {
		if s.peer[t*s.U+sw] == dst {
			return true
		}
	}
	return false
}
