package emulated

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
)

// pathSolver computes the maximum concurrent flow in its equivalent form
// "route all of D with the least maximum congestion λ" (θ = 1/λ). It
// minimises the smoothed maximum congestion
//
//	Φ_β(F) = Σ_e exp(β·F_e/c_e)
//
// over path flows that route the whole demand (commodity k = (s,t) with
// demand d_k spread over a set of s→t paths), with path-based gradient
// projection: each commodity in turn (Gauss–Seidel) moves flow from its
// costlier paths to its cheaper ones by a diagonally scaled projected
// Newton step on Φ (Bertsekas–Gafni), where an arc's cost is
// l_e ∝ exp(β·F_e/c_e)/c_e (∂Φ/∂F_e up to a constant) and its curvature
// β·l_e/c_e. New paths come from shortest-path trees under l (column
// generation: the tree path and, on dense graphs, the cheap one-arc
// detours "tree path to an in-neighbour u, then u→t"), one Dijkstra per
// source per outer iteration.
//
// The same Dijkstras certify the iterate: the flow routes D at congestion
// λ = max_e F_e/c_e, so θ ≥ 1/λ; the lengths give θ ≤ Σ c_e·l_e / Σ d_k·
// dist_l(k). At a Wardrop equilibrium of Φ_β every used path is shortest,
// and the ratio of the bounds is the l-weighted mean congestion over the
// maximum, which tends to 1 as β grows; β is raised (continuation) once the
// equilibrium error is small next to that smoothing error.
//
// On slow solves the lower bound lags (the smoothed flow approaches the
// optimum only as β grows): from iteration restrictedLPAfter on, the exact
// LP over the active paths (pathLP, an interior-point method) supplies
// the flow instead whenever it is better (once the gap is within
// lpCallGap gaps; on hop-seeded solves from iteration seededLPAfter on,
// whatever the gap); the lengths, and so the upper bound, stay the
// solver's.
type pathSolver struct {
	g     *Graph
	n     int
	ix    arcIndex  // per-arc state below is indexed by its compact ids
	cap   []float64 // c_e per arc id (also in rec, for the sweeps)
	dense bool

	// commodities, grouped by source (srcs order), destinations increasing
	srcs   []int
	first  []int32 // first[i]..first[i+1] are the commodities of srcs[i]
	dst    []int32
	dem    []float64
	active [][]int32 // path ids in use per commodity

	// path pool: ids are stable (snapshots refer to them)
	arcs []int32 // arc ids of path p: arcs[off[p]:off[p+1]]
	off  []int32
	hash []uint64
	com  []int32   // commodity of path p
	x    []float64 // path flow

	// Per arc id: the sweeps and the Newton step touch an arc's cost,
	// capacity, load and scratch together, so they sit in one record (a
	// path's arcs are scattered: one cache miss per arc, not four). The
	// trees read only the costs, a node's out-arcs in a row: tl holds
	// them contiguously, copied from rec before each pass
	// (docs/perf-history.md, issue 28, thirteenth round).
	rec  []arcRec
	tl   []float64
	beta float64 // per unit of congestion
	lift float64 // shift of the exponent (keeps the busiest arc near 1)

	// The shortest-path tree the column generation reads (s.dist, s.par):
	// one of ring's buffers while a pass runs in parallel.
	*tree
	ring    []*tree // buffers of the parallel pass (nil until used)
	workers int     // goroutines per tree pass; 0: parallelTrees decides

	bp   []breakpoint // per-path scratch of one commodity
	mark []bool       // per-arc scratch, false between uses
	cand []detour     // detour candidates of one commodity
	nt   newtonScratch

	maxDetours int // new detours per commodity and iteration

	// pruneBelow: a path whose flow a sweep lowers below this share of its
	// commodity's demand gives the rest to the commodity's cheapest path
	// and leaves the active set (0: paths leave only at zero flow).
	pruneBelow float64

	// family, when set, restricts the paths to VLBSlice's (its own trees
	// and detours); nil: any path.
	family *firstHops

	lpIPM int // interior-point iterations of the restricted-LP calls so far

	ctx      context.Context // nil: never stopped
	progress func(Progress)  // nil: not reported
}

// stopped reports whether the caller's context asks the solver to stop.
func (s *pathSolver) stopped() bool {
	return s.ctx != nil && s.ctx.Err() != nil
}

