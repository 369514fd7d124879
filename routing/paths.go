package routing

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// PathTable holds, for every epoch of the cycle, the next hop on a
// shortest path from u to d over the circuits up for the whole epoch:
// O(epochs · n²) int16 entries; with k > 1 also up to k−1 further next
// hops on equal-cost shortest paths (ECMP), chosen per flow.
type PathTable struct {
	Epochs
	n   int
	hop []int16 // [epoch][u][d], −1: not connected in the epoch
	k   int
	alt []int16 // [epoch][u][d][k−1]: further equal-cost next hops, −1 padded
	// guardFrom[e]: the time within the cycle from which lookups in
	// epoch e use the table of epoch e+1, a night (SetGuard); nil: none.
	guardFrom []rotor.Time
}

// MaxECMP bounds the equal-cost next hops per pair (routing.paths_k).
const MaxECMP = 8

// MaxTableEntries bounds a next-hop table (about 256 ToRs × 1000 epochs).
const MaxTableEntries = 1 << 26

// NewPathTable builds the shortest-path table of sc with up to k
// equal-cost next hops per pair (k ≤ MaxECMP); nil if it would hold more
// than MaxTableEntries entries or the ToRs do not fit an int16.
func NewPathTable(sc *rotor.Schedule, k int) *PathTable {
	n := sc.Nodes
	pt := &PathTable{Epochs: *NewEpochs(sc), n: n, k: max(k, 1)}
	E := pt.Len()
	if E*n*n*pt.k > MaxTableEntries || n > 32767 {
		return nil
	}
	pt.hop = make([]int16, E*n*n)
	if pt.k > 1 {
		pt.alt = make([]int16, E*n*n*(pt.k-1))
		for i := range pt.alt {
			pt.alt[i] = -1
		}
	}
	adj := make([][]int, n) // reverse adjacency: adj[v] = nodes u with u→v
	dist := make([]int, n)
	queue := make([]int, 0, n)
	pt.circuits(sc, func(e int, cs []rotor.Circuit) {
		for v := range adj {
			adj[v] = adj[v][:0]
		}
		for _, c := range cs {
			adj[c.Dst] = append(adj[c.Dst], c.Src)
		}
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
	})
	return pt
}

// Pick is the next hop from u toward d at time t for a packet of flow f:
// one of the equal-cost next hops, chosen by FlowHash(f, u) so that a
// flow keeps its path within an epoch. If the circuits up now do not
// connect u to d (a night of every switch, say), it is the next hop in the
// first later epoch that does, so the packet waits for that circuit; −1 if
// no epoch connects them.
func (pt *PathTable) Pick(t rotor.Time, u, d int, f int32) int {
	return pt.PickIn(pt.lookup(t), u, d, f)
}

// Spray is Pick with the equal-cost next hop drawn uniformly per packet
// from rng instead of by the flow's hash (packet spraying).
func (pt *PathTable) Spray(t rotor.Time, u, d int, rng interface{ IntN(int) int }) int {
	return pt.SprayIn(pt.lookup(t), u, d, rng)
}

// Slice is the epoch whose table a packet routed at time t ≥ 0 reads:
// t's, or within the guard before a night that night's (SetGuard). With
// source routing at the NIC (routing.source = nic) a packet keeps it.
func (pt *PathTable) Slice(t rotor.Time) int { return pt.lookup(t) }

// PickIn is Pick in epoch e's table (e < Len()) rather than time t's.
func (pt *PathTable) PickIn(e, u, d int, f int32) int {
	first, alt := pt.choicesIn(e, u, d)
	if len(alt) == 0 {
		return first
	}
	if j := FlowHash(f, u) % (len(alt) + 1); j > 0 {
		return int(alt[j-1])
	}
	return first
}

