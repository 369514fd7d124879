package routing

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/rdcn/rdcn/rotor"
)

// digraph is a directed graph over nodes 0..n−1 in compressed form: the
// out-neighbours of u are out[outOff[u]:outOff[u+1]], ascending, and the
// in-neighbours likewise (parallel edges merged, self-loops dropped).
type digraph struct {
	n             int
	out, in       []int32
	outOff, inOff []int32
}

// newDigraph builds the graph of the edges (u, v).
func newDigraph(n int, edges [][2]int32) *digraph {
	es := slices.Clone(edges)
	slices.SortFunc(es, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	es = slices.Compact(es)
	g := &digraph{n: n, outOff: make([]int32, n+1), inOff: make([]int32, n+1)}
	for _, e := range es {
		if e[0] != e[1] {
			g.out = append(g.out, e[1])
			g.outOff[e[0]+1]++
			g.inOff[e[1]+1]++
		}
	}
	for u := 0; u < n; u++ {
		g.outOff[u+1] += g.outOff[u]
		g.inOff[u+1] += g.inOff[u]
	}
	g.in = make([]int32, len(g.out))
	fill := slices.Clone(g.inOff[:n])
	for _, e := range es { // by source, ascending: in-lists come out ascending
		if e[0] != e[1] {
			g.in[fill[e[1]]] = e[0]
			fill[e[1]]++
		}
	}
	return g
}

func (g *digraph) succ(u int32) []int32 { return g.out[g.outOff[u]:g.outOff[u+1]] }
func (g *digraph) pred(u int32) []int32 { return g.in[g.inOff[u]:g.inOff[u+1]] }

// yen computes k shortest loopless paths (Yen, Management Science 1971)
// with hop count as the cost and ties broken lexicographically on the node
// sequence: the result is exactly the first k simple paths in (hops,
// node sequence) order (Yen's argument needs only that paths sharing a
// root compare as their spurs do, which this order satisfies, and that
// each spur is the smallest one; TestYenAgainstBruteForce). Its work space is reused across calls, so a call
// allocates nothing once the buffers have grown.
type yen struct {
	stamp   uint32
	seen    []uint32 // seen[v] == stamp: dist[v] is valid in the current search
	dist    []int32
	queue   []int32
	blocked []bool // root-path nodes removed for the current spur
	banned  []bool // out-neighbours of the spur node removed for it

	acc, cand       []int32 // accepted (A) and candidate (B) paths, flat
	accEnd, candEnd []int32 // end offset of each path (start: previous end)
	candLive        []bool
	spur            []int32

	h      []int16 // distances to d when the caller has none
	on     []bool  // guided search: nodes on the current walk
	stack  []int32 // guided search: next child index per depth
	bfs    bool    // tests: always search breadth-first, never guided
	budget int     // tests: node expansions before a guided search gives up; 0: 2·(nodes + edges)
}

func (y *yen) grow(n int) {
	if len(y.seen) < n {
		y.seen = make([]uint32, n)
		y.dist = make([]int32, n)
		y.blocked = make([]bool, n)
		y.banned = make([]bool, n)
		y.on = make([]bool, n)
		y.h = make([]int16, n)
		y.stamp = 0
	}
}

// shortest appends to y.spur the lexicographically smallest of the
// shortest paths from s to d that avoid blocked nodes and, on the first
// hop, banned ones; false if there is none.
func (y *yen) shortest(g *digraph, s, d int32) bool {
	y.spur = y.spur[:0]
	if s == d {
		y.spur = append(y.spur, s)
		return true
	}
	y.stamp++
	if y.stamp == 0 {
		clear(y.seen)
		y.stamp = 1
	}
	// Breadth-first search backwards from d, without s (a simple path from
	// s never comes back to it), until the level of s's nearest allowed
	// out-neighbour is complete.
	best := int32(-1)
	for _, v := range g.succ(s) {
		if v == d && !y.banned[v] {
			best = 0
		}
	}
	if best < 0 {
		y.seen[d], y.dist[d] = y.stamp, 0
		y.queue = append(y.queue[:0], d)
		for h := 0; h < len(y.queue); h++ {
			v := y.queue[h]
			dv := y.dist[v]
			if best >= 0 && dv > best {
				break
			}
			for _, u := range g.pred(v) {
				if u == s {
					if !y.banned[v] && best < 0 {
						best = dv
					}
					continue
				}
				if y.seen[u] != y.stamp && !y.blocked[u] {
					y.seen[u], y.dist[u] = y.stamp, dv+1
					y.queue = append(y.queue, u)
				}
			}
		}
		if best < 0 {
			return false
		}
	}
	// Walk forward taking the smallest node one level closer each time.
	y.spur = append(y.spur, s)
	cur, want := s, best
	for cur != d {
		next := int32(-1)
		for _, v := range g.succ(cur) {
			if cur == s && y.banned[v] {
				continue
			}
			if want == 0 {
				if v == d {
					next = v
					break
				}
				continue
			}
			if v != d && v != s && y.seen[v] == y.stamp && y.dist[v] == want {
				next = v
				break
			}
		}
		y.spur = append(y.spur, next)
		cur, want = next, want-1
	}
	return true
}

// guided appends to y.spur the same path as shortest, found by a
// depth-first search in ascending node order with increasing length
// bound L, pruned by h (the distances to d in the whole graph, a lower
// bound on those in the restricted one): the first walk of the first L
// that reaches d is the smallest shortest path. On slice graphs most spur
// paths are found almost without backtracking, where shortest scans the
// whole graph. It gives up (exhausted) after budget node expansions.
func (y *yen) guided(g *digraph, h []int16, s, d int32, budget int) (found, exhausted bool) {
	y.spur = append(y.spur[:0], s)
	lo := int32(-1)
	for _, w := range g.succ(s) {
		if !y.banned[w] && !y.blocked[w] && h[w] >= 0 && (lo < 0 || int32(h[w])+1 < lo) {
			lo = int32(h[w]) + 1
		}
	}
	if lo < 0 {
		return false, false // no allowed first hop reaches d even in the whole graph
	}
	y.on[s] = true
	defer func() {
		for _, v := range y.spur {
			y.on[v] = false
		}
	}()
	for L := lo; L < int32(g.n); L++ {
		y.stack = append(y.stack[:0], 0)
		for len(y.stack) > 0 {
			depth := int32(len(y.stack) - 1)
			v := y.spur[depth]
			succ := g.succ(v)
			i := y.stack[depth]
			for ; i < int32(len(succ)); i++ {
				w := succ[i]
				if y.on[w] || y.blocked[w] || h[w] < 0 || depth+1+int32(h[w]) > L || depth == 0 && y.banned[w] {
					continue
				}
				if w == d {
					if depth+1 == L {
						y.spur = append(y.spur, d)
						return true, false
					}
					continue
				}
				break
			}
			if i == int32(len(succ)) { // backtrack
				y.stack = y.stack[:depth]
				if depth > 0 {
					y.on[v] = false
					y.spur = y.spur[:depth]
				}
				continue
			}
			if budget--; budget < 0 {
				return false, true
			}
			y.stack[depth] = i + 1
			w := succ[i]
			y.on[w] = true
			y.spur = append(y.spur, w)
			y.stack = append(y.stack, 0)
		}
	}
	return false, false
}

// spurPath appends to y.spur the smallest shortest s→d path avoiding the
// blocked nodes and the banned first hops, guided by h if the search stays
// cheap, else breadth-first.
func (y *yen) spurPath(g *digraph, h []int16, s, d int32) bool {
	if !y.bfs {
		budget := y.budget
		if budget == 0 {
			budget = 2 * (g.n + len(g.out))
		}
		found, exhausted := y.guided(g, h, s, d, budget)
		if !exhausted {
			return found
		}
	}
	return y.shortest(g, s, d)
}

// distTo sets h[v] to the hop distance from v to d in g (−1: unreachable).
func distTo(g *digraph, d int32, h []int16, queue []int32) []int32 {
	for i := range h {
		h[i] = -1
	}
	h[d] = 0
	queue = append(queue[:0], d)
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for _, u := range g.pred(v) {
			if h[u] < 0 {
				h[u] = h[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return queue
}

// paths appends to nodes the first k simple u→d paths of g in (hops, node
// sequence) order, and to ends each path's end offset in nodes. h holds
// the distances to d in g (nil: computed here).
func (y *yen) paths(g *digraph, h []int16, u, d int32, k int, nodes []int16, ends []uint16) ([]int16, []uint16) {
	y.grow(g.n)
	y.acc, y.accEnd = y.acc[:0], y.accEnd[:0]
	y.cand, y.candEnd, y.candLive = y.cand[:0], y.candEnd[:0], y.candLive[:0]
	if h == nil {
		h = y.h[:g.n]
		y.queue = distTo(g, d, h, y.queue)
	}
	if u == d || !y.spurPath(g, h, u, d) {
		return nodes, ends
	}
	y.acc = append(y.acc, y.spur...)
	y.accEnd = append(y.accEnd, int32(len(y.acc)))
	for len(y.accEnd) < k {
		prev := y.path(y.acc, y.accEnd, len(y.accEnd)-1)
		for i := 0; i+1 < len(prev); i++ {
			root := prev[:i+1]
			for _, r := range root[:i] {
				y.blocked[r] = true
			}
			for j := range y.accEnd {
				p := y.path(y.acc, y.accEnd, j)
				if len(p) > i+1 && slices.Equal(p[:i+1], root) {
					y.banned[p[i+1]] = true
				}
			}
			found := y.spurPath(g, h, prev[i], d)
			for _, r := range root[:i] {
				y.blocked[r] = false
			}
			for j := range y.accEnd {
				if p := y.path(y.acc, y.accEnd, j); len(p) > i+1 {
					y.banned[p[i+1]] = false
				}
			}
			if found {
				y.addCandidate(root[:i], y.spur)
			}
		}
		best := -1
		for c := range y.candEnd {
			if y.candLive[c] && (best < 0 || less(y.path(y.cand, y.candEnd, c), y.path(y.cand, y.candEnd, best))) {
				best = c
			}
		}
		if best < 0 {
			break
		}
		y.candLive[best] = false
		y.acc = append(y.acc, y.path(y.cand, y.candEnd, best)...)
		y.accEnd = append(y.accEnd, int32(len(y.acc)))
	}
	for j := range y.accEnd {
		for _, v := range y.path(y.acc, y.accEnd, j) {
			nodes = append(nodes, int16(v))
		}
		ends = append(ends, uint16(len(nodes)))
	}
	return nodes, ends
}

func (y *yen) path(flat, end []int32, j int) []int32 {
	start := int32(0)
	if j > 0 {
		start = end[j-1]
	}
	return flat[start:end[j]]
}

// addCandidate adds root+spur to the candidates unless it is there already.
func (y *yen) addCandidate(root, spur []int32) {
	n := len(root) + len(spur)
	for c := range y.candEnd {
		p := y.path(y.cand, y.candEnd, c)
		if len(p) == n && slices.Equal(p[:len(root)], root) && slices.Equal(p[len(root):], spur) {
			return
		}
	}
	y.cand = append(append(y.cand, root...), spur...)
	y.candEnd = append(y.candEnd, int32(len(y.cand)))
	y.candLive = append(y.candLive, true)
}

// less orders paths by hops, then lexicographically.
func less(a, b []int32) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return slices.Compare(a, b) < 0
}

// kspTable serves, for every epoch e of the cycle and ToR pair (u, d), the
// first k simple u→d paths of the epoch's slice graph (the circuits up for
// the whole epoch) in (hops, node sequence) order. Opera has O(n) epochs,
// so the paths of all epochs·n² pairs are not precomputed: they are
// computed on first use (Yen) and kept in a direct-mapped cache of bounded
// size; an evicted entry is recomputed identically when needed again.
//
// A packet on a source route carries a path reference ((e·n+u)·n+d)·k+j:
// the j-th path of (e, u, d). References do not depend on the cache, so a
// packet's path survives evictions.
type kspTable struct {
	Epochs
	n, k   int
	graphs []*digraph // per epoch
	dist   []int16    // [epoch][d][v]: hops from v to d, −1 unreachable; valid where distOK
	distOK []bool     // [epoch][d]
	slots  []kspEntry
	shift  uint32
	y      yen
	ends   []uint16

	lookups, computed int64 // cache statistics
}

type kspEntry struct {
	key   int32 // (e·n+u)·n+d; −1: empty
	count uint8
	ends  [MaxECMP]uint16 // end offset of each path in nodes
	nodes []int16
}

// kspCacheSlots bounds the cache: 2¹⁶ entries of 48 bytes plus their
// paths (6 MB at k = 4).
const kspCacheSlots = 1 << 16

// kspSlotNodes is the path length each cache entry has room for up front
// (per path); longer paths grow the entry's own storage.
const kspSlotNodes = 6

// KSPHopLimit drops a source-routed packet that has taken this many hops
// (Packet.Hops is a uint8): a guard, never reached in our runs, since
// between two re-routings a packet follows one loopless path.
const KSPHopLimit = 255

// newKSPTable builds the slice graphs of sc's epochs; nil if the path
// references would not fit an int32.
func newKSPTable(sc *rotor.Schedule, k int) *kspTable {
	ep := NewEpochs(sc)
	n := sc.Nodes
	if ep.Len()*n*n > MaxTableEntries || n*k >= 1<<16 {
		return nil
	}
	kt := &kspTable{Epochs: *ep, n: n, k: k}
	var edges [][2]int32
	kt.circuits(sc, func(_ int, cs []rotor.Circuit) {
		edges = edges[:0]
		for _, c := range cs {
			edges = append(edges, [2]int32{int32(c.Src), int32(c.Dst)})
		}
		kt.graphs = append(kt.graphs, newDigraph(n, edges))
	})
	bounds := kt.Bounds
	slots := 1
	for slots < kspCacheSlots && slots < len(bounds)*n*n {
		slots *= 2
	}
	kt.dist = make([]int16, len(bounds)*n*n)
	kt.distOK = make([]bool, len(bounds)*n)
	kt.slots = make([]kspEntry, slots)
	arena := make([]int16, slots*kspSlotNodes*k) // room for k paths of kspSlotNodes nodes per entry, grown where needed
	for i := range kt.slots {
		c := kspSlotNodes * k
		kt.slots[i].key, kt.slots[i].nodes = -1, arena[i*c:i*c:(i+1)*c]
	}
	kt.shift = 32 - uint32(bits.Len(uint(slots-1)))
	return kt
}

// entry returns the paths of (e, u, d), computing them on a cache miss.
func (kt *kspTable) entry(e, u, d int) *kspEntry {
	key := int32((e*kt.n+u)*kt.n + d)
	kt.lookups++
	en := &kt.slots[0]
	if kt.shift < 32 {
		en = &kt.slots[uint32(key)*2654435761>>kt.shift]
	}
	if en.key != key {
		kt.computed++
		var nodes []int16
		nodes, kt.ends = kt.y.paths(kt.graphs[e], kt.distTo(e, d), int32(u), int32(d), kt.k, en.nodes[:0], kt.ends[:0])
		en.key, en.nodes, en.count = key, nodes, uint8(len(kt.ends))
		copy(en.ends[:], kt.ends)
	}
	return en
}

// distTo returns the hop distances to d in epoch e's slice graph.
func (kt *kspTable) distTo(e, d int) []int16 {
	h := kt.dist[(e*kt.n+d)*kt.n:][:kt.n]
	if !kt.distOK[e*kt.n+d] {
		kt.distOK[e*kt.n+d] = true
		kt.y.queue = distTo(kt.graphs[e], int32(d), h, kt.y.queue)
	}
	return h
}

// path is the j-th path of the entry.
func (en *kspEntry) path(j int) []int16 {
	start := uint16(0)
	if j > 0 {
		start = en.ends[j-1]
	}
	return en.nodes[start:en.ends[j]]
}

// Choose picks the path of a packet of flow f at ToR u toward d at time t:
// one of the k shortest of the current epoch, by a hash of (f, u). If the
// circuits up now do not connect u to d, it is a path of the first later
// epoch that does (the packet waits for its first circuit). It returns the
// path reference and the next hop, or −1, −1 if no epoch connects them.
func (kt *kspTable) Choose(t rotor.Time, u, d int, f int32) (ref, next int32) {
	e0, E := kt.Index(t), len(kt.Bounds)
	for i := 0; i < E; i++ {
		e := e0 + i
		if e >= E {
			e -= E
		}
		if en := kt.entry(e, u, d); en.count > 0 {
			j := FlowHash(f, u) % int(en.count)
			return int32(((e*kt.n+u)*kt.n+d)*kt.k + j), int32(en.path(j)[1])
		}
	}
	return -1, -1
}

// Follow is the hop after ToR at on path ref if the circuit to it is up
// at time t (in the epoch holding t: a path is followed, as in Opera, as
// long as its next circuit lasts, even into later epochs); ok is false when
// that circuit is down (the packet is to be routed again from at), when at
// ends the path, or when at is not on it (lost: a bug, which Check
// reports).
func (kt *kspTable) Follow(t rotor.Time, ref int32, at int) (next int32, ok, lost bool) {
	j := int(ref) % kt.k
	key := int(ref) / kt.k
	d, u, e := key%kt.n, key/kt.n%kt.n, key/kt.n/kt.n
	p := kt.entry(e, u, d).path(j)
	for i, v := range p {
		if int(v) == at {
			if i+1 == len(p) {
				return -1, false, false
			}
			next = int32(p[i+1])
			if now := kt.Index(t); now != e && !slices.Contains(kt.graphs[now].succ(int32(at)), next) {
				return -1, false, false
			}
			return next, true, false
		}
	}
	return -1, false, true
}

// Target is the last ToR of path ref.
func (kt *kspTable) Target(ref int32) int32 {
	return int32(int(ref) / kt.k % kt.n)
}

// PathCacheStats describes the k-shortest-path cache of a run
// (routing.multipath = ksp).
type PathCacheStats struct {
	Epochs   int   `json:"epochs"`   // epochs per cycle
	Slots    int   `json:"slots"`    // cache entries, one (epoch, u, d) each
	Lookups  int64 `json:"lookups"`  // path look-ups (route choices and hops)
	Computed int64 `json:"computed"` // Yen runs: first uses and recomputations after eviction
	Bytes    int64 `json:"bytes"`    // cache and slice graphs at the end of the run
}

func (kt *kspTable) Stats() *PathCacheStats {
	b := int64(len(kt.slots)) * int64(unsafe.Sizeof(kspEntry{}))
	for i := range kt.slots {
		b += int64(cap(kt.slots[i].nodes)) * 2
	}
	b += int64(len(kt.dist))*2 + int64(len(kt.distOK))
	for _, g := range kt.graphs {
		b += int64(cap(g.out)+cap(g.in)+cap(g.outOff)+cap(g.inOff))*4 + int64(unsafe.Sizeof(*g))
	}
	return &PathCacheStats{Epochs: len(kt.Bounds), Slots: len(kt.slots), Lookups: kt.lookups, Computed: kt.computed, Bytes: b}
}
