package routing

import (
	"context"

	"github.com/rdcn/rdcn/rotor"
)

// Earliest-arrival routing (routing.mode = "earliest").
//
// The schedule repeats every cycle, so the temporal path that reaches d
// first from node u at time τ depends only on the epoch τ falls in (an
// interval in which no switch changes state; see Epochs). For every
// epoch e, node u and destination d the table holds the next hop of the
// earliest-arrival path; a packet may wait at a node for a later epoch.
//
// Value of a state: (arrival epoch start, hops), compared
// lexicographically — within one epoch a multi-hop path counts as
// instantaneous (a hop is a packet time, an epoch many), and among paths
// that arrive in the same epoch the one with fewer hops wins. Backward DP
// over the epochs, unrolled over three cycles (the first is kept): the
// value of (e, u) is the best of waiting, value(e+1, u), and of every node
// v that u reaches over circuits up during e, value(e+1, v) plus the hops
// to get there, or (start of e, hops) if v = d. For each epoch that is a
// multi-source Dijkstra on the reversed circuit graph. Ties between equal
// values go to the smaller next-hop id (Dijkstra pops equal keys by node
// id). A waiting node's entry is its next hop in the epoch in which it
// will move, so a packet waits in the VOQ of the circuit it will take.
//
// Cost: 3·epochs·n Dijkstras of O((n + edges) log n); the table has
// epochs·n² int16 entries (limit MaxTableEntries).

// EarliestTable is the earliest-arrival next-hop table.
type EarliestTable struct {
	Epochs
	n   int
	hop []int16 // [epoch][u][d]: next hop, −1: d unreachable from u
}

// Next is the next hop from u toward d of the earliest-arrival path of a
// packet at u at time t (the circuit it takes, now or in a later epoch),
// or −1 if no temporal path connects them.
func (et *EarliestTable) Next(t rotor.Time, u, d int) int {
	return int(et.hop[(et.Index(t)*et.n+u)*et.n+d])
}

// label is the value of a state: arrival time (epoch start) and hops.
type label struct {
	arr  rotor.Time
	hops int32
}

func (a label) less(b label) bool { return a.arr < b.arr || a.arr == b.arr && a.hops < b.hops }

var unreachable = label{arr: 1<<62 - 1, hops: 1 << 30}

// NewEarliestTable builds the table; nil if it would hold more than
// MaxTableEntries entries, or if ctx is done (checked once per
// destination).
func NewEarliestTable(ctx context.Context, sc *rotor.Schedule) *EarliestTable {
	n := sc.Nodes
	et := &EarliestTable{Epochs: *NewEpochs(sc), n: n}
	E := et.Len()
	if E*n*n > MaxTableEntries || n > 32767 {
		return nil
	}
	et.hop = make([]int16, E*n*n)
	radj := make([][][]int32, E) // radj[e][v] = nodes u with a circuit u→v up during e
	et.circuits(sc, func(e int, cs []rotor.Circuit) {
		adj := make([][]int32, n)
		for _, c := range cs {
			adj[c.Dst] = append(adj[c.Dst], int32(c.Src))
		}
		radj[e] = adj
	})
	const unroll = 3
	next := make([]label, n) // values at epoch g+1
	cur := make([]label, n)
	nextHop := make([]int16, n)
	curHop := make([]int16, n)
	h := &labelHeap{}
	for d := 0; d < n; d++ {
		if ctx.Err() != nil {
			return nil
		}
		for u := range next {
			next[u], nextHop[u] = unreachable, -1
		}
		for g := unroll*E - 1; g >= 0; g-- {
			e := g % E
			start := et.Bounds[e] + rotor.Time(g/E)*et.Cycle
			// Sources: waiting at u (value of epoch g+1), or being at d.
			h.reset(cur)
			for u := 0; u < n; u++ {
				cur[u], curHop[u] = next[u], nextHop[u]
			}
			cur[d], curHop[d] = label{arr: start}, -1
			for u := 0; u < n; u++ {
				if cur[u] != unreachable {
					h.push(int32(u))
				}
			}
			for h.len() > 0 {
				v := h.pop()
				lv := cur[v]
				for _, u := range radj[e][v] {
					c := label{arr: lv.arr, hops: lv.hops + 1}
					if c.less(cur[u]) || c == cur[u] && !h.done(u) && int16(v) < curHop[u] {
						cur[u], curHop[u] = c, int16(v)
						h.fix(u)
					}
				}
			}
			if g < E {
				tab := et.hop[e*n*n:]
				for u := 0; u < n; u++ {
					tab[u*n+d] = curHop[u]
				}
			}
			cur, next = next, cur
			curHop, nextHop = nextHop, curHop
		}
	}
	return et
}

// labelHeap is a binary min-heap of nodes keyed by their current label
// (then node id), with positions for decrease-key.
type labelHeap struct {
	key []label
	h   []int32
	pos []int32 // index in h, −1: not in the heap, −2: popped
}

func (h *labelHeap) reset(key []label) {
	h.key = key
	h.h = h.h[:0]
	if len(h.pos) != len(key) {
		h.pos = make([]int32, len(key))
	}
	for i := range h.pos {
		h.pos[i] = -1
	}
}

func (h *labelHeap) len() int          { return len(h.h) }
func (h *labelHeap) done(u int32) bool { return h.pos[u] == -2 }

func (h *labelHeap) less(a, b int32) bool {
	ka, kb := h.key[a], h.key[b]
	return ka.less(kb) || ka == kb && a < b
}

func (h *labelHeap) push(u int32) {
	h.pos[u] = int32(len(h.h))
	h.h = append(h.h, u)
	h.up(len(h.h) - 1)
}

// fix restores the heap after u's key decreased (or inserts u).
func (h *labelHeap) fix(u int32) {
	switch h.pos[u] {
	case -1:
		h.push(u)
	case -2:
	default:
		h.up(int(h.pos[u]))
	}
}

func (h *labelHeap) pop() int32 {
	top := h.h[0]
	last := len(h.h) - 1
	h.swap(0, last)
	h.h = h.h[:last]
	h.pos[top] = -2
	if last > 0 {
		h.down(0)
	}
	return top
}

func (h *labelHeap) swap(i, j int) {
	h.h[i], h.h[j] = h.h[j], h.h[i]
	h.pos[h.h[i]], h.pos[h.h[j]] = int32(i), int32(j)
}

func (h *labelHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.h[i], h.h[p]) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *labelHeap) down(i int) {
	n := len(h.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(h.h[c+1], h.h[c]) {
			c++
		}
		if !h.less(h.h[c], h.h[i]) {
			return
		}
		h.swap(i, c)
		i = c
	}
}
