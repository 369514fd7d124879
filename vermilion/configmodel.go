package vermilion

import (
	"fmt"
	"math/rand/v2"
)

// ConfigurationModel adds to count a random directed multigraph in which node
// u has out[u] more out-edges and in[u] more in-edges (count[u][v] is the
// number of u→v edges). It is the directed configuration model: node u
// contributes out[u] out-stubs and in[u] in-stubs, and a uniformly random
// permutation of the in-stubs pairs them with the out-stubs. Parallel edges
// are kept (the graph is a multigraph). A self-loop u→u would be a circuit
// that carries nothing, so each one is rewired by a double-edge swap with a
// uniformly chosen stub pair (a,b), a ≠ u ≠ b: (u,u),(a,b) → (u,b),(a,u),
// which keeps every degree. A self-loop stays only when no such pair exists
// (one node holds nearly all the remaining stubs); ConfigurationModel returns
// how many stayed.
func ConfigurationModel(count [][]int, out, in []int, rng *rand.Rand) (selfLoops int, err error) {
	n := len(count)
	if len(out) != n || len(in) != n {
		return 0, fmt.Errorf("configuration model: %d nodes but %d out-degrees and %d in-degrees", n, len(out), len(in))
	}
	total, totalIn := 0, 0
	for u := range n {
		if out[u] < 0 || in[u] < 0 {
			return 0, fmt.Errorf("configuration model: node %d has negative remaining degree (out %d, in %d)", u, out[u], in[u])
		}
		total += out[u]
		totalIn += in[u]
	}
	if total != totalIn {
		return 0, fmt.Errorf("configuration model: out-degrees sum to %d but in-degrees to %d", total, totalIn)
	}
	if total == 0 {
		return 0, nil
	}
	src := make([]int32, 0, total)
	dst := make([]int32, 0, total)
	for u := range n {
		for range out[u] {
			src = append(src, int32(u))
		}
		for range in[u] {
			dst = append(dst, int32(u))
		}
	}
	rng.Shuffle(total, func(i, j int) { dst[i], dst[j] = dst[j], dst[i] })

	stuck := make([]bool, n) // no swap partner left for this node
	for i := range total {
		u := src[i]
		if dst[i] != u || stuck[u] {
			continue
		}
		if j := swapPartner(src, dst, u, rng); j >= 0 {
			dst[i], dst[j] = dst[j], u
		} else {
			stuck[u] = true
		}
	}
	for i := range total {
		u, v := src[i], dst[i]
		if u == v {
			selfLoops++
		}
		count[u][v]++
	}
	return selfLoops, nil
}

// swapPartner finds a stub pair j with src[j] ≠ u and dst[j] ≠ u: first by a
// few random probes (almost always enough), then by a scan from a random
// start. It returns −1 if there is none.
func swapPartner(src, dst []int32, u int32, rng *rand.Rand) int {
	m := len(src)
	for range 32 {
		j := rng.IntN(m)
		if src[j] != u && dst[j] != u {
			return j
		}
	}
	start := rng.IntN(m)
	for k := range m {
		j := (start + k) % m
		if src[j] != u && dst[j] != u {
			return j
		}
	}
	return -1
}
