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
// interior-point method (Mehrotra's predictor–corrector). Its normal
// equations A·D·Aᵀ·y = b are reduced to the arc rows: the commodity rows'
// block is diagonal plus the rank-one term of the θ column, so it is
// eliminated exactly (Sherman–Morrison), and the Schur complement on the
// arcs is solved by conjugate gradients with a Jacobi preconditioner,
// matrix-free (A has a handful of entries per path). Eliminating the
// commodities removes what made the full system ill-conditioned near the
// optimum (a commodity's dominant path couples its row and its arcs' rows
// with weights far above the rest). The
// iterates need not be exact: every lower bound the solver takes from them
// is a repaired flow (each commodity's path flows rescaled to its demand,
// then the whole flow to the busiest arc), certified like any other.
type pathLP struct {
	k, m int       // commodities, arcs
	dem  []float64 // d_k
	capa []float64 // c_e (compact arc ids)
	// path i: commodity com[i], arcs arc[start[i]:start[i+1]] (compact ids);
	// commodity c's paths are cstart[c]..cstart[c+1]-1
	com    []int32
	start  []int32
	arc    []int32
	cstart []int32

	// Interior-point state over z = (x, θ, s) and the row duals y.
	z, w, y, d []float64
	rp, rd, rc []float64
	dz, dw, dy []float64
	dza, dwa   []float64
	rhs, tmp   []float64
	// The reduced system of one iteration (schur): Dc = Σ_{p∈c} d_p per
	// commodity, hc = dem/Dc, the θ column's rank-one weight gamma and
	// arc vector g = Cᵀ·hc, the Schur complement's diagonal sdiag.
	dc, hc, qc     []float64
	g, sdiag, rs   []float64
	gamma          float64
	tp             []float64 // per path scratch
	cr, cz, cp, cq []float64
	cgIterations   int
	cgMax          int     // 0: lpCGMax
	cgTol          float64 // 0: lpCGTol
	predTol        float64 // the predictor's cgTol; 0: cgTol
	capped         bool    // a solve of the last IPM iteration hit cgMax

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
const lpCGTol = 1e-4

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

// schur prepares this iteration's reduced normal equations. With C the
// commodity–arc block of A·D·Aᵀ (C_ce = Σ_{p∈c, p∋e} d_p), M its arc block
// and Nc = diag(Dc) + d_θ·dem·demᵀ its commodity block, the arc rows solve
// S·y_e = b_e − Cᵀ·Nc⁻¹·b_c with S = M − Cᵀ·Nc⁻¹·C
// = M − Cᵀ·diag(Dc)⁻¹·C + gamma·g·gᵀ.
func (lp *pathLP) schur() {
	p, k, m := lp.paths(), lp.k, lp.m
	clear(lp.dc)
	for i := 0; i < p; i++ {
		lp.dc[lp.com[i]] += lp.d[i]
	}
	q := 0.0
	for c := 0; c < k; c++ {
		lp.hc[c] = lp.dem[c] / lp.dc[c]
		q += lp.dem[c] * lp.hc[c]
	}
	dt := lp.d[p]
	lp.gamma = dt / (1 + dt*q)
	clear(lp.g)
	copy(lp.sdiag, lp.d[p+1:])
	acc := lp.rs // scratch, zero between commodities
	clear(acc)
	for c := 0; c < k; c++ {
		for i := lp.cstart[c]; i < lp.cstart[c+1]; i++ {
			di := lp.d[i]
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				lp.g[e] += di * lp.hc[c]
				lp.sdiag[e] += di
				acc[e] += di
			}
		}
		for i := lp.cstart[c]; i < lp.cstart[c+1]; i++ {
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				if a := acc[e]; a != 0 {
					lp.sdiag[e] -= a * a / lp.dc[c]
					acc[e] = 0
				}
			}
		}
	}
	for e := 0; e < m; e++ {
		// S_ee ≥ d_s (Cauchy–Schwarz); the subtraction may round below it.
		lp.sdiag[e] = max(lp.sdiag[e], lp.d[p+1+e]) + lp.gamma*lp.g[e]*lp.g[e]
	}
}

