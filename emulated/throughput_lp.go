package emulated

import "math"

// pathLP is the exact restricted master problem of θ over a fixed set of
// paths (the path solver's active ones):
//
//	max θ  s.t.  Σ_{p∈P_k} x_p − θ·d_k = 0   (one row per commodity k)
//	             Σ_{p∋e} x_p + s_e = c_e     (one row per arc e)
//	             x, θ, s ≥ 0.
//
// Its optimum is the best θ any flow on these paths achieves, so its
// feasible points are lower bounds on θ*. solve runs a primal–dual
// interior-point method (Mehrotra's predictor–corrector) whose normal
// equations A·D·Aᵀ are solved by conjugate gradients with a Jacobi
// preconditioner, matrix-free (A has a handful of entries per path). The
// iterates need not be exact: every lower bound the solver takes from them
// is a repaired flow (each commodity's path flows rescaled to its demand,
// then the whole flow to the busiest arc), certified like any other.
type pathLP struct {
	k, m int       // commodities, arcs
	dem  []float64 // d_k
	capa []float64 // c_e (compact arc ids)
	// path i: commodity com[i], arcs arc[start[i]:start[i+1]] (compact ids)
	com   []int32
	start []int32
	arc   []int32

	// Interior-point state over z = (x, θ, s) and the row duals y.
	z, w, y, d     []float64
	rp, rd, rc     []float64
	dz, dw, dy     []float64
	dza, dwa       []float64
	rhs, diag, tmp []float64
	cr, cz, cp, cq []float64
	cgIterations   int
	cgMax          int     // 0: lpCGMax
	cgTol          float64 // 0: lpCGTol

	// Repair scratch.
	ids  []int32 // the solver's path id of each column
	sum  []float64
	load []float64
}

// lpCGMax bounds the conjugate-gradient iterations of one linear solve:
// late interior-point iterations are ill-conditioned and an inexact
// direction still makes progress (the bounds are certified separately).
const lpCGMax = 1000

// lpCGTol is the relative residual at which a linear solve stops.
const lpCGTol = 1e-6

func (lp *pathLP) paths() int { return len(lp.com) }

// mulA sets out = A·u for u over (x, θ, s).
func (lp *pathLP) mulA(u, out []float64) {
	clear(out)
	p, k := lp.paths(), lp.k
	for i := 0; i < p; i++ {
		x := u[i]
		out[lp.com[i]] += x
		for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
			out[k+int(e)] += x
		}
	}
	for c := 0; c < k; c++ {
		out[c] -= lp.dem[c] * u[p]
	}
	for e := 0; e < lp.m; e++ {
		out[k+e] += u[p+1+e]
	}
}

// mulAT sets out = Aᵀ·v.
func (lp *pathLP) mulAT(v, out []float64) {
	p, k := lp.paths(), lp.k
	for i := 0; i < p; i++ {
		s := v[lp.com[i]]
		for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
			s += v[k+int(e)]
		}
		out[i] = s
	}
	s := 0.0
	for c := 0; c < k; c++ {
		s -= lp.dem[c] * v[c]
	}
	out[p] = s
	for e := 0; e < lp.m; e++ {
		out[p+1+e] = v[k+e]
	}
}

// normal sets out = A·D·Aᵀ·v.
func (lp *pathLP) normal(v, out []float64) {
	lp.mulAT(v, lp.tmp)
	for i, di := range lp.d {
		lp.tmp[i] *= di
	}
	lp.mulA(lp.tmp, out)
}