func newPathSolver(g *Graph, d [][]float64) *pathSolver {
	n := g.N
	ix := newArcIndex(g)
	m := ix.arcs()
	s := &pathSolver{
		g: g, n: n, ix: ix, cap: make([]float64, m),
		rec:  make([]arcRec, m),
		tl:   make([]float64, m),
		mark: make([]bool, m),
		off:  []int32{0},
	}
	for e, a := range ix.dense {
		s.cap[e] = g.Cap[a]
		s.rec[e].cap = g.Cap[a]
	}
	s.dense = g.Arcs()*4 > n*n
	s.tree = s.newTree()
	for u, row := range d {
		start := int32(len(s.dst))
		for v, x := range row {
			if u != v && x > 0 {
				s.dst = append(s.dst, int32(v))
				s.dem = append(s.dem, x)
			}
		}
		if int32(len(s.dst)) > start {
			s.srcs = append(s.srcs, u)
			s.first = append(s.first, start)
		}
	}
	s.first = append(s.first, int32(len(s.dst)))
	s.active = make([][]int32, len(s.dst))
	// Enough detours for a dense graph's many near-shortest paths when
	// commodities are few, a handful when there are n² of them.
	s.maxDetours = max(4, 4*n*n/max(1, len(s.dst)))
	return s
}

// setLengths recomputes every arc cost from the loads.
func (s *pathSolver) setLengths() {
	for a, c := range s.cap {
		if c > 0 {
			s.rec[a].l = s.arcCost(a)
		}
	}
}

func (s *pathSolver) arcCost(a int) float64 {
	z := s.beta*s.rec[a].load/s.rec[a].cap - s.lift
	// Clamp: exp(±700) stays finite and positive.
	if z < -700 {
		z = -700
	} else if z > 700 {
		z = 700
	}
	return math.Exp(z) / s.rec[a].cap
}

// treeLengths copies the arc costs into tl for the next tree pass.
func (s *pathSolver) treeLengths() {
	for a := range s.rec {
		s.tl[a] = s.rec[a].l
	}
}

// congestion is max_e F_e/c_e.
func (s *pathSolver) congestion() float64 {
	worst := 0.0
	for a, c := range s.cap {
		if c > 0 {
			if r := s.rec[a].load / c; r > worst {
				worst = r
			}
		}
	}
	return worst
}

// tree is the scratch of one shortest-path tree: distances, parents and
// Dijkstra's state.
type tree struct {
	src    int32 // the source it was grown from (family trees)
	dist   []float64
	par    []int32
	parArc []int32 // id of the arc par[v]→v
	done   []bool
	order  []int32
	heap   heap
	want   []bool
}

func (s *pathSolver) newTree() *tree {
	n := s.n
	t := &tree{dist: make([]float64, n), par: make([]int32, n), parArc: make([]int32, n), done: make([]bool, n),
		order: make([]int32, 0, n), want: make([]bool, n)}
	if !s.dense {
		t.heap.items = make([]heapItem, 0, s.g.Arcs()+n)
	}
	return t
}

// shortestPaths grows the current tree from src under s.tl until every
// destination of source index i is settled.
func (s *pathSolver) shortestPaths(src, i int) { s.grow(s.tree, src, i) }

// grow grows t from src under s.tl until every destination of source index
// i is settled. It reads only s.tl, the graph and the commodities, so trees
// of different sources may grow concurrently.
func (s *pathSolver) grow(t *tree, src, i int) {
	if s.family != nil {
		s.family.grow(s, t, src, i)
		return
	}
	n := s.n
	for v := 0; v < n; v++ {
		t.dist[v] = math.Inf(1)
		t.done[v] = false
	}
	left := 0
	for k := s.first[i]; k < s.first[i+1]; k++ {
		t.want[s.dst[k]] = true
		left++
	}
	defer func() {
		for k := s.first[i]; k < s.first[i+1]; k++ {
			t.want[s.dst[k]] = false
		}
	}()
	t.dist[src] = 0
	t.par[src] = -1
	t.order = t.order[:0]
	settle := func(u int) bool {
		t.done[u] = true
		t.order = append(t.order, int32(u))
		if t.want[u] {
			left--
		}
		return left == 0
	}
	if s.dense {
		for {
			u, best := -1, math.Inf(1)
			for v, dv := range t.dist {
				if dv < best && !t.done[v] {
					u, best = v, dv
				}
			}
			if u < 0 || settle(u) {
				return
			}
			o := s.ix.out[u]
			out := s.g.Out[u]
			row := s.tl[o : o+int32(len(out))]
			for j, v := range out {
				if nd := best + row[j]; nd < t.dist[v] {
					t.dist[v] = nd
					t.par[v] = int32(u)
					t.parArc[v] = o + int32(j)
				}
			}
		}
	}
	h := &t.heap
	h.items = h.items[:0]
	h.push(heapItem{0, int32(src)})
	for len(h.items) > 0 {
		it := h.pop()
		u := int(it.node)
		if t.done[u] || it.dist > t.dist[u] {
			continue
		}
		if settle(u) {
			return
		}
		o := s.ix.out[u]
		out := s.g.Out[u]
		row := s.tl[o : o+int32(len(out))]
		for j, v := range out {
			if nd := it.dist + row[j]; nd < t.dist[v] {
				t.dist[v] = nd
				t.par[v] = int32(u)
				t.parArc[v] = o + int32(j)
				h.push(heapItem{nd, v})
			}
		}
	}
}

