package bvn

import "fmt"

// maxFactorOutput caps k·n, the number of ints Factorize returns, so that an
// absurd input is an error rather than an out-of-memory crash.
const maxFactorOutput = 1 << 28

// Factorize splits a k-regular bipartite multigraph into k perfect matchings
// (a 1-factorisation). Row u and column v are the two sides; a[u][v] is the
// number of parallel edges between them. Every row and every column of a must
// sum to the same k. The result holds exactly k permutations, perm[u] = v,
// and Σ_p [perm_p(u) = v] = a[u][v] for every u, v.
//
// The algorithm is Euler-partition divide and conquer (Gabow; Cole, Ost and
// Schirra): for even k, each entry m gives ⌊m/2⌋ edges to each half and the
// edges of odd multiplicity, which form a graph with even degrees, are split
// by walking closed trails and alternating halves, so both halves are
// k/2-regular; for odd k, one perfect matching is peeled off first with
// Hopcroft–Karp on the support. The cost is O(E log k) for the splits, E the
// number of non-zero entries, plus one matching per odd level, plus the k·n
// output. The order of the matchings is deterministic.
//
// A zero matrix (k = 0) or an empty one gives no matchings.
func Factorize(a [][]int) ([][]int, error) {
	n := len(a)
	k, err := checkRegular(a)
	if err != nil {
		return nil, err
	}
	if n == 0 || k == 0 {
		return [][]int{}, nil
	}
	if int64(k)*int64(n) > maxFactorOutput {
		return nil, fmt.Errorf("bvn: %d matchings of %d nodes (%d entries) exceed the limit of %d", k, n, int64(k)*int64(n), maxFactorOutput)
	}

	nonzero := 0
	for _, row := range a {
		for _, m := range row {
			if m > 0 {
				nonzero++
			}
		}
	}
	edges := make([]edge, 0, nonzero)
	for u, row := range a {
		for v, m := range row {
			if m > 0 {
				edges = append(edges, edge{int32(u), int32(v), int32(m)})
			}
		}
	}
	flat := make([]int, k*n)
	out := make([][]int, k)
	for p := range out {
		out[p] = flat[p*n : (p+1)*n : (p+1)*n]
	}
	f := &factorizer{n: n, hk: newHopcroftKarp(n)}
	if err := f.factor(edges, k, out, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// edge is a multi-edge: m parallel edges between row u and column v.
type edge struct{ u, v, m int32 }

// checkRegular validates a and returns its common row/column sum k.
func checkRegular(a [][]int) (int, error) {
	n := len(a)
	const maxEntry = 1<<31 - 1
	cols := make([]int64, n)
	var k int64
	for u, row := range a {
		if len(row) != n {
			return 0, fmt.Errorf("bvn: row %d has %d entries, want %d (matrix must be square)", u, len(row), n)
		}
		var s int64
		for v, m := range row {
			if m < 0 {
				return 0, fmt.Errorf("bvn: entry [%d][%d] = %d is negative", u, v, m)
			}
			if m > maxEntry {
				return 0, fmt.Errorf("bvn: entry [%d][%d] = %d exceeds %d", u, v, m, maxEntry)
			}
			s += int64(m)
			cols[v] += int64(m)
		}
		if u == 0 {
			k = s
		} else if s != k {
			return 0, fmt.Errorf("bvn: row %d sums to %d, row 0 sums to %d (all rows and columns must have the same sum)", u, s, k)
		}
	}
	for v, s := range cols {
		if s != k {
			return 0, fmt.Errorf("bvn: column %d sums to %d, rows sum to %d (all rows and columns must have the same sum)", v, s, k)
		}
	}
	if k > maxEntry {
		return 0, fmt.Errorf("bvn: row sum %d exceeds %d", k, maxEntry)
	}
	return int(k), nil
}

// factorizer holds the scratch space of one Factorize call.
type factorizer struct {
	n  int
	hk *hopcroftKarp

	// right[d] stores the second half produced by a split at depth d while
	// the first half (kept in place in its parent's storage) is recursed on.
	right [][]edge

	// Euler split scratch, indexed by odd edge (in scan order) or column.
	rowPartner []int32 // the odd edge paired with j at its row
	colPartner []int32 // the odd edge paired with j at its column
	side       []uint8 // 0: not walked yet, else sideFirst or sideSecond
	pendingCol []int32 // per column: an odd edge still waiting for a partner

	// matching scratch
	start, cols []int32
}

// factor writes the k matchings of the k-regular multigraph edges into out.
// edges is sorted by (u, v) and keeps that order through every split.
func (f *factorizer) factor(edges []edge, k int, out [][]int, depth int) error {
	for k > 0 {
		if len(edges) == f.n {
			// The support is a single perfect matching of multiplicity k.
			for _, e := range edges {
				out[0][e.u] = int(e.v)
			}
			for p := 1; p < k; p++ {
				copy(out[p], out[0])
			}
			return nil
		}
		if k%2 == 0 {
			break
		}
		var err error
		if edges, err = f.peel(edges, out[0]); err != nil {
			return err
		}
		out = out[1:]
		k--
	}
	if k == 0 {
		return nil
	}
	half := k / 2
	if depth == len(f.right) {
		f.right = append(f.right, nil)
	}
	if need := min(len(edges), f.n*half); cap(f.right[depth]) < need {
		f.right[depth] = make([]edge, 0, need)
	}
	first, second := f.split(edges, f.right[depth][:0])
	if err := f.factor(first, half, out[:half], depth+1); err != nil {
		return err
	}
	return f.factor(second, half, out[half:], depth+1)
}

// peel finds a perfect matching in the support of edges, writes it to perm,
// removes one copy of each of its edges and returns the remaining edges
// (compacted in place).
func (f *factorizer) peel(edges []edge, perm []int) ([]edge, error) {
	n := f.n
	if cap(f.start) < n+1 {
		f.start = make([]int32, n+1)
	}
	start := f.start[:n+1]
	if cap(f.cols) < len(edges) {
		f.cols = make([]int32, len(edges))
	}
	cols := f.cols[:len(edges)]
	clear(start)
	for i, e := range edges {
		start[e.u+1]++
		cols[i] = e.v
	}
	for u := 0; u < n; u++ {
		start[u+1] += start[u]
	}
	h := f.hk
	h.start, h.cols = start, cols
	h.reset()
	if got := h.run(); got != n {
		// Impossible for a regular bipartite multigraph (König); reaching
		// this means the input was not what checkRegular accepted.
		return nil, fmt.Errorf("bvn: internal error: regular multigraph has a maximum matching of size %d < %d", got, n)
	}
	for u := range perm {
		perm[u] = int(h.matchL[u])
	}
	w := 0
	for _, e := range edges {
		if h.matchL[e.u] == e.v {
			e.m--
		}
		if e.m > 0 {
			edges[w] = e
			w++
		}
	}
	return edges[:w], nil
}

// split divides a multigraph with even degrees into two halves in which every
// node has exactly half its degree. Each entry m gives ⌊m/2⌋ to both halves.
// The remaining single edges (entries with odd m) form a graph in which every
// node has even degree; at every row and every column they are paired up
// (consecutive odd edges in scan order), and following the pairs alternately
// at columns and rows traces closed trails. Edges traversed from a row to a
// column go to the first half and edges traversed from a column to a row go
// to the second, so of each pair one edge goes to each half. This is the
// Euler-partition step without building adjacency lists.
//
// The first half overwrites edges in place (it never has more entries than
// edges read so far); the second is appended to right.
func (f *factorizer) split(edges, right []edge) (first, second []edge) {
	n := f.n
	if cap(f.pendingCol) < n {
		f.pendingCol = make([]int32, n)
	}
	pendingCol := f.pendingCol[:n]
	for v := range pendingCol {
		pendingCol[v] = -1
	}
	rowPartner, colPartner := f.rowPartner[:0], f.colPartner[:0]
	pendingRow, row := int32(-1), int32(-1)
	for _, e := range edges {
		if e.m&1 == 0 {
			continue
		}
		j := int32(len(rowPartner))
		rowPartner = append(rowPartner, -1)
		colPartner = append(colPartner, -1)
		if e.u != row {
			row, pendingRow = e.u, -1
		}
		if pendingRow < 0 {
			pendingRow = j
		} else {
			rowPartner[j], rowPartner[pendingRow] = pendingRow, j
			pendingRow = -1
		}
		if p := pendingCol[e.v]; p < 0 {
			pendingCol[e.v] = j
		} else {
			colPartner[j], colPartner[p] = p, j
			pendingCol[e.v] = -1
		}
	}
	f.rowPartner, f.colPartner = rowPartner, colPartner
	m := len(rowPartner)
	if cap(f.side) < m {
		f.side = make([]uint8, m, cap(rowPartner))
	}
	side := f.side[:m]
	clear(side)
	for j0 := range int32(m) {
		if side[j0] != 0 {
			continue
		}
		for j := j0; ; {
			side[j] = sideFirst
			c := colPartner[j]
			side[c] = sideSecond
			if j = rowPartner[c]; j == j0 {
				break
			}
		}
	}

	w, j := 0, 0
	for _, e := range edges {
		h := e.m >> 1
		a, b := h, h
		if e.m&1 == 1 {
			if side[j] == sideFirst {
				a++
			} else {
				b++
			}
			j++
		}
		if b > 0 {
			right = append(right, edge{e.u, e.v, b})
		}
		if a > 0 {
			edges[w] = edge{e.u, e.v, a}
			w++
		}
	}
	return edges[:w], right
}

const (
	sideFirst  = 1
	sideSecond = 2
)