// cg solves A·D·Aᵀ·x = b approximately (Jacobi-preconditioned conjugate
// gradients from the x given: the previous direction's dy, close to the
// next one).
func (lp *pathLP) cg(b, x []float64) {
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		clear(x)
		return
	}
	lp.normal(x, lp.cr)
	for i, bi := range b {
		lp.cr[i] = bi - lp.cr[i]
	}
	if math.Sqrt(dot(lp.cr, lp.cr)) <= lp.cgTol*bn {
		return
	}
	for i := range lp.cz {
		lp.cz[i] = lp.cr[i] / lp.diag[i]
	}
	copy(lp.cp, lp.cz)
	rz := dot(lp.cr, lp.cz)
	for it := 0; it < lp.cgMax; it++ {
		lp.cgIterations++
		lp.normal(lp.cp, lp.cq)
		pq := dot(lp.cp, lp.cq)
		if !(pq > 0) {
			return
		}
		a := rz / pq
		for i := range x {
			x[i] += a * lp.cp[i]
			lp.cr[i] -= a * lp.cq[i]
		}
		if math.Sqrt(dot(lp.cr, lp.cr)) <= lp.cgTol*bn {
			return
		}
		for i := range lp.cz {
			lp.cz[i] = lp.cr[i] / lp.diag[i]
		}
		rz2 := dot(lp.cr, lp.cz)
		for i := range lp.cp {
			lp.cp[i] = lp.cz[i] + rz2/rz*lp.cp[i]
		}
		rz = rz2
	}
}

// direction solves the Newton system for the complementarity target rc
// (z∘w + dz∘w + z∘dw = rc + z∘w) with the current residuals rp, rd.
func (lp *pathLP) direction() {
	for i := range lp.tmp {
		lp.tmp[i] = lp.d[i]*lp.rd[i] - lp.rc[i]/lp.w[i]
	}
	lp.mulA(lp.tmp, lp.rhs)
	for i := range lp.rhs {
		lp.rhs[i] += lp.rp[i]
	}
	lp.cg(lp.rhs, lp.dy)
	lp.mulAT(lp.dy, lp.dz)
	for i := range lp.dz {
		lp.dz[i] = lp.d[i]*(lp.dz[i]-lp.rd[i]) + lp.rc[i]/lp.w[i]
		lp.dw[i] = (lp.rc[i] - lp.w[i]*lp.dz[i]) / lp.z[i]
	}
}

// maxStep is the largest α ≤ 1 with v + α·dv ≥ 0.
func maxStep(v, dv []float64) float64 {
	a := 1.0
	for i, x := range dv {
		if x < 0 {
			a = min(a, -v[i]/x)
		}
	}
	return a
}

