package bvn

import (
	"fmt"
	"math"
)

// DefaultTol is the tolerance Decompose uses when it is given 0.
const DefaultTol = 1e-9

// maxDecomposeN keeps n² within the int32 indices Decompose uses.
const maxDecomposeN = 46340

// Term is one term of a Birkhoff–von Neumann decomposition: Weight times the
// permutation matrix with a 1 at [i][Perm[i]].
type Term struct {
	Weight float64
	Perm   []int
}

// Decompose writes a as a weighted sum of permutation matrices, the
// Birkhoff–von Neumann decomposition. a must be square and non-negative with
// all row and column sums equal to some s (a doubly stochastic matrix scaled
// by s); the sums may differ from their mean s by at most tol·s. The weights
// of the terms are positive and add up to s.
//
// tol is relative to s and also sets what counts as zero: entries at most
// tol·s are dropped, and the decomposition stops when the remainder has no
// perfect matching left, which, by König's theorem, happens only once the
// remainder's row sums are of the order of n times the dropped mass. For an
// exactly doubly stochastic input the reconstruction error is then of the
// order of tol·s per entry. tol = 0 means DefaultTol.
//
// The method is the constructive proof of Birkhoff's theorem: find a
// perfect matching in the support, subtract it with the weight of its
// smallest entry, repeat. Every step zeroes at least one entry, and the
// remainder always lies on a proper face of the face of the Birkhoff polytope
// the previous one lay on, so there are at most n² − 2n + 2 terms (fewer for
// sparse matrices: at most the number of non-zero entries). The matching is
// kept between steps: only rows whose matched entry dropped to zero are
// re-matched, each by one breadth-first augmenting-path search, so a step
// costs O(n) plus the search instead of a fresh Hopcroft–Karp run (which is
// only used for the first matching).
func Decompose(a [][]float64, tol float64) ([]Term, error) {
	if math.IsNaN(tol) || tol < 0 || tol >= 1 {
		return nil, fmt.Errorf("bvn: tolerance %v must be in [0, 1)", tol)
	}
	if tol == 0 {
		tol = DefaultTol
	}
	s, err := checkStochastic(a, tol)
	if err != nil {
		return nil, err
	}
	n := len(a)
	if n == 0 || s == 0 {
		return []Term{}, nil
	}
	if n > maxDecomposeN {
		return nil, fmt.Errorf("bvn: matrix size %d exceeds %d", n, maxDecomposeN)
	}
	d := newDecomposer(a, tol*s)
	return d.run(), nil
}

// checkStochastic validates a and returns its mean row sum.
func checkStochastic(a [][]float64, tol float64) (float64, error) {
	n := len(a)
	rows := make([]float64, n)
	cols := make([]float64, n)
	var total float64
	for i, row := range a {
		if len(row) != n {
			return 0, fmt.Errorf("bvn: row %d has %d entries, want %d (matrix must be square)", i, len(row), n)
		}
		for j, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("bvn: entry [%d][%d] = %v is not a finite number", i, j, x)
			}
			if x < 0 {
				return 0, fmt.Errorf("bvn: entry [%d][%d] = %v is negative", i, j, x)
			}
			rows[i] += x
			cols[j] += x
		}
		total += rows[i]
	}
	if n == 0 {
		return 0, nil
	}
	s := total / float64(n)
	// Report the sum furthest from the mean.
	worst, kind, at := -1.0, "", 0
	for i, r := range rows {
		if d := math.Abs(r - s); d > worst {
			worst, kind, at = d, "row", i
		}
	}
	for j, c := range cols {
		if d := math.Abs(c - s); d > worst {
			worst, kind, at = d, "column", j
		}
	}
	if worst > tol*s {
		v := rows[at]
		if kind == "column" {
			v = cols[at]
		}
		return 0, fmt.Errorf("bvn: %s %d sums to %v, the mean row sum is %v (rows and columns must have equal sums within relative tolerance %g)", kind, at, v, s, tol)
	}
	return s, nil
}

// decomposer holds the remainder matrix and the current matching.
type decomposer struct {
	n   int
	w   []float64 // remainder, row-major; entries ≤ zero are set to 0
	eps float64   // entries at most eps count as zero

	// Row i's possibly non-zero columns are adj[beg[i]:end[i]]; entries that
	// dropped to zero are removed lazily.
	adj      []int32
	beg, end []int32

	hk *hopcroftKarp

	// augmenting-path search scratch
	seen   []uint32 // column visited in search number stamp
	stamp  uint32
	parent []int32 // the row from which a column was reached
	queue  []int32
}

