package emulated

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/demand"
)

// Verify checks a throughput certificate without trusting the solver that
// made it. d is the demand θ scales (r.Demand, i.e. already hose-normalised).
//
//   - Flow (when present): non-negative, only on arcs of g, conserved per
//     source — the source sends Lower·Σ_t D_st, every other node t keeps
//     exactly Lower·D_st — and within capacity. For routing "any" the
//     net-flow rule holds too: no commodity flows back into its source.
//   - Upper (routing "any"): recomputed from Lengths with Floyd–Warshall
//     (a different shortest-path algorithm than the solver's Dijkstra) as
//     Σ c_e·l_e / Σ D_st·dist_l(s,t).
//   - Routing "vlb-slice" (VLBSlice): the flow's arcs each lie on a path
//     of the family (a first hop, or one hop closer to a destination), and
//     Upper is recomputed from Lengths with the family's least lengths
//     found by forward searches from every first hop (the solver searches
//     backward from every destination).
//   - Fixed routings ("direct", "vlb", "vlb-slice-spray"): Lower = Upper, and the routing's arc
//     loads at θ saturate some arc without exceeding any (for "vlb" the
//     loads are recomputed pair by pair from path counts).
func Verify(g *Graph, d demand.Matrix, r *Result) error {
	if r == nil {
		return fmt.Errorf("certificate: is nil")
	}
	if err := checkDemand(d, g.N); err != nil {
		return err
	}
	n := g.N
	scale := math.Max(1, g.NodeCapacity)
	tol := 1e-9 * scale * float64(n)
	if !(r.Lower >= 0) || r.Upper < r.Lower*(1-1e-12)-1e-15 {
		return fmt.Errorf("certificate: bounds out of order: lower %v, upper %v", r.Lower, r.Upper)
	}
	if r.Flow != nil {
		if err := verifyFlow(g, d, r, tol); err != nil {
			return err
		}
	}
	switch r.Routing {
	case "any":
		if r.Flow == nil {
			return fmt.Errorf("certificate: routing any has no flow")
		}
		ub, err := dualBound(g, d, r.Lengths)
		if err != nil {
			return err
		}
		if math.Abs(ub-r.Upper) > 1e-7*math.Max(ub, 1e-12) {
			return fmt.Errorf("certificate: upper bound %v does not match its lengths, which give %v", r.Upper, ub)
		}
	case RoutingVLBSlice:
		if r.Flow == nil {
			return fmt.Errorf("certificate: routing %s has no flow", r.Routing)
		}
		if err := familyArcs(g, d, r, tol); err != nil {
			return err
		}
		ub, err := familyBound(g, d, r.Lengths)
		if err != nil {
			return err
		}
		if math.Abs(ub-r.Upper) > 1e-7*math.Max(ub, 1e-12) {
			return fmt.Errorf("certificate: upper bound %v does not match its lengths, which give %v over the %s paths", r.Upper, ub, r.Routing)
		}
	case RoutingVLBSliceSpray:
		if r.Lower != r.Upper {
			return fmt.Errorf("certificate: %s routing has lower %v ≠ upper %v", r.Routing, r.Lower, r.Upper)
		}
		first, legs := sprayLegs(g, d)
		load := pairLoads(g, legs)
		for a, x := range first {
			load[a] += x
		}
		if err := saturates(g, load, r.Lower, tol); err != nil {
			return err
		}
	case "direct":
		if r.Lower != r.Upper {
			return fmt.Errorf("certificate: direct routing has lower %v ≠ upper %v", r.Lower, r.Upper)
		}
		for s := 0; s < n; s++ {
			for i, x := range r.Flow[s].X {
				if a := int(r.Flow[s].Arcs[i]); x > tol && a/n != s {
					return fmt.Errorf("certificate: direct flow of source %d uses arc %d→%d", s, a/n, a%n)
				}
			}
		}
		if r.Lower == 0 {
			return unserved(g, d)
		}
		if err := saturates(g, arcTotals(n, r.Flow), 1, tol); err != nil {
			return err
		}
	case "vlb":
		if r.Lower != r.Upper {
			return fmt.Errorf("certificate: vlb routing has lower %v ≠ upper %v", r.Lower, r.Upper)
		}
		load := vlbLoadsByPair(g, d)
		if err := saturates(g, load, r.Lower, tol); err != nil {
			return err
		}
	default:
		return fmt.Errorf("certificate: unknown routing %q", r.Routing)
	}
	return nil
}

func verifyFlow(g *Graph, d demand.Matrix, r *Result, tol float64) error {
	n := g.N
	if len(r.Flow) != n {
		return fmt.Errorf("certificate: flow has %d sources, want %d", len(r.Flow), n)
	}
	net := make([]float64, n) // inflow − outflow
	for s, f := range r.Flow {
		if len(f.Arcs) != len(f.X) {
			return fmt.Errorf("certificate: flow of source %d has %d arcs and %d values", s, len(f.Arcs), len(f.X))
		}
		clear(net)
		for i, x := range f.X {
			a := int(f.Arcs[i])
			if a < 0 || a >= n*n {
				return fmt.Errorf("certificate: flow of source %d names arc %d, outside [0, %d)", s, a, n*n)
			}
			u, v := a/n, a%n
			if x < -tol || math.IsNaN(x) {
				return fmt.Errorf("certificate: flow of source %d on %d→%d is %v", s, u, v, x)
			}
			if x > tol && g.Cap[a] <= 0 {
				return fmt.Errorf("certificate: flow of source %d uses %d→%d, which is not an arc", s, u, v)
			}
			if r.Routing == "any" && v == s && x > tol {
				return fmt.Errorf("certificate: flow of source %d re-enters its source via %d→%d", s, u, v)
			}
			net[u] -= x
			net[v] += x
		}
		sent := 0.0
		for t := 0; t < n; t++ {
			if t == s {
				continue
			}
			want := r.Lower * d[s][t]
			sent += want
			if math.Abs(net[t]-want) > tol {
				return fmt.Errorf("certificate: source %d delivers %v to %d, want %v", s, net[t], t, want)
			}
		}
		if math.Abs(-net[s]-sent) > tol {
			return fmt.Errorf("certificate: source %d sends %v, want %v", s, -net[s], sent)
		}
	}
	total := arcTotals(n, r.Flow)
	for a, x := range total {
		if x > g.Cap[a]+tol {
			return fmt.Errorf("certificate: arc %d→%d carries %v over its capacity %v", a/n, a%n, x, g.Cap[a])
		}
	}
	return nil
}

