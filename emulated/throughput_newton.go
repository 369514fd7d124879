package emulated

import "math"

// coupledStep takes one truncated Newton step on Φ over all commodities'
// path flows at once. Gauss–Seidel sweeps treat one commodity at a time
// and zig-zag when many commodities share saturated arcs; here every
// commodity keeps its largest path as the basic variable, the other paths
// (with flow, or cheaper than it) are the variables, and preconditioned
// conjugate gradients solve H·v = −g with the exact Hessian of Φ
// (H = Aᵀ·diag(β·l_e/c_e)·A over the path-minus-basic incidence A) with
// 3 to 25 iterations, as many as fit in about budget arc visits. The step
// is projected onto x ≥ 0 and backtracked until Φ decreases. It returns
// the work done (arc visits).
func (s *pathSolver) coupledStep(budget int) int {
	nt := &s.nt
	work := s.newtonVariables()
	m := len(nt.p)
	if m == 0 {
		return work
	}
	nt.v = resize(nt.v, m)
	nt.r = resize(nt.r, m)
	nt.z = resize(nt.z, m)
	nt.d = resize(nt.d, m)
	nt.hd = resize(nt.hd, m)
	gnorm := 0.0
	for i := range m {
		nt.v[i] = 0
		nt.r[i] = -nt.g[i]
		nt.z[i] = nt.r[i] / nt.m[i]
		nt.d[i] = nt.z[i]
		gnorm += nt.g[i] * nt.g[i]
	}
	rz := dot(nt.r, nt.z)
	perIter := 1
	for i, p := range nt.p {
		b := nt.b[i]
		perIter += 3 * int(s.off[p+1]-s.off[p]+s.off[b+1]-s.off[b])
	}
	maxCG := min(25, max(3, budget/perIter))
	for it := 0; it < maxCG; it++ {
		work += s.hessVec(nt.d, nt.hd)
		dhd := dot(nt.d, nt.hd)
		if !(dhd > 0) {
			break
		}
		a := rz / dhd
		rr := 0.0
		for i := range m {
			nt.v[i] += a * nt.d[i]
			nt.r[i] -= a * nt.hd[i]
			rr += nt.r[i] * nt.r[i]
		}
		if rr <= 1e-4*gnorm {
			break
		}
		for i := range m {
			nt.z[i] = nt.r[i] / nt.m[i]
		}
		rzNew := dot(nt.r, nt.z)
		for i := range m {
			nt.d[i] = nt.z[i] + rzNew/rz*nt.d[i]
		}
		rz = rzNew
	}
	// Projected step x_p ← max(0, x_p + α·v_p), the basic path absorbing
	// the change; halve α until Φ decreases and no basic flow goes negative.
	for alpha, tries := 1.0, 0; tries < 12; alpha, tries = alpha/2, tries+1 {
		for i, p := range nt.p {
			nt.d[i] = max(-s.x[p], alpha*nt.v[i]) // reuse: the actual change
		}
		dPhi, feasible := s.stepChange(nt.d)
		work += 2 * m
		if feasible && dPhi < 0 {
			s.applyStep(nt.d)
			return work
		}
	}
	return work
}

// newtonVariables sets up the coupled step's variables in s.nt: per
// commodity its largest path as the basic one and the paths with flow or
// cheaper than it, with their gradients and diagonal preconditioner. It
// returns the work done (arc visits).
func (s *pathSolver) newtonVariables() int {
	nt := &s.nt
	nt.p, nt.b, nt.g, nt.m = nt.p[:0], nt.b[:0], nt.g[:0], nt.m[:0]
	work := 0
	for _, act := range s.active {
		if len(act) < 2 {
			continue
		}
		b := act[0]
		for _, p := range act {
			if s.x[p] > s.x[b] {
				b = p
			}
		}
		cb, hb := 0.0, 0.0
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			cb += s.rec[a].l
			hb += s.rec[a].l / s.rec[a].cap
			s.mark[a] = true
		}
		for _, p := range act {
			if p == b {
				continue
			}
			c, h, shared := 0.0, 0.0, 0.0
			for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
				c += s.rec[a].l
				w := s.rec[a].l / s.rec[a].cap
				h += w
				if s.mark[a] {
					shared += w
				}
			}
			work += int(s.off[p+1] - s.off[p])
			if g := c - cb; s.x[p] > 0 || g < 0 {
				nt.p = append(nt.p, p)
				nt.b = append(nt.b, b)
				nt.g = append(nt.g, g)
				nt.m = append(nt.m, s.beta*max(h+hb-2*shared, 1e-300))
			}
		}
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			s.mark[a] = false
		}
	}
	// The variables come in runs sharing a basic path (one commodity
	// each); arcs lists every arc of their paths once.
	nt.runs, nt.arcs = nt.runs[:0], nt.arcs[:0]
	for i, p := range nt.p {
		b := nt.b[i]
		if i == 0 || b != nt.b[i-1] {
			nt.runs = append(nt.runs, int32(i))
			nt.arcs = s.appendUnmarked(nt.arcs, b)
		}
		nt.arcs = s.appendUnmarked(nt.arcs, p)
	}
	nt.runs = append(nt.runs, int32(len(nt.p)))
	for _, a := range nt.arcs {
		s.mark[a] = false
	}
	return work
}

