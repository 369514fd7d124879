package report

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/sweep"
)

// Published is a figure from a paper to stand beside ours, with the
// tolerance that decides whether ours reproduces it (Judge).
type Published struct {
	What   string  // e.g. "Mars θ (d = 4)"
	Source string  // e.g. "thesis Table 7.1"
	Value  float64 // the published number; NaN: not quoted (Tol may state a direction)
	// Ours computes our counterpart from the results; ok is false when
	// the sweep does not hold it. Judge also calls it on each replicate's
	// points alone (sweep.Results.Replicates) for the per-seed interval.
	Ours func(r *sweep.Results) (v float64, ok bool)
	// Tol is the band, the direction and why: the verdict follows from it.
	Tol  Tolerance
	Note string
}

// Info is what a report says about itself.
type Info struct {
	Title       string
	Description string
	Version     string // rdcn's version
	Published   []Published
	// Combined figures come first: several metrics against one axis, a
	// line each (e.g. Fig. 7.1's throughput bounds against the degree).
	Combined []Combined
	// Metrics, if given, are the metrics plotted (in this order); X, if
	// given, the axes used as x axes. The table always has everything.
	Metrics []string
	X       []string
	// Facets are categorical axes that split figures (one per value)
	// instead of lines; other numeric axes always do.
	Facets []string
}

// Combined is a figure of several metrics (one line each, mean over the
// points at each value of the axis) against a numeric axis.
type Combined struct {
	Title, Axis, YLabel string
	Metrics             []string
}

// MaxCDFLines caps the lines of a sweep's CDF figures.
const MaxCDFLines = 16

// Sweep writes the HTML report of a sweep's results.
func Sweep(w io.Writer, r *sweep.Results, info Info) error {
	if info.Title == "" {
		info.Title = "rdcn sweep (" + r.Manifest.Kind + ")"
	}
	pg := page{Info: info, Kind: r.Manifest.Kind, Seed: strconv.FormatUint(r.Manifest.Seed, 10),
		Config: string(r.SpecText), SpecHash: r.Manifest.SpecHash,
		Done: len(r.Points), Total: len(r.Manifest.Points)}
	pg.Published = JudgeAll(info.Published, r)
	pg.Tally = Count(pg.Published)
	for _, c := range info.Combined {
		figs, err := combinedFigure(r, c)
		if err != nil {
			return err
		}
		pg.Figures = append(pg.Figures, figs...)
	}
	figs, err := metricFigures(r, info)
	if err != nil {
		return err
	}
	pg.Figures = append(pg.Figures, figs...)
	if r.Manifest.Kind == "simulate" {
		cdfs, err := cdfFigures(r)
		if err != nil {
			return err
		}
		pg.Figures = append(pg.Figures, cdfs...)
	}
	pg.Means = meanTable(r)
	pg.Table = pointTable(r)
	return pageTemplate.Execute(w, pg)
}