// SprayIn is Spray in epoch e's table.
func (pt *PathTable) SprayIn(e, u, d int, rng interface{ IntN(int) int }) int {
	first, alt := pt.choicesIn(e, u, d)
	if len(alt) == 0 {
		return first
	}
	if j := rng.IntN(len(alt) + 1); j > 0 {
		return int(alt[j-1])
	}
	return first
}

// choicesIn are the next hops from u toward d in epoch e's table (or in
// the first later epoch that connects them): the first, −1 if none, and
// the further equal-cost ones.
func (pt *PathTable) choicesIn(e, u, d int) (first int, alt []int16) {
	E := len(pt.Bounds)
	i := (e*pt.n+u)*pt.n + d
	for k := 1; pt.hop[i] < 0 && k < E; k++ {
		i = (((e+k)%E*pt.n)+u)*pt.n + d
	}
	first = int(pt.hop[i])
	if pt.k == 1 || first < 0 {
		return first, nil
	}
	alt = pt.alt[i*(pt.k-1):][:pt.k-1]
	cnt := 0
	for cnt < len(alt) && alt[cnt] >= 0 {
		cnt++
	}
	return first, alt[:cnt]
}

// Next is the next hop from u toward d at time t, or −1 if the circuits
// up now do not connect them.
func (pt *PathTable) Next(t rotor.Time, u, d int) int {
	return int(pt.hop[(pt.lookup(t)*pt.n+u)*pt.n+d])
}

// lookup is the epoch whose table a lookup at time t ≥ 0 reads: t's, or
// within the guard before a night that night's.
func (pt *PathTable) lookup(t rotor.Time) int {
	e := pt.Index(t)
	if pt.guardFrom != nil && t%pt.Cycle >= pt.guardFrom[e] {
		if e++; e == len(pt.Bounds) {
			e = 0
		}
	}
	return e
}

// SetGuard makes the lookups within guard before the start of a night
// (some switch's reconfiguration) read that night's table, as Opera's
// guard δ does (opera-sim: the last δ of a day takes the next slice's
// paths): new packets then avoid the circuits about to go dark. A night
// has a subset of the circuits of the epoch before it, so its next hops
// are up now. guard must be shorter than every epoch that ends in a night;
// nights must not start where another switch's slot starts (the night
// would bring a new circuit). guard 0 turns the guard off.
func (pt *PathTable) SetGuard(sc *rotor.Schedule, guard rotor.Time) error {
	pt.guardFrom = nil
	if guard == 0 {
		return nil
	}
	if guard < 0 {
		return fmt.Errorf("must not be negative, got %v", guard)
	}
	if sc.Reconf <= 0 {
		return fmt.Errorf("%v is read only on a schedule with nights (schedule.reconf > 0)", guard)
	}
	nightStart, slotStart := map[rotor.Time]bool{}, map[rotor.Time]bool{}
	eachSlot(sc, pt.Cycle, func(start, night rotor.Time) {
		slotStart[start], nightStart[night] = true, true
	})
	E := pt.Len()
	from := make([]rotor.Time, E)
	nights := 0
	for e := range from {
		from[e] = pt.Cycle // never
		start, end := pt.Span(e)
		b := end % pt.Cycle
		if !nightStart[b] {
			continue
		}
		if slotStart[b] {
			return fmt.Errorf("%v: a night starts at %v in the cycle where another switch's slot starts", guard, b)
		}
		if guard >= end-start {
			return fmt.Errorf("%v must be shorter than the %v day before the night at %v in the cycle", guard, end-start, b)
		}
		from[e] = end - guard
		nights++
	}
	if nights == 0 {
		return fmt.Errorf("%v: the schedule has no night", guard)
	}
	pt.guardFrom = from
	return nil
}

// FlowHash spreads the flows at ToR u over multipath choices (the paths
// tables' ECMP and k-shortest-path picks).
func FlowHash(f int32, u int) int {
	h := uint32(f)*2654435761 ^ uint32(u)*40503
	return int(h >> 16)
}
