package bufferlab

import (
	"fmt"
	"image/color"
	"io"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rdcn/rdcn/internal/plotgrid"
	"github.com/rdcn/rdcn/tor"
)

// LabPolicies are the policies the lab runs by default: those whose rule
// needs no clock beyond the slot.
var LabPolicies = []string{"cs", "cp", "dt", "fb", "lqd", "followlqd", "credence"}

// Bound is a policy's proven competitive ratio on N ports, 0 if none is
// proven (the literature gives only lower bounds or O(·)). Credence's is
// its robustness bound N (with the safeguard); with perfect predictions
// it is also LQD's 1.707.
func Bound(policy string, n int) float64 {
	switch policy {
	case "cs":
		return float64(n + 1)
	case "lqd":
		return 1.707
	case "credence":
		return float64(n)
	}
	return 0
}

// Row is one policy's result on a sequence.
type Row struct {
	Policy      string  `json:"policy"`
	Transmitted int64   `json:"sent"`
	Opt         int64   `json:"opt"`
	Ratio       float64 `json:"opt_over_alg"`
	Bound       float64 `json:"proven_bound"` // 0 if none
}

// LQDLabels runs LQD on seq and returns its per-packet drops (the perfect
// oracle's labels) and throughput.
func LQDLabels(seq *Sequence, b int64) ([]bool, int64, error) {
	p, err := Policy("lqd", nil, seq.N, b, nil, nil)
	if err != nil {
		return nil, 0, err
	}
	r, err := Run(seq, b, p)
	if err != nil {
		return nil, 0, err
	}
	return r.Dropped, r.Transmitted, nil
}

// Traces runs LQD on each sequence and returns Credence's features of
// every arrival (taken before LQD's decision) with LQD's verdict: the
// training data of Credence's model.
func Traces(seqs []*Sequence, b int64) ([]tor.Features, []bool, error) {
	var x []tor.Features
	var y []bool
	for _, seq := range seqs {
		p, err := Policy("lqd", nil, seq.N, b, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		start := len(x)
		p.(*tor.LQD).RecordFeatures(func(_ *tor.Arrival, f *tor.Features) { x = append(x, *f) }, Slot)
		r, err := Run(seq, b, p)
		if err != nil {
			return nil, nil, err
		}
		if len(x)-start != len(r.Dropped) {
			return nil, nil, fmt.Errorf("traces: %d features for %d packets", len(x)-start, len(r.Dropped))
		}
		y = append(y, r.Dropped...)
	}
	return x, y, nil
}

// TrainOracle trains Credence's model (4 trees of depth 4) on LQD's
// traces of seqs.
func TrainOracle(seqs []*Sequence, b int64, rng *rand.Rand) (*tor.Forest, error) {
	x, y, err := Traces(seqs, b)
	if err != nil {
		return nil, err
	}
	return tor.TrainForest(x, y, tor.TrainConfig{}, rng)
}

// Compare runs every policy on seq with buffer b and sets each against the
// exact optimum. Credence asks oracle, or, if it is nil, LQD's own
// decisions on seq (perfect predictions; its "flip" parameter adds
// errors, drawn from rng).
func Compare(seq *Sequence, b int64, policies []string, params map[string]map[string]float64, oracle tor.Oracle, rng *rand.Rand) ([]Row, error) {
	opt, err := Opt(seq, b)
	if err != nil {
		return nil, err
	}
	if oracle == nil && slices.Contains(policies, "credence") {
		labels, _, err := LQDLabels(seq, b)
		if err != nil {
			return nil, err
		}
		oracle = tor.PerfectOracle{Drops: labels}
	}
	var rows []Row
	for _, name := range policies {
		p, err := Policy(name, params[name], seq.N, b, oracle, rng)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r, err := Run(seq, b, p)
		if err != nil {
			return nil, err
		}
		rows = append(rows, Row{Policy: name, Transmitted: r.Transmitted, Opt: opt,
			Ratio: ratio(opt, r.Transmitted), Bound: Bound(name, seq.N)})
	}
	return rows, nil
}

func ratio(a, b int64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return float64(a) // nothing sent: report OPT itself
	}
	return float64(a) / float64(b)
}

// Fig14Config is the Credence paper's discrete-time study: bursts of B
// packets arriving as a Poisson process, LQD's drops as predictions, each
// flipped with a probability.
type Fig14Config struct {
	N       int
	B       int64
	Slots   int
	Lambda  float64   // bursts per slot
	PerSlot int       // packets of a burst arriving per slot (BurstsPaced); 0 means N
	Flips   []float64 // flip probabilities
	Runs    int       // sequences averaged per point
	Alpha   float64   // DT's α
}