// schurMul sets out = S·v for v over the arcs.
func (lp *pathLP) schurMul(v, out []float64) {
	lp.schurMulDot(v, out, nil, 0)
}

// schurMulDot sets out = S·v and returns vᵀ·out. With z non-nil it first
// sets v = z + beta·v (conjugate gradients' next direction): the passes
// over the arcs are fused, each element computed and each sum accumulated
// in the order of the separate loops, so the results are bit-identical to
// them.
func (lp *pathLP) schurMulDot(v, out, z []float64, beta float64) float64 {
	p, m := lp.paths(), lp.m
	ds := lp.d[p+1 : p+1+m]
	g := lp.g[:m]
	v, out = v[:m], out[:m]
	gs := 0.0
	if z != nil {
		z = z[:m]
		for e := range v {
			v[e] = z[e] + beta*v[e]
			out[e] = ds[e] * v[e]
			gs += g[e] * v[e]
		}
	} else {
		for e := range v {
			out[e] = ds[e] * v[e]
			gs += g[e] * v[e]
		}
	}
	for c := 0; c < lp.k; c++ {
		lo, hi := lp.cstart[c], lp.cstart[c+1]
		u := 0.0
		for i := lo; i < hi; i++ {
			t := 0.0
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				t += v[e]
			}
			lp.tp[i] = t
			u += lp.d[i] * t
		}
		u /= lp.dc[c]
		for i := lo; i < hi; i++ {
			f := lp.d[i] * (lp.tp[i] - u)
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				out[e] += f
			}
		}
	}
	gv := lp.gamma * gs
	vo := 0.0
	for e := range out {
		out[e] += gv * g[e]
		vo += v[e] * out[e]
	}
	return vo
}

// ncInv sets out = Nc⁻¹·v (Sherman–Morrison).
func (lp *pathLP) ncInv(v, out []float64) {
	s := lp.gamma * dot(lp.hc, v)
	for c, x := range v {
		out[c] = x/lp.dc[c] - s*lp.hc[c]
	}
}

// solveNormal solves A·D·Aᵀ·y = b: the arc rows by conjugate gradients on
// the Schur complement (from the y given: the previous direction's, close
// to the next one), then the commodity rows exactly.
func (lp *pathLP) solveNormal(b, y []float64) {
	k := lp.k
	lp.ncInv(b[:k], lp.qc)
	copy(lp.rs, b[k:])
	for i := 0; i < lp.paths(); i++ {
		f := lp.d[i] * lp.qc[lp.com[i]]
		for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
			lp.rs[e] -= f
		}
	}
	ye := y[k:]
	lp.cg(lp.rs, ye)
	for c := 0; c < k; c++ {
		t := b[c]
		for i := lp.cstart[c]; i < lp.cstart[c+1]; i++ {
			s := 0.0
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				s += ye[e]
			}
			t -= lp.d[i] * s
		}
		lp.qc[c] = t
	}
	lp.ncInv(lp.qc, y[:k])
}

// cg solves S·x = b approximately (Jacobi-preconditioned conjugate
// gradients from the x given). The vector updates are fused into two
// passes per iteration (schurMulDot's and one here).
func (lp *pathLP) cg(b, x []float64) {
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		clear(x)
		return
	}
	m := lp.m
	x, r, z, dir, q, sd := x[:m], lp.cr[:m], lp.cz[:m], lp.cp[:m], lp.cq[:m], lp.sdiag[:m]
	lp.schurMul(x, r)
	for i, bi := range b {
		r[i] = bi - r[i]
	}
	if math.Sqrt(dot(r, r)) <= lp.cgTol*bn {
		return
	}
	for i := range z {
		z[i] = r[i] / sd[i]
	}
	copy(dir, z)
	rz := dot(r, z)
	var next []float64 // nil: dir is set
	beta := 0.0
	for it := 0; it < lp.cgMax; it++ {
		lp.cgIterations++
		pq := lp.schurMulDot(dir, q, next, beta)
		if !(pq > 0) {
			return
		}
		a := rz / pq
		rr, rz2 := 0.0, 0.0
		for i := range x {
			x[i] += a * dir[i]
			r[i] -= a * q[i]
			rr += r[i] * r[i]
			z[i] = r[i] / sd[i]
			rz2 += r[i] * z[i]
		}
		if math.Sqrt(rr) <= lp.cgTol*bn {
			return
		}
		next, beta = z, rz2/rz
		rz = rz2
	}
	lp.capped = true
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
	lp.solveNormal(lp.rhs, lp.dy)
	lp.mulAT(lp.dy, lp.dz)
	for i := range lp.dz {
		lp.dz[i] = lp.d[i]*(lp.dz[i]-lp.rd[i]) + lp.rc[i]/lp.w[i]
		lp.dw[i] = (lp.rc[i] - lp.w[i]*lp.dz[i]) / lp.z[i]
	}
}