// parallelTrees is how many goroutines grow trees in a pass: up to 4, as
// GOMAXPROCS allows, and 1 (no goroutines) when a pass is small (below
// ~2²⁴ relaxations) and the hand-off would cost more than it saves.
func (s *pathSolver) parallelTrees() int {
	work := len(s.srcs) * s.n * s.n
	if !s.dense {
		work = len(s.srcs) * (s.g.Arcs() + s.n)
	}
	if work < 1<<24 {
		return 1
	}
	return min(4, runtime.GOMAXPROCS(0))
}

// treePass calls visit(i) for every source index in order, with s.tree
// holding source i's tree. With workers > 1, trees grow ahead on that many
// goroutines into a ring of buffers while visit runs; the trees depend on
// s.tl only, which visit must not change, so the pass is deterministic.
// visit returning false ends the pass early (pass returns false then).
func (s *pathSolver) treePass(workers int, visit func(i int) bool) bool {
	own := s.tree
	defer func() { s.tree = own }()
	if workers <= 1 {
		for i, src := range s.srcs {
			s.grow(s.tree, src, i)
			if !visit(i) {
				return false
			}
		}
		return true
	}
	r := 2 * workers
	for len(s.ring) < r {
		s.ring = append(s.ring, s.newTree())
	}
	jobs := make(chan int, r)
	ready := make([]chan struct{}, r)
	for j := range ready {
		ready[j] = make(chan struct{}, 1)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				s.grow(s.ring[i%r], s.srcs[i], i)
				ready[i%r] <- struct{}{}
			}
		}()
	}
	next := 0
	for ; next < r && next < len(s.srcs); next++ {
		jobs <- next
	}
	ok := true
	for i := range s.srcs {
		<-ready[i%r]
		s.tree = s.ring[i%r]
		if !visit(i) {
			ok = false
			break
		}
		if next < len(s.srcs) {
			jobs <- next
			next++
		}
	}
	close(jobs)
	wg.Wait()
	return ok
}

// addTreePath makes the tree path to t a path of commodity k (reusing an
// identical active path) and returns its id. With u ≥ 0 the path is the
// tree path to u followed by the arc u→t (id e) instead.
func (s *pathSolver) addTreePath(k int, u, e, t int32) int32 {
	start := len(s.arcs)
	v := t
	if u >= 0 {
		s.arcs = append(s.arcs, e)
		v = u
	}
	for ; s.par[v] >= 0; v = s.par[v] {
		s.arcs = append(s.arcs, s.parArc[v])
	}
	p := s.arcs[start:]
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return s.intern(k, start)
}

// addFamilyPath makes the family path "first hop w (arc id e), then the
// least-length shortest path to t" a path of commodity k and returns its
// id.
func (s *pathSolver) addFamilyPath(k int, e, w, t int32) int32 {
	start := len(s.arcs)
	s.arcs = s.family.appendPath(s.arcs, e, w, t)
	return s.intern(k, start)
}

// intern makes the arcs from start to the end of the pool a path of
// commodity k, reusing an identical active path (then the arcs are
// dropped again), and returns its id.
func (s *pathSolver) intern(k, start int) int32 {
	p := s.arcs[start:]
	h := uint64(len(p))
	for _, a := range p {
		h = (h^uint64(a))*0x100000001b3 + 0x9e3779b97f4a7c15
	}
	for _, q := range s.active[k] {
		if s.hash[q] != h {
			continue
		}
		qa := s.arcs[s.off[q]:s.off[q+1]]
		if len(qa) == len(p) && equalArcs(qa, p) {
			s.arcs = s.arcs[:start]
			return q
		}
	}
	id := int32(len(s.x))
	s.off = append(s.off, int32(len(s.arcs)))
	s.hash = append(s.hash, h)
	s.com = append(s.com, int32(k))
	s.x = append(s.x, 0)
	s.active[k] = append(s.active[k], id)
	return id
}

// addDetours adds, for commodity k with destination t, the paths "tree
// path to an in-neighbour u, then u→t" whose cost is below the midpoint
// between the shortest distance and the costliest path carrying flow: every
// such path is a descent direction, and on dense graphs this supplies the
// many near-shortest paths of an optimal routing at once.
func (s *pathSolver) addDetours(k int, t int32) {
	worst := 0.0
	for _, p := range s.active[k] {
		if s.x[p] > 0 {
			worst = max(worst, s.pathCost(p))
		}
	}
	limit := s.dist[t] + (worst-s.dist[t])/2
	if !(limit > s.dist[t]) {
		return
	}
	cand := s.cand[:0]
	keepAll := s.maxDetours >= len(s.g.In[t])
	in := s.ix.inArc[s.ix.in[t]:s.ix.in[t+1]]
	for j, u := range s.g.In[t] {
		e := in[j]
		c := s.dist[u] + s.tl[e]
		if u == s.par[t] || !(c < limit) {
			continue
		}
		simple := true
		for v := u; v >= 0; v = s.par[v] {
			if v == t {
				simple = false
				break
			}
		}
		if !simple {
			continue
		}
		d := detour{c, u, e}
		if keepAll {
			cand = append(cand, d)
			continue
		}
		// Keep the maxDetours cheapest, sorted by (cost, via).
		if len(cand) == s.maxDetours {
			if !d.less(cand[len(cand)-1]) {
				continue
			}
			cand = cand[:len(cand)-1]
		}
		i := len(cand)
		cand = append(cand, d)
		for ; i > 0 && d.less(cand[i-1]); i-- {
			cand[i] = cand[i-1]
		}
		cand[i] = d
	}
	for _, d := range cand {
		s.addTreePath(k, d.via, d.arc, t)
	}
	s.cand = cand
}

