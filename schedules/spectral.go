package schedules

import (
	"math"
	"math/rand/v2"

	"github.com/yourbasic/graph"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// circuits is the graph formed by a set of matchings over n nodes: an edge
// u→v for every matching m with m[u] = v ≠ u. It implements
// github.com/yourbasic/graph.Iterator without copying the matchings.
type circuits struct {
	n    int
	maps [][]int
}

func (g circuits) Order() int { return g.n }

func (g circuits) Visit(u int, do func(v int, c int64) bool) bool {
	for _, m := range g.maps {
		if v := m[u]; v >= 0 && v != u {
			if do(v, 1) {
				return true
			}
		}
	}
	return false
}

// stronglyConnected reports whether every node reaches every other one.
func (g circuits) stronglyConnected() bool {
	return len(graph.StrongComponents(g)) == 1
}

// denseLimit is the largest n for which the spectral gap uses a dense
// eigendecomposition; larger graphs use Lanczos on the sparse operator.
const denseLimit = 128

// spectralGap is 1 − λ₂ of D^{-1/2} A D^{-1/2}, where A = (B + Bᵀ)/2 is the
// symmetrised adjacency of the circuits (B counts matchings with m[u] = v)
// and D its degrees: the second-smallest eigenvalue of the normalised
// Laplacian. It lies in [0, 2] and is positive iff the graph is connected;
// for a d-regular graph it is 1 − λ₂(A)/d. A node without circuits gives 0.
func (g circuits) spectralGap() float64 {
	op := newNormalized(g)
	if op == nil {
		return 0
	}
	if g.n <= denseLimit {
		return 1 - op.denseSecond()
	}
	return 1 - op.lanczosSecond()
}

// normalized is the operator D^{-1/2} A D^{-1/2} in compressed sparse rows.
type normalized struct {
	n     int
	start []int32   // row u is col/val[start[u]:start[u+1]]
	col   []int32   //
	val   []float64 //
	phi   []float64 // its top eigenvector D^{1/2}1/‖·‖ (eigenvalue 1)
}

func newNormalized(g circuits) *normalized {
	n := g.n
	deg := make([]float64, n)
	count := make([]int32, n+1)
	for _, m := range g.maps {
		for u, v := range m {
			if v >= 0 && v != u {
				count[u+1]++
				count[v+1]++
				deg[u] += 0.5
				deg[v] += 0.5
			}
		}
	}
	for _, d := range deg {
		if d == 0 {
			return nil
		}
	}
	for u := 1; u <= n; u++ {
		count[u] += count[u-1]
	}
	op := &normalized{n: n, start: count, col: make([]int32, count[n]), val: make([]float64, count[n]), phi: make([]float64, n)}
	fill := make([]int32, n)
	copy(fill, count[:n])
	add := func(u, v int) {
		w := 0.5 / math.Sqrt(deg[u]*deg[v])
		op.col[fill[u]], op.val[fill[u]] = int32(v), w
		fill[u]++
	}
	for _, m := range g.maps {
		for u, v := range m {
			if v >= 0 && v != u {
				add(u, v)
				add(v, u)
			}
		}
	}
	var norm float64
	for u, d := range deg {
		op.phi[u] = math.Sqrt(d)
		norm += d
	}
	norm = math.Sqrt(norm)
	for u := range op.phi {
		op.phi[u] /= norm
	}
	return op
}

func (op *normalized) mulVec(dst, x []float64) {
	for u := 0; u < op.n; u++ {
		var s float64
		for k := op.start[u]; k < op.start[u+1]; k++ {
			s += op.val[k] * x[op.col[k]]
		}
		dst[u] = s
	}
}

// denseSecond is the second-largest eigenvalue by a dense eigendecomposition.
func (op *normalized) denseSecond() float64 {
	a := mat.NewSymDense(op.n, nil)
	for u := 0; u < op.n; u++ {
		for k := op.start[u]; k < op.start[u+1]; k++ {
			if v := int(op.col[k]); v >= u {
				a.SetSym(u, v, a.At(u, v)+op.val[k])
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		return math.NaN()
	}
	vals := es.Values(nil) // ascending
	return vals[op.n-2]
}

// lanczosSecond is the largest eigenvalue of the operator restricted to the
// complement of phi (that is, λ₂), by the Lanczos iteration with phi
// projected out at every step. Without full reorthogonalisation Lanczos
// may repeat converged eigenvalues ("ghosts"), but the extreme Ritz value,
// the only one used here, is unaffected. It stops when that value moves
// less than 1e-10 over 8 steps.
func (op *normalized) lanczosSecond() float64 {
	n := op.n
	maxIter := min(n-1, 400)
	rng := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, uint64(n)))
	q := make([]float64, n)
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	project(q, op.phi)
	scale(q, 1/norm2(q))
	prev := make([]float64, n)
	w := make([]float64, n)
	alpha := make([]float64, 0, maxIter)
	beta := make([]float64, 0, maxIter) // beta[j] couples q_j and q_{j+1}
	last := math.Inf(-1)
	for j := 0; j < maxIter; j++ {
		op.mulVec(w, q)
		if j > 0 {
			axpy(w, -beta[j-1], prev)
		}
		a := dot(w, q)
		axpy(w, -a, q)
		project(w, op.phi)
		// one pass of local reorthogonalisation keeps the recurrence stable
		axpy(w, -dot(w, q), q)
		if j > 0 {
			axpy(w, -dot(w, prev), prev)
		}
		alpha = append(alpha, a)
		b := norm2(w)
		if (j+1)%8 == 0 || b < 1e-12 || j == maxIter-1 {
			top := tridiagMax(alpha, beta)
			if b < 1e-12 || math.Abs(top-last) < 1e-10 || j == maxIter-1 {
				return top
			}
			last = top
		}
		beta = append(beta, b)
		prev, q, w = q, w, prev
		scale(q, 1/b)
	}
	return last
}

// tridiagMax is the largest eigenvalue of the symmetric tridiagonal matrix
// with diagonal alpha and off-diagonal beta[:len(alpha)-1], by bisection on
// Sturm sequence counts (O(k) per count, no allocation), to 1e-13.
func tridiagMax(alpha, beta []float64) float64 {
	k := len(alpha)
	lo, hi := math.Inf(1), math.Inf(-1) // Gershgorin bounds
	for i := 0; i < k; i++ {
		r := 0.0
		if i > 0 {
			r += math.Abs(beta[i-1])
		}
		if i+1 < k {
			r += math.Abs(beta[i])
		}
		lo, hi = min(lo, alpha[i]-r), max(hi, alpha[i]+r)
	}
	for hi-lo > 1e-13*max(1, math.Abs(hi)) {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if countAbove(alpha, beta, mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// countAbove is the number of eigenvalues of the tridiagonal matrix T that
// exceed x: by Sylvester's law of inertia, the number of positive pivots of
// the LDLᵀ factorisation of T − xI.
func countAbove(alpha, beta []float64, x float64) int {
	count := 0
	d := 1.0
	for i := range alpha {
		b2 := 0.0
		if i > 0 {
			b2 = beta[i-1] * beta[i-1]
		}
		d = (alpha[i] - x) - b2/d
		if d == 0 {
			d = 1e-300
		}
		if d > 0 {
			count++
		}
	}
	return count
}

func dot(x, y []float64) float64 { return floats.Dot(x, y) }

func norm2(x []float64) float64 { return floats.Norm(x, 2) }

func axpy(y []float64, a float64, x []float64) { floats.AddScaled(y, a, x) }

func scale(x []float64, a float64) { floats.Scale(a, x) }

// project removes the component of x along the unit vector phi.
func project(x, phi []float64) { axpy(x, -dot(x, phi), phi) }
