package fabric

import (
	"sort"

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
		if nh := s.paths.pick(s.q.Now(), t, int(dst), p.Flow); nh >= 0 {
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
		if nh := s.paths.pick(s.q.Now(), t, int(dst), p.Flow); nh >= 0 {
			return int32(nh), tor.Transit, false
		}
		return dst, tor.Transit, false
	case Earliest:
		if nh := s.early.next(s.q.Now(), t, int(dst)); nh >= 0 {
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
		next, ok, lost := s.ksp.follow(now, p.Route, t)
		if ok {
			return next
		}
		if lost && s.cfg.Check {
			s.fail("packet of flow %d at ToR %d is not on its source route %d", p.Flow, t, p.Route)
		}
	}
	ref, next := s.ksp.choose(now, t, int(target), p.Flow)
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
		if w := s.ksp.target(p.Route); int(w) != t {
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

// pathTable holds, for every epoch of the cycle (an interval in which no
// switch changes state), the next hop on a shortest path from u to d over
// the circuits up for the whole epoch: O(epochs · n²) int16 entries; with
// k > 1 also up to k−1 further next hops on equal-cost shortest paths
// (ECMP), chosen per flow.
type pathTable struct {
	epochs
	n   int
	hop []int16 // [epoch][u][d]
	k   int
	alt []int16 // [epoch][u][d][k−1]: further equal-cost next hops, −1 padded
}

// maxECMP bounds routing.paths_k.
const maxECMP = 8

// maxPathEntries bounds the table (about 256 ToRs × 1000 epochs).
const maxPathEntries = 1 << 26

// epochBounds returns the starts of the epochs of sc's cycle (intervals in
// which no switch changes state) within [0, cycle), ascending, from 0.
func epochBounds(sc *rotor.Schedule) []rotor.Time {
	cycle := sc.CycleDuration()
	set := map[rotor.Time]bool{0: true}
	for sw := 0; sw < sc.Switches; sw++ {
		var off rotor.Time
		if sc.SwitchOffsets != nil {
			off = sc.SwitchOffsets[sw]
		}
		at := off
		for k := 0; k < sc.Period; k++ {
			d := sc.SlotDuration(k)
			set[(at%cycle+cycle)%cycle] = true
			set[((at+d-sc.Reconf)%cycle+cycle)%cycle] = true
			at += d
		}
	}
	bounds := make([]rotor.Time, 0, len(set))
	for b := range set {
		bounds = append(bounds, b)
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i] < bounds[j] })
	return bounds
}

// forCircuits calls fn(u, v) for every circuit u→v (u ≠ v) up at time at
// (not in a night), switch by switch (rotor's AppendCircuitsAt).
func forCircuits(sc *rotor.Schedule, at rotor.Time, fn func(u, v int)) {
	for _, c := range sc.CircuitsAt(at) {
		fn(c.Src, c.Dst)
	}
}

func newPathTable(sc *rotor.Schedule, k int) *pathTable {
	cycle := sc.CycleDuration()
	bounds := epochBounds(sc)
	n := sc.Nodes
	pt := &pathTable{epochs: epochs{cycle: cycle, bounds: bounds}, n: n, k: max(k, 1)}
	if len(bounds)*n*n*pt.k > maxPathEntries || n > 32767 {
		return nil
	}
	pt.hop = make([]int16, len(bounds)*n*n)
	if pt.k > 1 {
		pt.alt = make([]int16, len(bounds)*n*n*(pt.k-1))
		for i := range pt.alt {
			pt.alt[i] = -1
		}
	}
	adj := make([][]int, n) // reverse adjacency: adj[v] = nodes u with u→v
	dist := make([]int, n)
	queue := make([]int, 0, n)
	for e, b := range bounds {
		end := cycle
		if e+1 < len(bounds) {
			end = bounds[e+1]
		}
		mid := b + (end-b)/2
		for v := range adj {
			adj[v] = adj[v][:0]
		}
		forCircuits(sc, mid, func(u, v int) { adj[v] = append(adj[v], u) })
		tab := pt.hop[e*n*n : (e+1)*n*n]
		for i := range tab {
			tab[i] = -1
		}
		for d := 0; d < n; d++ { // BFS toward d on the reverse graph
			for i := range dist {
				dist[i] = -1
			}
			dist[d] = 0
			queue = append(queue[:0], d)
			for len(queue) > 0 {
				v := queue[0]
				queue = queue[1:]
				for _, u := range adj[v] {
					if dist[u] < 0 {
						dist[u] = dist[v] + 1
						tab[u*n+d] = int16(v)
						queue = append(queue, u)
					} else if pt.k > 1 && dist[u] == dist[v]+1 && tab[u*n+d] != int16(v) {
						alt := pt.alt[((e*n+u)*n+d)*(pt.k-1):][:pt.k-1]
						for i := range alt {
							if alt[i] == int16(v) {
								break
							}
							if alt[i] < 0 {
								alt[i] = int16(v)
								break
							}
						}
					}
				}
			}
		}
	}
	return pt
}

// pick is the next hop from u toward d at time t for a packet of flow f:
// one of the equal-cost next hops, chosen by a hash of (f, u) so that a
// flow keeps its path within an epoch. If the circuits up now do not
// connect u to d (a night of every switch, say), it is the next hop in the
// first later epoch that does, so the packet waits for that circuit; −1 if
// no epoch connects them.
func (pt *pathTable) pick(t rotor.Time, u, d int, f int32) int {
	e := pt.epoch(t)
	E := len(pt.bounds)
	i := (e*pt.n+u)*pt.n + d
	for k := 1; pt.hop[i] < 0 && k < E; k++ {
		i = (((e+k)%E*pt.n)+u)*pt.n + d
	}
	first := int(pt.hop[i])
	if pt.k == 1 || first < 0 {
		return first
	}
	alt := pt.alt[i*(pt.k-1):][:pt.k-1]
	cnt := 1
	for cnt-1 < len(alt) && alt[cnt-1] >= 0 {
		cnt++
	}
	if j := flowHash(f, u) % cnt; j > 0 {
		return int(alt[j-1])
	}
	return first
}

// next is the next hop from u toward d at time t, or −1 if the circuits up
// now do not connect them.
func (pt *pathTable) next(t rotor.Time, u, d int) int {
	return int(pt.hop[(pt.epoch(t)*pt.n+u)*pt.n+d])
}

// flowHash spreads the flows at ToR u over multipath choices.
func flowHash(f int32, u int) int {
	h := uint32(f)*2654435761 ^ uint32(u)*40503
	return int(h >> 16)
}

// epochs are the intervals of a cycle in which no switch changes state.
type epochs struct {
	cycle  rotor.Time
	bounds []rotor.Time // epoch starts within [0, cycle), ascending, bounds[0] = 0
}

// epoch is the index of the epoch holding time t.
func (ep *epochs) epoch(t rotor.Time) int {
	rel := t % ep.cycle
	lo, hi := 0, len(ep.bounds) // first bound > rel
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ep.bounds[mid] > rel {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}