type detour struct {
	cost float64
	via  int32
	arc  int32 // via→t
}

func (d detour) less(e detour) bool {
	return d.cost < e.cost || (d.cost == e.cost && d.via < e.via)
}

// compact drops the pool's paths that are neither active nor in the
// snapshot flows (ids are renumbered in order, so the run stays
// deterministic). It runs when dead paths outnumber live ones.
func (s *pathSolver) compact(flows []pathFlow) {
	live := 0
	for _, act := range s.active {
		live += len(act)
	}
	if len(s.x) < 2*(live+len(flows))+1024 {
		return
	}
	remap := make([]int32, len(s.x))
	for i := range remap {
		remap[i] = -1
	}
	for _, act := range s.active {
		for _, p := range act {
			remap[p] = 0
		}
	}
	for _, f := range flows {
		remap[f.p] = 0
	}
	arcs := make([]int32, 0, len(s.arcs)/2)
	off := make([]int32, 1, len(s.x)/2)
	var hash []uint64
	var com []int32
	var x []float64
	for p := range remap {
		if remap[p] < 0 {
			continue
		}
		remap[p] = int32(len(x))
		arcs = append(arcs, s.arcs[s.off[p]:s.off[p+1]]...)
		off = append(off, int32(len(arcs)))
		hash = append(hash, s.hash[p])
		com = append(com, s.com[p])
		x = append(x, s.x[p])
	}
	s.arcs, s.off, s.hash, s.com, s.x = arcs, off, hash, com, x
	for _, act := range s.active {
		for i, p := range act {
			act[i] = remap[p]
		}
	}
	for i := range flows {
		flows[i].p = remap[flows[i].p]
	}
}

func equalArcs(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (s *pathSolver) pathCost(p int32) float64 {
	c := 0.0
	for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
		c += s.rec[a].l
	}
	return c
}

