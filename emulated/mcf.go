package emulated

import (
	"math"
)

// solver is the Garg–Könemann / Fleischer multiplicative-weights method for
// maximum concurrent flow with commodities grouped by source: every phase
// routes each source's whole demand vector along shortest-path trees under
// the arc lengths l, and lengthens every arc it uses by (1 + ε·x/c_e).
// Two bounds come for free: the flow accumulated over all phases, scaled
// down by its largest congestion, is feasible (lower bound), and every
// length function l gives θ ≤ Σ c_e·l_e / Σ D_st·dist_l(s,t) (upper bound).
type solver struct {
	g        *Graph
	n        int
	cap      []float64
	dem      []float64 // n×n hose-normalised demand
	srcs     []int     // sources with demand
	need     []int     // number of destinations of each source
	dense    bool      // scan-based Dijkstra (dense graphs) or binary heap
	eps      float64   // length growth rate ε
	tau      float64   // admissible reduced cost, relative to the arc length
	minEps   float64   // smallest ε of the schedule
	epochLen int       // longest epoch, in phases

	l     []float64   // arc lengths
	total []float64   // accumulated flow per arc
	flow  [][]float64 // accumulated flow per source per arc

	// scratch, reused by every shortest-path tree
	dist  []float64
	par   []int32
	order []int32
	done  []bool
	sub   []float64
	rem   []float64
	heap  heap
	arcs  []arcFlow
}

func newSolver(g *Graph, d [][]float64) *solver {
	n := g.N
	s := &solver{
		g: g, n: n, cap: g.Cap,
		dem:   make([]float64, n*n),
		need:  make([]int, n),
		l:     make([]float64, n*n),
		total: make([]float64, n*n),
		flow:  make([][]float64, n),
		dist:  make([]float64, n),
		par:   make([]int32, n),
		order: make([]int32, 0, n),
		done:  make([]bool, n),
		sub:   make([]float64, n),
		rem:   make([]float64, n),
	}
	s.dense = g.Arcs()*4 > n*n
	s.eps, s.tau, s.minEps, s.epochLen = 0.2, 0.1, 1e-4, 1<<30
	s.heap.items = make([]heapItem, 0, g.Arcs()+n)
	s.arcs = make([]arcFlow, 0, g.Arcs())
	for u, row := range d {
		for v, x := range row {
			if u != v && x > 0 {
				s.dem[u*n+v] = x
				s.need[u]++
			}
		}
		if s.need[u] > 0 {
			s.srcs = append(s.srcs, u)
			s.flow[u] = make([]float64, n*n)
		}
	}
	return s
}

// reachable reports whether every demand pair is connected.
func (s *solver) reachable() bool {
	for _, src := range s.srcs {
		for i := range s.rem {
			s.rem[i] = 0
		}
		for i := range s.l {
			s.l[i] = 1
		}
		s.shortestPaths(src, s.dem[src*s.n:(src+1)*s.n], true)
		for t := 0; t < s.n; t++ {
			if s.dem[src*s.n+t] > 0 && !s.done[t] {
				return false
			}
		}
	}
	return true
}

// shortestPaths grows the shortest-path tree from src under s.l until every
// node t with want[t] > 0 is settled (every reachable node when all is
// set). It fills dist, par, done and order (settled nodes by distance).
func (s *solver) shortestPaths(src int, want []float64, all bool) {
	n := s.n
	for i := 0; i < n; i++ {
		s.dist[i] = math.Inf(1)
		s.done[i] = false
	}
	s.dist[src] = 0
	s.par[src] = -1
	s.order = s.order[:0]
	left := s.need[src]
	if all {
		left = n + 1
	}
	if s.dense {
		for {
			u, best := -1, math.Inf(1)
			for v := 0; v < n; v++ {
				if !s.done[v] && s.dist[v] < best {
					u, best = v, s.dist[v]
				}
			}
			if u < 0 {
				return
			}
			if s.settle(u, want, &left) {
				return
			}
			row := s.l[u*n : (u+1)*n]
			for _, v := range s.g.Out[u] {
				if nd := best + row[v]; nd < s.dist[v] {
					s.dist[v] = nd
					s.par[v] = int32(u)
				}
			}
		}
	}
	h := &s.heap
	h.items = h.items[:0]
	h.push(heapItem{0, int32(src)})
	for len(h.items) > 0 {
		it := h.pop()
		u := int(it.node)
		if s.done[u] || it.dist > s.dist[u] {
			continue
		}
		if s.settle(u, want, &left) {
			return
		}
		row := s.l[u*n : (u+1)*n]
		for _, v := range s.g.Out[u] {
			if nd := it.dist + row[v]; nd < s.dist[v] {
				s.dist[v] = nd
				s.par[v] = int32(u)
				h.push(heapItem{nd, v})
			}
		}
	}
}

// settle marks u done and reports whether the tree is complete.
func (s *solver) settle(u int, want []float64, left *int) bool {
	s.done[u] = true
	s.order = append(s.order, int32(u))
	if want[u] > 0 {
		*left--
	}
	return *left <= 0 || len(s.order) == s.n
}