// solve runs up to maxIter interior-point iterations. After each one it
// calls visit with the path flows x (θ-scaled, possibly slightly
// infeasible); visit returning false stops it.
func (lp *pathLP) solve(maxIter int, visit func(x []float64) bool) {
	p, k, m := lp.paths(), lp.k, lp.m
	nv, nr := p+1+m, k+m
	lp.z, lp.w, lp.d = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.rd, lp.rc, lp.dz, lp.dw = make([]float64, nv), make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.dza, lp.dwa, lp.tmp = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.y, lp.rp, lp.dy, lp.rhs, lp.diag = make([]float64, nr), make([]float64, nr), make([]float64, nr), make([]float64, nr), make([]float64, nr)
	lp.cr, lp.cz, lp.cp, lp.cq = make([]float64, nr), make([]float64, nr), make([]float64, nr), make([]float64, nr)
	if lp.cgMax == 0 {
		lp.cgMax = lpCGMax
	}
	if lp.cgTol == 0 {
		lp.cgTol = lpCGTol
	}
	for i := range lp.z {
		lp.z[i], lp.w[i] = 1, 1
	}
	for it := 0; it < maxIter; it++ {
		// Residuals of A·z = b (b = (0, c)) and Aᵀ·y + w = (0, −1, 0).
		lp.mulA(lp.z, lp.rp)
		for i := range lp.rp {
			b := 0.0
			if i >= k {
				b = lp.capa[i-k]
			}
			lp.rp[i] = b - lp.rp[i]
		}
		lp.mulAT(lp.y, lp.rd)
		for i := range lp.rd {
			c := 0.0
			if i == p {
				c = -1
			}
			lp.rd[i] = c - lp.rd[i] - lp.w[i]
		}
		mu := dot(lp.z, lp.w) / float64(nv)
		for i := range lp.d {
			lp.d[i] = lp.z[i] / lp.w[i]
		}
		clear(lp.diag)
		for i := 0; i < p; i++ {
			lp.diag[lp.com[i]] += lp.d[i]
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				lp.diag[k+int(e)] += lp.d[i]
			}
		}
		for c := 0; c < k; c++ {
			lp.diag[c] += lp.dem[c] * lp.dem[c] * lp.d[p]
		}
		for e := 0; e < m; e++ {
			lp.diag[k+e] += lp.d[p+1+e]
		}
		// Predictor (affine scaling), then Mehrotra's corrector.
		for i := range lp.rc {
			lp.rc[i] = -lp.z[i] * lp.w[i]
		}
		lp.direction()
		ap, ad := maxStep(lp.z, lp.dz), maxStep(lp.w, lp.dw)
		muAff := 0.0
		for i := range lp.z {
			muAff += (lp.z[i] + ap*lp.dz[i]) * (lp.w[i] + ad*lp.dw[i])
		}
		muAff /= float64(nv)
		sigma := math.Pow(muAff/mu, 3)
		copy(lp.dza, lp.dz)
		copy(lp.dwa, lp.dw)
		for i := range lp.rc {
			lp.rc[i] = sigma*mu - lp.z[i]*lp.w[i] - lp.dza[i]*lp.dwa[i]
		}
		lp.direction()
		ap = min(1, 0.99*maxStep(lp.z, lp.dz))
		ad = min(1, 0.99*maxStep(lp.w, lp.dw))
		for i := range lp.z {
			lp.z[i] += ap * lp.dz[i]
			lp.w[i] += ad * lp.dw[i]
		}
		for i := range lp.y {
			lp.y[i] += ad * lp.dy[i]
		}
		if !visit(lp.z[:p]) {
			return
		}
	}
}

// restrictedLPAfter is the first iteration at which the path solver may
// call restrictedFlow: the complete and circulant graphs are certified by
// then, so their answers do not change.
var restrictedLPAfter = 20

// restrictedLPWorkRatio: a call costs about as much as the solver's
// iterations so far once their tree work is this many times the LP's
// non-zeros (measured on mars-40 at n = 128, where the first call cost
// ~60 iterations), so the solver calls it only past that point: on small
// graphs, whose iterations are cheap, the LP would cost more than the
// iterations it saves (n = 64: 18.7 s of CPU for the question instead of
// 9.4 s without the rule).
var restrictedLPWorkRatio = 2000

// restrictedLP is the restricted master LP over the solver's active paths
// (columns in commodity order).
func (s *pathSolver) restrictedLP() *pathLP {
	n := s.n
	arcID := make([]int32, n*n)
	lp := &pathLP{k: len(s.dst), dem: s.dem, start: []int32{0}}
	for a, c := range s.cap {
		arcID[a] = -1
		if c > 0 {
			arcID[a] = int32(len(lp.capa))
			lp.capa = append(lp.capa, c)
		}
	}
	lp.m = len(lp.capa)
	for k, act := range s.active {
		for _, p := range act {
			if !s.lpColumn(k, p) {
				continue
			}
			for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
				lp.arc = append(lp.arc, arcID[a])
			}
			lp.start = append(lp.start, int32(len(lp.arc)))
			lp.com = append(lp.com, int32(k))
			lp.ids = append(lp.ids, p)
		}
	}
	return lp
}