type newtonScratch struct {
	p, b                 []int32
	g, m, v, r, z, d, hd []float64
	basic                []float64 // per path id: change of a basic path
	runs                 []int32   // p[runs[r]:runs[r+1]] share a basic path
	arcs                 []int32   // every arc of the variables' paths, once
}

func resize(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// hessVec sets out = H·v for the variables of s.nt and returns the work.
// A run's basic path is summed once for all its variables.
func (s *pathSolver) hessVec(v, out []float64) int {
	nt := &s.nt
	work := 0
	for r := 0; r+1 < len(nt.runs); r++ {
		i0, i1 := nt.runs[r], nt.runs[r+1]
		sum := 0.0
		for i := i0; i < i1; i++ {
			p := nt.p[i]
			for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
				s.rec[a].acc += v[i]
			}
			sum += v[i]
			work += int(s.off[p+1] - s.off[p])
		}
		b := nt.b[i0]
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			s.rec[a].acc -= sum
		}
		work += int(s.off[b+1] - s.off[b])
	}
	for r := 0; r+1 < len(nt.runs); r++ {
		i0, i1 := nt.runs[r], nt.runs[r+1]
		b := nt.b[i0]
		hb := 0.0
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			hb += s.rec[a].l / s.rec[a].cap * s.rec[a].acc
		}
		for i := i0; i < i1; i++ {
			p := nt.p[i]
			h := 0.0
			for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
				h += s.rec[a].l / s.rec[a].cap * s.rec[a].acc
			}
			out[i] = s.beta * (h - hb)
		}
	}
	s.clearAcc()
	return 3 * work
}

// appendUnmarked appends the arcs of path p not yet marked, marking them.
func (s *pathSolver) appendUnmarked(arcs []int32, p int32) []int32 {
	for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
		if !s.mark[a] {
			s.mark[a] = true
			arcs = append(arcs, a)
		}
	}
	return arcs
}

func (s *pathSolver) clearAcc() {
	for _, a := range s.nt.arcs {
		s.rec[a].acc = 0
	}
}

// stepChange is the change of Φ (in units of the shifted exponentials,
// times c_e) when path nt.p[i] changes by dx[i] and its basic path by the
// opposite; feasible is false if a basic path's flow would go negative.
func (s *pathSolver) stepChange(dx []float64) (dPhi float64, feasible bool) {
	nt := &s.nt
	nt.basic = resize(nt.basic, len(s.x))
	for i := range nt.p {
		nt.basic[nt.b[i]] = 0
	}
	for i, p := range nt.p {
		nt.basic[nt.b[i]] -= dx[i]
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].acc += dx[i]
		}
		b := nt.b[i]
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			s.rec[a].acc -= dx[i]
		}
	}
	feasible = true
	for i := range nt.p {
		if b := nt.b[i]; s.x[b]+nt.basic[b] < 0 {
			feasible = false
		}
	}
	// Σ over the touched arcs of c_e·(l_e(F+Δ) − l_e(F)).
	for _, a := range nt.arcs {
		if y := s.rec[a].acc; y != 0 {
			c := s.rec[a].cap
			z := s.beta*s.rec[a].load/c - s.lift
			dPhi += c * (math.Exp(min(700, z+s.beta*y/c)) - math.Exp(min(700, max(-700, z))))
			s.rec[a].acc = 0
		}
	}
	return dPhi, feasible
}

// applyStep moves the flows of stepChange's step and updates the arcs.
func (s *pathSolver) applyStep(dx []float64) {
	nt := &s.nt
	for i, p := range nt.p {
		b := nt.b[i]
		d := dx[i]
		if s.x[p]+d < 0 {
			d = -s.x[p]
		}
		s.x[p] += d
		s.x[b] -= d
		for _, a := range s.arcs[s.off[p]:s.off[p+1]] {
			s.rec[a].load += d
		}
		for _, a := range s.arcs[s.off[b]:s.off[b+1]] {
			s.rec[a].load -= d
		}
	}
	for _, a := range nt.arcs {
		s.rec[a].l = s.arcCost(int(a))
	}
	for _, b := range nt.b {
		if s.x[b] < 0 {
			s.x[b] = 0
		}
	}
}