// equilibrate runs one step of diagonally scaled gradient projection
// (Bertsekas–Gafni) on commodity k: with path costs c_p and curvatures
// h_p = β·Σ_{e∈p} l_e/c_e, the new flows are x_p' = max(0, x_p − (c_p − μ)/h_p)
// with μ chosen so that they sum to the demand (a projected Newton step on
// Φ with the Hessian's diagonal). Paths left without flow, other than the
// cheapest, leave the active set. It returns the work done (arcs visited).
func (s *pathSolver) equilibrate(k int) int {
	act := s.active[k]
	if len(act) < 2 {
		return 1
	}
	bp := s.bp[:0]
	work, best := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, p := range act {
		c, h, cmin := 0.0, 0.0, math.Inf(1)
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			c += s.rec[a].l
			h += s.rec[a].l / s.rec[a].cap
			cmin = min(cmin, s.rec[a].cap)
		}
		work += int(s.off[p+1] - s.off[p])
		bp = append(bp, breakpoint{c: c, h: h, i: int32(i), cmin: cmin})
		if c < bp[best].c {
			best = i
		}
		lo = min(lo, c)
		if s.x[p] > 0 {
			hi = max(hi, c)
		}
	}
	s.bp = bp
	if !(hi-lo > 1e-12*lo) {
		return work
	}
	// Curvature h_p = β·Σ_{e∈p} l_e/c_e, but at least β·(spread)/min_e c_e:
	// a path on nearly idle arcs looks flat to the quadratic model, yet
	// its cost grows e-fold once an arc's congestion rises by 1/β, so no
	// path moves more than min_e c_e/β per step (a trust region).
	for j := range bp {
		b := &bp[j]
		b.h = s.beta * max(b.h, (hi-lo)/b.cmin)
		b.mu = b.c - s.x[act[b.i]]*b.h
	}
	d := s.dem[k]
	mu := s.projectMu(bp, act, d)
	// Direction δ_p = x_p' − x_p; its step length is a Newton step along δ
	// with the exact curvature Σ_e (β·l_e/c_e)·(Σ_{p∋e} δ_p)², which counts
	// arcs shared by several of the commodity's paths.
	slope := 0.0
	for j := range bp {
		b := &bp[j]
		p := act[b.i]
		nx := s.x[p] - (b.c-mu)/b.h
		if nx < 0 {
			nx = 0
		}
		b.mu = nx - s.x[p] // reuse: the direction
		slope += b.c * b.mu
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].acc += b.mu
		}
	}
	curv := 0.0
	for _, b := range bp {
		p := act[b.i]
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			if y := s.rec[a].acc; y != 0 {
				curv += s.rec[a].l / s.rec[a].cap * y * y
				s.rec[a].acc = 0
			}
		}
	}
	curv *= s.beta
	if !(slope < 0) {
		return work
	}
	// The step stops at the projection (α ≤ 1) or where a flow hits zero.
	amax, blocking := 1.0, int32(-1)
	for _, b := range bp {
		if b.mu < 0 {
			if r := s.x[act[b.i]] / -b.mu; r < amax {
				amax, blocking = r, b.i
			}
		}
	}
	alpha := amax
	if curv > 0 {
		alpha = min(amax, -slope/curv)
	}
	sum, big := 0.0, int32(-1)
	pruned, floor := 0.0, s.pruneBelow*d
	for _, b := range bp {
		p := act[b.i]
		delta := alpha * b.mu
		if delta == 0 {
			continue
		}
		nx := s.x[p] + delta
		if nx < 0 || (alpha == amax && b.i == blocking) {
			nx, delta = 0, -s.x[p]
		} else if delta < 0 && nx < floor && b.i != int32(best) {
			nx, delta = 0, -s.x[p]
			pruned += s.x[p]
		}
		s.x[p] = nx
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].load += delta
		}
	}
	// A pruned path's flow goes to the cheapest path (a descent move).
	if pruned > 0 {
		p := act[best]
		s.x[p] += pruned
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].load += pruned
		}
	}
	// Keep Σ_p x_p = d_k exact up to rounding: the largest path absorbs
	// the drift.
	for _, b := range bp {
		p := act[b.i]
		sum += s.x[p]
		if big < 0 || s.x[p] > s.x[big] {
			big = p
		}
	}
	drifted := int32(-1)
	if drift := d - sum; drift != 0 && s.x[big]+drift >= 0 {
		s.x[big] += drift
		for _, a := range s.arcs[s.off[big]:s.off[big+1]] {
			s.rec[a].load += drift
		}
		drifted = big
	}
	// Only the arcs of paths whose flow moved have new loads (the others'
	// costs would be recomputed to the same values).
	for _, b := range bp {
		p := act[b.i]
		if alpha*b.mu == 0 && p != drifted && !(pruned > 0 && b.i == int32(best)) {
			continue
		}
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].l = s.arcCost(int(a))
		}
	}
	cheapest := act[best]
	keep := act[:0]
	for _, p := range act {
		if p == cheapest || s.x[p] > 0 {
			keep = append(keep, p)
		}
	}
	s.active[k] = keep
	return 3 * work
}

// projectMu solves Σ_p max(0, x_p − (c_p − μ)/h_p) = d for μ. The sum
// f(μ) is piecewise linear, convex and increasing, with breakpoints
// b_p = c_p − x_p·h_p (bp[j].mu). Newton's method from the right, each step
// the root of the piece made of the terms with b_p < μ, never overshoots
// and stops exactly once a step keeps the same terms: O(paths) per step and
// a handful of steps, where sorting the breakpoints cost O(p log p). After
// 32 steps it falls back to the sort.
func (s *pathSolver) projectMu(bp []breakpoint, act []int32, d float64) float64 {
	sa, sb, bmax := 0.0, 0.0, math.Inf(-1)
	for _, b := range bp {
		sa += s.x[act[b.i]] - b.c/b.h
		sb += 1 / b.h
		bmax = max(bmax, b.mu)
	}
	mu := (d - sa) / sb
	if mu >= bmax {
		return mu // every path keeps flow
	}
	mu, prev := bmax, -1
	for step := 0; step < 32; step++ {
		sa, sb = 0, 0
		terms := 0
		for _, b := range bp {
			if b.mu < mu {
				sa += s.x[act[b.i]] - b.c/b.h
				sb += 1 / b.h
				terms++
			}
		}
		if terms == 0 {
			return mu
		}
		next := (d - sa) / sb
		if terms == prev || !(next < mu) {
			return next
		}
		mu, prev = next, terms
	}
	slices.SortFunc(bp, func(a, b breakpoint) int { return cmp.Compare(a.mu, b.mu) })
	sa, sb = 0, 0
	for j, b := range bp {
		sa += s.x[act[b.i]] - b.c/b.h
		sb += 1 / b.h
		mu = (d - sa) / sb
		if j+1 == len(bp) || mu <= bp[j+1].mu {
			break
		}
	}
	return mu
}

type breakpoint struct {
	mu, c, h, cmin float64
	i              int32
}

// snapshot lists (path, flow) for every path with flow.
type pathFlow struct {
	p int32
	x float64
}

func (s *pathSolver) snapshot(dst []pathFlow) []pathFlow {
	dst = dst[:0]
	for _, act := range s.active {
		for _, p := range act {
			if s.x[p] > 0 {
				dst = append(dst, pathFlow{p, s.x[p]})
			}
		}
	}
	return dst
}

