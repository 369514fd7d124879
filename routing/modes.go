package routing

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// A packet with an intermediate ToR (Via, set by VLB at the source or by
// the engine's RotorLB relay) goes there first, in every mode but
// vlb-paths, which routes to it over paths.

// direct (and rotorlb: its relaying is the engine's, see doc.go).
type direct struct{}

func (direct) Next(_ rotor.Time, _ int, p *packet.Packet, _ bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	return Hop{To: p.DstToR}
}

func (direct) Reroute() Reroute { return RerouteNone }

// vlb: Valiant load balancing over the circuits up now.
type vlb struct {
	c   Circuits
	rng interface{ IntN(int) int }
	n   int
	U   int
	rr  []int32 // [t]: the uplink to try first for t's next intermediate
}

func newVLB(s Setup) (Router, error) {
	sc := s.Schedule
	return &vlb{c: s.Circuits, rng: s.Rand, n: sc.Nodes, U: sc.Switches, rr: make([]int32, sc.Nodes)}, nil
}

func (r *vlb) Next(_ rotor.Time, at int, p *packet.Packet, source bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	if source {
		if via := r.via(at); via != p.DstToR {
			p.Via = via
			return Hop{To: via}
		}
	}
	return Hop{To: p.DstToR}
}

func (*vlb) Reroute() Reroute { return RerouteNone }

// via is the intermediate for a packet entering at ToR t: the ToR one of
// t's circuits reaches now, rotating over the uplinks; if no circuit is
// up, a uniformly random other ToR.
func (r *vlb) via(t int) int32 {
	rr := int(r.rr[t])
	for i := 0; i < r.U; i++ {
		sw := (rr + i) % r.U
		if v := r.c.Peer(t, sw); v != rotor.Idle {
			r.rr[t] = int32((sw + 1) % r.U)
			return v
		}
	}
	if r.n == 1 {
		return int32(t)
	}
	v := r.rng.IntN(r.n - 1)
	if v >= t {
		v++
	}
	return int32(v)
}

// hybrid: a circuit up now to the destination, else the packet switch.
type hybrid struct{ c Circuits }

func newHybrid(s Setup) (Router, error) { return hybrid{s.Circuits}, nil }

func (r hybrid) Next(_ rotor.Time, at int, p *packet.Packet, source bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	if source && !r.c.Up(at, p.DstToR) {
		return Hop{To: p.DstToR, PacketSwitch: true}
	}
	return Hop{To: p.DstToR}
}

func (hybrid) Reroute() Reroute { return RerouteNone }

// earliest: the earliest-arrival table.
type earliest struct{ t *EarliestTable }

func newEarliest(s Setup) (Router, error) {
	t := NewEarliestTable(s.Context, s.Schedule)
	if t == nil {
		return nil, setupErr("mode", "earliest: next-hop table for %d ToRs is too large (limit %d entries)", s.Schedule.Nodes, MaxTableEntries)
	}
	return earliest{t}, nil
}

func (r earliest) Next(now rotor.Time, at int, p *packet.Packet, _ bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	if nh := r.t.Next(now, at, int(p.DstToR)); nh >= 0 {
		return Hop{To: int32(nh)}
	}
	return Hop{To: p.DstToR}
}

func (earliest) Reroute() Reroute { return RerouteAll }

// paths and vlb-paths: shortest paths over the circuits up now, from the
// path table (k = 1, or ECMP) or on k-shortest-path source routes.
type paths struct {
	table    *PathTable
	ksp      *kspTable
	hopLimit uint8
	bulk     func(flow int32) bool
	rng      interface{ IntN(int) int }
	spray    bool // each packet draws its equal-cost next hop (MultipathSpray)
	nic      bool // routing.source = nic: a packet reads the table of the slice in Route (Stamp)
	n        int
}

func newPaths(s Setup) (Router, error) {
	r, err := newPathRouter(s)
	if err != nil {
		return nil, err
	}
	r.bulk = s.Bulk
	return r, nil
}

