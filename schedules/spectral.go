package schedules

import (
	"math"
	"math/rand/v2"
	"slices"

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
	return new(spectralWork).gap(g)
}

// spectralWork holds the buffers of spectral gap computations, reused from
// one graph to the next by a single goroutine.
type spectralWork struct {
	op          normalized
	deg, isq    []float64
	start, fill []int32
	col         []int32
	val         []float64
	q, prev, w  []float64
	top         ritzTop
}

// gap is g.spectralGap() computed in ws's buffers.
func (ws *spectralWork) gap(g circuits) float64 {
	op := ws.normalize(g)
	if op == nil {
		return 0
	}
	if g.n <= denseLimit {
		return 1 - op.denseSecond()
	}
	l2, _ := ws.lanczosSecond(op)
	return 1 - l2
}

// resize returns s with length n, reallocated if its capacity is short;
// the contents are unspecified.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// normalized is the operator D^{-1/2} A D^{-1/2} in column-major ELLPACK
// form: row u holds width entries, its neighbours padded with zero weights
// on u itself, stored slot by slot (entry k of every row, then entry k+1),
// so that a product is a few streaming passes over the vectors.
type normalized struct {
	n, width int
	col      []int32   // entry k of row u is col/val[k*n+u]
	val      []float64 //
	phi      []float64 // its top eigenvector D^{1/2}1/‖·‖ (eigenvalue 1)
}

// normalize builds the operator of g in ws.op (nil if a node has no
// circuits), overwriting the previous one.
func (ws *spectralWork) normalize(g circuits) *normalized {
	return ws.build(g, g.matchings())
}

// matchings reports whether every map is an involution.
func (g circuits) matchings() bool {
	for _, m := range g.maps {
		for u, v := range m {
			if v >= 0 && v != u && m[v] != u {
				return false
			}
		}
	}
	return true
}

