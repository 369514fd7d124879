package mars

import (
	"math"

	"github.com/yourbasic/graph"
)

// DeBruijn is the generalised deBruijn digraph B(n, d) of Imase–Itoh and
// Reddy–Pradhan–Kuhl: vertices 0…n−1 and, for every vertex u and every digit
// a ∈ [0, d), one arc u → (u·d + a) mod n.
//
// Every vertex has out-degree d by construction, and in-degree d for every n,
// not only for n = dᵏ: the pairs (u, a) enumerate u·d + a = 0 … n·d − 1 exactly
// once, and each residue v mod n occurs d times among these n·d integers. So
// B(n, d) is a d-regular multigraph for all n ≥ 1, d ≥ 1. It has parallel arcs
// only when d > n, and self-loops at the u with u·(d−1) + a ≡ 0 (mod n);
// B(n, n) is the complete graph with one self-loop per vertex, the graph the
// thesis calls "complete" in Table 7.1.
type DeBruijn struct {
	Nodes  int // n
	Degree int // d
}

// Validate reports an unusable size.
func (g DeBruijn) Validate() error {
	if g.Nodes < 1 {
		return bad("nodes", g.Nodes, "must be at least 1")
	}
	if g.Degree < 1 {
		return bad("degree", g.Degree, "must be at least 1")
	}
	if int64(g.Nodes)*int64(g.Degree) > math.MaxInt32 {
		return bad("degree", g.Degree, "%d arcs per node on %d nodes is too large", g.Degree, g.Nodes)
	}
	return nil
}

// Successor is the head of the arc of u with digit a: (u·d + a) mod n.
func (g DeBruijn) Successor(u, a int) int {
	return int((int64(u)*int64(g.Degree) + int64(a)) % int64(g.Nodes))
}

// Matrix is the n×n arc-multiplicity matrix: Matrix()[u][v] counts the digits
// a with u → v. Every row and every column sums to d.
func (g DeBruijn) Matrix() ([][]int, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	n := g.Nodes
	flat := make([]int, n*n)
	m := make([][]int, n)
	for u := range m {
		m[u] = flat[u*n : (u+1)*n : (u+1)*n]
		for a := 0; a < g.Degree; a++ {
			m[u][g.Successor(u, a)]++
		}
	}
	return m, nil
}

// Order and Visit make DeBruijn a github.com/yourbasic/graph.Iterator over
// its arcs without materialising them (parallel arcs are visited once per
// digit, self-loops included, every cost 1).
func (g DeBruijn) Order() int { return g.Nodes }

// Visit calls do for every arc out of v, in digit order.
func (g DeBruijn) Visit(v int, do func(w int, c int64) bool) bool {
	for a := 0; a < g.Degree; a++ {
		if do(g.Successor(v, a), 1) {
			return true
		}
	}
	return false
}

// Stats describes a deBruijn digraph.
type Stats struct {
	SelfLoops    int     // arcs u → u (they carry nothing in a schedule)
	ParallelArcs int     // arcs beyond the first between the same ordered pair
	Diameter     int     // longest shortest path; −1 if not strongly connected
	AvgDistance  float64 // mean shortest-path length over ordered pairs u ≠ v (NaN if not strongly connected)
	LogBound     int     // ⌈log_d n⌉, the Imase–Itoh upper bound on the diameter (for d ≥ 2)
}

// Counts returns the self-loop and parallel-arc counts in O(n·d).
func (g DeBruijn) Counts() (selfLoops, parallel int, err error) {
	if err := g.Validate(); err != nil {
		return 0, 0, err
	}
	last := make([]int, g.Nodes) // last[v] = u+1 if u → v was seen for the current u
	for u := 0; u < g.Nodes; u++ {
		for a := 0; a < g.Degree; a++ {
			v := g.Successor(u, a)
			if v == u {
				selfLoops++
			}
			if last[v] == u+1 {
				parallel++
			}
			last[v] = u + 1
		}
	}
	return selfLoops, parallel, nil
}

// Analyze counts self-loops and parallel arcs and runs a breadth-first search
// from every vertex for the diameter and the average shortest-path length.
// It costs O(n²·d) time; for n = 4096, d = 64 that is about 10⁹ arc visits.
func (g DeBruijn) Analyze() (Stats, error) {
	loops, par, err := g.Counts()
	if err != nil {
		return Stats{}, err
	}
	st := Stats{SelfLoops: loops, ParallelArcs: par, LogBound: ceilLog(g.Nodes, g.Degree)}
	n := g.Nodes
	dist := make([]int, n)
	var total int64
	for s := 0; s < n; s++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		reached := 1
		graph.BFS(g, s, func(v, w int, _ int64) {
			dist[w] = dist[v] + 1
			reached++
			total += int64(dist[w])
			if dist[w] > st.Diameter {
				st.Diameter = dist[w]
			}
		})
		if reached < n {
			st.Diameter = -1
			st.AvgDistance = math.NaN()
			return st, nil
		}
	}
	if n > 1 {
		st.AvgDistance = float64(total) / float64(n*(n-1))
	}
	return st, nil
}

// ceilLog is ⌈log_d n⌉ computed with integers: the least k with dᵏ ≥ n
// (−1 for d < 2, where no power of d reaches n > 1).
func ceilLog(n, d int) int {
	if n <= 1 {
		return 0
	}
	if d < 2 {
		return -1
	}
	k, p := 0, 1
	for p < n {
		p *= d
		k++
	}
	return k
}