func newVLBPaths(s Setup) (Router, error) {
	if s.Source == SourceNIC {
		return nil, setupErr("source", "nic is read only with routing.mode = paths")
	}
	r, err := newPathRouter(s)
	if err != nil {
		return nil, err
	}
	r.rng = s.Rand
	return vlbPaths{r}, nil
}

// vlbPaths is paths to a random intermediate ToR first.
type vlbPaths struct{ *paths }

func (r vlbPaths) Next(now rotor.Time, at int, p *packet.Packet, source bool) Hop {
	return r.nextVLB(now, at, p, source)
}

func newPathRouter(s Setup) (*paths, error) {
	sc := s.Schedule
	r := &paths{n: sc.Nodes}
	if s.PathsK > 1 && s.Multipath == MultipathKSP {
		if s.Source == SourceNIC {
			return nil, setupErr("source", "nic is read only with the next-hop table, not with k-shortest-path source routes (paths_k %d, multipath %s)", s.PathsK, s.Multipath)
		}
		if s.Guard > 0 {
			return nil, setupErr("guard", "is read only with the next-hop table, not with k-shortest-path source routes (paths_k %d, multipath %s)", s.PathsK, s.Multipath)
		}
		r.ksp = newKSPTable(sc, s.PathsK)
		if r.ksp == nil {
			return nil, setupErr("paths_k", "%d epochs × %d² ToR pairs is too many for k-shortest-path references (limit %d, and ToRs × k < 65536)", NewEpochs(sc).Len(), sc.Nodes, MaxTableEntries)
		}
		r.hopLimit = KSPHopLimit
		if s.HopLimit > 0 {
			r.hopLimit = uint8(min(s.HopLimit, KSPHopLimit))
		}
		return r, nil
	}
	if s.PathsK > 1 && s.Multipath == MultipathSpray {
		if s.Rand == nil {
			return nil, setupErr("multipath", "spray needs a random stream (Setup.Rand)")
		}
		r.spray, r.rng = true, s.Rand
	}
	r.table = NewPathTable(sc, s.PathsK)
	if r.table == nil {
		return nil, setupErr("mode", "paths: next-hop table for %d ToRs is too large (limit %d entries)", sc.Nodes, MaxTableEntries)
	}
	if err := r.table.SetGuard(sc, s.Guard); err != nil {
		return nil, setupErr("guard", "%v", err)
	}
	r.nic = s.Source == SourceNIC
	return r, nil
}

// Stamp notes in p (Route) the slice whose table p reads at every ToR,
// with routing.source = nic: the table of now (guard included).
func (r *paths) Stamp(now rotor.Time, p *packet.Packet) {
	if r.nic {
		p.Route = int32(r.table.Slice(now))
	}
}

func (r *paths) Reroute() Reroute { return RerouteTransit }

func (r *paths) HopLimit() uint8 { return r.hopLimit }

func (r *paths) PathCache() *PathCacheStats {
	if r.ksp == nil {
		return nil
	}
	return r.ksp.Stats()
}

func (r *paths) Next(now rotor.Time, at int, p *packet.Packet, source bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	dst := p.DstToR
	if p.Kind == packet.Data && r.bulk(p.Flow) {
		return Hop{To: dst} // bulk: direct, RotorLB relays spare capacity
	}
	// Low-latency traffic rides the expander in the high-priority class.
	if r.ksp != nil {
		return r.sourceRoute(now, at, p, dst)
	}
	if r.nic {
		if p.Route == packet.NoRoute { // not from a NIC: fixed here (a header sent back, a packet moved off a dark circuit)
			r.Stamp(now, p)
		}
		if nh := r.pickIn(int(p.Route), at, dst, p.Flow); nh >= 0 {
			return Hop{To: int32(nh), Transit: true}
		}
		return Hop{To: dst, Transit: true}
	}
	if nh := r.pick(now, at, dst, p.Flow); nh >= 0 {
		return Hop{To: int32(nh), Transit: true}
	}
	return Hop{To: dst, Transit: true}
}

