package emulated

import "math"

// Column generation on the restricted LP, with Farley's bound.
//
// On hop-seeded solves (n ≥ hopBoundMinNodes) the smoothed solver's upper
// bound stays at the hop seed for hundreds of iterations (it needs κ ≫ 8),
// a few per cent above θ*. From the first restricted-LP call on
// (seededLPAfter) such a solve therefore stops iterating the smoothed
// solver and runs column generation instead; each iteration is one round:
//
//  1. solve the restricted LP over the columns (pathLP, interior point):
//     its repaired flow is the lower bound, as before;
//  2. take its arc prices y (the slacks' dual variables, > 0 in the
//     interior) as lengths and grow one shortest-path tree per source;
//  3. Farley's bound: any y ≥ 0 gives θ* ≤ Σ_e c_e·y_e / Σ_k d_k·dist_y(k),
//     the max-concurrent-flow dual evaluated at y; it is an ordinary
//     length function, kept as the best lengths when below the bound so
//     far, so Verify checks it by Floyd–Warshall like every other;
//  4. add, per commodity, the tree path and the cheapest one-arc detours
//     whose length under y is below the commodity's cheapest column
//     (negative reduced cost), up to cgDetours of them.
//
// At the restricted LP's optimum y the bound is θ_RLP over the least
// ratio dist_y(k)/σ_k (σ_k the commodity's dual): when no column prices
// out, it equals θ_RLP and the interval closes.
//
// Columns that carried no flow in cgDropAfter consecutive rounds leave
// the LP (the previous optimum keeps its columns, so the lower bound never
// falls).

// cgDetours bounds the one-arc detours a commodity gains per round besides
// its tree path.
var cgDetours = 4

// cgDropAfter: a column without flow in this many rounds in a row leaves.
const cgDropAfter = 3

// cgLPShare: a round's LP call ends once its flow is within gap/cgLPShare
// of the restricted LP's dual bound (or stalls).
const cgLPShare = 4

// columnGeneration is whether hop-seeded solves switch to column
// generation at their first restricted-LP call (a variable for tests).
var columnGeneration = true

// cgState is the column generation's state across rounds.
type cgState struct {
	idle   []uint8 // per path id: rounds in a row without flow
	rounds int
	added  int // columns added by the last round
}

// cgRound runs one round of column generation on st (see above). It
// returns false when the context stopped it (nothing of the round is
// kept then).
func (s *pathSolver) cgRound(st *solveState, workers int) bool {
	cg := st.cg
	lp := s.restrictedLPOf(func(int, int32) bool { return true })
	flow := make([]float64, len(lp.com))
	best, bestLam := []pathFlow(nil), math.Inf(1)
	bestX := make([]float64, len(lp.com))
	lastGain, it := 0, 0
	lp.solve(lpMaxIter, func(x []float64) bool {
		it++
		lam := lp.repair(x, flow)
		if lam > 0 && lam < bestLam {
			if 1/lam > (1+st.gap/20)/bestLam {
				lastGain = it
			}
			bestLam = lam
			copy(bestX, flow)
		}
		if s.stopped() {
			return false
		}
		if it < lpMinIter {
			return true
		}
		if 1/bestLam >= (1-st.gap/cgLPShare)*lp.dualBound() {
			return false
		}
		return it-lastGain < 3
	})
	if s.stopped() || lp.w == nil {
		return false
	}
	if bestLam < st.lam {
		for i, f := range bestX {
			if f > 0 {
				best = append(best, pathFlow{lp.ids[i], f})
			}
		}
		st.lam, st.flows = bestLam, best
	}
	// The columns' flows (the best repaired iterate) and idle counts.
	for i, p := range lp.ids {
		s.x[p] = bestX[i]
		if bestX[i] >= lpMinShare*lp.dem[lp.com[i]] {
			cg.idle[p] = 0
		} else if cg.idle[p] < math.MaxUint8 {
			cg.idle[p]++
		}
	}
	// Prices: the slacks' dual variables of the last iterate.
	w := lp.w[lp.paths()+1:]
	e := 0
	vol := 0.0
	for a, c := range s.cap {
		if c > 0 {
			s.l[a] = w[e]
			vol += c * w[e]
			e++
		}
	}
	alpha := 0.0
	added := 0
	complete := s.treePass(workers, func(i int) bool {
		if s.stopped() {
			return false
		}
		for k := s.first[i]; k < s.first[i+1]; k++ {
			t := s.dst[k]
			alpha += s.dem[k] * s.dist[t]
			sigma := math.Inf(1)
			for _, p := range s.active[k] {
				sigma = min(sigma, s.pathCost(p))
			}
			limit := sigma * (1 - 1e-9)
			if !(s.dist[t] < limit) {
				continue
			}
			before := len(s.active[k])
			s.addTreePath(int(k), -1, t)
			s.addDetoursBelow(int(k), t, limit, cgDetours)
			added += len(s.active[k]) - before
		}
		return true
	})
	if !complete {
		return false
	}
	if ub := vol / alpha; alpha > 0 && ub < st.upper {
		st.upper = ub
		copy(st.lengths, s.l)
	}
	for len(cg.idle) < len(s.x) {
		cg.idle = append(cg.idle, 0)
	}
	// Drop the columns idle for cgDropAfter rounds (never a commodity's
	// last one).
	for k, act := range s.active {
		keep := act[:0]
		for j, p := range act {
			if cg.idle[p] < cgDropAfter || (len(keep) == 0 && j == len(act)-1) {
				keep = append(keep, p)
			}
		}
		s.active[k] = keep
	}
	cg.rounds++
	cg.added = added
	return true
}