func arcTotals(n int, flow []SourceFlow) []float64 {
	total := make([]float64, n*n)
	for _, f := range flow {
		for i, x := range f.X {
			total[f.Arcs[i]] += x
		}
	}
	return total
}

// unserved checks the certificate of a direct θ = 0: some pair with
// demand has no arc.
func unserved(g *Graph, d demand.Matrix) error {
	for s, row := range d {
		for t, x := range row {
			if s != t && x > 0 && g.Cap[s*g.N+t] <= 0 {
				return nil
			}
		}
	}
	return fmt.Errorf("certificate: direct θ = 0, but every pair with demand has an arc")
}

// saturates checks that θ·load fits every arc and fills at least one.
func saturates(g *Graph, load []float64, theta, tol float64) error {
	worst := 0.0
	for a, x := range load {
		if x <= 0 {
			continue
		}
		if g.Cap[a] <= 0 {
			return fmt.Errorf("certificate: routing loads %d→%d, which is not an arc", a/g.N, a%g.N)
		}
		worst = math.Max(worst, theta*x/g.Cap[a])
	}
	if math.Abs(worst-1) > 1e-9 {
		return fmt.Errorf("certificate: θ = %v loads the busiest arc to %v of its capacity, want 1", theta, worst)
	}
	return nil
}

// dualBound evaluates a length function with Floyd–Warshall.
func dualBound(g *Graph, d demand.Matrix, lengths []float64) (float64, error) {
	n := g.N
	if len(lengths) != n*n {
		return 0, fmt.Errorf("certificate: %d lengths, want %d", len(lengths), n*n)
	}
	inf := math.Inf(1)
	dist := make([]float64, n*n)
	vol := 0.0
	for a := range dist {
		l := lengths[a]
		if l < 0 || math.IsNaN(l) || math.IsInf(l, 0) {
			return 0, fmt.Errorf("certificate: length of %d→%d is %v", a/n, a%n, l)
		}
		dist[a] = inf
		if g.Cap[a] > 0 {
			dist[a] = l
			vol += g.Cap[a] * l
		}
	}
	for k := 0; k < n; k++ {
		dk := dist[k*n : (k+1)*n]
		for i := 0; i < n; i++ {
			dik := dist[i*n+k]
			if i == k || math.IsInf(dik, 1) {
				continue
			}
			di := dist[i*n : (i+1)*n]
			for j, x := range dk {
				if s := dik + x; s < di[j] {
					di[j] = s
				}
			}
		}
	}
	alpha := demandDistance(d, dist, n)
	if math.IsInf(alpha, 1) {
		return 0, nil // a demand pair is disconnected
	}
	if alpha == 0 {
		if vol == 0 {
			return 0, fmt.Errorf("certificate: length function is zero")
		}
		return inf, nil
	}
	return vol / alpha, nil
}

// vlbLoadsByPair recomputes Valiant loads leg by leg: for each pair (a,b)
// with leg demand, a forward BFS from a and a backward BFS from b give the
// number of shortest paths through every arc.
func vlbLoadsByPair(g *Graph, d demand.Matrix) []float64 {
	return pairLoads(g, vlbLegs(d))
}

// pairLoads routes the leg demand pair by pair (forward and backward BFS
// path counts) and returns the arc loads.
func pairLoads(g *Graph, legs [][]float64) []float64 {
	n := g.N
	load := make([]float64, n*n)
	from := make([][]int, n)
	cntFrom := make([][]float64, n)
	to := make([][]int, n)
	cntTo := make([][]float64, n)
	for a := 0; a < n; a++ {
		from[a], cntFrom[a] = bfsCount(n, a, g.Out)
		to[a], cntTo[a] = bfsCount(n, a, g.In)
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			x := legs[a][b]
			if x == 0 || from[a][b] < 0 {
				continue
			}
			for u := 0; u < n; u++ {
				if from[a][u] < 0 {
					continue
				}
				for _, v := range g.Out[u] {
					if to[b][v] >= 0 && from[a][u]+1+to[b][v] == from[a][b] {
						load[u*n+int(v)] += x * cntFrom[a][u] * cntTo[b][v] / cntFrom[a][b]
					}
				}
			}
		}
	}
	return load
}

func bfsCount(n, src int, adj [][]int32) ([]int, []float64) {
	dist := make([]int, n)
	cnt := make([]float64, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[src], cnt[src] = 0, 1
	queue := []int{src}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, v := range adj[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, int(v))
			}
			if dist[v] == dist[u]+1 {
				cnt[v] += cnt[u]
			}
		}
	}
	return dist, cnt
}

// demandDistance is Σ d[s][t]·dist[s·n+t] over the demand pairs (s ≠ t,
// d > 0): the dual's α for distances dist.
func demandDistance(d [][]float64, dist []float64, n int) float64 {
	alpha := 0.0
	for s, row := range d {
		for t, x := range row {
			if s != t && x > 0 {
				alpha += x * dist[s*n+t]
			}
		}
	}
	return alpha
}
