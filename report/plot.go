package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one inline SVG plot, the number of data points drawn and its
// legend (drawn in HTML under the plot, so it never hides data).
type Figure struct {
	Title  string
	SVG    template.HTML
	Points int
	Legend []LegendEntry
	Note   string // what the figure aggregates and how: a line under it
}

// LegendEntry names a line of a figure and its colour (CSS) and dashing.
type LegendEntry struct {
	Name   string
	Color  template.CSS
	Dashed bool
}

// series is one named line; err, if set, holds the half-width of each
// point's interval (NaN: none), drawn as error bars; censored draws the
// part of a CDF below 1 that no finished flow reached (censoredTail) up
// to censorAt, the longest FCT the run could show (0: the figure's
// largest x).
type series struct {
	name     string
	xy       plotter.XYs
	err      []float64
	censored bool
	censorAt float64
}

// axes of a figure.
type axes struct {
	title, x, y string
	logX        bool
	nominal     []string    // x tick names at 0, 1, …
	ticks       []float64   // x ticks at these values (with logX: labelled, not only powers of 10)
	yZero       bool        // start y at 0
	yLim        *[2]float64 // y from, to (small multiples share it); nil: the data's
}

// lineFigure draws the series (NaN points left out) as lines with points,
// each in the next of plotutil.DarkColors, dashes and glyph shapes. A
// series with no finite point is dropped; a figure with none is nil.
func lineFigure(a axes, ss []series) (*Figure, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = a.title, a.x, a.y
	fitLabels(p)
	fig := &Figure{Title: a.title}
	xmax := math.Inf(-1)
	var tails []func() error
	for _, s := range ss {
		var xy plotter.XYs
		var errs []float64
		for i, pt := range s.xy {
			if finite(pt.X) && finite(pt.Y) && (!a.logX || pt.X > 0) {
				xy = append(xy, pt)
				if s.err != nil {
					errs = append(errs, s.err[i])
				}
				xmax = max(xmax, pt.X)
			}
		}
		if len(xy) == 0 {
			continue
		}
		i := len(fig.Legend)
		c := plotutil.DarkColors[i%len(plotutil.DarkColors)]
		l, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = c, vg.Points(1.2)
		l.Dashes = plotutil.Dashes(i / len(plotutil.DarkColors))
		sc.Color, sc.Shape, sc.Radius = c, plotutil.Shape(i), vg.Points(2.5)
		p.Add(l, sc)
		if err := errorBars(p, xy, errs, c); err != nil {
			return nil, err
		}
		if s.censored {
			last, at := xy[len(xy)-1], s.censorAt
			tails = append(tails, func() error { return censoredTail(p, last, max(at, xmax), c) })
		}
		r, g, b, _ := c.RGBA()
		fig.Legend = append(fig.Legend, LegendEntry{Name: s.name, Color: template.CSS(fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)), Dashed: len(l.Dashes) > 0})
		fig.Points += len(xy)
	}
	if fig.Points == 0 {
		return nil, nil
	}
	for _, t := range tails {
		if err := t(); err != nil {
			return nil, err
		}
	}
	if len(tails) > 0 && p.Y.Max < 1 { // a censored CDF: show how far below 1 it stops
		p.Y.Max = 1
	}
	if (len(ss) == 1 && !ss[0].censored) || (len(fig.Legend) == 1 && fig.Legend[0].Name == "") {
		fig.Legend = nil
	}
	if a.logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if len(a.ticks) > 0 {
		var ts plot.ConstantTicks
		for _, x := range a.ticks {
			ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
		p.X.Tick.Marker = ts
	}
	if a.nominal != nil {
		p.NominalX(a.nominal...)
	}
	if a.yZero && p.Y.Min > 0 {
		p.Y.Min = 0
	}
	return finish(fig, p, a)
}

// finish applies a's fixed y range, adds the grid and renders p into fig.
func finish(fig *Figure, p *plot.Plot, a axes) (*Figure, error) {
	if a.yLim != nil {
		p.Y.Min, p.Y.Max = a.yLim[0], a.yLim[1]
	}
	p.Add(plotter.NewGrid())
	svg, err := toSVG(p, 5*vg.Inch, 3.4*vg.Inch)
	if err != nil {
		return nil, err
	}
	fig.SVG = svg
	return fig, nil
}

// errorBars draws each point's interval, xy[i].Y ± half[i], in colour c;
// points whose half-width is NaN or 0 get none.
func errorBars(p *plot.Plot, xy plotter.XYs, half []float64, c color.Color) error {
	var bars struct {
		plotter.XYs
		plotter.YErrors
	}
	for i, h := range half {
		if finite(h) && h > 0 {
			bars.XYs = append(bars.XYs, xy[i])
			bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{h, h})
		}
	}
	if len(bars.XYs) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	eb.Color, eb.Width = c, vg.Points(1)
	p.Add(eb)
	return nil
}

// censoredTail draws the flows a CDF misses (unfinished at the run's end,
// censored there: their FCT is longer than any drawn) as a dotted line at
// the CDF's last height from its last point to xmax, ending in a ring.
func censoredTail(p *plot.Plot, last plotter.XY, xmax float64, c color.Color) error {
	end := plotter.XY{X: max(xmax, last.X), Y: last.Y}
	l, sc, err := plotter.NewLinePoints(plotter.XYs{last, end})
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(1), []vg.Length{vg.Points(1), vg.Points(2)}
	sc.XYs = sc.XYs[1:]
	sc.Color, sc.Shape, sc.Radius = c, draw.RingGlyph{}, vg.Points(3)
	p.Add(l, sc)
	return nil
}

// toSVG renders p as an inline <svg> element (the XML prolog dropped).
func toSVG(p *plot.Plot, w, h vg.Length) (template.HTML, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", fmt.Errorf("svg backend wrote no <svg> element")
	}
	return template.HTML(s[i:]), nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// scatterFigure draws one series as points.
func scatterFigure(a axes, s series) (*Figure, error) {
	var xy plotter.XYs
	for _, pt := range s.xy {
		if finite(pt.X) && finite(pt.Y) && (!a.logX || pt.X > 0) {
			xy = append(xy, pt)
		}
	}
	if len(xy) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = a.title, a.x, a.y
	fitLabels(p)
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Radius = vg.Points(1.2)
	p.Add(sc, plotter.NewGrid())
	if a.logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	svg, err := toSVG(p, 5*vg.Inch, 3.4*vg.Inch)
	if err != nil {
		return nil, err
	}
	return &Figure{Title: a.title, SVG: svg, Points: len(xy)}, nil
}