// startCG turns the solver's state into column generation's: the columns
// are the restricted LP's (the active paths carrying at least lpMinShare
// of their demand, or a commodity's busiest path).
func (s *pathSolver) startCG(st *solveState) {
	for k, act := range s.active {
		keep := act[:0]
		big := int32(-1)
		for _, p := range act {
			if big < 0 || s.x[p] > s.x[big] {
				big = p
			}
			if s.lpColumn(k, p) {
				keep = append(keep, p)
			}
		}
		if len(keep) == 0 && big >= 0 {
			keep = append(keep, big)
		}
		s.active[k] = keep
	}
	st.cg = &cgState{idle: make([]uint8, len(s.x))}
}

// addDetoursBelow adds, for commodity k with destination t, up to max of
// the paths "tree path to an in-neighbour u, then u→t" with length below
// limit, cheapest first (ties by u).
func (s *pathSolver) addDetoursBelow(k int, t int32, limit float64, max int) {
	n := int32(s.n)
	cand := s.cand[:0]
	for _, u := range s.g.In[t] {
		c := s.dist[u] + s.l[u*n+t]
		if u == s.par[t] || !(c < limit) {
			continue
		}
		simple := true
		for v := u; v >= 0; v = s.par[v] {
			if v == t {
				simple = false
				break
			}
		}
		if !simple {
			continue
		}
		d := detour{c, u}
		if len(cand) == max {
			if !d.less(cand[len(cand)-1]) {
				continue
			}
			cand = cand[:len(cand)-1]
		}
		i := len(cand)
		cand = append(cand, d)
		for ; i > 0 && d.less(cand[i-1]); i-- {
			cand[i] = cand[i-1]
		}
		cand[i] = d
	}
	for _, d := range cand {
		s.addTreePath(k, d.via, t)
	}
	s.cand = cand
}

// cgIteration is one iteration of a solve under column generation: a
// round, then the gap and stall checks of the solver's loop. (The path
// pool is not compacted meanwhile: cgState's counts are by path id.)
func (s *pathSolver) cgIteration(st *solveState, workers int) {
	if !s.cgRound(st, workers) {
		st.iters--
		st.interrupted = true
		return
	}
	g := relGap(1/st.lam, st.upper)
	if s.progress != nil {
		up := outwardUpper(1/st.lam, st.upper)
		s.progress(Progress{Iteration: st.iters, Lower: 1 / st.lam, Upper: up, Gap: relGap(1/st.lam, up)})
	}
	if g <= st.gap {
		st.finished = true
		return
	}
	// No column priced out and the interval is still open: the LP's
	// iterates are not accurate enough to close it; more rounds would
	// repeat this one. Stop when the gap has not improved by 1 % in
	// cgStallRounds rounds.
	if g < 0.99*st.stallGap {
		st.stallGap, st.stallIter = g, st.iters
	} else if st.iters-st.stallIter >= cgStallRounds {
		st.finished = true
	}
}

// cgStallRounds: column generation ends when its gap has not improved by
// 1 % in this many rounds.
const cgStallRounds = 20
