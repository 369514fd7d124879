package emulated

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

func bruteMaxMatching(w [][]float64) float64 {
	n := len(w)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	best := math.Inf(-1)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			s := 0.0
			for i, j := range perm {
				s += w[i][j]
			}
			best = math.Max(best, s)
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return best
}

func TestMaxWeightMatchingBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	for trial := 0; trial < 200; trial++ {
		n := 1 + trial%7
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, n)
			for j := range w[i] {
				if trial%2 == 0 {
					w[i][j] = float64(rng.IntN(4)) // many ties
				} else {
					w[i][j] = rng.Float64()*10 - 3
				}
			}
		}
		perm := MaxWeightMatching(w)
		seen := make([]bool, n)
		got := 0.0
		for i, j := range perm {
			if seen[j] {
				t.Fatalf("trial %d: %v is not a permutation", trial, perm)
			}
			seen[j] = true
			got += w[i][j]
		}
		if want := bruteMaxMatching(w); math.Abs(got-want) > 1e-9 {
			t.Errorf("trial %d (n=%d): Hungarian %v, brute force %v", trial, n, got, want)
		}
	}
}

func TestWorstCaseDemandRing(t *testing.T) {
	// Directed ring: hops(s,t) = (t−s) mod n, the farthest is t = s−1 for
	// every s, so the worst case is the shift by n−1 with n·(n−1) hops.
	n := 7
	c := make([][]float64, n)
	for i := range c {
		c[i] = make([]float64, n)
		c[i][(i+1)%n] = 1
	}
	g, err := FromCapacity(c)
	if err != nil {
		t.Fatal(err)
	}
	d, err := WorstCaseDemand(g)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < n; s++ {
		if d[s][(s+n-1)%n] != 1 {
			t.Errorf("node %d does not send to %d: %v", s, (s+n-1)%n, d[s])
		}
	}
	// θ of the ring's worst case: every unit crosses n−1 arcs of
	// capacity 1 carrying n units of it in total: θ = 1/(n−1).
	r, err := Throughput(g, d, &Options{Gap: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if !within(r, 1/float64(n-1)) {
		t.Errorf("θ = %v not in [%v, %v]", 1/float64(n-1), r.Lower, r.Upper)
	}
}

func TestTUB(t *testing.T) {
	// True rotor (K_n, U/(n−1) per pair): every pair adjacent, TUB = 1
	// although θ(permutation) = n/(2(n−1)) — TUB's blind spot.
	g := mustGraph(t, rotorSchedule(8, 7, false))
	tub, err := TUB(g, permutationDemand(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tub-1) > 1e-12 {
		t.Errorf("TUB = %v, want 1", tub)
	}
	r, err := Throughput(g, permutationDemand(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Theorem 14 with the solver's own flow is a valid bound, and far
	// tighter than TUB here.
	if b := ARLBound(g, r); b < r.Lower*(1-1e-9) || b > 0.6 {
		t.Errorf("ARL bound %v: want in [%v, 0.6]", b, r.Lower)
	}
}

func TestBufferTable71(t *testing.T) {
	// Thesis Table 7.1, complete graph: 16 ToRs, 2 uplinks, 400 Gbps,
	// Δ = 100 µs; θ = 0.5 with two-hop routes: ARD = 2·Γ·Δ = 1600 µs and
	// 80 MB per node.
	g := mustGraph(t, rotorSchedule(16, 2, true))
	ard := AverageRouteDelay(g, 2)
	if ard != 1600*rotor.Microsecond {
		t.Errorf("ARD = %v ps, want 1600 µs", ard)
	}
	d, err := demand.HoseNormalize(demand.Permutation(16), g.NodeCapacity)
	if err != nil {
		t.Fatal(err)
	}
	total, per, err := BufferBound(0.5, d.Total(), g.Rate, ard, g.N)
	if err != nil {
		t.Fatal(err)
	}
	if per != 80_000_000 || total != 16*80_000_000 {
		t.Errorf("buffer %d total, %d per node; want 80 MB per node", total, per)
	}
	if _, _, err := BufferBound(-1, 1, g.Rate, ard, 16); err == nil {
		t.Error("negative θ accepted")
	}
}

func TestDelayBound(t *testing.T) {
	// Complete graph of 16 with 2 uplinks at θ = 1/2: d·Δ/(U·θ) = 16·Δ.
	got, err := DelayBound(16, 2, 100*rotor.Microsecond, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if got != 1600*rotor.Microsecond {
		t.Errorf("delay bound %v, want 1600 µs", got)
	}
	if _, err := DelayBound(16, 2, 100, 0); err == nil {
		t.Error("θ = 0 accepted")
	}
}

func TestAnalyse(t *testing.T) {
	g := mustGraph(t, rotorSchedule(8, 4, true))
	rep, r, err := Analyse(g, permutationDemand(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Fatal(err)
	}
	// At the optimum θ = 1/2 all capacity is used (Σc = 28 = θ·M·ARL with
	// M = 32): ARL = 1.75 and the ARL bound is tight.
	if math.Abs(rep.ARL-1.75) > 5e-3 || math.Abs(rep.ARLBound-0.5) > 2e-3 {
		t.Errorf("ARL %v, ARL bound %v; want 1.75 and 0.5", rep.ARL, rep.ARLBound)
	}
	if rep.ARD != AverageRouteDelay(g, rep.ARL) || rep.BufferTotal <= 0 || rep.DelayBound <= 0 {
		t.Errorf("report %+v", rep)
	}
}

// textbookMatching is the Hungarian method as printed (every column
// scanned at every step, reached ones skipped by a flag): the reference
// for MaxWeightMatching's tie-breaking.
func textbookMatching(w [][]float64) []int {
	n := len(w)
	inf := math.Inf(1)
	u, v := make([]float64, n+1), make([]float64, n+1)
	p, way := make([]int, n+1), make([]int, n+1)
	minv, used := make([]float64, n+1), make([]bool, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				if cur := -w[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			if j0 = j1; p[j0] == 0 {
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

// The Hungarian method that scans only the columns not yet reached picks
// the same permutation as the textbook scan, ties included: on hop-count
// matrices of Mars graphs (the worst-case permutation's input, nearly all
// ties) and on random small-integer and real matrices.
func TestMaxWeightMatchingTieBreaking(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	var cases [][][]float64
	c := question64
	for _, tc := range []struct{ n, u, degree int }{{32, 4, 12}, {64, 8, 24}, {64, 8, 40}} {
		c.Nodes, c.Uplinks = tc.n, tc.u
		_, g, _ := marsWorstCase(t, c, tc.degree)
		hops := g.HopDistances()
		w := make([][]float64, g.N)
		for s := range w {
			w[s] = make([]float64, g.N)
			for d, h := range hops[s] {
				w[s][d] = float64(h)
			}
		}
		cases = append(cases, w)
	}
	for trial := 0; trial < 60; trial++ {
		n := 2 + trial
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, n)
			for j := range w[i] {
				if trial%2 == 0 {
					w[i][j] = float64(rng.IntN(3))
				} else {
					w[i][j] = rng.Float64()
				}
			}
		}
		cases = append(cases, w)
	}
	for i, w := range cases {
		got, want := MaxWeightMatching(w), textbookMatching(w)
		for s := range got {
			if got[s] != want[s] {
				t.Fatalf("case %d (n = %d): row %d matched to %d, textbook %d", i, len(w), s, got[s], want[s])
			}
		}
	}
}
