package app

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
)

// runDesignSpace answers the design question (rdcn tradeoff without --slot):
// parse, emulated.Recommend, print.
func runDesignSpace(c *cli.Context) error {
	cfg := emulated.DesignConfig{Nodes: c.Int("tors"), Uplinks: c.Int("uplinks"),
		Gap: designGap, Seed: c.Uint64("seed"), ReconfFraction: emulated.DefaultReconfFraction}
	if c.IsSet("gap") {
		cfg.Gap = c.Float64("gap")
	}
	var err error
	if cfg.Link, cfg.Buffer, cfg.Delay, err = tradeoffNetwork(c, cfg.Nodes, cfg.Uplinks); err != nil {
		return err
	}
	if c.IsSet("reconf") {
		cfg.ReconfFraction = 0
		if cfg.Reconf, err = rotor.ParseTime(c.String("reconf")); err != nil {
			return asInput("reconf", err)
		}
	} else {
		cfg.ReconfAlternatives = reconfAlternatives
	}
	cfg.RefineAll = c.Bool("refine-all")
	if c.IsSet("slots") {
		if cfg.Slots, err = parseSlots(c.String("slots")); err != nil {
			return err
		}
	}
	if !(cfg.Gap > 0 && cfg.Gap < 1) {
		return badInput("gap", "%v must be in (0, 1)", cfg.Gap)
	}
	format := c.String("format")
	if err := checkFormat(format); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return asInput("tradeoff", err)
	}
	ctx, stop := limitedContext(c)
	defer stop()
	cfg.Context = ctx
	if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		cfg.Progress = designRows(f)
	}
	ds, err := emulated.Recommend(cfg)
	if err != nil {
		return err
	}
	stopped := "" // why the question stopped early
	if un, st := ds.Unfinished(); len(un)+len(st) > 0 {
		stopped = "interrupt"
		if context.Cause(ctx) == errTimeLimit {
			stopped = "time-limit"
		}
	}
	var alt []*emulated.DesignSpace // the answer under other reconfiguration times
	for _, r := range cfg.ReconfAlternatives {
		alt = append(alt, ds.WithReconf(r))
	}
	err = writeOutput(c.App.Writer, c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			j := designJSON{Designs: ds.Designs, Points: ds.Points, Best: ds.Best, Recommendation: ds.Reason(),
				Shortfall: shortfall(ds), Assumption: reconfAssumption(ds.Config), Stopped: stopped}
			for _, a := range alt {
				j.Alternatives = append(j.Alternatives, reconfAnswer{Reconf: a.Config.Reconf, Recommendation: a.Reason(), Shortfall: shortfall(a)})
			}
			return writeJSON(w, j)
		case "csv":
			return writeDesignCSV(w, ds)
		}
		return writeDesignText(w, ds, alt, stopped)
	})
	if err != nil || stopped == "" {
		return err
	}
	un, st := ds.Unfinished()
	msg := "before every design was certified; printed the best recommendation so far (" + unfinishedList(un, st) + ")"
	if stopped == "interrupt" {
		return &interruptedError{"tradeoff " + msg}
	}
	return &stoppedError{"tradeoff: stopped (time-limit) " + msg}
}

// unfinishedList names the designs a stopped question did not certify to
// the gap.
func unfinishedList(uncertified, stopped []string) string {
	var parts []string
	if len(uncertified) > 0 {
		parts = append(parts, "not certified: "+strings.Join(uncertified, ", "))
	}
	if len(stopped) > 0 {
		parts = append(parts, "stopped early, interval wider than the gap: "+strings.Join(stopped, ", "))
	}
	return strings.Join(parts, "; ")
}

// designRows prints, on the terminal f, each design's row as its
// certification finishes (the design table filling in), above a bar that
// counts the designs.
func designRows(f *os.File) func(done, total int, d emulated.Design) {
	var bar *progressbar.ProgressBar
	start := time.Now()
	return func(done, total int, d emulated.Design) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionShowCount(),
				progressbar.OptionSetDescription("certifying θ per design"), progressbar.OptionClearOnFinish())
		}
		_ = bar.Clear()
		row := fmt.Sprintf("%-10s d = %-5d θ in [%.4f, %.4f]", d.Name, d.Degree, d.Theta0, d.Upper0)
		switch {
		case d.Infeasible != "":
			row = fmt.Sprintf("%-10s %s", d.Name, d.Infeasible)
		case d.Status == emulated.Stopped:
			row += " (stopped: wider than the gap)"
		case stoppedByDecision(d):
			row += " (" + decisionMark(d) + ")"
		case d.Status == emulated.Uncertified:
			row = fmt.Sprintf("%-10s not certified (stopped before its solve)", d.Name)
		}
		fmt.Fprintf(f, "%s  [%d/%d, %.1fs]\n", row, done, total, time.Since(start).Seconds())
		_ = bar.Set(done)
	}
}

