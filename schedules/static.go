package schedules

import (
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
)

// StaticAttempts bounds the draws Static makes to find Tries strongly
// connected graphs, so it is also the largest Tries that can be met.
const StaticAttempts = 64

// Static builds a static topology: period 1, switch s holding one fixed
// derangement, so node u has U out-neighbours and U in-neighbours, all
// distinct and never u itself (a simple U-regular digraph). U = 1 is a
// random Hamiltonian cycle (Sattolo's algorithm); for U ≥ 2 each switch is
// a random permutation whose self-loops and repeated edges are repaired by
// augmenting paths in the bipartite graph of allowed edges (which is
// (n−1−s)-regular for switch s, so a repair always exists). Draws come from
// rand.NewPCG(Seed, attempt); a draw that is not strongly connected is
// discarded. With Tries = k the first k strongly connected draws are kept
// and the one with the largest spectral gap wins.
func Static(p Params) (*rotor.Schedule, error) {
	const kind = "static"
	if err := checkSize(kind, p); err != nil {
		return nil, err
	}
	n, u := p.Nodes, p.Uplinks
	if u > n-1 {
		return nil, paramError(kind, "uplinks", u, "exceeds n−1 = %d: a node has only n−1 distinct neighbours", n-1)
	}
	if p.Tries < 0 {
		return nil, paramError(kind, "tries", p.Tries, "must not be negative")
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	tries := max(p.Tries, 1)
	var best [][][]int
	bestGap, bestAttempt, found := -1.0, -1, 0
	for attempt := 0; attempt < StaticAttempts && found < tries; attempt++ {
		if err := p.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(p.Seed, uint64(attempt)))
		ms := drawRegular(n, u, rng)
		g := circuits{n: n, maps: make([][]int, u)}
		for s := range ms {
			g.maps[s] = ms[s][0]
		}
		if !g.stronglyConnected() {
			continue
		}
		found++
		if gap := g.spectralGap(); gap > bestGap {
			best, bestGap, bestAttempt = ms, gap, attempt
		}
	}
	if best == nil {
		return nil, paramError(kind, "uplinks", u, "no strongly connected draw in %d attempts", StaticAttempts)
	}
	return &rotor.Schedule{
		Kind: kind, Nodes: n, Switches: u, Period: 1, Slot: slot, Reconf: reconf,
		Matchings: best,
		Meta: map[string]any{
			"nodes": n, "uplinks": u, "seed": p.Seed, "tries": tries, "candidates": found,
			"attempt":      bestAttempt,
			"spectral_gap": bestGap,
			"gap_method":   "1 - lambda2 of D^-1/2 A D^-1/2 with A = (B + B^T)/2, B the adjacency of the digraph",
		},
	}, nil
}

// drawRegular draws U edge-disjoint derangements of n nodes, one per
// switch, as [switch][slot 0][node].
func drawRegular(n, u int, rng *rand.Rand) [][][]int {
	ms := emptyMatchings(u, 1, n)
	if u == 1 {
		sattolo(ms[0][0], rng)
		return ms
	}
	succ := make([][]int, n) // out-neighbours so far
	for v := range succ {
		succ[v] = make([]int, 0, u)
	}
	allowed := func(a, b int) bool {
		if a == b {
			return false
		}
		for _, x := range succ[a] {
			if x == b {
				return false
			}
		}
		return true
	}
	owner := make([]int, n)
	seen := make([]int, n)
	stamp := 0
	for s := 0; s < u; s++ {
		m := ms[s][0]
		perm := rng.Perm(n)
		for v := range owner {
			owner[v] = -1
		}
		var free []int
		for a, b := range perm {
			if allowed(a, b) {
				m[a], owner[b] = b, a
			} else {
				m[a] = -1
				free = append(free, a)
			}
		}
		// Kuhn's augmenting paths, scanning columns from a random start.
		var augment func(a, from int) bool
		augment = func(a, from int) bool {
			for i := 0; i < n; i++ {
				b := (from + i) % n
				if seen[b] == stamp || !allowed(a, b) {
					continue
				}
				seen[b] = stamp
				if owner[b] < 0 || augment(owner[b], from) {
					m[a], owner[b] = b, a
					return true
				}
			}
			return false
		}
		for _, a := range free {
			stamp++
			augment(a, rng.IntN(n)) // succeeds: the allowed graph is regular bipartite
		}
		for a, b := range m {
			succ[a] = append(succ[a], b)
		}
	}
	return ms
}

// sattolo fills m with a uniformly random cyclic permutation (one n-cycle).
func sattolo(m []int, rng *rand.Rand) {
	n := len(m)
	for i := range m {
		m[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		m[i], m[j] = m[j], m[i]
	}
}
