package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// svgTexts are the strings an inline SVG draws (tick labels, titles).
func svgTexts(svg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

// TestPanelsAtMostSixCurves: 14 series become 3 panels of at most 6
// (5, 5, 4), each legend naming its own series in order, all on one y
// range; 6 series stay one figure.
func TestPanelsAtMostSixCurves(t *testing.T) {
	var ss []series
	for i := range 14 {
		ss = append(ss, series{name: fmt.Sprintf("s%d", i), xy: plotter.XYs{{X: 1, Y: float64(i)}, {X: 2, Y: float64(2 * i)}}})
	}
	figs, err := panelFigures(axes{title: "t", x: "x", y: "y"}, ss)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, f := range figs {
		if len(f.Legend) > MaxCurves {
			t.Errorf("panel %d draws %d curves, more than %d", i, len(f.Legend), MaxCurves)
		}
		if want := fmt.Sprintf("t (panel %d of 3)", i+1); f.Title != want {
			t.Errorf("panel %d titled %q, want %q", i, f.Title, want)
		}
		for _, l := range f.Legend {
			names = append(names, l.Name)
		}
		// One y range: the largest y, 26 (panel 3's), tops every panel
		// (panel 1's own would end at 8).
		if texts := svgTexts(string(f.SVG)); !slices.ContainsFunc(texts, func(s string) bool { return s == "25" || s == "25.00" }) {
			t.Errorf("panel %d: y ticks %q, want the shared range up to 26", i, texts)
		}
	}
	if len(figs) != 3 || len(names) != 14 || names[0] != "s0" || names[13] != "s13" {
		t.Errorf("%d panels naming %q, want 3 panels with the 14 series in order", len(figs), names)
	}
	figs, err = panelFigures(axes{title: "t", x: "x", y: "y"}, ss[:MaxCurves])
	if err != nil || len(figs) != 1 || len(figs[0].Legend) != MaxCurves || figs[0].Title != "t" {
		t.Errorf("%d series: %d figures (%v)", MaxCurves, len(figs), err)
	}
}

// TestTicksAtDataValues: a numeric axis with a few values is ticked at
// exactly those values (0.1, 0.2, 0.3 — not gonum's 0.12, 0.2, 0.28); a
// categorical axis draws grouped bars, one per category and series, each
// category named under its group.
func TestTicksAtDataValues(t *testing.T) {
	xs := []float64{0.1, 0.2, 0.3}
	s := series{name: "a", xy: plotter.XYs{{X: 0.1, Y: 1}, {X: 0.2, Y: 3}, {X: 0.3, Y: 2}}}
	figs, err := panelFigures(axes{title: "t", x: "load", y: "y", ticks: valueTicks(xs)}, []series{s})
	if err != nil || len(figs) != 1 {
		t.Fatalf("%d figures, %v", len(figs), err)
	}
	texts := svgTexts(string(figs[0].SVG))
	for _, want := range []string{"0.1", "0.2", "0.3"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no tick %s among %q", want, texts)
		}
	}
	for _, bad := range []string{"0.12", "0.28", "0.15", "0.25"} {
		if slices.Contains(texts, bad) {
			t.Errorf("tick %s between the data values: %q", bad, texts)
		}
	}
	if valueTicks(make([]float64, MaxTicks+1)) != nil {
		t.Errorf("more than %d values still ticked one by one", MaxTicks)
	}
	cats := []string{"dt", "abm", "credence"}
	bars := []series{
		{name: "p=0", xy: plotter.XYs{{X: 0, Y: 5}, {X: 1, Y: 4}, {X: 2, Y: 3}}, err: []float64{1, 1, 1}},
		{name: "p=1", xy: plotter.XYs{{X: 0, Y: 6}, {X: 1, Y: 7}, {X: 2, Y: nan()}}},
	}
	figs, err = panelFigures(axes{title: "bars", x: "policy", y: "y", nominal: cats}, bars)
	if err != nil || len(figs) != 1 {
		t.Fatalf("%d figures, %v", len(figs), err)
	}
	f := figs[0]
	if f.Points != 5 {
		t.Errorf("%d bars drawn, want 5 (the NaN draws none)", f.Points)
	}
	texts = svgTexts(string(f.SVG))
	for _, c := range cats {
		if !slices.Contains(texts, c) {
			t.Errorf("category %s not named on the axis: %q", c, texts)
		}
	}
	// Bars are filled polygons, not lines joining the categories.
	if strings.Count(string(f.SVG), "fill=\"#") < 5 && strings.Count(string(f.SVG), "fill:#") < 5 {
		t.Errorf("no filled bars in the SVG")
	}
}

func nan() float64 { var z float64; return z / z }

// TestMetricLabel: metric keys become words with units, a bucket naming
// its flows and a tradeoff design its row; an unknown key keeps its
// words and reads its unit from its suffix.
func TestMetricLabel(t *testing.T) {
	for m, want := range map[string]string{
		"fct_p99_us.short":        "FCT p99, short flows (µs)",
		"slowdown_p99.all":        "FCT slowdown p99, all flows (× ideal FCT)",
		"mars.theta":              "θ (Theorem 17), mars (× hose rate)",
		"degree.delay_us":         "average route delay (µs)",
		"queueing_latency_p99_us": "queueing latency p99 (µs)",
		"new_metric_bytes":        "new metric (bytes)",
	} {
		if got := metricLabel(m); got != want {
			t.Errorf("metricLabel(%q) = %q, want %q", m, got, want)
		}
	}
	if got := keyLabel("workload.load"); got != "offered load (fraction of the host link)" {
		t.Errorf("keyLabel(workload.load) = %q", got)
	}
}