// metricNames lists every metric in the order the points report them.
func metricNames(r *sweep.Results) []string {
	var names []string
	for _, p := range r.Points {
		for _, m := range p.Metrics {
			if !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
	}
	return names
}

// combinedFigure draws c (small multiples beyond MaxCurves metrics).
func combinedFigure(r *sweep.Results, c Combined) ([]Figure, error) {
	ai := slices.IndexFunc(r.Manifest.Axes, func(a sweep.ManifestAxis) bool { return a.Name == c.Axis })
	if ai < 0 || !r.Manifest.Axes[ai].Numeric {
		return nil, fmt.Errorf("figure %q: %s is not a numeric axis of the sweep", c.Title, c.Axis)
	}
	var ss []series
	for _, m := range c.Metrics {
		name, _ := describe(m)
		s := series{name: name}
		for _, v := range r.Manifest.Axes[ai].Values {
			sum, n := 0.0, 0
			for _, p := range r.Points {
				if y, ok := metric(p, m); ok && p.Values[ai] == v && !math.IsNaN(y) {
					sum, n = sum+y, n+1
				}
			}
			if n > 0 {
				x, _ := strconv.ParseFloat(v, 64)
				s.xy = append(s.xy, plotter.XY{X: x, Y: sum / float64(n)})
			}
		}
		ss = append(ss, s)
	}
	figs, err := panelFigures(axes{title: c.Title, x: keyLabel(c.Axis), y: c.YLabel, yZero: true, ticks: valueTicks(axisValues(r.Manifest.Axes[ai]))}, ss)
	for i := range figs {
		figs[i].Note = "Each point: the mean of the metric over every point of the sweep at that " + shortName(c.Axis) + " (other axes and seeds pooled)."
	}
	return figs, err
}

// axisValues are a numeric axis's values.
func axisValues(a sweep.ManifestAxis) []float64 {
	xs := make([]float64, len(a.Values))
	for i, v := range a.Values {
		xs[i], _ = strconv.ParseFloat(v, 64)
	}
	return xs
}

// metricFigures plots each metric that varies across the points against
// each numeric axis (the replicate axis excepted; Info.X, if given, picks
// the x axes): one line per combination of the categorical axes' values,
// the mean over replicates, and one figure per combination of the other
// numeric axes' values. Without a numeric axis the first axis is the x
// axis, by name. Metrics equal at every point are in the table only; an
// x axis of positive values spanning a factor of 8 or more is drawn on a
// log scale.
func metricFigures(r *sweep.Results, info Info) ([]Figure, error) {
	axs := r.Manifest.Axes
	var xs, numeric []int
	for i, a := range axs {
		if a.Numeric && a.Name != sweep.ReplicateAxis {
			numeric = append(numeric, i)
			if len(info.X) == 0 || slices.Contains(info.X, a.Name) {
				xs = append(xs, i)
			}
		}
	}
	nominal := false
	if len(numeric) == 0 {
		for i, a := range axs {
			if a.Name != sweep.ReplicateAxis {
				xs, nominal = []int{i}, true
				break
			}
		}
	}
	metrics := metricNames(r)
	if len(info.Metrics) > 0 {
		metrics = slices.DeleteFunc(slices.Clone(info.Metrics), func(m string) bool { return !slices.Contains(metrics, m) })
	}
	var figs []Figure
	for _, xi := range xs {
		// facet: the values of the other numeric axes; group: the line.
		label := func(p sweep.Finished, numericOnes bool) string {
			var parts []string
			for ai, a := range axs {
				facet := slices.Contains(numeric, ai) || slices.Contains(info.Facets, a.Name)
				if ai == xi || a.Name == sweep.ReplicateAxis || facet != numericOnes {
					continue
				}
				parts = append(parts, shortName(a.Name)+"="+p.Values[ai])
			}
			return strings.Join(parts, ", ")
		}
		var facets []string
		for _, p := range r.Points {
			if f := label(p, true); !slices.Contains(facets, f) {
				facets = append(facets, f)
			}
		}
		logX := !nominal && wideRange(axs[xi].Values)
		for _, m := range metrics {
			if constant(r, m) {
				continue
			}
			for _, facet := range facets {
				type key struct {
					group string
					x     float64
				}
				vals := map[key][]float64{}
				var groups []string
				for _, p := range r.Points {
					v, ok := metric(p, m)
					if !ok || math.IsNaN(v) || label(p, true) != facet {
						continue
					}
					g := label(p, false)
					x := float64(slices.Index(axs[xi].Values, p.Values[xi]))
					if !nominal {
						x, _ = strconv.ParseFloat(p.Values[xi], 64)
					}
					k := key{g, x}
					if !slices.Contains(groups, g) {
						groups = append(groups, g)
					}
					vals[k] = append(vals[k], v)
				}
				var ss []series
				for _, g := range groups {
					var keys []key
					for k := range vals {
						if k.group == g {
							keys = append(keys, k)
						}
					}
					slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(a.x, b.x) })
					s := series{name: g}
					for _, k := range keys {
						iv := stats.MeanCI(vals[k])
						s.xy = append(s.xy, plotter.XY{X: k.x, Y: iv.Mean})
						s.err = append(s.err, iv.Half)
					}
					ss = append(ss, s)
				}
				name, _ := describe(m)
				a := axes{title: name + " against " + shortName(axs[xi].Name), x: keyLabel(axs[xi].Name), y: metricLabel(m), logX: logX}
				if facet != "" {
					a.title += " (" + facet + ")"
				}
				if nominal {
					a.nominal = axs[xi].Values
				} else {
					a.ticks = valueTicks(axisValues(axs[xi]))
				}
				fs, err := panelFigures(a, ss)
				if err != nil {
					return nil, fmt.Errorf("%s against %s: %w", m, axs[xi].Name, err)
				}
				for _, f := range fs {
					f.Note = replicateNote(r)
					figs = append(figs, f)
				}
			}
		}
	}
	return figs, nil
}