func (r *paths) nextVLB(now rotor.Time, at int, p *packet.Packet, source bool) Hop {
	if r.ksp != nil {
		target := p.DstToR
		switch {
		case p.Route != packet.NoRoute:
			if w := r.ksp.Target(p.Route); int(w) != at {
				target = w // first leg under way
			}
		case source && r.n > 2:
			target = r.intermediate(at, target)
		}
		return r.sourceRoute(now, at, p, target)
	}
	dst := p.DstToR
	if p.Via >= 0 {
		dst = p.Via // first leg: shortest paths to the intermediate
	} else if source && r.n > 2 {
		p.Via = r.intermediate(at, dst)
		dst = p.Via
	}
	if nh := r.pick(now, at, dst, p.Flow); nh >= 0 {
		return Hop{To: int32(nh), Transit: true}
	}
	return Hop{To: dst, Transit: true}
}

// pick is the table's next hop toward dst: by the flow's hash, or drawn
// per packet when spraying.
func (r *paths) pick(now rotor.Time, at int, dst int32, f int32) int {
	if r.spray {
		return r.table.Spray(now, at, int(dst), r.rng)
	}
	return r.table.Pick(now, at, int(dst), f)
}

// pickIn is pick in epoch e's table (routing.source = nic).
func (r *paths) pickIn(e, at int, dst int32, f int32) int {
	if r.spray {
		return r.table.SprayIn(e, at, int(dst), r.rng)
	}
	return r.table.PickIn(e, at, int(dst), f)
}

// intermediate draws a ToR uniformly among the n−2 that are neither t nor
// dst.
func (r *paths) intermediate(t int, dst int32) int32 {
	w := int32(r.rng.IntN(r.n - 2))
	if lo, hi := min(int32(t), dst), max(int32(t), dst); w >= lo {
		w++
		if w >= hi {
			w++
		}
	}
	return w
}

// sourceRoute is the next hop of low-latency packet p at ToR at toward
// target on k-shortest-path source routes. p follows its path (it carries
// the reference in Route) while the path's next circuit is up; when it is
// down — at a ToR, or while p waits for it — p takes one of the current
// epoch's paths from at, chosen by the same flow hash.
func (r *paths) sourceRoute(now rotor.Time, at int, p *packet.Packet, target int32) Hop {
	off := false
	if p.Route != packet.NoRoute {
		next, ok, lost := r.ksp.Follow(now, p.Route, at)
		if ok {
			return Hop{To: next, Transit: true}
		}
		off = lost
	}
	ref, next := r.ksp.Choose(now, at, int(target), p.Flow)
	if ref < 0 { // never connected: wait for a direct circuit
		p.Route = packet.NoRoute
		return Hop{To: target, Transit: true, OffRoute: off}
	}
	p.Route = ref
	return Hop{To: next, Transit: true, OffRoute: off}
}

// ECMPRouter is the leaf-spine's routing: the leaf-level next hop is the
// destination leaf (through any spine), and Hash spreads the flows over
// the equal-cost links, seeded per run.
type ECMPRouter struct{ seed uint64 }

func newECMP(s Setup) (Router, error) { return &ECMPRouter{seed: s.Rand.Uint64()}, nil }

// Next is the destination leaf: every spine reaches it (Hash picks the
// links).
func (*ECMPRouter) Next(_ rotor.Time, _ int, p *packet.Packet, _ bool) Hop { return Hop{To: p.DstToR} }

// Reroute is RerouteNone: a leaf-spine has no circuits to go down.
func (*ECMPRouter) Reroute() Reroute { return RerouteNone }

// Hash is ECMP's hash of flow f at switch sw (splitmix64 of the flow, the
// switch and the run's seed): each switch hashes independently, as
// switches with their own hash seeds do.
func (r *ECMPRouter) Hash(f int32, sw int) uint64 {
	z := r.seed ^ uint64(uint32(f)) ^ uint64(sw)<<32
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
