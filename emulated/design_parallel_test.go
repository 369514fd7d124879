package emulated

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/rotor"
)

// question64 is the design question of issue 28 at n = 64.
var question64 = DesignConfig{Nodes: 64, Uplinks: 8, Link: 400 * rotor.Gbps, Buffer: 10 * rotor.MB,
	Delay: rotor.Millisecond, ReconfFraction: DefaultReconfFraction, Gap: 1e-2, Seed: 1}

// reference64 is each design's certified interval [θ0, upper0] at n = 64
// from the serial Recommend before designs were certified in parallel
// (commit bbcec04):
//
//	rdcn tradeoff --tors 64 --uplinks 8 --link 400Gbps --buffer 10MB --delay 1ms --format json
//
// It recommended rotornet at Δ = 1 µs.
var reference64 = map[string][2]float64{
	"static":   {0.3130498373529901, 0.3155534577062855},
	"rotornet": {0.49736184046144805, 0.5006973292553212},
	"opera":    {0.49736184046144805, 0.5006973292553212},
	"mars-16":  {0.3522015243577655, 0.3555249401264109},
	"mars-24":  {0.3927845933986211, 0.39673412884706194},
	"mars-32":  {0.3308033166771101, 0.3336980476471546},
	"mars-40":  {0.44432599159113634, 0.4479128305033769},
	"mars-48":  {0.4553914903426112, 0.45968121801380557},
	"mars-56":  {0.4716535270980641, 0.47640469719909945},
}

// The n = 64 answer (decision-driven, with the 1 µs and 10 µs
// alternatives) on 1 and 2 goroutines is bit-identical (every design,
// every point, the recommendation), and every design's certified interval
// overlaps the serial reference's (both contain θ*), with the same
// recommendation; the designs refined to the end meet the gap.
func TestRecommendParallelMatchesSerial64(t *testing.T) {
	if testing.Short() {
		t.Skip("two n = 64 design questions (~20 s of CPU)")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	c := question64
	c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
	var answers [2]*DesignSpace
	for i, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		ds, err := Recommend(c)
		if err != nil {
			t.Fatal(err)
		}
		answers[i] = ds
	}
	if diff := cmp.Diff(answers[0].Designs, answers[1].Designs); diff != "" {
		t.Errorf("designs, GOMAXPROCS 1 vs 2 (-1 +2):\n%s", diff)
	}
	if diff := cmp.Diff(answers[0].Points, answers[1].Points); diff != "" {
		t.Errorf("points, GOMAXPROCS 1 vs 2 (-1 +2):\n%s", diff)
	}
	ds := answers[1]
	if len(ds.Designs) != len(reference64) {
		t.Fatalf("%d designs, the reference has %d", len(ds.Designs), len(reference64))
	}
	for _, d := range ds.Designs {
		ref, ok := reference64[d.Name]
		if !ok {
			t.Errorf("design %s is not in the reference", d.Name)
			continue
		}
		if d.Theta0 > ref[1] || ref[0] > d.Upper0 || d.Theta0 > d.Upper0 {
			t.Errorf("%s: [%v, %v], reference [%v, %v]: disjoint", d.Name, d.Theta0, d.Upper0, ref[0], ref[1])
		}
		if d.Status == Certified && d.Upper0*(1-c.Gap) > d.Theta0*(1+1e-9) { // relGap = (upper − lower)/upper
			t.Errorf("%s: [%v, %v] is wider than the gap %v", d.Name, d.Theta0, d.Upper0, c.Gap)
		}
		if d.Status != Certified && d.Status != CannotWin && d.Status != Settled {
			t.Errorf("%s: status %q", d.Name, d.Status)
		}
	}
	p, d, ok := ds.Recommended()
	if !ok || d.Name != "rotornet" || p.Slot != rotor.Microsecond {
		t.Errorf("recommended %s, the reference rotornet at 1µs", ds.Reason())
	}
}

