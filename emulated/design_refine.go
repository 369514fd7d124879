package emulated

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Decision-driven refinement (branch and bound over designs). The answer
// is the feasible (design, slot) point with the highest certified θ,
// under the question's reconfiguration time and under each of
// ReconfAlternatives. Between rounds each scenario is checked:
//
//   - A design whose upper bound, times the duty cycle at each of its
//     feasible slots in each scenario, is below the best lower bound of
//     another design there cannot be recommended anywhere, whatever its
//     θ*: its solve stops with its certified, wider interval (Status
//     CannotWin).
//   - A scenario is settled once its leader (the design with the highest
//     certified point) is within the gap of every other design's upper
//     bound and within leaderGap gaps of its own: leader's lower bound ≥
//     (1 − Gap) × every other feasible point's upper bound and
//     ≥ (1 − leaderGap·Gap) × its own. No design's θ* can then beat the
//     recommended point by more than the gap, which is what a certificate
//     at the gap promises, so that scenario needs no more refinement. A
//     design needed by no unsettled scenario stops (Status Settled, or
//     CannotWin when no scenario could pick it at all).
//
// Refined to the gap, every design's lower bound is within the gap of its
// upper bound, so every scenario is settled then: the rule stops no later
// than RefineAll. When two designs' θ* lie within the gap of each other
// (mars-40 and mars-16 under a 1 µs switch at n = 128), the one whose
// certified lower bound is higher when the scenario settles is
// recommended; RefineAll compares their lower bounds at the gap instead
// and may name the other.
//
// The solves run in rounds on GOMAXPROCS goroutines: a design's first
// round is firstRound iterations (every design gets a first interval
// early, which a time limit keeps), each later one refineRound, and only
// the designs in focus run (best first: per unsettled scenario the
// unfinished design with the highest upper bound, and the leader; from
// cheapFocusMinNodes on also the designs cheapest to stop, see
// focusCheapest); the
// decisions are taken between rounds, in design order,
// from the intervals the round ended with, so the answer does not depend
// on the number of goroutines or on which design finished first.
const (
	// firstRound and refineRound are the iterations an undecided design
	// runs in its first round and in each later one.
	firstRound  = 1
	refineRound = 10
	// decisionSlack: a design is stopped only when its upper bound is
	// below another's lower bound by this relative margin, so that the
	// last-bit difference between a solve's running bound and its packed
	// certificate never decides.
	decisionSlack = 1e-9
	// leaderGap: a scenario settles only once its leader's own certified
	// lower bound is within leaderGap gaps of its upper bound, so the θ it
	// prints is within that of its θ*.
	leaderGap = 2
)

// CannotWin is the Status of a design whose refinement stopped because no
// θ inside its certified (wider than the gap) interval can be recommended
// under any of the question's reconfiguration times.
const CannotWin = "cannot-win"

// Settled is the Status of a design whose refinement stopped, with a
// certified interval wider than the gap, because every scenario it could
// be recommended in is settled: there its θ* cannot beat the recommended
// point by more than the gap (it may be the recommendation itself).
const Settled = "settled"

// designSolve is one design's solve across rounds.
type designSolve struct {
	r        *roundSolve // nil before the first round or after its end
	started  bool
	finished bool
	err      error
}

// certifyDecided certifies the designs todo indexes by decision-driven
// refinement (see above).
func (c DesignConfig) certifyDecided(designs []Design, todo []int) error {
	state := make([]designSolve, len(todo))
	done := 0
	finish := func(k int, status string) {
		d, ds := &designs[todo[k]], &state[k]
		if ds.r != nil {
			r := ds.r.result()
			d.Theta0, d.Upper0, d.Iterations = r.Lower, r.Upper, r.Iterations
			ds.r = nil
		}
		d.Status = status
		ds.finished = true
		done++
		if c.Progress != nil {
			c.Progress(done, len(todo), *d)
		}
	}
	maxLive := c.maxLiveSolves()
	var focus []bool // the designs the next round refines (nil: all)
	for {
		// The designs under way that are in focus, then those not yet
		// begun, in design order, up to maxLive under way at a time.
		var live []int
		underWay := 0
		for k := range state {
			if state[k].started && !state[k].finished {
				underWay++
				if focus == nil || focus[k] {
					live = append(live, k)
				}
			}
		}
		for k := range state {
			if !state[k].started && underWay < maxLive {
				live = append(live, k)
				underWay++
			}
		}
		if len(live) == 0 {
			if underWay == 0 {
				break
			}
			focus = nil // safety: refine every design under way
			continue
		}
		c.refineRound(designs, todo, state, live)
		for _, k := range live {
			if state[k].err != nil {
				return fmt.Errorf("%s: %w", designs[todo[k]].Name, state[k].err)
			}
		}
		stopped := c.Context != nil && c.Context.Err() != nil
		for _, k := range live {
			ds := &state[k]
			switch {
			case designs[todo[k]].Infeasible != "": // no schedule
				finish(k, Certified)
			case !ds.started || ds.r == nil: // stopped before its first certificate
				finish(k, Uncertified)
			case ds.r.done() && !ds.r.interrupted():
				finish(k, Certified)
			case stopped || ds.r.done():
				finish(k, Stopped)
			}
		}
		if stopped {
			focus = nil // every design still under way stops in the next round
			continue
		}
		var stop []int
		var status []string
		stop, status, focus = c.settle(designs, todo, state)
		for j, k := range stop {
			finish(k, status[j])
		}
	}
	return nil
}

