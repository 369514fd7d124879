package emulated

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// TUB is the shortest-path throughput upper bound of Namyar et al.:
// Σ_e c_e / Σ_{s,t} D_st·L_st with L the hop distance, for the demand as
// Throughput sees it (hose-normalised unless opt.Raw). A disconnected
// demand pair gives 0.
func TUB(g *Graph, d demand.Matrix, opt *Options) (float64, error) {
	dn, err := prepare(g, d, opt != nil && opt.Raw)
	if err != nil {
		return 0, err
	}
	hops := g.HopDistances()
	den := 0.0
	for s, row := range dn {
		for t, x := range row {
			if s == t || x == 0 {
				continue
			}
			if hops[s][t] < 0 {
				return 0, nil
			}
			den += x * float64(hops[s][t])
		}
	}
	return g.TotalCapacity() / den, nil
}

// ARLBound is Theorem 14's bound for the flow of r: θ(D, F) ≤ Ĉ / (M·ARL),
// with Ĉ the total capacity, M the total demand and ARL the flow's average
// route length. It is 0 when r has no flow.
func ARLBound(g *Graph, r *Result) float64 {
	arl := r.ARL()
	if arl == 0 {
		return 0
	}
	return g.TotalCapacity() / (r.Demand.Total() * arl)
}

// WorstCaseDemand is the permutation demand whose pairs are farthest apart
// in g: the perfect matching s → π(s) maximising Σ_s hops(s, π(s)), found by
// the Hungarian algorithm on the hop-distance matrix (Namyar et al.'s
// longest matching; a disconnected pair counts as n hops). Every node sends
// 1 to π(s) (π has no fixed points when n ≥ 2).
func WorstCaseDemand(g *Graph) (demand.Matrix, error) {
	n := g.N
	if n < 2 {
		return nil, fmt.Errorf("graph: worst-case demand needs at least 2 nodes, got %d", n)
	}
	hops := g.HopDistances()
	w := make([][]float64, n)
	for s := range w {
		w[s] = make([]float64, n)
		for t := range w[s] {
			h := hops[s][t]
			if h < 0 {
				h = n
			}
			w[s][t] = float64(h)
		}
	}
	perm := MaxWeightMatching(w)
	d := demand.New(n)
	fixed := -1
	for s, t := range perm {
		if s == t {
			// Only possible if all alternatives weigh the same; swap the
			// fixed point with a neighbour to keep a derangement.
			fixed = s
			continue
		}
		d[s][t] = 1
	}
	if fixed >= 0 {
		return nil, fmt.Errorf("graph: worst-case matching has a fixed point at node %d", fixed)
	}
	return d, nil
}

// MaxWeightMatching returns the permutation π maximising Σ_i w[i][π(i)] of a
// square matrix (the assignment problem), by the O(n³) Hungarian algorithm
// with potentials (Kuhn–Munkres, shortest augmenting paths).
func MaxWeightMatching(w [][]float64) []int {
	n := len(w)
	inf := math.Inf(1)
	// Minimise −w. 1-based arrays: p[j] is the row matched to column j.
	u := make([]float64, n+1)
	v := make([]float64, n+1)
	p := make([]int, n+1)
	way := make([]int, n+1)
	minv := make([]float64, n+1)
	// The columns of the current augmenting search: those reached (used,
	// column 0 first) and the others, increasing, so that each step scans
	// only the columns not yet reached, in the textbook order.
	used := make([]int, 0, n+1)
	free := make([]int, 0, n)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		used = used[:0]
		free = free[:0]
		for j := 1; j <= n; j++ {
			minv[j] = inf
			free = append(free, j)
		}
		for {
			used = append(used, j0)
			i0 := p[j0]
			row, ui := w[i0-1], u[i0]
			delta, j1, at := inf, 0, -1
			for k, j := range free {
				cur := -row[j-1] - ui - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1, at = minv[j], j, k
				}
			}
			for _, j := range used {
				u[p[j]] += delta
				v[j] -= delta
			}
			for _, j := range free {
				minv[j] -= delta
			}
			free = append(free[:at], free[at+1:]...)
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	perm := make([]int, n)
	for j := 1; j <= n; j++ {
		perm[p[j]-1] = j - 1
	}
	return perm
}