// Fig14Setup is a named traffic of the Fig. 14 study. The paper says only
// "large bursts of the size of the total buffer" arriving as a Poisson
// process; it gives neither N, B, the rate nor how fast a burst arrives.
type Fig14Setup struct {
	Name    string  `json:"name"`
	What    string  `json:"what"`
	N       int     `json:"ports"`
	B       int64   `json:"buffer"`
	Load    float64 `json:"load"`     // offered load ρ: λ·B/N packets per port and slot
	Slots   int     `json:"slots"`    // slots per sequence
	OneSlot bool    `json:"one_slot"` // each burst arrives whole in one slot (else N packets a slot)
}

// Fig14Setups are the two readings of the paper's set-up:
//   - spread: bursts of B delivered N packets a slot at 30 % load, N = 8,
//     B = 64;
//   - one-slot: whole-buffer bursts arriving in one slot at 0.2 % load,
//     N = 16, B = 256, so bursts rarely meet. LQD keeps a whole burst;
//     Credence keeps B/N (the safeguard) plus the share 1 − p of the rest
//     whose "accept" survives the flip, so LQD/Credence tends to
//     1/(1/N + (1−p)(1−1/N)) = 2.91 at p = 0.7, the paper's 2.9, and
//     LQD/DT (α = 0.5, which keeps αB/(1+α)) to 3.
var Fig14Setups = []Fig14Setup{
	{Name: "spread", What: "bursts of B delivered N packets a slot, 30 % load", N: 8, B: 64, Load: 0.3, Slots: 20000},
	{Name: "one-slot", What: "whole-buffer bursts in one slot, 0.2 % load", N: 16, B: 256, Load: 0.002, Slots: 100000, OneSlot: true},
}

// LookupFig14Setup finds a set-up by name.
func LookupFig14Setup(name string) (Fig14Setup, error) {
	for _, s := range Fig14Setups {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(Fig14Setups))
	for i, s := range Fig14Setups {
		names[i] = s.Name
	}
	return Fig14Setup{}, fmt.Errorf("fig14 set-up %q: want one of %v", name, names)
}

// Config is the study of s with runs, flip probabilities and DT's α.
func (s Fig14Setup) Config(runs int, flips []float64, alpha float64) Fig14Config {
	c := Fig14Config{N: s.N, B: s.B, Slots: s.Slots, Lambda: s.Load * float64(s.N) / float64(s.B),
		Flips: flips, Runs: runs, Alpha: alpha}
	if s.OneSlot {
		c.PerSlot = int(s.B)
	}
	return c
}

// Fig14Point is one flip probability: LQD's throughput over Credence's and
// over DT's (lower is better; 1 = as good as LQD), and OPT over LQD.
type Fig14Point struct {
	Flip            float64 `json:"flip"`
	LQDOverCredence float64 `json:"lqd_over_credence"`
	LQDOverDT       float64 `json:"lqd_over_dt"`
	OptOverLQD      float64 `json:"opt_over_lqd"`
}

// Fig14Result is the study: one point per flip probability, and Credence
// with a forest trained on LQD's traces of Runs other sequences (the
// paper's model: 4 trees of depth 4), with the forest's quality on the
// test sequences.
type Fig14Result struct {
	Points        []Fig14Point `json:"points"`
	LQDOverForest float64      `json:"lqd_over_credence_forest"`
	Quality       tor.Quality  `json:"forest_quality"`
}