// refineRound runs one round: each live design not yet built is built
// (schedule, graph, worst-case permutation) and runs firstRound
// iterations, every other live design up to refineRound, on up to
// GOMAXPROCS goroutines.
func (c DesignConfig) refineRound(designs []Design, todo []int, state []designSolve, live []int) {
	parallelFor(len(live), func(j int) {
		k := live[j]
		ds := &state[k]
		iters := refineRound
		if !ds.started {
			ds.started = true
			if c.Context != nil && c.Context.Err() != nil {
				return // stopped: not begun (Uncertified)
			}
			if ds.r, ds.err = c.startSolve(&designs[todo[k]]); ds.r == nil {
				return
			}
			iters = firstRound
		}
		ds.r.advance(iters)
	})
}

// liveSolveBytes bounds the memory of the solves under way at once: a
// solve holds about solveBytesPerPair bytes per ordered pair of ToRs
// (its graph's capacities, the demand, the arc loads, costs and scratch,
// the best lengths), so 1,024 ToRs allow ~25 at once. The bound does not
// depend on GOMAXPROCS, so neither does the answer.
var liveSolveBytes = 1536 << 20 // a variable for tests

const solveBytesPerPair = 60

// maxLiveSolves is how many designs may be under way at once (at least
// one).
func (c DesignConfig) maxLiveSolves() int {
	return max(1, liveSolveBytes/(solveBytesPerPair*c.Nodes*c.Nodes))
}

// startSolve builds the design's schedule and worst-case permutation and
// returns its solve, not yet run; nil when the design has no schedule (it
// is marked infeasible), when the question was stopped meanwhile, or on
// an error.
func (c DesignConfig) startSolve(d *Design) (*roundSolve, error) {
	s, err := c.schedule(d)
	if err != nil { // e.g. no connected Opera draw for small U
		d.Infeasible = "no schedule: " + err.Error()
		return nil, nil
	}
	g, err := FromSchedule(s, c.Link)
	if err != nil {
		return nil, err
	}
	worst, err := WorstCaseDemand(g)
	if err != nil {
		return nil, err
	}
	if c.Context != nil && c.Context.Err() != nil { // stopped while building: no first certificate
		return nil, nil
	}
	return newRoundSolve(g, worst, &Options{Gap: c.Gap, Context: c.Context})
}

// scenarios are the configurations whose recommendation the question
// decides: its own and one per fixed reconfiguration time in
// ReconfAlternatives.
func (c DesignConfig) scenarios() []DesignConfig {
	out := []DesignConfig{c}
	for _, r := range c.ReconfAlternatives {
		a := c
		a.Reconf, a.ReconfFraction = r, 0
		out = append(out, a)
	}
	return out
}

// settle returns the live designs (indexes into todo, increasing) whose
// refinement can stop, with their Status: CannotWin when no scenario can
// recommend it (at every feasible slot of every scenario, upper bound ×
// duty cycle < the best certified lower bound × duty cycle of another
// design there), Settled when every scenario that could is settled (see
// above). The bounds are those the last round ended with; a design not
// yet built has [0, +Inf).
func (c DesignConfig) settle(designs []Design, todo []int, state []designSolve) (stop []int, status []string, focus []bool) {
	bounds := make([]Design, len(todo)) // each design with its interval so far
	finished := make([]bool, len(todo))
	for k, i := range todo {
		bounds[k] = designs[i]
		finished[k] = state[k].finished
		if ds := &state[k]; ds.r != nil {
			bounds[k].Theta0, bounds[k].Upper0 = ds.r.interval()
		} else if !ds.finished {
			bounds[k].Theta0, bounds[k].Upper0 = 0, math.Inf(1)
		}
	}
	return c.decide(bounds, todo, finished)
}

