package emulated

import (
	"errors"
	"fmt"
	"math"

	"github.com/rdcn/rdcn/demand"
)

// Result.Routing of VLBSlice and VLBSliceSpray.
const (
	RoutingVLBSlice      = "vlb-slice"
	RoutingVLBSliceSpray = "vlb-slice-spray"
)

// VLBSliceSpray is θ of vlb-slice's paths with the split the router's
// spraying makes: the first hop over every arc out of s in proportion to
// its capacity (each circuit up equally likely), then even over the
// shortest hop-count paths to t. A fixed routing: θ = min over arcs of
// c_e / load_e, Lower = Upper, no Flow (as VLB). VLBSlice's θ, with the
// best split, is at least this.
func VLBSliceSpray(g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	dn, err := prepare(g, d, opt != nil && opt.Raw)
	if err != nil {
		return nil, err
	}
	if !hasTraffic(dn) {
		return nil, errors.New("demand: has no traffic between distinct nodes")
	}
	first, legs := sprayLegs(g, dn)
	load, err := legLoads(g, legs, first)
	if err != nil {
		return nil, err
	}
	theta := loadTheta(g, load)
	return &Result{Theta: theta, Lower: theta, Upper: theta, Routing: RoutingVLBSliceSpray,
		Solver: "closed-form", Demand: dn}, nil
}

// sprayLegs splits the demand at the first hop: first[s·n+w] is the load
// of the arcs out of the sources (D_st in proportion to c_sw over s's
// out-capacity), legs[w][t] what each first hop w forwards to t.
func sprayLegs(g *Graph, dn demand.Matrix) (first []float64, legs [][]float64) {
	n := g.N
	first = make([]float64, n*n)
	legs = make([][]float64, n)
	for w := range legs {
		legs[w] = make([]float64, n)
	}
	for s, row := range dn {
		out := g.OutCapacity(s)
		for t, x := range row {
			if s == t || x == 0 || out == 0 {
				continue
			}
			for _, w := range g.Out[s] {
				share := x * g.Cap[s*n+int(w)] / out
				first[s*n+int(w)] += share
				if int(w) != t {
					legs[w][t] += share
				}
			}
		}
	}
	return first, legs
}

// VLBSlice is the maximum concurrent flow θ(D) of the hose-normalised
// demand d when every s→t path is the flow model of the simulator's
// vlb-slice routing (Valiant as RotorNet sprays it): a first arc s→w to
// any out-neighbour w of s (w = t is the direct arc), then a shortest
// hop-count path w→t of g. The split over these paths is free (the best
// one), so θ is an upper bound on what a fixed spray achieves on the same
// graph. It is solved by Throughput's certified path solver with its
// column generation restricted to the family; the certificate is a flow
// on such paths that routes Lower·D and a length function l proving
//
//	θ ≤ Upper = Σ_e c_e·l_e / Σ_{s,t} D_st·min_{p∈P(s,t)} l(p),
//
// the dual of the path-restricted problem (Verify recomputes the minimum
// over the family independently). Paths may pass through s again (a
// shortest path from w may), as the router's packets do.
func VLBSlice(g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	o, dn, err := solverInput(g, d, opt)
	if err != nil {
		return nil, err
	}
	var res *Result
	if connected(g, dn) {
		res = throughputFamily(g, dn, &o, true)
	} else {
		res = zeroResult(g.N)
	}
	res.Demand = dn
	res.Routing = RoutingVLBSlice
	res.Solver = "fptas"
	return res, nil
}

// firstHops is the path family of VLBSlice for the path solver: per
// destination t, the hop distances to t (fixed) and, under the current
// lengths, the least length among the shortest hop-count paths from every
// node to t and the first arc on it.
type firstHops struct {
	n     int
	ix    *arcIndex // the solver's arc ids
	hops  []int32   // [t·n+u]: hop distance u→t, −1 if t is unreachable from u
	order []int32   // [t·n+i]: the nodes by hop distance to t (t first), −1 padded
	best  []float64
	next  []int32 // [t·n+u]: id of the first arc of that path, −1 if none
}

func newFirstHops(g *Graph, ix *arcIndex) *firstHops {
	n := g.N
	f := &firstHops{n: n, ix: ix, hops: make([]int32, n*n), order: make([]int32, n*n),
		best: make([]float64, n*n), next: make([]int32, n*n)}
	for t := 0; t < n; t++ {
		h, ord := f.hops[t*n:(t+1)*n], f.order[t*n:(t+1)*n]
		for i := range h {
			h[i], ord[i] = -1, -1
		}
		h[t], ord[0] = 0, int32(t)
		for head, tail := 0, 1; head < tail; head++ {
			v := ord[head]
			for _, u := range g.In[v] {
				if h[u] < 0 {
					h[u] = h[v] + 1
					ord[tail] = u
					tail++
				}
			}
		}
	}
	return f
}

// update recomputes best and next under the arc lengths l (per arc id of
// ix): in order of hop distance to t, best(u) = min over out-neighbours v
// one hop closer of l(u,v) + best(v).
func (f *firstHops) update(g *Graph, ix *arcIndex, l []float64) {
	n := f.n
	for t := 0; t < n; t++ {
		h, ord := f.hops[t*n:(t+1)*n], f.order[t*n:(t+1)*n]
		best, next := f.best[t*n:(t+1)*n], f.next[t*n:(t+1)*n]
		for u := range best {
			best[u], next[u] = math.Inf(1), -1
		}
		best[t] = 0
		for _, u := range ord[1:] {
			if u < 0 {
				break
			}
			o := ix.out[u]
			out := g.Out[u]
			row := l[o : o+int32(len(out))]
			for j, v := range out {
				if h[v] == h[u]-1 {
					if c := row[j] + best[v]; c < best[u] {
						best[u], next[u] = c, o+int32(j)
					}
				}
			}
		}
	}
}