// Fig14 runs the study; each run draws its own sequence from rng, which
// every flip probability then shares (as in the paper, the arrivals are
// fixed across runs). Ratios are of summed throughputs over the runs.
func Fig14(c Fig14Config, rng *rand.Rand) (*Fig14Result, error) {
	if c.Runs < 1 || c.N < 2 || c.B < 1 || c.Slots < 1 || len(c.Flips) == 0 || c.PerSlot < 0 {
		return nil, fmt.Errorf("fig14: runs %d, ports %d, buffer %d, slots %d, %d flips: want positive values and ports ≥ 2", c.Runs, c.N, c.B, c.Slots, len(c.Flips))
	}
	for _, f := range c.Flips {
		if !(f >= 0 && f <= 1) {
			return nil, fmt.Errorf("fig14: flip %v: must be a probability", f)
		}
	}
	perSlot := c.PerSlot
	if perSlot == 0 {
		perSlot = c.N
	}
	train := make([]*Sequence, c.Runs)
	for i := range train {
		seq, err := BurstsPaced(c.N, int(c.B), perSlot, c.Slots, c.Lambda, rng)
		if err != nil {
			return nil, err
		}
		train[i] = seq
	}
	arrivals := 0
	for _, seq := range train {
		for _, sl := range seq.Slots {
			arrivals += len(sl)
		}
	}
	if arrivals == 0 {
		return nil, fmt.Errorf("fig14: no burst in the %d training sequences of %d slots at %v bursts a slot: want more slots or a higher load", c.Runs, c.Slots, c.Lambda)
	}
	forest, err := TrainOracle(train, c.B, rng)
	if err != nil {
		return nil, err
	}
	res := &Fig14Result{}
	cred := make([]int64, len(c.Flips))
	var lqd, dt, opt, withForest int64
	for run := 0; run < c.Runs; run++ {
		seq, err := BurstsPaced(c.N, int(c.B), perSlot, c.Slots, c.Lambda, rng)
		if err != nil {
			return nil, err
		}
		x, y, err := Traces([]*Sequence{seq}, c.B)
		if err != nil {
			return nil, err
		}
		q := forest.Evaluate(x, y)
		res.Quality.TP += q.TP
		res.Quality.FP += q.FP
		res.Quality.TN += q.TN
		res.Quality.FN += q.FN
		p, err := Policy("credence", nil, c.N, c.B, forest, nil)
		if err != nil {
			return nil, err
		}
		r, err := Run(seq, c.B, p)
		if err != nil {
			return nil, err
		}
		withForest += r.Transmitted
		labels, l, err := LQDLabels(seq, c.B)
		if err != nil {
			return nil, err
		}
		lqd += l
		o, err := Opt(seq, c.B)
		if err != nil {
			return nil, err
		}
		opt += o
		p, err = Policy("dt", map[string]float64{"alpha": c.Alpha}, c.N, c.B, nil, nil)
		if err != nil {
			return nil, err
		}
		r, err = Run(seq, c.B, p)
		if err != nil {
			return nil, err
		}
		dt += r.Transmitted
		for i, f := range c.Flips {
			var o tor.Oracle = tor.PerfectOracle{Drops: labels}
			if f > 0 {
				o = &tor.Flipped{Inner: o, P: f, Rand: rng}
			}
			p, err := Policy("credence", nil, c.N, c.B, o, rng)
			if err != nil {
				return nil, err
			}
			r, err := Run(seq, c.B, p)
			if err != nil {
				return nil, err
			}
			cred[i] += r.Transmitted
		}
	}
	res.Points = make([]Fig14Point, len(c.Flips))
	for i, f := range c.Flips {
		res.Points[i] = Fig14Point{Flip: f, LQDOverCredence: ratio(lqd, cred[i]), LQDOverDT: ratio(lqd, dt), OptOverLQD: ratio(opt, lqd)}
	}
	res.LQDOverForest = ratio(lqd, withForest)
	return res, nil
}

// Fig14Series is one set-up's points, for PlotFig14.
type Fig14Series struct {
	Setup  Fig14Setup
	Points []Fig14Point
}

// PlotFig14 draws LQD/Credence and LQD/DT against the flip probability,
// one panel per set-up side by side on a shared y axis; format is "png"
// or "svg".
func PlotFig14(w io.Writer, series []Fig14Series, format string) error {
	if len(series) == 0 {
		return fmt.Errorf("plot: no set-up")
	}
	top := 1.0
	for _, s := range series {
		for _, pt := range s.Points {
			top = max(top, pt.LQDOverCredence, pt.LQDOverDT)
		}
	}
	plots := make([][]*plot.Plot, 1)
	for _, s := range series {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: N = %d, B = %d, load %g", s.Setup.Name, s.Setup.N, s.Setup.B, s.Setup.Load)
		p.X.Label.Text = "probability of a false prediction"
		p.Y.Label.Text = "LQD / ALG (throughput, lower is better)"
		cr := make(plotter.XYs, len(s.Points))
		dt := make(plotter.XYs, len(s.Points))
		for i, pt := range s.Points {
			cr[i] = plotter.XY{X: pt.Flip, Y: pt.LQDOverCredence}
			dt[i] = plotter.XY{X: pt.Flip, Y: pt.LQDOverDT}
		}
		for _, c := range []struct {
			name string
			xy   plotter.XYs
			c    color.Color
			dash bool
		}{{"Credence", cr, color.RGBA{0, 114, 178, 255}, false}, {"DT (α = 0.5)", dt, color.RGBA{213, 94, 0, 255}, true}} {
			l, pts, err := plotter.NewLinePoints(c.xy)
			if err != nil {
				return err
			}
			l.Color, pts.Color = c.c, c.c
			pts.Shape = draw.CircleGlyph{}
			if c.dash {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			p.Add(l, pts)
			p.Legend.Add(c.name, l, pts)
		}
		p.Y.Min, p.Y.Max = 0.95, 1+1.15*(top-1)+0.05
		p.Legend.Top = false // bottom right: the curves rise to the right
		p.Legend.Left = false
		plots[0] = append(plots[0], p)
	}
	width, height := vg.Points(420*float64(len(series))), vg.Points(300)
	tiles := draw.Tiles{Rows: 1, Cols: len(series), PadX: vg.Millimeter * 6,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	return plotgrid.Write(w, plots, tiles, width, height, format)
}