// foldRun is the fewest consecutive designs of one kind that fit no swept
// slot which the text output folds into one line (at 1,024 racks with 16
// uplinks, Mars d = 208 … 1008 are 51 such designs, three lines each).
const foldRun = 8

// infeasiblePrefix begins the reason of a design no swept slot suits.
const infeasiblePrefix = emulated.NoSlotFits + ": "

// foldInfeasible marks the designs the text output folds: runs of at least
// foldRun consecutive designs of one kind, each suited by no swept slot for
// the buffer, delay or reconfiguration limits. runs holds each run's
// [first, end) indices.
func foldInfeasible(ds []emulated.Design) (folded []bool, runs [][2]int) {
	folded = make([]bool, len(ds))
	foldable := func(d emulated.Design) bool { return strings.HasPrefix(d.Infeasible, infeasiblePrefix) }
	for i := 0; i < len(ds); {
		j := i
		for j < len(ds) && foldable(ds[j]) && ds[j].Kind == ds[i].Kind {
			j++
		}
		if j-i >= foldRun {
			for k := i; k < j; k++ {
				folded[k] = true
			}
			runs = append(runs, [2]int{i, j})
		}
		i = max(j, i+1)
	}
	return folded, runs
}

// stoppedByDecision reports whether d's refinement stopped because the
// answer no longer depended on it (CannotWin or Settled).
func stoppedByDecision(d emulated.Design) bool {
	return d.Status == emulated.CannotWin || d.Status == emulated.Settled
}

// decisionMark is the mark of a design stopped by the decisions: why, and
// where its refinement stopped.
func decisionMark(d emulated.Design) string {
	why := "cannot win"
	if d.Status == emulated.Settled {
		why = "settled within the gap"
	}
	return fmt.Sprintf("%s: stopped at gap %.1e", why, (d.Upper0-d.Theta0)/d.Upper0)
}

// reconfAlternatives are the fixed reconfiguration times the design
// question also answers for when --reconf is not given: a fast switch
// and a slow one.
var reconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}

// reconfAssumption names the reconfiguration time an answer assumes.
func reconfAssumption(c emulated.DesignConfig) string {
	if c.ReconfFraction > 0 {
		return fmt.Sprintf("assuming Δr = Δ/%g at every slot (duty cycle %g; --reconf sets a fixed Δr)", 1/c.ReconfFraction, 1-c.ReconfFraction)
	}
	return fmt.Sprintf("with Δr = %v at every slot", c.Reconf)
}

// shortAnswer is a recommendation in a few words.
func shortAnswer(ds *emulated.DesignSpace) string {
	p, d, ok := ds.Recommended()
	switch {
	case !ok:
		return "no design is feasible"
	case !d.Reconfigures:
		return fmt.Sprintf("%s (d = %d, any slot), θ ≥ %.4f%s", d.Name, d.Degree, p.Theta, marginClause(ds))
	}
	return fmt.Sprintf("%s (d = %d) at Δ = %v, θ ≥ %.4f%s", d.Name, d.Degree, p.Slot, p.Theta, marginClause(ds))
}

// shortfall is the recommendation's certified shortfall for JSON (nil
// when it has none: nothing recommended, or a fitting design uncertified).
func shortfall(ds *emulated.DesignSpace) *float64 {
	m, ok := ds.Margin()
	if !ok {
		return nil
	}
	return &m.Shortfall
}

// marginClause is ", no design beats it by more than X %" ("" without a
// margin).
func marginClause(ds *emulated.DesignSpace) string {
	m, ok := ds.Margin()
	if !ok {
		return ""
	}
	return fmt.Sprintf(", no design beats it by more than %s", percent(m.Shortfall))
}