// repair turns the θ-scaled path flows x of an iterate into path flows
// that route the whole demand (negatives and dust dropped, each
// commodity's rest rescaled to its demand) and returns their congestion
// λ, so that 1/λ is a certified lower bound; 0 when some commodity has no
// flow left. flow, when non-nil, receives the repaired flows.
func (lp *pathLP) repair(x, flow []float64) float64 {
	lp.sum = resize(lp.sum, lp.k)
	lp.load = resize(lp.load, lp.m)
	clear(lp.sum)
	for i, v := range x {
		if k := lp.com[i]; v > lpDust*lp.dem[k] {
			lp.sum[k] += v
		}
	}
	for _, v := range lp.sum {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0
		}
	}
	clear(lp.load)
	for i, v := range x {
		k := lp.com[i]
		f := 0.0
		if v > lpDust*lp.dem[k] {
			f = v * (lp.dem[k] / lp.sum[k])
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				lp.load[e] += f
			}
		}
		if flow != nil {
			flow[i] = f
		}
	}
	lam := 0.0
	for e, f := range lp.load {
		lam = max(lam, f/lp.capa[e])
	}
	return lam
}

// restrictedFlow solves the restricted master LP over the active paths and
// returns the best certified flow its iterates gave (path flows routing the
// whole demand, grouped by commodity like snapshot) with its congestion λ;
// λ = +Inf when none was found. It stops once 1/λ is within gap of upper,
// when the bound has stopped improving, or when the caller's context is
// done.
func (s *pathSolver) restrictedFlow(upper, gap float64) ([]pathFlow, float64) {
	lp := s.restrictedLP()
	best, bestLam := []pathFlow(nil), math.Inf(1)
	flow := make([]float64, len(lp.com))
	lastGain, it := 0, 0
	lp.solve(lpMaxIter, func(x []float64) bool {
		it++
		lam := lp.repair(x, flow)
		if lam > 0 && lam < bestLam {
			if 1/lam > (1+gap/20)/bestLam {
				lastGain = it
			}
			bestLam = lam
			best = best[:0]
			for i, f := range flow {
				if f > 0 {
					best = append(best, pathFlow{lp.ids[i], f})
				}
			}
		}
		if relGap(1/bestLam, upper) <= gap || s.stopped() {
			return false
		}
		// The first iterations only find the central path; after them,
		// stop once the bound has not improved by gap/20 in 3 iterations.
		return it < lpMinIter || it-lastGain < 3
	})
	return best, bestLam
}

const (
	// The path solver calls restrictedFlow once its gap is within
	// lpCallGap times the target (from iteration restrictedLPAfter on),
	// and again when its iterations have doubled (a larger path set) if
	// the call lifted the lower bound by at least a quarter of the gap;
	// at most lpMaxCalls times, so an unproductive LP costs one call.
	lpCallGap  = 4
	lpMaxCalls = 3
	lpMaxIter  = 20    // interior-point iterations of one restricted solve
	lpMinIter  = 8     // iterations before the stall rule applies
	lpDust     = 1e-12 // path flows below lpDust·d_k are dropped
)

// lpMinShare: the restricted LP's columns are the active paths carrying at
// least this share of their commodity's demand in the solver's iterate.
// The others (on mars-40 at n = 128, 38 % of 21,687 active paths, 45 % of
// the non-zeros) barely move the LP's optimum (0.38766 either way) but
// make every conjugate-gradient iteration dearer. Any flow on a subset of
// the paths is still a flow, so the bound stays certified.
const lpMinShare = 1e-4

// lpColumn reports whether commodity k's active path p is a column of the
// restricted LP.
func (s *pathSolver) lpColumn(k int, p int32) bool {
	return s.x[p] >= lpMinShare*s.dem[k]
}

// activeEntries is the restricted LP's non-zeros: one per column and arc
// on it, one per column for its commodity.
func (s *pathSolver) activeEntries() int {
	m := 0
	for k, act := range s.active {
		for _, p := range act {
			if s.lpColumn(k, p) {
				m += int(s.off[p+1]-s.off[p]) + 1
			}
		}
	}
	return m
}