// grow fills tree t for source index i: for every destination d of the
// source, dist[d] is the least length over the family, par[d] the first
// hop w of that path and parArc[d] the id of the arc src→w.
func (f *firstHops) grow(s *pathSolver, t *tree, src, i int) {
	n := f.n
	o := f.ix.out[src]
	out := s.g.Out[src]
	row := s.tl[o : o+int32(len(out))]
	t.src = int32(src)
	for k := s.first[i]; k < s.first[i+1]; k++ {
		d := int(s.dst[k])
		t.dist[d], t.par[d] = math.Inf(1), -1
		for j, w := range out {
			if c := row[j] + f.best[d*n+int(w)]; c < t.dist[d] {
				t.dist[d], t.par[d], t.parArc[d] = c, w, o+int32(j)
			}
		}
	}
}

// appendPath appends the arc ids of the family's path: the first arc e
// (into w), then the current least-length shortest path w→d.
func (f *firstHops) appendPath(arcs []int32, e, w, d int32) []int32 {
	n := int32(f.n)
	arcs = append(arcs, e)
	for u := w; u != d; {
		a := f.next[d*n+u]
		arcs = append(arcs, a)
		u = f.ix.head[a]
	}
	return arcs
}

// detours adds to commodity k (destination d) the family's paths through
// the other first hops whose length is below the midpoint between the
// least length and the costliest path carrying flow, as addDetours does
// for routing any.
func (f *firstHops) detours(s *pathSolver, k int, d int32) {
	worst := 0.0
	for _, p := range s.active[k] {
		if s.x[p] > 0 {
			worst = max(worst, s.pathCost(p))
		}
	}
	limit := s.dist[d] + (worst-s.dist[d])/2
	if !(limit > s.dist[d]) {
		return
	}
	n := int32(f.n)
	src := s.tree.src
	o := f.ix.out[src]
	for j, w := range s.g.Out[src] {
		if w == s.par[d] {
			continue
		}
		if c := s.tl[o+int32(j)] + f.best[d*n+w]; c < limit {
			s.addFamilyPath(k, o+int32(j), w, d)
		}
	}
}

// distances is Verify's independent evaluation of the family's least
// lengths: for every first hop w a forward search from w (hop distances,
// then the least length over shortest hop-count paths in that order),
// and the minimum over the first hops. dist[s·n+t] for the pairs with
// demand; +Inf where no family path exists.
func familyDistances(g *Graph, d demand.Matrix, l []float64) []float64 {
	n := g.N
	from := make([][]float64, n) // from[w][v]: least length of a shortest w→v path
	hop := make([]int, n)
	for w := 0; w < n; w++ {
		m := make([]float64, n)
		for v := range m {
			m[v], hop[v] = math.Inf(1), -1
		}
		m[w], hop[w] = 0, 0
		queue := []int{w}
		for head := 0; head < len(queue); head++ {
			u := queue[head]
			for _, v := range g.Out[u] {
				if hop[v] < 0 {
					hop[v] = hop[u] + 1
					queue = append(queue, int(v))
				}
			}
		}
		for _, v := range queue[1:] {
			for _, u := range g.In[v] {
				if hop[u] == hop[v]-1 {
					m[v] = math.Min(m[v], m[u]+l[int(u)*n+v])
				}
			}
		}
		from[w] = m
	}
	dist := make([]float64, n*n)
	for s, row := range d {
		for t, x := range row {
			dist[s*n+t] = math.Inf(1)
			if s == t || x <= 0 {
				continue
			}
			for _, w := range g.Out[s] {
				dist[s*n+t] = math.Min(dist[s*n+t], l[s*n+int(w)]+from[w][t])
			}
		}
	}
	return dist
}

// familyBound is the dual bound of VLBSlice's lengths, evaluated with
// familyDistances.
func familyBound(g *Graph, d demand.Matrix, lengths []float64) (float64, error) {
	n := g.N
	if len(lengths) != n*n {
		return 0, fmt.Errorf("certificate: %d lengths, want %d", len(lengths), n*n)
	}
	vol := 0.0
	for a, c := range g.Cap {
		l := lengths[a]
		if l < 0 || math.IsNaN(l) || math.IsInf(l, 0) {
			return 0, fmt.Errorf("certificate: length of %d→%d is %v", a/n, a%n, l)
		}
		if c > 0 {
			vol += c * l
		}
	}
	dist := familyDistances(g, d, lengths)
	alpha := demandDistance(d, dist, n)
	if math.IsInf(alpha, 1) {
		return 0, nil
	}
	if alpha == 0 {
		return 0, fmt.Errorf("certificate: length function is zero")
	}
	return vol / alpha, nil
}

// familyArcs checks that every arc a source's flow uses can lie on one of
// its family paths: an arc out of the source (a first hop), or an arc u→v
// one hop closer to some destination the source has demand for. (The
// flow is summed per source, so this is necessary, not sufficient.)
func familyArcs(g *Graph, d demand.Matrix, r *Result, tol float64) error {
	n := g.N
	hops := g.HopDistances()
	for s, f := range r.Flow {
		for i, x := range f.X {
			a := int(f.Arcs[i])
			u, v := a/n, a%n
			if x <= tol || u == s {
				continue
			}
			ok := false
			for t, dem := range d[s] {
				if dem > 0 && t != s && hops[u][t] >= 0 && hops[v][t] == hops[u][t]-1 {
					ok = true
					break
				}
			}
			if !ok {
				return fmt.Errorf("certificate: flow of source %d uses %d→%d, on no shortest path toward its destinations", s, u, v)
			}
		}
	}
	return nil
}