func newDecomposer(a [][]float64, eps float64) *decomposer {
	n := len(a)
	d := &decomposer{
		n:      n,
		w:      make([]float64, n*n),
		eps:    eps,
		beg:    make([]int32, n+1),
		end:    make([]int32, n),
		hk:     newHopcroftKarp(n),
		seen:   make([]uint32, n),
		parent: make([]int32, n),
		queue:  make([]int32, 0, n),
	}
	nonzero := 0
	for i, row := range a {
		for j, x := range row {
			if x > eps {
				d.w[i*n+j] = x
				nonzero++
			}
		}
	}
	d.adj = make([]int32, 0, nonzero)
	for i := range n {
		d.beg[i] = int32(len(d.adj))
		for j := range n {
			if d.w[i*n+j] > 0 {
				d.adj = append(d.adj, int32(j))
			}
		}
		d.end[i] = int32(len(d.adj))
	}
	d.beg[n] = int32(len(d.adj))
	return d
}

// run peels off terms until the support has no perfect matching.
func (d *decomposer) run() []Term {
	n := d.n
	h := d.hk
	h.start, h.cols = d.beg, d.adj
	if h.run() < n {
		return []Term{}
	}
	var terms []Term
	var slab []int // perms are carved out of slabs to save allocations
	var freed []int32
	for {
		weight := math.Inf(1)
		for i, j := range h.matchL {
			weight = min(weight, d.w[i*n+int(j)])
		}
		if len(slab) < n {
			slab = make([]int, n*min(256, max(1, n)))
		}
		perm := slab[:n:n]
		slab = slab[n:]
		freed = freed[:0]
		for i, j := range h.matchL {
			perm[i] = int(j)
			c := i*n + int(j)
			if d.w[c] -= weight; d.w[c] <= d.eps {
				d.w[c] = 0
				freed = append(freed, int32(i))
			}
		}
		terms = append(terms, Term{Weight: weight, Perm: perm})
		for _, i := range freed {
			h.matchR[h.matchL[i]] = -1
			h.matchL[i] = -1
		}
		for _, i := range freed {
			if !d.augment(i) {
				return terms
			}
		}
	}
}

// augment searches breadth-first for an augmenting path from the free row r
// through non-zero entries and flips it. It reports false if there is none,
// in which case the support has no perfect matching.
func (d *decomposer) augment(r int32) bool {
	n := d.n
	h := d.hk
	d.stamp++
	if d.stamp == 0 { // wrapped: reset the marks
		clear(d.seen)
		d.stamp = 1
	}
	d.queue = append(d.queue[:0], r)
	for head := 0; head < len(d.queue); head++ {
		u := d.queue[head]
		row := d.w[int(u)*n : int(u+1)*n]
		for p := d.beg[u]; p < d.end[u]; {
			j := d.adj[p]
			if row[j] == 0 {
				d.end[u]--
				d.adj[p] = d.adj[d.end[u]]
				continue
			}
			p++
			if d.seen[j] == d.stamp {
				continue
			}
			d.seen[j] = d.stamp
			d.parent[j] = u
			if v := h.matchR[j]; v >= 0 {
				d.queue = append(d.queue, v)
				continue
			}
			// Free column: flip the path back to r.
			for {
				u := d.parent[j]
				next := h.matchL[u]
				h.matchL[u], h.matchR[j] = j, u
				if u == r {
					return true
				}
				j = next
			}
		}
	}
	return false
}

// Reconstruct returns the n×n matrix Σ Weight·P(Perm) of terms. It reports
// an error if a Perm is not a permutation of 0..n-1 or a weight is not a
// finite number.
func Reconstruct(terms []Term, n int) ([][]float64, error) {
	if n < 0 {
		return nil, fmt.Errorf("bvn: size %d is negative", n)
	}
	out := make([][]float64, n)
	flat := make([]float64, n*n)
	for i := range out {
		out[i] = flat[i*n : (i+1)*n : (i+1)*n]
	}
	seen := make([]int, n)
	for t, term := range terms {
		if math.IsNaN(term.Weight) || math.IsInf(term.Weight, 0) {
			return nil, fmt.Errorf("bvn: term %d has weight %v, want a finite number", t, term.Weight)
		}
		if len(term.Perm) != n {
			return nil, fmt.Errorf("bvn: term %d has a permutation of length %d, want %d", t, len(term.Perm), n)
		}
		for i, j := range term.Perm {
			if j < 0 || j >= n {
				return nil, fmt.Errorf("bvn: term %d maps %d to %d, out of range 0..%d", t, i, j, n-1)
			}
			if seen[j] == t+1 {
				return nil, fmt.Errorf("bvn: term %d maps two rows to column %d (not a permutation)", t, j)
			}
			seen[j] = t + 1
			out[i][j] += term.Weight
		}
	}
	return out, nil
}

// ReconstructionError returns max |a[i][j] − Σ Weight·P(Perm)[i][j]|, the
// largest entrywise error of a decomposition of a.
func ReconstructionError(a [][]float64, terms []Term) (float64, error) {
	n := len(a)
	b, err := Reconstruct(terms, n)
	if err != nil {
		return 0, err
	}
	var worst float64
	for i, row := range a {
		if len(row) != n {
			return 0, fmt.Errorf("bvn: row %d has %d entries, want %d (matrix must be square)", i, len(row), n)
		}
		for j, x := range row {
			worst = max(worst, math.Abs(x-b[i][j]))
		}
	}
	return worst, nil
}