// marginLine says how far the recommendation may lie below the best θ*
// of any feasible point, and which point bounds it.
func marginLine(ds *emulated.DesignSpace) string {
	m, ok := ds.Margin()
	if !ok {
		return ""
	}
	top := ds.Points[m.Top]
	d := ds.Designs[top.Design]
	at := fmt.Sprintf(" at Δ = %v", top.Slot)
	if !d.Reconfigures {
		at = ""
	}
	return fmt.Sprintf("no design beats it by more than %s: its θ is at least %.4f × the highest upper bound of a feasible point, %.4f (%s%s)\n",
		percent(m.Shortfall), 1-m.Shortfall, top.Upper, d.Name, at)
}

// percent prints a fraction as a percentage with three significant digits.
func percent(x float64) string {
	return strconv.FormatFloat(100*x, 'g', 3, 64) + " %"
}

// reconfAnswer is the recommendation under one fixed reconfiguration time.
type reconfAnswer struct {
	Reconf         rotor.Time `json:"reconf_ps"`
	Recommendation string     `json:"recommendation"`
	Shortfall      *float64   `json:"shortfall,omitempty"` // as designJSON's
}

// designGap is the design question's default certified gap: it certifies
// a dozen designs, and 1e-2 ranks them (ties within it are reported as
// such by the intervals) at a fifth of 1e-3's time on irregular Mars
// graphs (n = 64, d = 24, 40, 48).
const designGap = 1e-2

type designJSON struct {
	Designs        []emulated.Design      `json:"designs"`
	Points         []emulated.DesignPoint `json:"points"`
	Best           int                    `json:"best"`
	Recommendation string                 `json:"recommendation"`
	// Shortfall: the recommendation's certified θ is at least (1 −
	// shortfall) × every feasible point's upper bound (emulated.Margin);
	// absent when a design that fits the limits was never certified.
	Shortfall  *float64 `json:"shortfall,omitempty"`
	Assumption string   `json:"reconf_assumption"` // the Δr the recommendation assumes
	// Alternatives: the recommendation under fixed reconfiguration
	// times, when the question assumed Δr = Δ/10.
	Alternatives []reconfAnswer `json:"recommendation_by_reconf,omitempty"`
	// Stopped is "interrupt" or "time-limit" when the question stopped
	// before every design was certified (see each design's status).
	Stopped string `json:"stopped,omitempty"`
}

// parseSlots reads --slots: comma-separated positive times.
func parseSlots(v string) ([]rotor.Time, error) {
	var out []rotor.Time
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, badInput("slots", "%q has an empty entry", v)
		}
		t, err := rotor.ParseTime(f)
		if err != nil {
			return nil, asInput("slots", err)
		}
		if t <= 0 {
			return nil, badInput("slots", "%s must be positive", f)
		}
		out = append(out, t)
	}
	return out, nil
}

// slotList prints slots the way --slots takes them.
func slotList(slots []rotor.Time) string {
	s := make([]string, len(slots))
	for i, t := range slots {
		s[i] = shortTime(t)
	}
	return strings.Join(s, ",")
}

// slotRange prints a design's slot bound ("any" without a limit).
func slotRange(max rotor.Time, reconfigures bool) string {
	switch {
	case !reconfigures || max == 0:
		return "any"
	case max < 0:
		return "none"
	}
	return "Δ ≤ " + shortTime(max)
}