// solveState is the continuation between iterations: a solve can pause
// after any whole iteration and resume with the same iterates as one run
// (the design question refines its designs in rounds this way).
type solveState struct {
	gap     float64
	flows   []pathFlow // best flow snapshot, congestion lam
	lam     float64
	lengths []float64 // best lengths (per arc id), bound upper
	upper   float64
	iters   int

	kappa                 float64
	prevEq, bestEq        float64
	bestEqIter            int
	stallGap              float64
	stallIter             int
	initial               bool
	lpNext, lpCalls       int
	finished, interrupted bool // gap met (or stalled); stopped by the context
	seeded                bool // the hop bound has been evaluated
}

// newSolveState is a solve toward the certified gap, not yet started.
func (s *pathSolver) newSolveState(gap float64) *solveState {
	return &solveState{gap: gap, lengths: make([]float64, s.ix.arcs()), lam: math.Inf(1), upper: math.Inf(1),
		kappa: 4, prevEq: math.Inf(1), bestEq: math.Inf(1), stallGap: math.Inf(1), initial: true,
		lpNext: restrictedLPAfter}
}

// lpRule is how a restricted-LP call ends (within gap/share of its dual
// bound) and how many calls the solve makes: hop-seeded solves have their
// own (seededDualShare, seededPredTol, a stop once the conjugate
// gradients hit their cap without lifting the bound, the arcs renumbered;
// seededLPMaxCalls).
func (st *solveState) lpRule() (rule lpCallRule, calls int) {
	if st.seeded {
		return lpCallRule{share: seededDualShare, predTol: seededPredTol, capStop: true, renumber: true}, seededLPMaxCalls
	}
	return lpCallRule{share: lpDualShare}, lpMaxCalls
}

// solve runs the continuation until the certified gap is at most gap or
// maxIter outer iterations have passed. It returns the best flow snapshot
// with its congestion, the best lengths with their bound, and the number
// of outer iterations.
//
// When the context is done it stops at the next source or sweep and
// returns the best certificate of the completed iterations (interrupted is
// true); a partial pass of trees is discarded, never mixed into the bound.
func (s *pathSolver) solve(gap float64, maxIter int) (flows []pathFlow, lam float64, lengths []float64, upper float64, iters int, interrupted bool) {
	st := s.newSolveState(gap)
	s.run(st, maxIter)
	return st.flows, st.lam, st.lengths, st.upper, st.iters, st.interrupted
}

