package experiment

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// Experiment is a named, built-in sweep reproducing a paper's figure.
type Experiment struct {
	Name   string
	Title  string
	Source string // the paper and figure or table
	// Available is false while the parts it needs have not landed; Reason
	// then says which.
	Available bool
	Reason    string
	// Spec returns the sweep spec (TOML) at a scale: a seed axis
	// (sweep.ReplicateAxis) of at least 3 replicates at the full scale and
	// 2 at the quick one, unless one of the next two says why not.
	Spec func(Scale) string
	// Deterministic, when set, says why no point depends on its seed (so
	// the sweep has no seed axis).
	Deterministic string
	// QuickFixedSeed, when set, says where the quick scale's replicate 1
	// takes fixed seeds from (runs that tests and docs compare point for
	// point); its replicate 2 derives its own.
	QuickFixedSeed string
	// Inputs are files the points read (a flow file), by name: Run
	// writes them into Dir/inputs before the sweep, and Spec names them
	// under Scale.Inputs.
	Inputs    map[string]func() ([]byte, error)
	Published []report.Published
	Figures   []report.Combined // drawn first in the report
	// Plot selects the report's metric figures (report.Info's Metrics, X
	// and Facets); zero: every metric against every numeric axis.
	Plot report.Info
	// Figure, when set, draws the paper's figure from the results; Run
	// writes it beside the report as FigureFile.
	Figure func(w io.Writer, r *sweep.Results, format string) error
}

// FigureFile is the name of an experiment's Figure in its results
// directory.
const FigureFile = "figure.png"

// Scale is what a spec depends on: the quick or the full scale, and the
// absolute directory holding the experiment's Inputs.
type Scale struct {
	Quick  bool
	Inputs string
}

// InputsDir is where Run writes an experiment's Inputs, under its results
// directory.
const InputsDir = "inputs"

var registry = map[string]*Experiment{}

// Register adds e; it panics on a duplicate name.
func Register(e *Experiment) {
	if _, dup := registry[e.Name]; dup {
		panic("experiment: " + e.Name + " registered twice")
	}
	if e.Available == (e.Spec == nil) || e.Available == (e.Reason != "") {
		panic("experiment: " + e.Name + ": an available experiment has a Spec and no Reason, an unavailable one a Reason and no Spec")
	}
	registry[e.Name] = e
}

// List returns every experiment, available ones first, then by name.
func List() []*Experiment {
	out := make([]*Experiment, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Available != out[j].Available {
			return out[i].Available
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Lookup returns the experiment called name.
func Lookup(name string) (*Experiment, error) {
	e, ok := registry[name]
	if !ok {
		var names []string
		for _, x := range List() {
			names = append(names, x.Name)
		}
		return nil, &sweep.Error{Field: "experiment", Problem: fmt.Sprintf("%q: unknown (rdcn experiment list: %s)", name, strings.Join(names, ", "))}
	}
	return e, nil
}

// Options control RunExperiment.
type Options struct {
	Quick   bool
	Dir     string // results directory; the report is Dir/report.html
	Jobs    int
	Log     io.Writer
	Bar     bool
	Version string // rdcn's, for the report
}

// ReportFile is the report's name in the results directory.
const ReportFile = "report.html"

// Run runs the experiment's sweep into opt.Dir (resuming a previous run
// of the same scale) and writes its report beside the results.
func Run(ctx context.Context, e *Experiment, opt Options) (*sweep.Outcome, error) {
	if !e.Available {
		return nil, &sweep.Error{Field: "experiment", Problem: fmt.Sprintf("%s is not available yet: %s", e.Name, e.Reason)}
	}
	inputs, err := filepath.Abs(filepath.Join(opt.Dir, InputsDir))
	if err != nil {
		return nil, err
	}
	text := []byte(e.Spec(Scale{Quick: opt.Quick, Inputs: inputs}))
	s, err := sweep.Parse(bytes.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("experiment %s: built-in spec: %w", e.Name, err)
	}
	if err := sweep.Prepare(s, opt.Dir, text); err != nil {
		return nil, err
	}
	if err := writeInputs(e, inputs); err != nil {
		return nil, err
	}
	out, err := sweep.Run(ctx, s, sweep.Options{Dir: opt.Dir, Jobs: opt.Jobs, SpecText: text, Log: opt.Log, Bar: opt.Bar})
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return out, fmt.Errorf("interrupted; rerun the same command to resume")
	}
	r, err := sweep.Collect(opt.Dir)
	if err != nil {
		return out, err
	}
	scale := "full scale"
	if opt.Quick {
		scale = "quick scale"
	}
	desc := e.Source + "."
	if e.Deterministic != "" {
		desc += " Seeds: none; " + e.Deterministic + "."
	} else if opt.Quick && e.QuickFixedSeed != "" {
		desc += " Seeds: two at this scale; " + e.QuickFixedSeed + "."
	}
	info := report.Info{Title: e.Title + " (" + scale + ")", Description: desc, Version: opt.Version, Published: e.Published, Combined: e.Figures,
		Metrics: e.Plot.Metrics, X: e.Plot.X, Facets: e.Plot.Facets}
	var b bytes.Buffer
	if err := report.Sweep(&b, r, info); err != nil {
		return out, err
	}
	if e.Figure != nil {
		var fig bytes.Buffer
		if err := e.Figure(&fig, r, "png"); err != nil {
			return out, err
		}
		if err := sweep.WriteFileAtomic(opt.Dir, FigureFile, fig.Bytes()); err != nil {
			return out, err
		}
	}
	return out, sweep.WriteFileAtomic(opt.Dir, ReportFile, b.Bytes())
}

// writeInputs writes e's Inputs into dir (each file atomically).
func writeInputs(e *Experiment, dir string) error {
	if len(e.Inputs) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range e.Inputs {
		b, err := data()
		if err != nil {
			return fmt.Errorf("experiment %s: input %s: %w", e.Name, name, err)
		}
		if err := sweep.WriteFileAtomic(dir, name, b); err != nil {
			return err
		}
	}
	return nil
}

// Mean is the mean of a metric over the points whose axis values match
// where (axis name → value; replicates and unnamed axes averaged); ok is
// false when no point matches or the metric is NaN everywhere.
func Mean(r *sweep.Results, metric string, where map[string]string) (float64, bool) {
	sum, n := 0.0, 0
	for _, p := range r.Points {
		match := true
		for ax, want := range where {
			i := slices.IndexFunc(r.Manifest.Axes, func(a sweep.ManifestAxis) bool { return a.Name == ax })
			if i < 0 || p.Values[i] != want {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		for _, m := range p.Metrics {
			if m.Name == metric && m.Value == m.Value {
				sum += m.Value
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// ratio is Mean(a)/Mean(b) of a metric.
func ratio(r *sweep.Results, metric string, a, b map[string]string) (float64, bool) {
	x, ok1 := Mean(r, metric, a)
	y, ok2 := Mean(r, metric, b)
	if !ok1 || !ok2 || y == 0 {
		return 0, false
	}
	return x / y, true
}
