package emulated

import (
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Decision-driven refinement (branch and bound over designs). The answer
// depends only on which feasible (design, slot) point has the highest
// certified θ, under the question's reconfiguration time and under each
// of ReconfAlternatives. A design whose upper bound, times the duty cycle
// at each of its feasible slots in each of these scenarios, is below the
// best lower bound of another design in that scenario cannot be
// recommended anywhere, whatever its θ*: its solve stops there and it
// keeps its certified, wider interval (Status CannotWin). Every other
// design is refined to the gap, on exactly the iterates of an
// uninterrupted solve, so its interval, and therefore every
// recommendation, is the one RefineAll certifies.
//
// The solves run in rounds on GOMAXPROCS goroutines: a design's first
// round is firstRound iterations (every design gets a first interval
// early, which a time limit keeps), each later one refineRound; the
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
)

// CannotWin is the Status of a design whose refinement stopped because no
// θ inside its certified (wider than the gap) interval can be recommended
// under any of the question's reconfiguration times.
const CannotWin = "cannot-win"

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
	for {
		// The designs under way, then those not yet begun, in design
		// order, up to maxLive at a time.
		var live []int
		for k := range state {
			if state[k].started && !state[k].finished {
				live = append(live, k)
			}
		}
		for k := range state {
			if !state[k].started && len(live) < maxLive {
				live = append(live, k)
			}
		}
		if len(live) == 0 {
			break
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
			continue // every design is finished now
		}
		for _, k := range c.cannotWin(designs, todo, state) {
			finish(k, CannotWin)
		}
	}
	return nil
}

// refineRound runs one round: each live design not yet built is built
// (schedule, graph, worst-case permutation) and runs firstRound
// iterations, every other live design up to refineRound, on up to
// GOMAXPROCS goroutines.
func (c DesignConfig) refineRound(designs []Design, todo []int, state []designSolve, live []int) {
	workers := min(runtime.GOMAXPROCS(0), len(live))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				ds := &state[k]
				iters := refineRound
				if !ds.started {
					ds.started = true
					if c.Context != nil && c.Context.Err() != nil {
						continue // stopped: not begun (Uncertified)
					}
					if ds.r, ds.err = c.startSolve(&designs[todo[k]]); ds.r == nil {
						continue
					}
					iters = firstRound
				}
				ds.r.advance(iters)
			}
		}()
	}
	for _, k := range live {
		next <- k
	}
	close(next)
	wg.Wait()
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

// cannotWin returns the live designs (indexes into todo, increasing) that
// no scenario can recommend: at every feasible slot of every scenario,
// upper bound × duty cycle < the best certified lower bound (× its duty
// cycle) of another design there. The bounds are those the last round
// ended with; a design not yet built has [0, +Inf).
func (c DesignConfig) cannotWin(designs []Design, todo []int, state []designSolve) []int {
	bounds := make([]Design, len(todo)) // each design with its interval so far
	for k, i := range todo {
		bounds[k] = designs[i]
		if ds := &state[k]; ds.r != nil {
			bounds[k].Theta0, bounds[k].Upper0 = ds.r.interval()
		} else if !ds.finished {
			bounds[k].Theta0, bounds[k].Upper0 = 0, math.Inf(1)
		}
	}
	canWin := make([]bool, len(todo))
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
		for k, ps := range points {
			other := first.theta
			if first.k == k {
				other = second.theta
			}
			for _, p := range ps {
				if !(p.Upper < other*(1-decisionSlack)) {
					canWin[k] = true
				}
			}
		}
	}
	var out []int
	for k := range state {
		if !state[k].finished && !canWin[k] {
			out = append(out, k)
		}
	}
	return out
}