// reference32 is each design's interval at n = 32, U = 4 from the solver
// before issue 28's coupled-step rewrite (commit 9f8b614), which also
// recommended rotornet at Δ = 1 µs.
var reference32 = map[string][2]float64{
	"static":   {0.26821362940634685, 0.27078897945186753},
	"rotornet": {0.497447017606165, 0.5004824833539698},
	"opera":    {0.497447017606165, 0.5004824833539698},
	"mars-8":   {0.35457569503175035, 0.35768750092497714},
	"mars-12":  {0.38659910599437813, 0.3900951408348394},
	"mars-16":  {0.3313963398605053, 0.33353838999728735},
	"mars-20":  {0.43762750428464037, 0.44159080868219064},
	"mars-24":  {0.4500738926600101, 0.45448464095862445},
	"mars-28":  {0.46484405946224566, 0.4695324774081338},
}

// Every interval the parallel Recommend prints is a certificate: each
// design's θ0 and upper0 are exactly those of a serial solve of as many
// iterations, whose flow and dual lengths Verify accepts (the designs
// refined to the gap and those stopped as CannotWin alike). Each overlaps
// the older solver's interval (reference32; both contain θ*), with the
// same recommendation.
func TestRecommendIntervalsVerify(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	ds, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	certified := 0
	for i := range ds.Designs {
		d := &ds.Designs[i]
		if d.Theta0 == 0 {
			if d.Infeasible == "" || strings.HasPrefix(d.Infeasible, "no schedule") {
				t.Errorf("%s: not certified (%q)", d.Name, d.Infeasible)
			}
			continue
		}
		verifyDesign(t, ds.Config, *d)
		if ref, ok := reference32[d.Name]; !ok || d.Theta0 > ref[1] || ref[0] > d.Upper0 {
			t.Errorf("%s: [%v, %v], the older solver's [%v, %v]: disjoint or missing", d.Name, d.Theta0, d.Upper0, ref[0], ref[1])
		}
		certified++
	}
	if certified != len(reference32) {
		t.Errorf("%d designs certified, the reference has %d", certified, len(reference32))
	}
	if p, d, ok := ds.Recommended(); !ok || d.Name != "rotornet" || p.Slot != rotor.Microsecond {
		t.Errorf("recommended %s, the reference rotornet at 1µs", ds.Reason())
	}
}

// A question stopped after its first design, with every design refined
// to the gap and with decision-driven refinement (the CLI's 1 µs and
// 10 µs alternatives, so that designs are still refined after the first
// round): the designs solved to the end meet the gap, those stopped
// mid-solve (or as CannotWin) keep an interval that still overlaps the
// full run's (reference64), those never started have no θ and no
// feasible point, and the recommendation is the best of the rest.
func TestRecommendStoppedEarly(t *testing.T) {
	for _, refineAll := range []bool{true, false} {
		c := question64
		c.RefineAll = refineAll
		if !refineAll {
			c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
		}
		ctx, cancel := context.WithCancel(context.Background())
		c.Context = ctx
		c.Progress = func(done, total int, d Design) { cancel() }
		ds, err := Recommend(c)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		checkStoppedEarly(t, c, ds)
	}
}