// FieldError is an input that makes a derived quantity unusable, e.g. a
// slot so long that a delay or a buffer computed from it does not fit 64
// bits. Field names the input ("slot" for the slot duration or the
// schedule's timing).
type FieldError struct {
	Field, Problem string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

// timeOf rounds x picoseconds to a rotor.Time; ok is false when x is NaN,
// negative or too large for 64 bits (float64(math.MaxInt64) is 2^63, so the
// comparison is exact).
func timeOf(x float64) (t rotor.Time, ok bool) {
	x = math.Round(x)
	if !(x >= 0 && x < 0x1p63) {
		return 0, false
	}
	return rotor.Time(x), true
}

// AverageRouteDelay is Theorem 15's ARD = ARL·Γ·Δ: a flow whose average
// route is arl hops waits on average one period (Γ·Δ, the cycle) per hop.
// A delay beyond rotor.MaxTime saturates at MaxTime (Analyse reports it as
// an error instead).
func AverageRouteDelay(g *Graph, arl float64) rotor.Time {
	t, ok := timeOf(arl * float64(g.Cycle))
	if !ok && arl > 0 {
		return rotor.MaxTime
	}
	return t
}

// DelayBound is Theorem 15's lower bound on the maximum delay of a
// schedule that emulates a degree-d graph with U uplinks and reaches
// throughput θ: L_max ≥ d·Δ / (U·θ) (up to the constant of the Ω).
func DelayBound(degree, uplinks int, slot rotor.Time, theta float64) (rotor.Time, error) {
	if degree < 1 || uplinks < 1 || slot <= 0 || !(theta > 0) || math.IsInf(theta, 0) {
		return 0, fmt.Errorf("delay bound: need degree, uplinks, slot > 0 and finite θ > 0, got %d, %d, %v, %v", degree, uplinks, slot, theta)
	}
	x := float64(degree) * float64(slot) / (float64(uplinks) * theta)
	t, ok := timeOf(x)
	if !ok {
		return 0, fmt.Errorf("delay bound: d·Δ/(U·θ) = %.4g s is beyond the largest time %v", x/float64(rotor.Second), rotor.MaxTime)
	}
	return t, nil
}

// BufferBound is Theorem 16: a schedule that serves θ·D needs at least
// B̂ = θ·M·ARD of buffer in total, M = Σ D_st the total demand (units of
// the link rate rate) and ARD the average route delay. It returns the
// total and the per-node share (total / n) in bytes.
func BufferBound(theta, totalDemand float64, rate rotor.Rate, ard rotor.Time, nodes int) (total, perNode rotor.Bytes, err error) {
	if theta < 0 || totalDemand < 0 || rate <= 0 || ard < 0 || nodes < 1 {
		return 0, 0, fmt.Errorf("buffer bound: need θ, demand, delay ≥ 0, rate > 0, nodes ≥ 1, got %v, %v, %v, %v, %d", theta, totalDemand, rate, ard, nodes)
	}
	bits := theta * totalDemand * float64(rate) * float64(ard) / float64(rotor.Second)
	b := math.Round(bits / 8)
	if !(b < 0x1p63) { // also catches +Inf and NaN (θ = +Inf)
		return 0, 0, fmt.Errorf("buffer bound: θ·M·ARD = %.4g bytes does not fit 64 bits", b)
	}
	return rotor.Bytes(b), rotor.Bytes(math.Round(b / float64(nodes))), nil
}

// Report gathers the bounds and metrics of one schedule and demand.
type Report struct {
	Theta, Lower, Upper float64    // certified throughput of the demand (any routing)
	TUB                 float64    // shortest-path bound
	ARL                 float64    // average route length of the certified flow (hops)
	ARLBound            float64    // Theorem 14: Ĉ / (M·ARL)
	ARD                 rotor.Time // Theorem 15: ARL·Γ·Δ
	DelayBound          rotor.Time // Theorem 15: d·Δ / (U·θ)
	BufferTotal         rotor.Bytes
	BufferPerNode       rotor.Bytes // Theorem 16: θ·M·ARD (total, and per node)
}

// Analyse computes θ(D) with its certificate and every bound of the Mars
// chapter for a graph built by FromSchedule (Rate and timing set).
func Analyse(g *Graph, d demand.Matrix, opt *Options) (*Report, *Result, error) {
	r, err := Throughput(g, d, opt)
	if err != nil {
		return nil, nil, err
	}
	tub, err := TUB(g, d, opt)
	if err != nil {
		return nil, nil, err
	}
	rep := &Report{Theta: r.Theta, Lower: r.Lower, Upper: r.Upper, TUB: tub, ARL: r.ARL(), ARLBound: ARLBound(g, r)}
	if g.Cycle > 0 && r.Theta > 0 {
		// A long cycle can push the delays and buffers past 64 bits: that is
		// the schedule's timing at fault, reported as a *FieldError "slot".
		var ok bool
		if rep.ARD, ok = timeOf(rep.ARL * float64(g.Cycle)); !ok {
			return nil, nil, &FieldError{Field: "slot", Problem: fmt.Sprintf("the cycle of %v gives an average route delay ARL·cycle = %.4g s, beyond the largest time %v",
				g.Cycle, rep.ARL*g.Cycle.Seconds(), rotor.MaxTime)}
		}
		rep.DelayBound, err = DelayBound(g.Degree(), int(g.NodeCapacity), g.Slot, r.Theta)
		if err != nil {
			return nil, nil, &FieldError{Field: "slot", Problem: fmt.Sprintf("slot %v: %v", g.Slot, err)}
		}
		if g.Rate > 0 {
			rep.BufferTotal, rep.BufferPerNode, err = BufferBound(r.Theta, r.Demand.Total(), g.Rate, rep.ARD, g.N)
			if err != nil {
				return nil, nil, &FieldError{Field: "slot", Problem: fmt.Sprintf("the cycle of %v with links of %v: %v", g.Cycle, g.Rate, err)}
			}
		}
	}
	return rep, r, nil
}
