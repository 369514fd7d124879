package emulated

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/demand"
)

// SingleHop is the throughput when every packet takes its direct circuit:
// θ = min over pairs with demand of c_st / D_st (D hose-normalised unless
// opt.Raw). The certificate is the direct flow θ·D itself; Lower = Upper.
func SingleHop(g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	dn, err := prepare(g, d, opt != nil && opt.Raw)
	if err != nil {
		return nil, err
	}
	n := g.N
	theta := math.Inf(1)
	for s, row := range dn {
		for t, x := range row {
			if x > 0 {
				theta = math.Min(theta, g.Cap[s*n+t]/x)
			}
		}
	}
	if math.IsInf(theta, 1) {
		return nil, fmt.Errorf("demand: has no traffic between distinct nodes")
	}
	flow := make([]SourceFlow, n)
	for s, row := range dn {
		for t, x := range row {
			if x > 0 {
				flow[s].Arcs = append(flow[s].Arcs, int32(s*n+t))
				flow[s].X = append(flow[s].X, theta*x)
			}
		}
	}
	return &Result{Theta: theta, Lower: theta, Upper: theta, Routing: "direct",
		Solver: "closed-form", Demand: dn, Flow: flow}, nil
}

// VLB is the throughput of Valiant load balancing: every packet from s to d
// first goes to an intermediate w drawn uniformly from all n nodes (w = s or
// w = d means it goes straight to d), each leg following the emulated
// graph's shortest hop-count paths, split evenly over all equal-length
// paths. θ = min over arcs of c_e / load_e. Flow is nil (the routing is
// fixed, so the arc loads are the certificate); Lower = Upper.
func VLB(g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	dn, err := prepare(g, d, opt != nil && opt.Raw)
	if err != nil {
		return nil, err
	}
	load, err := vlbLoads(g, dn)
	if err != nil {
		return nil, err
	}
	theta := loadTheta(g, load)
	if math.IsInf(theta, 1) {
		return nil, fmt.Errorf("demand: has no traffic between distinct nodes")
	}
	return &Result{Theta: theta, Lower: theta, Upper: theta, Routing: "vlb",
		Solver: "closed-form", Demand: dn}, nil
}

// vlbLegs is the leg demand L_ab = Σ_d D_ad/n + Σ_s D_sb/n of Valiant
// routing (a ≠ b): the first legs a→w and the second legs w→b.
func vlbLegs(dn demand.Matrix) [][]float64 {
	n := len(dn)
	legs := make([][]float64, n)
	for a := range legs {
		legs[a] = make([]float64, n)
	}
	for s, row := range dn {
		for t, x := range row {
			if x == 0 || s == t {
				continue
			}
			for w := 0; w < n; w++ {
				// s → w → t; a leg of zero length carries nothing.
				if w != s {
					legs[s][w] += x / float64(n)
				}
				if w != t {
					legs[w][t] += x / float64(n)
				}
			}
		}
	}
	return legs
}

// vlbLoads routes the Valiant leg demand along shortest hop-count paths,
// split evenly over equal-length paths, and returns the load of every arc.
// Per source a it counts shortest paths σ(a,·) by BFS and pushes the flow
// back from the far end: arc u→v carries T(v)·σ(a,u)/σ(a,v), where T(v) is
// all flow that reaches v.
func vlbLoads(g *Graph, dn demand.Matrix) ([]float64, error) {
	return legLoads(g, vlbLegs(dn), make([]float64, g.N*g.N))
}

// legLoads adds to load the arc loads of the leg demand legs[a][b], each
// leg routed along shortest hop-count paths, split evenly over
// equal-length paths, and returns load.
func legLoads(g *Graph, legs [][]float64, load []float64) ([]float64, error) {
	n := g.N
	dist := make([]int, n)
	sigma := make([]float64, n)
	through := make([]float64, n)
	order := make([]int32, 0, n)
	for a := 0; a < n; a++ {
		for i := range dist {
			dist[i], sigma[i], through[i] = -1, 0, 0
		}
		dist[a], sigma[a] = 0, 1
		order = append(order[:0], int32(a))
		for h := 0; h < len(order); h++ {
			u := order[h]
			for _, v := range g.Out[u] {
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					order = append(order, v)
				}
				if dist[v] == dist[u]+1 {
					sigma[v] += sigma[u]
				}
			}
		}
		for b, x := range legs[a] {
			if x > 0 && dist[b] < 0 {
				return nil, fmt.Errorf("graph: node %d cannot reach node %d, VLB throughput is 0", a, b)
			}
		}
		for i := len(order) - 1; i > 0; i-- {
			v := order[i]
			through[v] += legs[a][v]
			if through[v] == 0 {
				continue
			}
			for _, u := range g.In[v] {
				if dist[u] == dist[v]-1 {
					x := through[v] * sigma[u] / sigma[v]
					load[int(u)*n+int(v)] += x
					through[u] += x
				}
			}
		}
	}
	return load, nil
}

// loadTheta is the largest scale of a fixed routing whose arc loads are
// load: the least capacity over load among the loaded arcs (+Inf if none).
func loadTheta(g *Graph, load []float64) float64 {
	theta := math.Inf(1)
	for a, x := range load {
		if x > 0 {
			theta = math.Min(theta, g.Cap[a]/x)
		}
	}
	return theta
}
