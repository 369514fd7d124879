package emulated

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Graph is a static directed graph with arc capacities: the emulated graph
// of a periodic schedule (Corollary 1) or any capacity matrix. Capacities are
// in units of the link rate (c = 1); Rate keeps the rate for absolute figures.
type Graph struct {
	N            int        // number of nodes
	Cap          []float64  // dense n×n capacities: Cap[u*N+v] is the capacity of arc u→v
	Out          [][]int32  // Out[u] lists the v with Cap[u*N+v] > 0, increasing
	In           [][]int32  // In[v] lists the u with Cap[u*N+v] > 0, increasing
	NodeCapacity float64    // hose-model capacity of a node, U·c (in units of c)
	Rate         rotor.Rate // link rate c; 0 when unknown

	// Schedule timing (zero for graphs not built from a schedule).
	Period int        // Γ, slots per cycle
	Cycle  rotor.Time // Σ_t Δ_t, one period
	Slot   rotor.Time // Δ (the mean slot when durations vary)
	Reconf rotor.Time // Δr
}

// FromSchedule builds the emulated graph of s (Corollary 1): the capacity of
// u→v is c · Σ_s Σ_t [M_{s,t}(u)=v] · (Δ_t − Δr) / Σ_t Δ_t in units of the
// link rate c. Self-maps and idle ports carry nothing; switch offsets shift
// time but not the average capacity, so they are ignored. link may be 0 when
// only relative figures are needed.
func FromSchedule(s *rotor.Schedule, link rotor.Rate) (*Graph, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if link < 0 {
		return nil, fmt.Errorf("link rate: must not be negative, got %d", link)
	}
	n := s.Nodes
	capm := make([]float64, n*n)
	cycle := float64(s.CycleDuration())
	for _, slots := range s.Matchings {
		for t, m := range slots {
			day := float64(s.SlotDuration(t)-s.Reconf) / cycle
			for u, v := range m {
				if v == rotor.Idle || v == u {
					continue
				}
				capm[u*n+v] += day
			}
		}
	}
	g := newGraph(n, capm)
	g.NodeCapacity = float64(s.Switches)
	g.Rate = link
	g.Period = s.Period
	g.Cycle = s.CycleDuration()
	g.Slot = g.Cycle / rotor.Time(s.Period)
	g.Reconf = s.Reconf
	return g, nil
}

// FromCapacity builds a graph from an n×n capacity matrix (units of c). The
// diagonal is ignored. NodeCapacity is the largest total out- or
// in-capacity of a node.
func FromCapacity(c [][]float64) (*Graph, error) {
	n := len(c)
	if n == 0 {
		return nil, fmt.Errorf("capacity: matrix is empty")
	}
	capm := make([]float64, n*n)
	for u, row := range c {
		if len(row) != n {
			return nil, fmt.Errorf("capacity[%d]: has %d entries, want %d (matrix must be square)", u, len(row), n)
		}
		for v, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return nil, fmt.Errorf("capacity[%d][%d]: must be finite and non-negative, got %v", u, v, x)
			}
			if u != v {
				capm[u*n+v] = x
			}
		}
	}
	g := newGraph(n, capm)
	for u := 0; u < n; u++ {
		g.NodeCapacity = math.Max(g.NodeCapacity, math.Max(g.OutCapacity(u), g.InCapacity(u)))
	}
	return g, nil
}

func newGraph(n int, capm []float64) *Graph {
	g := &Graph{N: n, Cap: capm, Out: make([][]int32, n), In: make([][]int32, n)}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if capm[u*n+v] > 0 {
				g.Out[u] = append(g.Out[u], int32(v))
				g.In[v] = append(g.In[v], int32(u))
			}
		}
	}
	return g
}

// Capacity is the capacity of u→v in units of the link rate.
func (g *Graph) Capacity(u, v int) float64 { return g.Cap[u*g.N+v] }

// Arcs is the number of arcs with positive capacity.
func (g *Graph) Arcs() int {
	m := 0
	for _, o := range g.Out {
		m += len(o)
	}
	return m
}

// TotalCapacity is Σ_e c_e (units of c).
func (g *Graph) TotalCapacity() float64 {
	sum := 0.0
	for _, x := range g.Cap {
		sum += x
	}
	return sum
}

// OutCapacity is the total capacity of u's outgoing arcs.
func (g *Graph) OutCapacity(u int) float64 {
	sum := 0.0
	for _, v := range g.Out[u] {
		sum += g.Cap[u*g.N+int(v)]
	}
	return sum
}

// InCapacity is the total capacity of v's incoming arcs.
func (g *Graph) InCapacity(v int) float64 {
	sum := 0.0
	for _, u := range g.In[v] {
		sum += g.Cap[int(u)*g.N+v]
	}
	return sum
}

// Matrix returns the capacities as an n×n matrix (a copy).
func (g *Graph) Matrix() [][]float64 {
	m := make([][]float64, g.N)
	for u := range m {
		m[u] = append([]float64(nil), g.Cap[u*g.N:(u+1)*g.N]...)
	}
	return m
}

// Degree is the largest out-degree of the graph.
func (g *Graph) Degree() int {
	d := 0
	for _, o := range g.Out {
		d = max(d, len(o))
	}
	return d
}

// HopDistances returns the hop-count distance matrix (BFS from every node);
// unreachable pairs get -1.
func (g *Graph) HopDistances() [][]int {
	n := g.N
	dist := make([][]int, n)
	queue := make([]int32, 0, n)
	for s := 0; s < n; s++ {
		d := make([]int, n)
		queue = hopsFrom(g.Out, int32(s), d, queue)
		dist[s] = d
	}
	return dist
}

// hopsFrom sets hop[v] to the fewest arcs from root to v along adj (adj[u]
// lists u's neighbours: g.Out for distances from root, g.In for distances
// to it), −1 where none; queue is scratch, returned for reuse.
func hopsFrom[T int | int32](adj [][]int32, root int32, hop []T, queue []int32) []int32 {
	for i := range hop {
		hop[i] = -1
	}
	hop[root] = 0
	queue = append(queue[:0], root)
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, v := range adj[u] {
			if hop[v] < 0 {
				hop[v] = hop[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return queue
}