// decide is settle on the designs' intervals so far (bounds[k] is design
// todo[k]; finished[k] when its refinement has stopped).
func (c DesignConfig) decide(bounds []Design, todo []int, finished []bool) (stop []int, status []string, focus []bool) {
	canWin := make([]bool, len(todo)) // in some scenario
	// fall[k]: the largest relative fall of design k's upper bound that
	// would stop it in the unsettled scenarios it could win (+Inf for a
	// leader or a design without a lower bound to compare with).
	fall := make([]float64, len(todo))
	needed := make([]bool, len(todo)) // in some unsettled scenario
	focus = make([]bool, len(todo))
	for _, sc := range c.scenarios() {
		points := make([][]DesignPoint, len(todo)) // the feasible ones
		type best struct {
			theta float64
			k     int
		}
		first, second := best{-1, -1}, best{-1, -1} // the highest lower bounds, of two designs
		for k := range bounds {
			d := &bounds[k]
			if d.Infeasible != "" {
				continue
			}
			top := -1.0
			for _, s := range sc.Slots {
				if p := sc.point(todo[k], d, s); p.Feasible {
					points[k] = append(points[k], p)
					top = max(top, p.Theta)
				}
			}
			if top < 0 {
				continue
			}
			switch {
			case top > first.theta:
				first, second = best{top, k}, first
			case top > second.theta:
				second = best{top, k}
			}
		}
		settled := first.k >= 0
		wins := make([]bool, len(todo)) // could be recommended in this scenario
		// Best first: the next round refines, per unsettled scenario, the
		// unfinished design with the highest upper bound (the one that
		// keeps the scenario open longest) and the leader.
		topU, topK := -1.0, -1
		for k, ps := range points {
			other := first.theta
			if first.k == k {
				other = second.theta
			}
			for _, p := range ps {
				if !(p.Upper < other*(1-decisionSlack)) {
					wins[k] = true
				}
				tol := c.Gap
				if k == first.k {
					tol = leaderGap * c.Gap
				}
				if !(p.Upper*(1-tol) < first.theta*(1-decisionSlack)) {
					settled = false
				}
				if !finished[k] && p.Upper > topU {
					topU, topK = p.Upper, k
				}
			}
		}
		for k, w := range wins {
			canWin[k] = canWin[k] || w
		}
		if settled {
			continue
		}
		for k, w := range wins {
			needed[k] = needed[k] || w
			if !w {
				continue
			}
			other := first.theta
			if first.k == k {
				other = math.Inf(-1) // the leader: not stopped by its own fall
			}
			top := 0.0
			for _, p := range points[k] {
				top = max(top, p.Upper)
			}
			f := math.Inf(1)
			if other > 0 {
				f = 1 - other*(1-decisionSlack)/top
			}
			fall[k] = max(fall[k], f)
		}
		if topK >= 0 {
			focus[topK] = true
		}
		if first.k >= 0 && !finished[first.k] {
			focus[first.k] = true
		}
	}
	if c.Nodes >= cheapFocusMinNodes {
		focusCheapest(focus, fall, needed, finished)
	}
	for k := range bounds {
		if finished[k] || needed[k] {
			continue
		}
		stop = append(stop, k)
		if canWin[k] {
			status = append(status, Settled)
		} else {
			status = append(status, CannotWin)
		}
	}
	return stop, status, focus
}

// Cheapest to stop first (n ≥ cheapFocusMinNodes). Best first alone
// starves the designs close behind the two highest upper bounds, so each
// round also refines up to cheapFocus more designs, those whose upper
// bound has the least relative way to fall before they stop (at most
// cheapFocusFall), least first, ties in design order. The rule reads the
// intervals only, so the answer does not depend on GOMAXPROCS.
const cheapFocusMinNodes = 256

const (
	cheapFocus     = 2
	cheapFocusFall = 0.05
)

// focusCheapest adds to focus up to cheapFocus designs not in it,
// unfinished and needed, with the least fall (≤ cheapFocusFall).
func focusCheapest(focus []bool, fall []float64, needed, finished []bool) {
	var cand []int
	for k := range focus {
		if !focus[k] && !finished[k] && needed[k] && fall[k] <= cheapFocusFall {
			cand = append(cand, k)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(fall[a], fall[b]) })
	for _, k := range cand[:min(len(cand), cheapFocus)] {
		focus[k] = true
	}
}