// phase routes every source's demand once (weighted by w in the
// accumulated flow). Each step grows a shortest-path tree from the source
// and spreads the remaining demand over the DAG of near-shortest arcs
// (reduced cost ≤ τ·l_e, so every path used is within 1/(1−τ) of
// shortest), splitting the flow entering a node over its admissible
// in-arcs in proportion to capacity. The step is scaled so that no arc
// gets more than its capacity, lengths grow by (1 + ε·x_e/c_e), and the
// rest of the demand waits for the next step.
func (s *solver) phase(eps, tau, w float64) {
	n := s.n
	for _, src := range s.srcs {
		copy(s.rem, s.dem[src*n:(src+1)*n])
		fl := s.flow[src]
		for {
			s.shortestPaths(src, s.rem, false)
			for _, v := range s.order {
				s.sub[v] = s.rem[v]
			}
			s.arcs = s.arcs[:0]
			sigma := 1.0
			for i := len(s.order) - 1; i > 0; i-- {
				v := int(s.order[i])
				x := s.sub[v]
				if x <= 0 {
					continue
				}
				dv := s.dist[v]
				wsum := 0.0
				for _, u := range s.g.In[v] {
					a := int(u)*n + v
					if s.done[u] && s.dist[u]+s.l[a]-dv <= tau*s.l[a] {
						wsum += s.cap[a]
					}
				}
				for _, u := range s.g.In[v] {
					a := int(u)*n + v
					if s.done[u] && s.dist[u]+s.l[a]-dv <= tau*s.l[a] {
						y := x * s.cap[a] / wsum
						s.sub[u] += y
						s.arcs = append(s.arcs, arcFlow{int32(a), y})
						if s.cap[a] < sigma*y {
							sigma = s.cap[a] / y
						}
					}
				}
			}
			for _, af := range s.arcs {
				a := af.arc
				x := af.x * sigma
				fl[a] += w * x
				s.total[a] += w * x
				s.l[a] *= 1 + eps*x/s.cap[a]
			}
			if sigma >= 1 {
				break
			}
			for _, v := range s.order {
				s.rem[v] *= 1 - sigma
			}
		}
	}
}

type arcFlow struct {
	arc int32
	x   float64
}

// congestion is max_e total_e / c_e.
func (s *solver) congestion() float64 {
	worst := 0.0
	for u := 0; u < s.n; u++ {
		for _, v := range s.g.Out[u] {
			a := u*s.n + int(v)
			if r := s.total[a] / s.cap[a]; r > worst {
				worst = r
			}
		}
	}
	return worst
}

// lengthVolume is Σ c_e·l_e.
func (s *solver) lengthVolume() float64 {
	sum := 0.0
	for u := 0; u < s.n; u++ {
		for _, v := range s.g.Out[u] {
			a := u*s.n + int(v)
			sum += s.cap[a] * s.l[a]
		}
	}
	return sum
}

func (s *solver) scaleLengths(k float64) {
	for i := range s.l {
		s.l[i] *= k
	}
}

// dualBound is Σ c_e·l_e / Σ D_st·dist_l(s,t) for the current lengths.
func (s *solver) dualBound() float64 {
	alpha := 0.0
	for _, src := range s.srcs {
		want := s.dem[src*s.n : (src+1)*s.n]
		s.shortestPaths(src, want, false)
		for _, t := range s.order {
			alpha += want[t] * s.dist[t]
		}
	}
	return s.lengthVolume() / alpha
}

func (s *solver) solve(gap float64, maxPhases int) *Result {
	n := s.n
	res := &Result{Lengths: make([]float64, n*n)}
	if !s.reachable() {
		// Some demand pair is disconnected: θ = 0, certified by l ≡ 0.
		res.Flow = make([][]float64, n)
		for i := range res.Flow {
			res.Flow[i] = make([]float64, n*n)
		}
		return res
	}
	for i := range s.l {
		s.l[i] = 0
		if s.cap[i] > 0 {
			s.l[i] = 1 / s.cap[i]
		}
	}
	best := make([]float64, n*n)
	bestUB := math.Inf(1)
	// The primal is accumulated in epochs: ε starts large and halves once
	// the gap is within a few ε; each epoch sums its own flow (older flow
	// routed with coarse lengths only dilutes it) and the best epoch wins.
	bestFlow := make([][]float64, n)
	for _, u := range s.srcs {
		bestFlow[u] = make([]float64, n*n)
	}
	bestLower, bestCong := 0.0, 0.0
	eps, tau := s.eps, s.tau
	routed := 0.0
	phases, epochPhases := 0, 0
	keepEpoch := func(routed, cong float64) {
		if lower := routed / cong; lower > bestLower {
			bestLower, bestCong = lower, cong
			bestFlow, s.flow = s.flow, bestFlow
		}
	}
	for phases < maxPhases {
		s.phase(eps, tau, 1)
		phases++
		epochPhases++
		routed++
		vol := s.lengthVolume()
		if ub := s.dualBound(); ub < bestUB {
			bestUB = ub
			copy(best, s.l)
		}
		s.scaleLengths(1 / vol)
		cong := s.congestion()
		lower := routed / cong
		if relGap(math.Max(lower, bestLower), bestUB) <= gap {
			keepEpoch(routed, cong)
			break
		}
		if (relGap(lower, bestUB) < 3*eps && eps > s.minEps) || epochPhases >= s.epochLen {
			keepEpoch(routed, cong)
			eps /= 2
			tau = math.Min(tau, eps/2)
			routed, epochPhases = 0, 0
			for i := range s.total {
				s.total[i] = 0
			}
			for _, u := range s.srcs {
				clear(s.flow[u])
			}
		}
	}
	if routed > 0 {
		keepEpoch(routed, s.congestion())
	}
	res.Lower = bestLower
	res.Flow = make([][]float64, n)
	for u := range res.Flow {
		f := make([]float64, n*n)
		if bestFlow[u] != nil && bestCong > 0 {
			for a, x := range bestFlow[u] {
				f[a] = x / bestCong
			}
		}
		res.Flow[u] = f
	}
	copy(s.l, best)
	res.Upper = s.dualBound()
	copy(res.Lengths, best)
	res.Iterations = phases
	res.Theta = res.Lower
	res.Gap = relGap(res.Lower, res.Upper)
	return res
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