func writeDesignText(w io.Writer, ds *emulated.DesignSpace, alt []*emulated.DesignSpace, stopped string) error {
	c := ds.Config
	fmt.Fprintf(w, "n = %d ToRs, U = %d uplinks of %v", c.Nodes, c.Uplinks, c.Link)
	if c.Buffer > 0 {
		fmt.Fprintf(w, ", B = %v per ToR", c.Buffer)
	}
	if c.Delay > 0 {
		fmt.Fprintf(w, ", L = %v", c.Delay)
	}
	if c.ReconfFraction > 0 {
		fmt.Fprintf(w, "; Δr = %g·Δ at every slot (duty cycle %g)\n", c.ReconfFraction, 1-c.ReconfFraction)
	} else {
		fmt.Fprintf(w, "; Δr = %v at every slot\n", c.Reconf)
	}
	fmt.Fprintf(w, "θ: certified any-routing throughput on each design's worst-case permutation (lower end, gap %.0e)\n\n", c.Gap)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "design\td\tΓ\tθ at Δr = 0\tbuffer allows (Thm 19)\tdelay allows (Thm 18)\t")
	folded, runs := foldInfeasible(ds.Designs)
	for i, d := range ds.Designs {
		if folded[i] {
			continue
		}
		theta := "-"
		if d.Theta0 > 0 {
			theta = fmt.Sprintf("%.4f", d.Theta0)
		}
		switch d.Status {
		case emulated.Certified:
		case emulated.CannotWin, emulated.Settled:
			theta += " (" + decisionMark(d) + ")"
		default: // a stopped question
			theta += " (" + d.Status + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t\n", d.Name, d.Degree, d.Period, theta,
			slotRange(d.MaxSlotBuffer, d.Reconfigures), slotRange(d.MaxSlotDelay, d.Reconfigures))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	legend := "buffer, delay, reconf: the limit the design breaks there; * recommended"
	for _, d := range ds.Designs {
		if stoppedByDecision(d) {
			legend += "; ~ cannot win or settled within the gap: lower end of a wider certified interval"
			break
		}
	}
	fmt.Fprintf(w, "\ncertified θ per slot (%s)\n", legend)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "design\t")
	for _, s := range c.Slots {
		fmt.Fprintf(tw, "%s\t", shortTime(s))
	}
	fmt.Fprintln(tw)
	k := 0
	for i, d := range ds.Designs {
		if folded[i] {
			k += len(c.Slots)
			continue
		}
		fmt.Fprintf(tw, "%s\t", d.Name)
		for range c.Slots {
			p := ds.Points[k]
			cell := p.Why
			if p.Feasible {
				cell = fmt.Sprintf("%.4f", p.Theta)
				if stoppedByDecision(d) {
					cell += "~"
				}
			}
			if k == ds.Best {
				cell = "*" + cell
			}
			fmt.Fprintf(tw, "%s\t", cell)
			k++
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, d := range ds.Designs {
		if d.Infeasible != "" && !folded[i] {
			fmt.Fprintf(w, "%s: %s\n", d.Name, d.Infeasible)
		}
	}
	for _, r := range runs {
		first, last := ds.Designs[r[0]], ds.Designs[r[1]-1]
		fmt.Fprintf(w, "%s … %s, %d designs left out of the tables above: %s (%s); %s (%s)\n", first.Name, last.Name,
			r[1]-r[0], first.Infeasible, first.Name, strings.TrimPrefix(last.Infeasible, infeasiblePrefix), last.Name)
	}
	if stopped != "" {
		un, st := ds.Unfinished()
		fmt.Fprintf(w, "stopped (%s) before every design was certified; the answer below is the best so far (%s)\n", stopped, unfinishedList(un, st))
	}
	if _, err := fmt.Fprintf(w, "\nrecommended, %s: %s\n%s", reconfAssumption(c), ds.Reason(), marginLine(ds)); err != nil {
		return err
	}
	if len(alt) == 0 {
		return nil
	}
	parts := make([]string, len(alt))
	for i, a := range alt {
		parts[i] = fmt.Sprintf("Δr = %v: %s", a.Config.Reconf, shortAnswer(a))
	}
	_, err := fmt.Fprintf(w, "with a fixed reconfiguration time instead (--reconf): %s\n", strings.Join(parts, "; "))
	return err
}

// writeDesignCSV writes one row per point; status is its design's
// ("" certified to the gap, cannot-win, settled, stopped, uncertified).
func writeDesignCSV(w io.Writer, ds *emulated.DesignSpace) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"design", "degree", "period_slots", "slot_ps", "reconf_ps", "theta", "theta_upper",
		"delay_ps", "buffer_bytes", "feasible", "why", "recommended", "status"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	i64 := func(x int64) string { return strconv.FormatInt(x, 10) }
	for k, p := range ds.Points {
		d := ds.Designs[p.Design]
		cw.Write([]string{d.Name, strconv.Itoa(d.Degree), strconv.Itoa(d.Period), i64(int64(p.Slot)), i64(int64(p.Reconf)),
			g(p.Theta), g(p.Upper), i64(int64(p.Delay)), i64(int64(p.Buffer)), strconv.FormatBool(p.Feasible), p.Why,
			strconv.FormatBool(k == ds.Best), d.Status})
	}
	cw.Flush()
	return cw.Error()
}