// run continues st until its gap is met, the context stops it, or
// maxIter outer iterations have passed in all (then it can be resumed).
func (s *pathSolver) run(st *solveState, maxIter int) {
	n := s.n
	workers := s.workers
	if workers == 0 {
		workers = s.parallelTrees()
	}
	if st.initial {
		if s.family == nil && !st.seeded && s.n >= hopBoundMinNodes {
			st.seeded = true
			st.lpNext = seededLPAfter
			s.seedHopBound(st, workers)
		}
		// Start: unit lengths per capacity, every commodity on its shortest path.
		for a, c := range s.cap {
			if c > 0 {
				s.rec[a].l = 1 / c
			}
		}
	}
	const (
		sweepCost = 8 // a swept arc (exp, curvature) against a tree relaxation
		minSweeps = 5
	)
	for !st.finished && !st.interrupted && st.iters < maxIter {
		st.iters++
		s.compact(st.flows)
		// Column generation and the certificate under the current l.
		alpha := 0.0
		s.treeLengths()
		if s.family != nil {
			s.family.update(s.g, &s.ix, s.tl)
		}
		complete := s.treePass(workers, func(i int) bool {
			if !st.initial && s.stopped() {
				return false
			}
			for k := s.first[i]; k < s.first[i+1]; k++ {
				t := s.dst[k]
				alpha += s.dem[k] * s.dist[t]
				var p int32
				if s.family != nil {
					p = s.addFamilyPath(int(k), s.parArc[t], s.par[t], t)
				} else {
					p = s.addTreePath(int(k), -1, -1, t)
				}
				if st.initial {
					s.x[p] = s.dem[k]
					for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
						s.rec[a].load += s.dem[k]
					}
				} else if s.family != nil {
					s.family.detours(s, int(k), t)
				} else {
					s.addDetours(int(k), t)
				}
			}
			return true
		})
		if !complete {
			st.iters--
			st.interrupted = true
			return
		}
		treeWork := len(s.srcs) * n * n
		if !s.dense {
			treeWork = len(s.srcs) * (s.g.Arcs() + n) * 4
		}
		vol, work := 0.0, 0.0
		for a, c := range s.cap {
			if c > 0 {
				vol += c * s.rec[a].l
				work += s.rec[a].load * s.rec[a].l
			}
		}
		if ub := vol / alpha; ub < st.upper {
			st.upper = ub
			for a := range s.rec {
				st.lengths[a] = s.rec[a].l
			}
		}
		cong := s.congestion()
		if cong < st.lam {
			st.lam = cong
			st.flows = s.snapshot(st.flows)
		}
		if st.initial {
			st.initial = false
			s.beta = st.kappa / cong
			s.lift = st.kappa
			s.setLengths()
			st.iters--
			continue
		}
		g := relGap(1/st.lam, st.upper)
		if s.progress != nil {
			up := outwardUpper(1/st.lam, st.upper)
			s.progress(Progress{Iteration: st.iters, Lower: 1 / st.lam, Upper: up, Gap: relGap(1/st.lam, up)})
		}
		if g <= st.gap {
			st.finished = true
			return
		}
		if s.stopped() {
			st.interrupted = true
			return
		}
		// A slow solve's lower bound comes from the exact LP over its
		// current paths (the dual, from the trees, is unchanged).
		if s.family == nil && st.iters >= st.lpNext && (g <= lpCallGap*st.gap || st.seeded) && st.iters*treeWork >= restrictedLPWorkRatio*s.activeEntries() {
			rule, calls := st.lpRule()
			f, l := s.restrictedFlowRule(st.upper, st.gap, rule)
			st.lpNext = math.MaxInt
			if l < st.lam {
				// Another call (on twice the iterations' paths) only
				// after one that lifted the bound by a quarter gap.
				if st.lpCalls++; st.lpCalls < calls && 1/l >= (1+st.gap/4)/st.lam {
					st.lpNext = 2 * st.iters
				}
				st.lam, st.flows = l, f
			}
			if relGap(1/st.lam, st.upper) <= st.gap {
				st.finished = true
				return
			}
		}
		// Floating point ends the progress somewhere below 1e-7: stop when
		// the certified gap has not improved by 1% in 1000 iterations.
		if g < 0.99*st.stallGap {
			st.stallGap, st.stallIter = g, st.iters
		} else if st.iters-st.stallIter >= 1000 {
			st.finished = true
			return
		}
		// Raise β once the paths are near equilibrium for this β: the
		// Wardrop error (1 − A/W) is small next to the smoothing error
		// (1 − W/(λ·V)).
		eq := 1 - alpha/work
		sm := 1 - work/(cong*vol)
		// Sweeps stall on strongly coupled instances: when the Wardrop
		// error fell by less than a fifth since the last iteration at this
		// β, a coupled Newton step follows the sweeps.
		stalled := eq > 0.8*st.prevEq
		st.prevEq = eq
		// The sweeps may level off at eq ≈ sm/4 (both scale like 1/κ):
		// raise β also when eq < sm/2 has not improved by 5% in 100
		// iterations.
		if eq < 0.95*st.bestEq {
			st.bestEq, st.bestEqIter = eq, st.iters
		}
		if sm > st.gap/4 && (eq < sm/4 || (eq < sm/2 && st.iters-st.bestEqIter >= 100)) {
			st.bestEq, st.bestEqIter = math.Inf(1), st.iters
			st.prevEq = math.Inf(1)
			st.kappa *= 2
			if st.seeded && st.kappa >= seededPruneKappa {
				s.pruneBelow = seededPruneShare
			}
		}
		s.beta = st.kappa / cong
		s.lift = st.kappa
		s.setLengths()
		// Gradient-projection sweeps over the path sets: at least
		// minSweeps (sweeps are cheap next to trees on sparse graphs), then
		// until they cost about as much as the trees.
		sweeps, sweepWork := 0, 0
		for {
			sweepWork = 0
			for k := range s.active {
				sweepWork += s.equilibrate(k)
			}
			sweeps++
			if c := s.congestion(); c < st.lam {
				st.lam = c
				st.flows = s.snapshot(st.flows)
			}
			if s.stopped() || sweeps >= minSweeps && (sweeps >= 50 || sweeps*sweepWork*sweepCost >= treeWork) {
				break
			}
		}
		if stalled && !s.stopped() {
			s.coupledStep(2 * (treeWork + sweeps*sweepWork*sweepCost))
			if c := s.congestion(); c < st.lam {
				st.lam = c
				st.flows = s.snapshot(st.flows)
			}
		}
	}
}

// throughputFamily runs the path solver on any path or, with vlbSlice,
// on VLBSlice's family, and packs its certificate.
func throughputFamily(g *Graph, d [][]float64, o *Options, vlbSlice bool) *Result {
	s := newPathSolver(g, d)
	if vlbSlice {
		s.family, s.workers = newFirstHops(g, &s.ix), 1 // its trees are a few sums per pair
	}
	s.ctx, s.progress = o.Context, o.Progress
	st := s.newSolveState(o.Gap)
	s.run(st, o.MaxPhases)
	return s.certificate(st)
}

// interval is the certified interval of st so far (lower ≤ θ* ≤ upper,
// upper rounded outward); [0, +Inf) before the first iteration.
func (st *solveState) interval() (lower, upper float64) {
	if math.IsInf(st.lam, 1) {
		return 0, math.Inf(1)
	}
	return 1 / st.lam, outwardUpper(1/st.lam, st.upper)
}