func checkStoppedEarly(t *testing.T, c DesignConfig, ds *DesignSpace) {
	un, st := ds.Unfinished()
	if len(un)+len(st) == 0 {
		t.Fatalf("refine all %v: nothing left unfinished after a stop at the first design", c.RefineAll)
	}
	counted := 0
	for i, d := range ds.Designs {
		ref := reference64[d.Name]
		switch d.Status {
		case Certified:
			counted++
			if d.Upper0*(1-c.Gap) > d.Theta0*(1+1e-9) {
				t.Errorf("%s: certified [%v, %v] is wider than the gap", d.Name, d.Theta0, d.Upper0)
			}
		case Stopped, CannotWin, Settled:
			counted++
			if d.Theta0 > ref[1] || ref[0] > d.Upper0 || !(d.Theta0 > 0) {
				t.Errorf("%s: %s [%v, %v] and the full run's [%v, %v] are disjoint", d.Name, d.Status, d.Theta0, d.Upper0, ref[0], ref[1])
			}
		case Uncertified:
			if d.Theta0 != 0 {
				t.Errorf("%s: uncertified with θ0 %v", d.Name, d.Theta0)
			}
			for _, p := range ds.Points {
				if p.Design == i && (p.Feasible || p.Why == "") {
					t.Errorf("%s: uncertified yet point at %v is %+v", d.Name, p.Slot, p)
				}
			}
		default:
			t.Errorf("%s: status %q", d.Name, d.Status)
		}
	}
	if counted == 0 {
		t.Fatal("no design has an interval")
	}
	if p, d, ok := ds.Recommended(); ok && d.Status == Uncertified {
		t.Errorf("recommended the uncertified %s at %v", d.Name, p.Slot)
	}
}

// A question stopped early still bounds its answer: its recommended θ is
// at least (1 − Shortfall) × the certified θ of every feasible point of
// the same question with every design refined to the gap (each below its
// point's θ*). Refined to the end, Shortfall is within leaderGap gaps;
// with a fitting design never certified there is no margin.
func TestMarginBoundsTheFullAnswer(t *testing.T) {
	c := question64
	c.Nodes, c.Uplinks = 32, 4
	decided, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := decided.Margin(); !ok || !(m.Shortfall >= 0 && m.Shortfall <= leaderGap*c.Gap) {
		t.Errorf("refined to the end: margin %+v (ok %v), want a shortfall in [0, %v]", m, ok, leaderGap*c.Gap)
	}
	all := c
	all.RefineAll = true
	full, err := Recommend(all)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := c
	stop.Context = ctx
	stop.Progress = func(done, _ int, _ Design) { cancel() } // after the first design's end
	partial, err := Recommend(stop)
	if err != nil {
		t.Fatal(err)
	}
	un, st := partial.Unfinished()
	m, ok := partial.Margin()
	if len(un) > 0 || len(st) == 0 || !ok {
		t.Fatalf("stopped: uncertified %v, stopped %v, margin ok %v; want every design begun, some stopped", un, st, ok)
	}
	if m.Shortfall <= c.Gap {
		t.Errorf("stopped after one design's end: shortfall %v, not wider than the gap", m.Shortfall)
	}
	theta := partial.Points[partial.Best].Theta
	for _, q := range full.Points {
		if q.Feasible && theta < (1-m.Shortfall)*q.Theta*(1-1e-12) {
			d := full.Designs[q.Design]
			t.Errorf("stopped answer θ ≥ %v with shortfall %v, but %s at %v has θ ≥ %v", theta, m.Shortfall, d.Name, q.Slot, q.Theta)
		}
	}
	// The shortfall is the tightest such bound from the stopped answer's
	// own intervals: its top point's upper bound meets it.
	if top := partial.Points[m.Top].Upper; math.Abs(theta-(1-m.Shortfall)*top) > 1e-12*top {
		t.Errorf("θ ≥ %v, shortfall %v, top upper bound %v: not tight", theta, m.Shortfall, top)
	}
	for _, q := range partial.Points {
		if q.Feasible && q.Upper > partial.Points[m.Top].Upper {
			t.Errorf("margin's top point has upper bound %v, another %v", partial.Points[m.Top].Upper, q.Upper)
		}
	}
	// One fitting design uncertified: no upper bound for it, no margin.
	d := &partial.Designs[partial.Points[m.Top].Design]
	d.Status = Uncertified
	partial.evaluate()
	if m, ok := partial.Margin(); ok {
		t.Errorf("with %s uncertified: margin %+v", d.Name, m)
	}
}