// shortName is a key's last dotted part.
func shortName(key string) string { return key[strings.LastIndex(key, ".")+1:] }

// wideRange reports whether numeric values are all positive and span a
// factor of at least 8.
func wideRange(values []string) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		x, _ := strconv.ParseFloat(v, 64)
		if !(x > 0) {
			return false
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi >= 8*lo
}

// constant reports whether metric m has one value (or NaN) at every point.
func constant(r *sweep.Results, m string) bool {
	first, seen := 0.0, false
	for _, p := range r.Points {
		v, ok := metric(p, m)
		if !ok || math.IsNaN(v) {
			continue
		}
		if seen && v != first {
			return false
		}
		first, seen = v, true
	}
	return true
}

func metric(p sweep.Finished, name string) (float64, bool) {
	for _, m := range p.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// cdfFigures draws the FCT and ToR buffer occupancy CDFs of the points
// (at most MaxCDFLines of them, the first ones in sweep order). The FCT
// CDF is over the measured flows with the unfinished ones censored at the
// run's end (fct_cdf.csv): a curve below 1 ends in a dotted line, and its
// legend counts them.
func cdfFigures(r *sweep.Results) ([]Figure, error) {
	pts := r.Points
	title := ""
	if len(pts) > MaxCDFLines {
		pts, title = pts[:MaxCDFLines], fmt.Sprintf(" (first %d of %d points)", MaxCDFLines, len(r.Points))
	}
	var figs []Figure
	for _, c := range []struct {
		file, filter, title, x string
		xcol, ycol             int
		fct                    bool
	}{
		{"fct_cdf.csv", "", "FCT CDF", "FCT (µs, log)", 0, 1, true},
		{"buffer_cdf.csv", "tor_buffer", "ToR buffer occupancy CDF", "occupancy (bytes, log)", 1, 2, false},
	} {
		var ss []series
		unfinished, measured := 0, 0
		for _, p := range pts {
			rows, err := readCSV(filepath.Join(p.Dir, c.file))
			if err != nil {
				return nil, err
			}
			s := series{name: p.Name}
			for _, row := range rows {
				if c.filter != "" && row[0] != c.filter {
					continue
				}
				x, _ := strconv.ParseFloat(row[c.xcol], 64)
				y, _ := strconv.ParseFloat(row[c.ycol], 64)
				s.xy = append(s.xy, plotter.XY{X: x, Y: y})
			}
			if c.fct {
				sum, err := ReadSummary(p.Dir)
				if err != nil {
					return nil, err
				}
				m := sum.Measured
				unfinished, measured = unfinished+m.Unfinished, measured+m.Started
				s.name, s.censored, s.censorAt = censoredName(p.Name, m.Unfinished, m.Started), m.Unfinished > 0, longestFCT(sum)
			}
			ss = append(ss, s)
		}
		fs, err := panelFigures(axes{title: c.title + title, x: c.x, y: "CDF (fraction)", logX: true}, ss)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			f.Note = "One curve per point (each seed its own): the time-weighted occupancy of the point's ToR buffers."
			if c.fct {
				f.Note = fmt.Sprintf("CDF over each point's measured flows: %d of %d unfinished at the run's end, censored there "+
					"(their FCT exceeds any drawn), so a curve with unfinished flows stops below 1 and a dotted line carries it to the longest FCT the run could show.", unfinished, measured)
			}
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// longestFCT is the longest FCT (µs) a measured flow of the run could
// show: from the measurement window's start to the run's end (0 when the
// summary's simulated time does not parse).
func longestFCT(s *fabric.Summary) float64 {
	d, err := time.ParseDuration(s.SimTime)
	if err != nil {
		return 0
	}
	return float64(d)/float64(time.Microsecond) - float64(s.Measured.FromUs)
}

// censoredName is a CDF's legend entry: the name, and the flows of the
// curve unfinished at the run's end.
func censoredName(name string, unfinished, measured int) string {
	if unfinished == 0 {
		return fmt.Sprintf("%s (all %d finished)", name, measured)
	}
	return fmt.Sprintf("%s (%d of %d unfinished, censored)", name, unfinished, measured)
}

// readCSV returns a CSV file's rows after the header.
func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	return rows[1:], nil
}

// pointTable is one row per point: its name, axis values and metrics,
// formatted as collect's CSV formats them.
func pointTable(r *sweep.Results) tableData {
	var t tableData
	t.Header = []string{"point"}
	for _, a := range r.Manifest.Axes {
		t.Header = append(t.Header, a.Name)
	}
	names := metricNames(r)
	t.Header = append(t.Header, names...)
	t.Note = "One row per point (each seed its own), cells as rdcn collect writes them (NaN as " + NoValue + ")."
	var none missing
	for _, p := range r.Points {
		row := append([]string{p.Name}, p.Values...)
		for _, m := range names {
			v, ok := metric(p, m)
			row = append(row, none.value(m, v, ok, stats.FormatFloat))
		}
		t.Rows = append(t.Rows, row)
	}
	if n := none.note(len(t.Rows)); n != "" {
		t.Note += " " + n
	}
	return t
}

type tableData struct {
	Header []string
	Rows   [][]string
	Note   string // how the cells were computed: a line under the table
}

type page struct {
	Info      Info
	Kind      string
	Seed      string
	Config    string
	SpecHash  string
	Done      int
	Total     int
	Published []Judgement
	Tally     Tally
	Figures   []Figure
	Means     *tableData // mean ± CI over seeds
	Table     tableData
	Extra     []tableData // single run: drops, configuration
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"perSeed": FormatPerSeed, "verdictHow": func() string { return VerdictHow }}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Info.Title}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em; }
.meta { color: #555; }
.figs { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #ddd; padding: 0.3em; }
figure svg { width: 480px; height: auto; display: block; }
figcaption { max-width: 480px; font-size: 0.75em; }
.key { display: inline-block; margin-right: 0.8em; white-space: nowrap; }
.swatch { display: inline-block; width: 1.8em; border-top: 2px solid; vertical-align: middle; margin-right: 0.3em; }
.swatch.dashed { border-top-style: dashed; }
table { border-collapse: collapse; font-size: 0.8em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f3f3f3; }
td:first-child, th:first-child, #published td, #published th { text-align: left; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 0.85em; }
.scroll { overflow-x: auto; }
.headline { font-weight: bold; }
.how, .note { color: #555; font-size: 0.8em; max-width: 60em; }
.why { color: #555; font-size: 0.9em; }
td.verdict { white-space: nowrap; font-weight: bold; }
.v-within { background: #d7f0d7; color: #14591b; }
.v-same { background: #fbeccb; color: #7a4d00; }
.v-differs { background: #f7d4d4; color: #8a1414; }
.v-notrun, .v-none { background: #eee; color: #555; }
</style>
</head>
<body>
<h1>{{.Info.Title}}</h1>
{{with .Info.Description}}<p>{{.}}</p>{{end}}
<p class="meta">Produced by rdcn {{.Info.Version}}; kind {{.Kind}}; seed {{.Seed}}{{if .SpecHash}}; spec hash {{printf "%.12s" .SpecHash}}{{end}}{{if .Total}}; {{.Done}} of {{.Total}} points finished{{end}}.</p>
{{if .Published}}<h2>Published values beside ours</h2>
<p class="headline" id="verdicts">{{.Tally.Headline}}</p>
<table id="published"><tr><th>verdict</th><th>what</th><th>source</th><th>published</th><th>band (why)</th><th>ours</th><th>per seed</th><th>note</th></tr>
{{range .Published}}<tr><td class="verdict {{.Verdict.Class}}" data-verdict="{{.Verdict.Word}}">{{.Verdict.Symbol}} {{.Verdict.Word}}</td><td>{{.What}}</td><td>{{.Source}}</td><td>{{.Value}}</td><td>{{.Band}}{{with .Why}} <span class="why">({{.}})</span>{{end}}</td><td>{{.Ours}}</td><td>{{perSeed .PerSeed}}</td><td>{{.Note}}</td></tr>
{{end}}</table>
<p class="how">{{verdictHow}}</p>{{end}}
{{range .Extra}}<h2>{{index .Header 0}}</h2>
<table class="extra">{{range .Rows}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<th>{{$c}}</th>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>{{with .Note}}
<p class="note">{{.}}</p>{{end}}{{end}}
<h2>Plots</h2>
<div class="figs">
{{range .Figures}}<figure data-points="{{.Points}}">{{.SVG}}{{if or .Legend .Note}}
<figcaption>{{range .Legend}}<span class="key"><span class="swatch{{if .Dashed}} dashed{{end}}" style="border-top-color: {{.Color}}"></span>{{.Name}}</span> {{end}}{{with .Note}}<div class="note">{{.}}</div>{{end}}</figcaption>{{end}}</figure>
{{end}}</div>
{{with .Means}}<h2>Mean over seeds (± 95 % confidence interval)</h2>
<div class="scroll"><table id="means">
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
<p class="note">{{.Note}}</p>{{end}}
{{if .Table.Rows}}<h2>Every point</h2>
<div class="scroll"><table id="points">
<tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
<p class="note">{{.Table.Note}}</p>{{end}}
<h2>Configuration</h2>
<pre>{{.Config}}</pre>
</body>
</html>
`))

// replicates is the number of values of the sweep's seed axis (1 without
// one).
func replicates(r *sweep.Results) int {
	for _, a := range r.Manifest.Axes {
		if a.Name == sweep.ReplicateAxis {
			return len(a.Values)
		}
	}
	return 1
}

// replicateNote says what a figure of metric means aggregates.
func replicateNote(r *sweep.Results) string {
	if n := replicates(r); n > 1 {
		return fmt.Sprintf("Each point: the mean over the %d seeds (the seed axis); bars: its 95 %% confidence interval (Student t, n − 1 degrees of freedom).", n)
	}
	return "Each point: one run (the sweep has no seed axis, so no interval)."
}

// meanTable is one row per combination of the axes other than the seed
// axis: each metric's mean over the seeds ± the half-width of its 95 %
// confidence interval, and the number of seeds; nil without a seed axis
// of two or more values.
func meanTable(r *sweep.Results) *tableData {
	ri := slices.IndexFunc(r.Manifest.Axes, func(a sweep.ManifestAxis) bool { return a.Name == sweep.ReplicateAxis })
	if ri < 0 || len(r.Manifest.Axes[ri].Values) < 2 {
		return nil
	}
	t := &tableData{Header: []string{"point"}}
	for i, a := range r.Manifest.Axes {
		if i != ri {
			t.Header = append(t.Header, a.Name)
		}
	}
	names := metricNames(r)
	t.Header = append(append(t.Header, "seeds"), names...)
	var none missing
	var order []string
	groups := map[string][]sweep.Finished{}
	for _, p := range r.Points {
		vals := slices.Delete(slices.Clone(p.Values), ri, ri+1)
		k := strings.Join(vals, "\x00")
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	for _, k := range order {
		ps := groups[k]
		var name []string
		for i, a := range r.Manifest.Axes {
			if i != ri {
				name = append(name, shortName(a.Name)+"="+ps[0].Values[i])
			}
		}
		row := append([]string{strings.Join(name, "_")}, strings.Split(k, "\x00")...)
		if k == "" {
			row = row[:1]
		}
		row = append(row, strconv.Itoa(len(ps)))
		for _, m := range names {
			var xs []float64
			for _, p := range ps {
				if v, ok := metric(p, m); ok {
					xs = append(xs, v)
				}
			}
			iv := stats.MeanCI(xs)
			if iv.N == 0 {
				row = append(row, none.add(m))
				continue
			}
			row = append(row, formatInterval(iv))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = "Each cell: the mean over the seeds (the seed axis; NaN values left out) ± the half-width of its 95 % confidence interval, " +
		"Student t with n − 1 degrees of freedom (n the seeds with a value); one value: no interval. Every seed's own row is in the table below, as rdcn collect writes it."
	if n := none.note(len(t.Rows)); n != "" {
		t.Note += " " + n
	}
	return t
}

// formatInterval is "mean ± half", "mean" without an interval, "" with no
// value.
func formatInterval(iv stats.Interval) string {
	switch {
	case iv.N == 0:
		return ""
	case math.IsNaN(iv.Half):
		return num(iv.Mean)
	}
	return num(iv.Mean) + " ± " + num(iv.Half)
}