// dualBound bounds the restricted LP's optimum by weak duality: the
// current iterate's arc prices l_e = w_{s_e} > 0 (the slacks' dual
// variables) give θ ≤ Σ_e c_e·l_e / Σ_k d_k·min_{p∈P_k} l(p) for every flow
// on these paths (a bound on the restricted LP only, not on θ*).
func (lp *pathLP) dualBound() float64 {
	p := lp.paths()
	l := lp.w[p+1:]
	vol := 0.0
	for e, c := range lp.capa {
		vol += c * l[e]
	}
	alpha := 0.0
	for c := 0; c < lp.k; c++ {
		best := math.Inf(1)
		for i := lp.cstart[c]; i < lp.cstart[c+1]; i++ {
			t := 0.0
			for _, e := range lp.arc[lp.start[i]:lp.start[i+1]] {
				t += l[e]
			}
			best = min(best, t)
		}
		alpha += lp.dem[c] * best
	}
	return vol / alpha
}

// commodityStarts sets cstart from com (columns in commodity order) and
// reports whether every commodity has a column.
func (lp *pathLP) commodityStarts() bool {
	lp.cstart = make([]int32, lp.k+1)
	for i, c := range lp.com {
		if i > 0 && c < lp.com[i-1] {
			panic("pathLP: columns not in commodity order")
		}
		lp.cstart[c+1]++
	}
	for c := 0; c < lp.k; c++ {
		if lp.cstart[c+1] == 0 {
			return false
		}
		lp.cstart[c+1] += lp.cstart[c]
	}
	return true
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

// setup allocates the interior-point state and reports whether every
// commodity has a column.
func (lp *pathLP) setup() bool {
	p, k, m := lp.paths(), lp.k, lp.m
	nv, nr := p+1+m, k+m
	lp.z, lp.w, lp.d = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.rd, lp.rc, lp.dz, lp.dw = make([]float64, nv), make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.dza, lp.dwa, lp.tmp = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	lp.y, lp.rp, lp.dy, lp.rhs = make([]float64, nr), make([]float64, nr), make([]float64, nr), make([]float64, nr)
	lp.dc, lp.hc, lp.qc = make([]float64, k), make([]float64, k), make([]float64, k)
	lp.g, lp.sdiag, lp.rs = make([]float64, m), make([]float64, m), make([]float64, m)
	lp.tp = make([]float64, p)
	lp.cr, lp.cz, lp.cp, lp.cq = make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	if lp.cgMax == 0 {
		lp.cgMax = lpCGMax
	}
	if lp.cgTol == 0 {
		lp.cgTol = lpCGTol
	}
	return lp.commodityStarts()
}

// solve runs up to maxIter interior-point iterations. After each one it
// calls visit with the path flows x (θ-scaled, possibly slightly
// infeasible); visit returning false stops it.
func (lp *pathLP) solve(maxIter int, visit func(x []float64) bool) {
	if !lp.setup() {
		return // a commodity without a path: θ = 0 on these paths
	}
	p, k, m := lp.paths(), lp.k, lp.m
	nv := p + 1 + m
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
		lp.schur()
		// Predictor (affine scaling), then Mehrotra's corrector.
		for i := range lp.rc {
			lp.rc[i] = -lp.z[i] * lp.w[i]
		}
		lp.capped = false
		tol := lp.cgTol
		if lp.predTol > 0 {
			lp.cgTol = lp.predTol
		}
		lp.direction()
		lp.cgTol = tol
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

// seededLPAfter is the first iteration at which a solve seeded with the
// hop bound (n ≥ hopBoundMinNodes) calls restrictedFlow, whatever its
// gap. Its upper bound is the seed for tens of iterations (the solver's
// own lengths start far above it), so the gap rule would wait for a lower
// bound within lpCallGap gaps of a bound that is itself several per cent
// above θ*: on mars-200 at n = 1,024 (U = 8) that never came in 40
// minutes. By iteration 12 the path pool has stopped growing, and the LP
// over it lifts the lower bound from 0.3163 to 0.3564 in ~20 s of CPU
// (mars-120: 0.3058 to 0.3449 in ~6 s), where the solver alone is at
// 0.3242 after iteration 15; over iteration 8's paths the LP reached
// only ~0.31 (docs/perf-history.md, issue 28, ninth round).
var seededLPAfter = 12

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
	// The LP's arcs are the solver's: its compact ids number the arcs
	// of positive capacity in order.
	lp := &pathLP{k: len(s.dst), dem: s.dem, start: []int32{0}, capa: s.cap, m: len(s.cap)}
	for k, act := range s.active {
		for _, p := range act {
			if !s.lpColumn(k, p) {
				continue
			}
			lp.arc = append(lp.arc, s.arcs[s.off[p]:s.off[p+1]]...)
			lp.start = append(lp.start, int32(len(lp.arc)))
			lp.com = append(lp.com, int32(k))
			lp.ids = append(lp.ids, p)
		}
	}
	return lp
}

// renumberArcs numbers the LP's arcs in order of first use by its columns
// (commodity by commodity), the unused ones last: a commodity's arcs then
// lie together in the conjugate-gradient vectors, which the Schur product
// reads and writes at every arc of every column. On mars-200 at n = 1,024
// a call's CPU fell by ~20 % (docs/perf-history.md, issue 28, fourteenth
// round). Columns, demands and repaired flows are unchanged; the sums over
// the arcs (dot products) are taken in the new order, so the iterates
// differ from the unrenumbered LP's in the last bits.
func (lp *pathLP) renumberArcs() {
	perm := make([]int32, lp.m)
	for i := range perm {
		perm[i] = -1
	}
	next := int32(0)
	for _, e := range lp.arc {
		if perm[e] < 0 {
			perm[e] = next
			next++
		}
	}
	capa := make([]float64, lp.m)
	for e, q := range perm {
		if q < 0 {
			q = next
			next++
		}
		capa[q] = lp.capa[e]
	}
	lp.capa = capa
	for i, e := range lp.arc {
		lp.arc[i] = perm[e]
	}
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
	return s.restrictedFlowRule(upper, gap, lpCallRule{share: lpDualShare})
}

// lpCallRule is how one restricted-LP call runs and ends.
type lpCallRule struct {
	// share: the call ends once its flow is within gap/share of the
	// restricted LP's dual bound.
	share float64
	// predTol is the predictor's conjugate-gradient tolerance (0: the
	// corrector's, lpCGTol).
	predTol float64
	// capStop ends the call after an interior-point iteration whose
	// conjugate gradients hit their cap without lifting the bound.
	capStop bool
	// renumber: the LP's arcs in order of first use (renumberArcs).
	renumber bool
	cgMax    int // the cap; 0: lpCGMax
}

// restrictedFlowRule is restrictedFlow under rule.
func (s *pathSolver) restrictedFlowRule(upper, gap float64, rule lpCallRule) ([]pathFlow, float64) {
	share := rule.share
	lp := s.restrictedLP()
	if rule.renumber {
		lp.renumberArcs()
	}
	lp.predTol, lp.cgMax = rule.predTol, rule.cgMax
	best, bestLam := []pathFlow(nil), math.Inf(1)
	flow := make([]float64, len(lp.com))
	lastGain, it := 0, 0
	lp.solve(lpMaxIter, func(x []float64) bool {
		it++
		s.lpIPM++
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
		// stop once the bound is within gap/4 of the restricted LP's own
		// optimum (its dual bound says no flow on these paths does
		// better), or has not improved by gap/20 in 3 iterations.
		if it < lpMinIter {
			return true
		}
		if 1/bestLam >= (1-gap/share)*lp.dualBound() {
			return false
		}
		if rule.capStop && lp.capped && lastGain != it {
			return false
		}
		return it-lastGain < 3
	})
	return best, bestLam
}

const (
	// The path solver calls restrictedFlow once its gap is within
	// lpCallGap times the target (from iteration restrictedLPAfter on),
	// and again when its iterations have doubled (a larger path set) if
	// the call lifted the lower bound by at least a quarter of the gap;
	// at most lpMaxCalls times, so an unproductive LP costs one call.
	// On mars-40 at n = 128 the LP over the paths of iteration ~40 (gap
	// 7 %) is already within 0.05 % of the one over iteration 60's (gap
	// 4 %), and the design question settles once the upper bound comes
	// within two gaps of it, so calling it at 8 gaps ends that solve ~20
	// iterations sooner.
	lpCallGap  = 8
	lpMaxCalls = 3
	// seededLPMaxCalls is lpMaxCalls for a hop-seeded solve (n ≥
	// hopBoundMinNodes), whose lower bound comes from these calls only
	// (docs/perf-history.md, issue 28, eleventh round).
	seededLPMaxCalls = 4
	lpMaxIter        = 20 // interior-point iterations of one restricted solve
	lpMinIter        = 8  // iterations before the stall rule applies
	// lpDualShare: a call ends once its flow is within gap/lpDualShare of
	// the restricted LP's dual bound.
	lpDualShare = 4
	// seededDualShare is lpDualShare for the calls of a hop-seeded solve
	// (n ≥ hopBoundMinNodes). Their interval is far wider than the gap,
	// and the last quarter of the gap costs most of a call: on mars-120 at
	// n = 1,024 (93,386 columns) the flow was within 1 % of the restricted
	// dual bound at interior-point iteration 12 (θ ≥ 0.34352, 1,749
	// conjugate-gradient iterations so far) and never within 0.25 %; the
	// stall rule ended the call at iteration 16, 8,519 CG iterations, for
	// θ ≥ 0.34410.
	seededDualShare = 1
	// seededPredTol is the predictor's conjugate-gradient tolerance on the
	// calls of a hop-seeded solve. The predictor (affine-scaling)
	// direction only sets the centring parameter and the corrector's
	// second-order term; solved to 5·10⁻³ instead of 10⁻⁴, six calls on
	// mars-120 and mars-200 at n = 1,024 took 6,831 CG iterations instead
	// of 10,229 (10⁻²: 6,617), bounds within 0.2 %.
	// Looser fails: at 3·10⁻² the affine steps shrink and two of six calls
	// stalled at the eighth interior-point iteration, far below the
	// optimum, and a call that lifts nothing schedules no further call
	// (docs/perf-history.md, issue 28, fourteenth round).
	seededPredTol = 5e-3
	lpDust        = 1e-12 // path flows below lpDust·d_k are dropped
)

// lpMinShare: the restricted LP's columns are the active paths carrying at
// least this share of their commodity's demand in the solver's iterate.
// The others (on mars-40 at n = 128, 38 % of 21,687 active paths, 45 % of
// the non-zeros) barely move the LP's optimum (0.38766 either way) but
// make every conjugate-gradient iteration dearer. 10⁻³ rather than 10⁻⁴:
// mars-40's call has 8,120 columns instead of 11,571 and certifies
// 0.38798 instead of 0.38811, and the work rule (which counts these
// non-zeros) calls it ~10 iterations sooner. Any flow on a subset of the
// paths is still a flow, so the bound stays certified.
const lpMinShare = 1e-3

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