// certificate packs st's best flow and lengths into a Result. It reuses
// the solver's loads, so the solve cannot continue after it.
func (s *pathSolver) certificate(st *solveState) *Result {
	res := &Result{Lengths: s.ix.expand(st.lengths, s.n), Upper: st.upper, Iterations: st.iters, Interrupted: st.interrupted}
	// Rebuild the arc flows of the best snapshot and scale them to fit.
	for a := range s.rec {
		s.rec[a].load = 0
	}
	for _, pf := range st.flows {
		for _, a := range s.arcs[s.off[pf.p]:s.off[pf.p+1]] {
			s.rec[a].load += pf.x
		}
	}
	lam := s.congestion()
	res.Flow = make([]SourceFlow, s.n)
	if lam > 0 {
		res.Lower = 1 / lam
		s.packFlows(res.Flow, st.flows, lam)
	}
	res.Theta = res.Lower
	res.Upper = outwardUpper(res.Lower, res.Upper)
	res.Gap = relGap(res.Lower, res.Upper)
	return res
}

// upperRoundoff is the relative slack added to the dual bound for the
// rounding of its sums: where θ* is known exactly (Sirius's 0.9590625),
// the feasible flow's 1/λ can land a few dozen ulps above the computed
// Σ c·l / Σ D·dist, an interval printed upside down.
const upperRoundoff = 1e-12

// outwardUpper is the dual bound rounded outward: raised by upperRoundoff
// and never below the feasible flow's lower bound, so lower ≤ upper in
// every output, JSON and CSV included.
func outwardUpper(lower, upper float64) float64 {
	return math.Max(lower, upper*(1+upperRoundoff))
}

// packFlows sums the snapshot's paths per source into sparse arc flows
// scaled by 1/lam (flows is grouped by commodity, commodities by source),
// their arcs as u·n+v (ids sort as those do).
func (s *pathSolver) packFlows(out []SourceFlow, flows []pathFlow, lam float64) {
	srcOf := make([]int32, len(s.dst))
	for i, src := range s.srcs {
		for k := s.first[i]; k < s.first[i+1]; k++ {
			srcOf[k] = int32(src)
		}
	}
	rec, touched := s.rec, []int32(nil)
	for i := 0; i < len(flows); {
		src := srcOf[s.com[flows[i].p]]
		touched = touched[:0]
		for ; i < len(flows) && srcOf[s.com[flows[i].p]] == src; i++ {
			pf := flows[i]
			for _, a := range s.arcs[s.off[pf.p]:s.off[pf.p+1]] {
				if rec[a].acc == 0 {
					touched = append(touched, a)
				}
				rec[a].acc += pf.x / lam
			}
		}
		slices.Sort(touched)
		f := SourceFlow{Arcs: make([]int32, 0, len(touched)), X: make([]float64, 0, len(touched))}
		for _, a := range touched {
			if rec[a].acc != 0 {
				f.Arcs = append(f.Arcs, s.ix.dense[a])
				f.X = append(f.X, rec[a].acc)
				rec[a].acc = 0
			}
		}
		out[src] = f
	}
}

func relGap(lo, hi float64) float64 {
	if hi <= 0 {
		return 0
	}
	return math.Max(0, (hi-lo)/hi)
}

type heapItem struct {
	dist float64
	node int32
}

// heap is a binary min-heap on distances, reused across trees.
type heap struct{ items []heapItem }

func (h *heap) push(it heapItem) {
	h.items = append(h.items, it)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].dist <= it.dist {
			break
		}
		h.items[i] = h.items[p]
		i = p
	}
	h.items[i] = it
}

func (h *heap) pop() heapItem {
	top := h.items[0]
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	m := len(h.items)
	if m == 0 {
		return top
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= m {
			break
		}
		if c+1 < m && h.items[c+1].dist < h.items[c].dist {
			c++
		}
		if h.items[c].dist >= last.dist {
			break
		}
		h.items[i] = h.items[c]
		i = c
	}
	h.items[i] = last
	return top
}

// seededPruneShare is pruneBelow on hop-seeded solves (n ≥
// hopBoundMinNodes) once κ has reached seededPruneKappa. A sweep's step
// lowers a costly path's flow only geometrically, so without pruning the
// path stays active and every sweep visits it; pruning before κ's first
// doubling delayed the first descents that rule designs out
// (docs/perf-history.md, twelfth round). Any path flow routing the demand
// is a flow, so the lower bound stays certified; the upper bound comes
// from the trees.
var seededPruneShare = 1e-5 // a variable for tests

// seededPruneKappa: pruning starts once κ has reached it.
const seededPruneKappa = 16

// arcRec is an arc's state in the path solver.
type arcRec struct {
	l    float64 // arc cost exp(β·F_e/c_e − shift)/c_e
	cap  float64 // c_e
	load float64 // F_e, flow on arc e (full demand routed)
	acc  float64 // scratch, zero between uses
}