// build is normalize, taking the entries slot by map (fromMatchings) if
// involutions is set (every map must then be an involution), else by the
// general construction (fromCircuits).
func (ws *spectralWork) build(g circuits, involutions bool) *normalized {
	n := g.n
	// Each circuit u→v adds ½ to the degrees of u and v; in a matching v→u
	// is a circuit too, so u's degree is the number of matchings covering u.
	deg := resize(ws.deg, n)
	ws.deg = deg
	clear(deg)
	for _, m := range g.maps {
		for u, v := range m {
			switch {
			case v < 0 || v == u:
			case involutions:
				deg[u]++
			default:
				deg[u] += 0.5
				deg[v] += 0.5
			}
		}
	}
	isq := resize(ws.isq, n) // D^{-1/2}
	ws.isq = isq
	for u, d := range deg {
		if d == 0 {
			return nil
		}
		isq[u] = 1 / math.Sqrt(d)
	}
	op := &ws.op
	if involutions {
		ws.fromMatchings(g)
	} else {
		ws.fromCircuits(g)
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

// fromMatchings fills ws.op's entries when every map is an involution (a
// matching): slot k is map k, as u's edge in it is listed from both ends
// and the two entries 0.5/√(d_u d_v) add up to 1/√(d_u d_v). Unless two
// maps share an edge (never within a factorisation), the rows hold the
// same entries as fromCircuits builds, padding aside.
func (ws *spectralWork) fromMatchings(g circuits) {
	n, isq, op := g.n, ws.isq, &ws.op
	op.n, op.width = n, len(g.maps)
	op.col, op.val, op.phi = resize(op.col, op.width*n), resize(op.val, op.width*n), resize(op.phi, n)
	for k, m := range g.maps {
		col, val := op.slot(k)
		for u, v := range m[:n] {
			if v >= 0 && v != u {
				col[u], val[u] = int32(v), isq[u]*isq[v]
			} else {
				col[u], val[u] = int32(u), 0
			}
		}
	}
}

// fromCircuits fills ws.op's entries for any maps: compressed rows with
// every circuit entered from both ends, repeated neighbours merged, then
// padded to the longest row.
func (ws *spectralWork) fromCircuits(g circuits) {
	n, isq := g.n, ws.isq
	start := resize(ws.start, n+1)
	ws.start = start
	clear(start)
	for _, m := range g.maps {
		for u, v := range m {
			if v >= 0 && v != u {
				start[u+1]++
				start[v+1]++
			}
		}
	}
	for u := 1; u <= n; u++ {
		start[u] += start[u-1]
	}
	col, val, fill := resize(ws.col, int(start[n])), resize(ws.val, int(start[n])), resize(ws.fill, n)
	ws.col, ws.val, ws.fill = col, val, fill
	copy(fill, start[:n])
	for _, m := range g.maps {
		for u, v := range m {
			if v >= 0 && v != u {
				w := 0.5 * isq[u] * isq[v]
				col[fill[u]], val[fill[u]] = int32(v), w
				fill[u]++
				col[fill[v]], val[fill[v]] = int32(u), w
				fill[v]++
			}
		}
	}
	// Merge in place: at[v] is v's entry in the row being compacted,
	// valid if it is past the row's new start.
	at := fill
	for i := range at {
		at[i] = -1
	}
	width, out := 0, int32(0)
	for u := 0; u < n; u++ {
		lo, hi := start[u], start[u+1]
		start[u] = out
		for k := lo; k < hi; k++ {
			v := col[k]
			if p := at[v]; p >= start[u] {
				val[p] += val[k]
				continue
			}
			at[v] = out
			col[out], val[out] = v, val[k]
			out++
		}
		width = max(width, int(out-start[u]))
	}
	start[n] = out
	op := &ws.op
	op.n, op.width = n, width
	op.col, op.val, op.phi = resize(op.col, width*n), resize(op.val, width*n), resize(op.phi, n)
	for u := 0; u < n; u++ {
		k := 0
		for e := start[u]; e < start[u+1]; e++ {
			op.col[k*n+u], op.val[k*n+u] = col[e], val[e]
			k++
		}
		for ; k < width; k++ {
			op.col[k*n+u], op.val[k*n+u] = int32(u), 0
		}
	}
}

// slot is entry k of every row.
func (op *normalized) slot(k int) ([]int32, []float64) {
	return op.col[k*op.n : (k+1)*op.n], op.val[k*op.n : (k+1)*op.n]
}

// mulDots sets w = Aq (A the operator) and returns w·q, w·prev and w·phi.
// The slots before the last are summed up to three per pass (fewer loads
// and stores of w); the dot products are taken in the pass over the last
// slot, with two partial sums each to shorten the dependency chains.
func (op *normalized) mulDots(w, q, prev []float64) (wq, wp, wf float64) {
	n := op.n
	w, q, prev, phi := w[:n], q[:n], prev[:n], op.phi[:n]
	if op.width == 1 {
		clear(w)
	}
	for k := 0; k < op.width-1; k += 3 {
		switch g := min(3, op.width-1-k); g {
		case 1:
			c0, v0 := op.slot(k)
			sum1(w, q, c0, v0, k > 0)
		case 2:
			c0, v0 := op.slot(k)
			c1, v1 := op.slot(k + 1)
			sum2(w, q, c0, v0, c1, v1, k > 0)
		default:
			c0, v0 := op.slot(k)
			c1, v1 := op.slot(k + 1)
			c2, v2 := op.slot(k + 2)
			sum3(w, q, c0, v0, c1, v1, c2, v2, k > 0)
		}
	}
	col, val := op.slot(op.width - 1)
	col, val = col[:n], val[:n]
	var q0, q1, p0, p1, f0, f1 float64
	u := 0
	for ; u+1 < n; u += 2 {
		s := w[u] + val[u]*q[col[u]]
		t := w[u+1] + val[u+1]*q[col[u+1]]
		w[u], w[u+1] = s, t
		q0, q1 = q0+s*q[u], q1+t*q[u+1]
		p0, p1 = p0+s*prev[u], p1+t*prev[u+1]
		f0, f1 = f0+s*phi[u], f1+t*phi[u+1]
	}
	if u < n {
		s := w[u] + val[u]*q[col[u]]
		w[u] = s
		q0, p0, f0 = q0+s*q[u], p0+s*prev[u], f0+s*phi[u]
	}
	return q0 + q1, p0 + p1, f0 + f1
}

// sum1, sum2 and sum3 set w (add false) or add to it the products of one,
// two or three slots with q.
func sum1(w, q []float64, c0 []int32, v0 []float64, add bool) {
	w, v0 = w[:len(c0)], v0[:len(c0)]
	if add {
		for u, c := range c0 {
			w[u] += v0[u] * q[c]
		}
		return
	}
	for u, c := range c0 {
		w[u] = v0[u] * q[c]
	}
}

func sum2(w, q []float64, c0 []int32, v0 []float64, c1 []int32, v1 []float64, add bool) {
	w, v0, c1, v1 = w[:len(c0)], v0[:len(c0)], c1[:len(c0)], v1[:len(c0)]
	if add {
		for u, c := range c0 {
			w[u] += v0[u]*q[c] + v1[u]*q[c1[u]]
		}
		return
	}
	for u, c := range c0 {
		w[u] = v0[u]*q[c] + v1[u]*q[c1[u]]
	}
}

func sum3(w, q []float64, c0 []int32, v0 []float64, c1 []int32, v1 []float64, c2 []int32, v2 []float64, add bool) {
	w, v0, c1, v1, c2, v2 = w[:len(c0)], v0[:len(c0)], c1[:len(c0)], v1[:len(c0)], c2[:len(c0)], v2[:len(c0)]
	if add {
		for u, c := range c0 {
			w[u] += v0[u]*q[c] + v1[u]*q[c1[u]] + v2[u]*q[c2[u]]
		}
		return
	}
	for u, c := range c0 {
		w[u] = v0[u]*q[c] + v1[u]*q[c1[u]] + v2[u]*q[c2[u]]
	}
}

// denseSecond is the second-largest eigenvalue by a dense eigendecomposition.
func (op *normalized) denseSecond() float64 {
	a := mat.NewSymDense(op.n, nil)
	for k := 0; k < op.width; k++ {
		col, val := op.slot(k)
		for u, c := range col {
			if v := int(c); v >= u {
				a.SetSym(u, v, a.At(u, v)+val[u])
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

// lanczosStart sizes the work vectors for op, draws the seeded random start
// (unit norm, orthogonal to phi), clears prev and resets the Ritz tracker;
// it returns the vectors and the step limit.
func (ws *spectralWork) lanczosStart(op *normalized) (q, prev, w []float64, maxIter int) {
	n := op.n
	maxIter = min(n-1, 400)
	rng := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, uint64(n)))
	q, prev, w = resize(ws.q, n), resize(ws.prev, n), resize(ws.w, n)
	ws.q, ws.prev, ws.w = q, prev, w
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	project(q, op.phi)
	scale(q, 1/norm2(q))
	clear(prev)
	ws.top.reset(maxIter)
	return q, prev, w, maxIter
}

// lanczosSecond is the largest eigenvalue of op restricted to the
// complement of phi (that is, λ₂), by the Lanczos iteration, and the
// number of steps taken. Each step is two passes over the vectors and a
// scaling: w = Aq with its dot products against q, the previous vector
// and phi, then w minus those three components (one classical Gram–Schmidt
// step, which both runs the three-term recurrence and projects out phi)
// with its norm. Without full reorthogonalisation Lanczos may repeat
// converged eigenvalues ("ghosts"), but the extreme Ritz value, the only
// one used here (found by ritzTop every 8 steps), is unaffected. It stops
// when that value moves less than 1e-10 over 8 steps.
func (ws *spectralWork) lanczosSecond(op *normalized) (float64, int) {
	q, prev, w, maxIter := ws.lanczosStart(op)
	t := &ws.top
	last := math.Inf(-1)
	for j := 0; j < maxIter; j++ {
		a, cp, cf := op.mulDots(w, q, prev)
		b := math.Sqrt(subtract3(w, a, q, cp, prev, cf, op.phi))
		t.alpha = append(t.alpha, a)
		if (j+1)%8 == 0 || b < 1e-12 || j == maxIter-1 {
			top := t.max()
			if b < 1e-12 || math.Abs(top-last) < 1e-10 || j == maxIter-1 {
				return top, j + 1
			}
			last = top
		}
		t.beta = append(t.beta, b) // beta[j] couples q_j and q_{j+1}
		prev, q, w = q, w, prev
		scale(q, 1/b)
	}
	return last, maxIter
}

// subtract3 sets w -= a·x + b·y + c·z and returns ‖w‖², in one pass.
func subtract3(w []float64, a float64, x []float64, b float64, y []float64, c float64, z []float64) float64 {
	n := len(w)
	x, y, z = x[:n], y[:n], z[:n]
	var s0, s1 float64
	i := 0
	for ; i+1 < n; i += 2 {
		v := w[i] - (a*x[i] + b*y[i] + c*z[i])
		t := w[i+1] - (a*x[i+1] + b*y[i+1] + c*z[i+1])
		w[i], w[i+1] = v, t
		s0, s1 = s0+v*v, s1+t*t
	}
	if i < n {
		v := w[i] - (a*x[i] + b*y[i] + c*z[i])
		w[i] = v
		s0 += v * v
	}
	return s0 + s1
}

// ritzTop finds the largest eigenvalue of the Lanczos tridiagonal T
// (diagonal alpha, off-diagonal beta[:len(alpha)-1]) as it grows.
type ritzTop struct {
	alpha, beta []float64
	val, move   float64   // the last result and how much it rose then
	x           []float64 // its eigenvector, the next search's start
	d, l        []float64 // LDLᵀ factors
}

// reset empties T, with room for k steps.
func (r *ritzTop) reset(k int) {
	r.alpha, r.beta, r.x = slices.Grow(r.alpha[:0], k), slices.Grow(r.beta[:0], k), slices.Grow(r.x[:0], k)
	r.d, r.l = slices.Grow(r.d[:0], k), slices.Grow(r.l[:0], k)
	r.val, r.move = math.Inf(-1), 1e-2
}

// ritzTol is the accuracy of the eigenvalues of T.
func ritzTol(x float64) float64 { return 1e-13 * max(1, math.Abs(x)) }

// max is the largest eigenvalue λ of the current T, to ritzTol. The first
// call bisects Sturm counts over Gershgorin's interval. Later ones start
// from the previous value, a lower bound by Cauchy interlacing (the old T
// is a leading block of the new one), and step up from it, by 4× the last
// rise and then 16× more each time, until a Sturm count shows nothing
// above: an upper bound σ. Inverse iteration on σI − T (positive
// semidefinite, so LDLᵀ needs no pivoting), started from the previous
// eigenvector padded with zeros, gives a Rayleigh quotient θ ≤ λ, and a
// Sturm count showing nothing above θ + tol certifies it. Otherwise θ +
// tol is a lower bound and θ + residual, if a count confirms it, a closer
// shift; after four steps it bisects what is left of the bracket.
func (r *ritzTop) max() float64 {
	k := len(r.alpha)
	alpha, beta := r.alpha, r.beta[:k-1]
	first := math.IsInf(r.val, -1)
	for len(r.x) < k {
		r.x = append(r.x, 0)
	}
	lo, hi := gershgorin(alpha, beta)
	top := math.NaN()
	if !first {
		lo = r.val - ritzTol(r.val)
		step := max(4*r.move, 16*ritzTol(lo))
		for lo+step < hi && countAbove(alpha, beta, lo+step) > 0 {
			lo, step = lo+step, 16*step
		}
		hi = min(hi, lo+step)
		for it := 0; it < 4; it++ {
			theta, res := r.inverse(alpha, beta, hi)
			if math.IsNaN(theta) {
				break
			}
			tol := ritzTol(theta)
			if hi-theta <= tol || countAbove(alpha, beta, theta+tol) == 0 {
				top = theta
				break
			}
			lo = max(lo, theta+tol)
			// some eigenvalue lies within the residual of θ: if none lies
			// above θ + res, that is a tighter shift
			if t := theta + res; t > lo && t < hi {
				if countAbove(alpha, beta, t) == 0 {
					hi = t
				} else {
					lo = t
				}
			}
		}
	}
	if math.IsNaN(top) {
		top = bisect(alpha, beta, lo, hi)
		if first || anyNaN(r.x) {
			for i := range r.x {
				r.x[i] = 1
			}
		}
		r.inverse(alpha, beta, top+ritzTol(top))
	}
	if !first {
		r.move = top - r.val
	}
	r.val = top
	return top
}

// inverse does one step of inverse iteration, x ← (σI − T)⁻¹x normalised,
// for σ ≥ λmax(T), and returns x's Rayleigh quotient θ (NaN on breakdown)
// and residual ‖Tx − θx‖.
func (r *ritzTop) inverse(alpha, beta []float64, sigma float64) (theta, res float64) {
	k := len(alpha)
	r.d, r.l = resize(r.d, k), resize(r.l, k)
	d, l, x := r.d, r.l[:k], r.x[:k]
	tiny := 0x1p-52 * (math.Abs(sigma) + 1) // floor for pivots lost to rounding
	d[0] = max(sigma-alpha[0], tiny)
	for i := 1; i < k; i++ {
		l[i-1] = -beta[i-1] / d[i-1]
		d[i] = max((sigma-alpha[i])+l[i-1]*beta[i-1], tiny)
	}
	for i := 1; i < k; i++ {
		x[i] -= l[i-1] * x[i-1]
	}
	for i := range x {
		x[i] /= d[i]
	}
	for i := k - 2; i >= 0; i-- {
		x[i] -= l[i] * x[i+1]
	}
	scale(x, 1/math.Sqrt(dot(x, x)))
	theta = alpha[k-1] * x[k-1] * x[k-1]
	for i := 0; i < k-1; i++ {
		theta += x[i] * (alpha[i]*x[i] + 2*beta[i]*x[i+1])
	}
	for i := range x {
		t := (alpha[i] - theta) * x[i]
		if i > 0 {
			t += beta[i-1] * x[i-1]
		}
		if i+1 < k {
			t += beta[i] * x[i+1]
		}
		res += t * t
	}
	return theta, math.Sqrt(res)
}

func anyNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// gershgorin bounds the eigenvalues of the tridiagonal matrix with
// diagonal alpha and off-diagonal beta.
func gershgorin(alpha, beta []float64) (lo, hi float64) {
	k := len(alpha)
	lo, hi = math.Inf(1), math.Inf(-1)
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
	return lo, hi
}

// bisect narrows [lo, hi], which holds the largest eigenvalue of the
// tridiagonal matrix, by Sturm counts to ritzTol and returns its top.
func bisect(alpha, beta []float64, lo, hi float64) float64 {
	for hi-lo > ritzTol(hi) {
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

// gapFailure is the probability, per slice, that gapBound's certificate
// is wrong: the chance, over the random start vector, that k Lanczos steps
// leave the top Ritz value further below λ₂ than the bound allows.
const gapFailure = 1e-9

// gapBound returns a lower bound on g's spectral gap that holds with
// probability ≥ 1 − gapFailure, and the Lanczos estimate of the gap (an
// upper estimate: Ritz values approach λ₂ from below). It stops as soon as
// the bound reaches threshold (checked at every step), or after
// min(n−1, 400) steps, and reports
// the steps taken. The bound is Kuczyński and Woźniakowski's ("Estimating
// the largest eigenvalue by the power and Lanczos algorithms with a random
// start", 1992): for a positive semidefinite M of order m and a start
// vector uniform on the sphere, k steps give a Ritz value θ with
// P[θ < (1−ε)·λmax(M)] ≤ 1.648·√m·exp(−√ε·(2k−1)). Here M = I + D^{-1/2}AD^{-1/2}
// on the complement of D^{1/2}1 (eigenvalues in [0, 2], m = n − 1), whose
// top eigenvalue is 1 + λ₂, and the start is a Gaussian vector projected
// onto that complement. Graphs with n ≤ denseLimit get the exact gap as
// both values.
func (ws *spectralWork) gapBound(g circuits, threshold float64) (bound, estimate float64, steps int) {
	op := ws.normalize(g)
	if op == nil {
		return 0, 0, 0
	}
	if g.n <= denseLimit {
		gap := 1 - op.denseSecond()
		return gap, gap, 0
	}
	n := op.n
	q, prev, w, maxIter := ws.lanczosStart(op)
	t := &ws.top
	logTail := math.Log(1.648 * math.Sqrt(float64(n-1)) / gapFailure)
	// boundAt is the bound after k steps with top Ritz value theta.
	boundAt := func(k int, theta float64) float64 {
		eps := math.Pow(logTail/float64(2*k-1), 2)
		if eps >= 1 {
			return math.Inf(-1)
		}
		return 2 - (1+theta)/(1-eps)
	}
	theta := -1.0 // a lower bound on the top Ritz value until the first max()
	for j := 0; j < maxIter; j++ {
		a, cp, cf := op.mulDots(w, q, prev)
		b := math.Sqrt(subtract3(w, a, q, cp, prev, cf, op.phi))
		t.alpha = append(t.alpha, a)
		// Ritz values only rise with k, so a step whose bound fails with
		// the last θ fails with the new one too: only every 8th step, the
		// last one and the steps that may pass compute θ.
		last := b < 1e-12 || j == maxIter-1
		if (j+1)%8 == 0 || last || boundAt(j+1, theta) >= threshold {
			theta = t.max()
			estimate, bound = 1-theta, boundAt(j+1, theta)
			if bound >= threshold || last {
				return max(bound, 0), estimate, j + 1
			}
		}
		t.beta = append(t.beta, b)
		prev, q, w = q, w, prev
		scale(q, 1/b)
	}
	return max(bound, 0), estimate, maxIter
}
