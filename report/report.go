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

	"gonum.org/v1/plot/plotter"

	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/sweep"
)

// Published is a figure from a paper to stand beside ours.
type Published struct {
	What   string  // e.g. "Mars θ (d = 4)"
	Source string  // e.g. "thesis Table 7.1"
	Value  float64 // the published number
	// Ours computes our counterpart from the results; ok is false when
	// the sweep does not hold it.
	Ours func(r *sweep.Results) (v float64, ok bool)
	// Spread, if set, is the range of ours over replicates (min, max),
	// shown beside it.
	Spread func(r *sweep.Results) (lo, hi float64, ok bool)
	Note   string
}

// Format returns the published value and ours as the report prints them:
// "not quoted" for a NaN published value, "–" when the results do not
// hold ours, and ours followed by its spread "(lo – hi)" when it has one.
func (p Published) Format(r *sweep.Results) (value, ours string) {
	value, ours = "not quoted", "–"
	if !math.IsNaN(p.Value) {
		value = strconv.FormatFloat(p.Value, 'g', 4, 64)
	}
	if p.Ours != nil {
		if v, ok := p.Ours(r); ok {
			ours = strconv.FormatFloat(v, 'g', 4, 64)
			if p.Spread != nil {
				if lo, hi, ok := p.Spread(r); ok {
					ours += " (" + strconv.FormatFloat(lo, 'g', 4, 64) + " – " + strconv.FormatFloat(hi, 'g', 4, 64) + ")"
				}
			}
		}
	}
	return value, ours
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
	for _, p := range info.Published {
		row := pubRow{What: p.What, Source: p.Source, Note: p.Note}
		row.Value, row.Ours = p.Format(r)
		pg.Published = append(pg.Published, row)
	}
	for _, c := range info.Combined {
		f, err := combinedFigure(r, c)
		if err != nil {
			return err
		}
		if f != nil {
			pg.Figures = append(pg.Figures, *f)
		}
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

// combinedFigure draws c.
func combinedFigure(r *sweep.Results, c Combined) (*Figure, error) {
	ai := slices.IndexFunc(r.Manifest.Axes, func(a sweep.ManifestAxis) bool { return a.Name == c.Axis })
	if ai < 0 || !r.Manifest.Axes[ai].Numeric {
		return nil, fmt.Errorf("figure %q: %s is not a numeric axis of the sweep", c.Title, c.Axis)
	}
	var ss []series
	for _, m := range c.Metrics {
		s := series{name: m}
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
	return lineFigure(axes{title: c.Title, x: c.Axis, y: c.YLabel, yZero: true}, ss)
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
				sum, cnt := map[key]float64{}, map[key]int{}
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
					sum[k] += v
					cnt[k]++
				}
				var ss []series
				for _, g := range groups {
					s := series{name: g}
					for k, c := range cnt {
						if k.group == g {
							s.xy = append(s.xy, plotter.XY{X: k.x, Y: sum[k] / float64(c)})
						}
					}
					slices.SortFunc(s.xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
					ss = append(ss, s)
				}
				a := axes{title: m + " against " + shortName(axs[xi].Name), x: axs[xi].Name, y: m, logX: logX}
				if facet != "" {
					a.title += " (" + facet + ")"
				}
				if nominal {
					a.nominal = axs[xi].Values
				} else if logX && len(axs[xi].Values) <= 12 {
					for _, v := range axs[xi].Values {
						x, _ := strconv.ParseFloat(v, 64)
						a.ticks = append(a.ticks, x)
					}
				}
				f, err := lineFigure(a, ss)
				if err != nil {
					return nil, fmt.Errorf("%s against %s: %w", m, axs[xi].Name, err)
				}
				if f != nil {
					figs = append(figs, *f)
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
// (at most MaxCDFLines of them, the first ones in sweep order).
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
	}{
		{"fct_cdf.csv", "", "FCT CDF", "FCT (µs, log)", 0, 1},
		{"buffer_cdf.csv", "tor_buffer", "ToR buffer occupancy CDF", "occupancy (bytes, log)", 1, 2},
	} {
		var ss []series
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
			ss = append(ss, s)
		}
		f, err := lineFigure(axes{title: c.title + title, x: c.x, y: "CDF", logX: true}, ss)
		if err != nil {
			return nil, err
		}
		if f != nil {
			figs = append(figs, *f)
		}
	}
	return figs, nil
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
	for _, p := range r.Points {
		row := append([]string{p.Name}, p.Values...)
		for _, m := range names {
			v, ok := metric(p, m)
			cell := ""
			if ok {
				cell = stats.FormatFloat(v)
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

type tableData struct {
	Header []string
	Rows   [][]string
}

type pubRow struct{ What, Source, Value, Ours, Note string }

type page struct {
	Info      Info
	Kind      string
	Seed      string
	Config    string
	SpecHash  string
	Done      int
	Total     int
	Published []pubRow
	Figures   []Figure
	Table     tableData
	Extra     []tableData // single run: drops, configuration
}

var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
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
</style>
</head>
<body>
<h1>{{.Info.Title}}</h1>
{{with .Info.Description}}<p>{{.}}</p>{{end}}
<p class="meta">Produced by rdcn {{.Info.Version}}; kind {{.Kind}}; seed {{.Seed}}{{if .SpecHash}}; spec hash {{printf "%.12s" .SpecHash}}{{end}}{{if .Total}}; {{.Done}} of {{.Total}} points finished{{end}}.</p>
{{if .Published}}<h2>Published values beside ours</h2>
<table id="published"><tr><th>what</th><th>source</th><th>published</th><th>ours</th><th>note</th></tr>
{{range .Published}}<tr><td>{{.What}}</td><td>{{.Source}}</td><td>{{.Value}}</td><td>{{.Ours}}</td><td>{{.Note}}</td></tr>
{{end}}</table>{{end}}
{{range .Extra}}<h2>{{index .Header 0}}</h2>
<table class="extra">{{range .Rows}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<th>{{$c}}</th>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>{{end}}
<h2>Plots</h2>
<div class="figs">
{{range .Figures}}<figure data-points="{{.Points}}">{{.SVG}}{{with .Legend}}
<figcaption>{{range .}}<span class="key"><span class="swatch{{if .Dashed}} dashed{{end}}" style="border-top-color: {{.Color}}"></span>{{.Name}}</span> {{end}}</figcaption>{{end}}</figure>
{{end}}</div>
{{if .Table.Rows}}<h2>Every point</h2>
<div class="scroll"><table id="points">
<tr>{{range .Table.Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
<h2>Configuration</h2>
<pre>{{.Config}}</pre>
</body>
</html>
`))
