package emulated

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

// A solve run in rounds (advance 1, 2, 3, … iterations at a time) is the
// uninterrupted Throughput: the same interval, iterations, flow and
// lengths, bit for bit.
func TestRoundSolveResumes(t *testing.T) {
	s, err := mars.Schedule(mars.Config{Nodes: 32, Uplinks: 4, Degree: 20, Slot: 100 * rotor.Microsecond}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	g, worst := worstCase(t, s)
	want, err := Throughput(g, worst, &Options{Gap: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRoundSolve(g, worst, &Options{Gap: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	rounds := 0
	for k := 1; !r.done(); k++ {
		r.advance(k)
		rounds++
		if lo, hi := r.interval(); !(lo > 0 && lo <= hi) {
			t.Fatalf("round %d: interval [%v, %v]", rounds, lo, hi)
		}
	}
	got := r.result()
	if rounds < 3 || want.Iterations < 10 {
		t.Fatalf("%d rounds, %d iterations: too few to test resuming", rounds, want.Iterations)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("in rounds vs one run (-one +rounds):\n%s", diff)
	}
}

// Decision-driven refinement against RefineAll at n = 32 (U = 4) and
// n = 64 (U = 8), with the CLI's 1 µs and 10 µs alternatives:
//   - the three recommendations name RefineAll's design and slot, with
//     overlapping certified intervals;
//   - a design refined to the end has RefineAll's interval bit for bit;
//   - a design stopped as CannotWin or Settled has a certified interval (a
//     solve of that many iterations reproduces it and Verify accepts its
//     flow and lengths; at n = 32 for every design), which overlaps
//     RefineAll's and is wider than the gap; at every feasible slot of
//     every scenario its upper end × duty cycle is below the recommended θ
//     (CannotWin) or below it / (1 − gap) (Settled; the recommended point
//     itself: within 2 gaps of its own upper end);
//   - at least one design is stopped so.
func TestDecidedMatchesRefineAll(t *testing.T) {
	for _, tc := range []struct {
		n, u   int
		verify bool
	}{{32, 4, true}, {64, 8, false}} {
		t.Run(fmt.Sprintf("n%d", tc.n), func(t *testing.T) { decidedMatchesRefineAll(t, tc.n, tc.u, tc.verify) })
	}
}

func decidedMatchesRefineAll(t *testing.T, n, u int, verify bool) {
	if n > 32 && testing.Short() {
		t.Skip("two n = 64 design questions (~15 s of CPU)")
	}
	c := question64
	c.Nodes, c.Uplinks = n, u
	c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
	decided, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	c.RefineAll = true
	all, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	answers := []struct{ got, want *DesignSpace }{{decided, all}}
	for _, r := range c.ReconfAlternatives {
		answers = append(answers, struct{ got, want *DesignSpace }{decided.WithReconf(r), all.WithReconf(r)})
	}
	for _, a := range answers {
		if err := sameRecommendation(a.got, a.want); err != nil {
			t.Errorf("n = %d: %v", n, err)
		}
	}
	stopped := 0
	for i, d := range decided.Designs {
		ref := all.Designs[i]
		switch d.Status {
		case Certified:
			if d.Theta0 != ref.Theta0 || d.Upper0 != ref.Upper0 || d.Iterations != ref.Iterations {
				t.Errorf("n = %d %s: [%v, %v] after %d iterations, RefineAll [%v, %v] after %d", n, d.Name,
					d.Theta0, d.Upper0, d.Iterations, ref.Theta0, ref.Upper0, ref.Iterations)
			}
		case CannotWin, Settled:
			stopped++
			if d.Theta0 > ref.Upper0 || ref.Theta0 > d.Upper0 || !(d.Theta0 > 0) {
				t.Errorf("n = %d %s: [%v, %v] and RefineAll's [%v, %v] are disjoint", n, d.Name, d.Theta0, d.Upper0, ref.Theta0, ref.Upper0)
			}
			if relGap(d.Theta0, d.Upper0) <= c.Gap {
				t.Errorf("n = %d %s: stopped at gap %v, within the target", n, d.Name, relGap(d.Theta0, d.Upper0))
			}
			for _, a := range answers {
				rec := a.got.Points[a.got.Best]
				reach := rec.Theta // CannotWin: below the recommended θ
				if d.Status == Settled {
					reach /= 1 - c.Gap
					if rec.Design == i {
						reach = rec.Theta / (1 - leaderGap*c.Gap)
					}
				}
				for _, p := range a.got.Points {
					if p.Design == i && p.Feasible && p.Upper >= reach {
						t.Errorf("n = %d %s (%s) at %v (Δr %v): θ ≤ %v, recommended θ ≥ %v", n, d.Name, d.Status, p.Slot, p.Reconf, p.Upper, rec.Theta)
					}
				}
			}
		default:
			t.Errorf("n = %d %s: status %q", n, d.Name, d.Status)
		}
		if verify && d.Infeasible == "" {
			verifyDesign(t, c, d)
		}
	}
	if stopped == 0 {
		t.Errorf("n = %d: no design was stopped", n)
	}
}

// verifyDesign re-solves design d for d.Iterations iterations and checks
// that it certifies d's interval exactly and that Verify accepts it.
func verifyDesign(t *testing.T, c DesignConfig, d Design) {
	t.Helper()
	s, err := c.schedule(&d)
	if err != nil {
		t.Fatal(err)
	}
	g, worst := worstCase(t, s)
	r, err := Throughput(g, worst, &Options{Gap: c.Gap, MaxPhases: d.Iterations})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lower != d.Theta0 || r.Upper != d.Upper0 {
		t.Errorf("%s: [%v, %v], a solve of %d iterations [%v, %v]", d.Name, d.Theta0, d.Upper0, d.Iterations, r.Lower, r.Upper)
	}
	if err := Verify(g, r.Demand, r); err != nil {
		t.Errorf("%s: %v", d.Name, err)
	}
}

// With at most two solves under way at once (the others wait in design
// order) the n = 32 answer is the same: the three recommendations (design,
// slot, overlapping intervals), and every design refined to the end has
// the same interval.
func TestDecidedBoundedLiveSolves(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
	free, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int) { liveSolveBytes = b }(liveSolveBytes)
	liveSolveBytes = 2 * solveBytesPerPair * c.Nodes * c.Nodes
	if c.maxLiveSolves() != 2 {
		t.Fatalf("%d solves at once, want 2", c.maxLiveSolves())
	}
	bounded, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append([]rotor.Time{-1}, c.ReconfAlternatives...) {
		a, b := free, bounded
		if r >= 0 {
			a, b = free.WithReconf(r), bounded.WithReconf(r)
		}
		if err := sameRecommendation(b, a); err != nil {
			t.Errorf("Δr %v: two solves at once against unbounded: %v", r, err)
		}
	}
	for i, d := range bounded.Designs {
		f := free.Designs[i]
		if d.Status == Certified && f.Status == Certified && (d.Theta0 != f.Theta0 || d.Upper0 != f.Upper0) {
			t.Errorf("%s: [%v, %v], unbounded [%v, %v]", d.Name, d.Theta0, d.Upper0, f.Theta0, f.Upper0)
		}
	}
}

// sameRecommendation reports how got's recommendation differs from want's:
// another (design, slot) point, or certified intervals that do not overlap.
func sameRecommendation(got, want *DesignSpace) error {
	if got.Best != want.Best {
		return fmt.Errorf("recommended %q, against %q", got.Reason(), want.Reason())
	}
	if got.Best < 0 {
		return nil
	}
	g, w := got.Points[got.Best], want.Points[want.Best]
	if g.Theta > w.Upper || w.Theta > g.Upper {
		return fmt.Errorf("%s at %v: [%v, %v] and [%v, %v] are disjoint", got.Designs[g.Design].Name, g.Slot, g.Theta, g.Upper, w.Theta, w.Upper)
	}
	return nil
}

// The cheapest-to-stop rule on a hand-made set of intervals shaped like
// the question at n = 1,024 (one scenario, static-like designs so that a
// point is the interval itself): best first alone refines the leader and
// the design with the highest upper bound; from cheapFocusMinNodes on,
// the round also refines the cheapFocus designs whose upper bound has the
// least relative way to fall below the leader's lower bound (within
// cheapFocusFall), least first; a finished design and one 6 % above are
// left alone; at n = 128 the focus is best first's alone.
func TestDecideFocusesCheapestToStop(t *testing.T) {
	iv := [][2]float64{
		{0.3696, 0.3790}, // 0: the leader
		{0.3614, 0.3955}, // 1: the highest upper bound
		{0.0300, 0.3800}, // 2: 2.7 % to fall
		{0.0300, 0.3721}, // 3: 0.67 % to fall (mars-120's hop seed)
		{0.0300, 0.3790}, // 4: 2.5 % to fall
		{0.0240, 0.3920}, // 5: 5.7 % to fall
		{0.2000, 0.3900}, // 6: finished
	}
	bounds := make([]Design, len(iv))
	todo := make([]int, len(iv))
	finished := make([]bool, len(iv))
	for k, b := range iv {
		bounds[k] = Design{Name: fmt.Sprint("d", k), Theta0: b[0], Upper0: b[1]}
		todo[k] = k
	}
	finished[6] = true
	c := DesignConfig{Nodes: 1024, Gap: 1e-2, Slots: []rotor.Time{rotor.Microsecond}}
	for _, tc := range []struct {
		nodes int
		want  []bool
	}{
		{1024, []bool{true, true, false, true, true, false, false}},
		{128, []bool{true, true, false, false, false, false, false}},
	} {
		c.Nodes = tc.nodes
		stop, _, focus := c.decide(bounds, todo, finished)
		if len(stop) != 0 {
			t.Errorf("n = %d: stopped %v, want none (all can win)", tc.nodes, stop)
		}
		if diff := cmp.Diff(tc.want, focus); diff != "" {
			t.Errorf("n = %d: focus (-want +got):\n%s", tc.nodes, diff)
		}
	}
}
