package report

import (
	"fmt"
	"html/template"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxCurves is the most series one panel draws; more are split into
// small multiples (panels) of at most MaxCurves each, on one y scale.
const MaxCurves = 6

// MaxTicks is the most distinct x values a numeric axis gets a tick at
// each of (more get the plot's own ticks).
const MaxTicks = 12

// panelFigures draws ss as one figure, or as small multiples of at most
// MaxCurves series each ("title (panel i of k)") sharing the y range; a
// categorical x axis (a.nominal) as grouped bars, else lines.
func panelFigures(a axes, ss []series) ([]Figure, error) {
	var kept []series
	for _, s := range ss {
		if finitePoints(s, a.logX) > 0 {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return nil, nil
	}
	k := (len(kept) + MaxCurves - 1) / MaxCurves
	per := (len(kept) + k - 1) / k
	if k > 1 {
		lo, hi := yRange(kept, a.yZero || a.nominal != nil)
		a.yLim = &[2]float64{lo, hi}
	}
	var figs []Figure
	for i := 0; i < k; i++ {
		b := a
		if k > 1 {
			b.title = fmt.Sprintf("%s (panel %d of %d)", a.title, i+1, k)
		}
		part := kept[i*per : min((i+1)*per, len(kept))]
		draw := lineFigure
		if a.nominal != nil {
			draw = barFigure
		}
		f, err := draw(b, part)
		if err != nil {
			return nil, err
		}
		if f != nil {
			figs = append(figs, *f)
		}
	}
	return figs, nil
}

// finitePoints counts the points of s a figure draws.
func finitePoints(s series, logX bool) int {
	n := 0
	for _, pt := range s.xy {
		if finite(pt.X) && finite(pt.Y) && (!logX || pt.X > 0) {
			n++
		}
	}
	return n
}

// yRange is the smallest and largest y of the series' finite points, their
// error bars included (from 0 with zero set), padded by 5 %.
func yRange(ss []series, zero bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	if zero {
		lo, hi = 0, 0
	}
	for _, s := range ss {
		for i, pt := range s.xy {
			if !finite(pt.Y) {
				continue
			}
			h := 0.0
			if s.err != nil && finite(s.err[i]) {
				h = s.err[i]
			}
			lo, hi = min(lo, pt.Y-h), max(hi, pt.Y+h)
		}
	}
	pad := 0.05 * (hi - lo)
	if pad == 0 {
		pad = 0.05 * math.Max(1, math.Abs(hi))
	}
	if !zero || lo < 0 {
		lo -= pad
	}
	return lo, hi + pad
}

// barFigure draws the series as grouped bars over the categories a.nominal
// (a series' point at x = i is its bar in category i; a NaN or missing
// point draws no bar), with their error bars, one colour per series.
func barFigure(a axes, ss []series) (*Figure, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = a.title, a.x, a.y
	fitLabels(p)
	fig := &Figure{Title: a.title}
	const group = 0.8 // of the space between two categories
	w := group / float64(len(ss))
	for i, s := range ss {
		c := plotutil.DarkColors[i%len(plotutil.DarkColors)]
		var centres plotter.XYs
		var errs []float64
		for j, pt := range s.xy {
			if !finite(pt.X) || !finite(pt.Y) {
				continue
			}
			x0 := pt.X - group/2 + float64(i)*w
			bar, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x0 + w, Y: 0}, {X: x0 + w, Y: pt.Y}, {X: x0, Y: pt.Y}})
			if err != nil {
				return nil, err
			}
			bar.Color, bar.LineStyle.Color, bar.LineStyle.Width = c, c, vg.Points(0.5)
			p.Add(bar)
			centres = append(centres, plotter.XY{X: x0 + w/2, Y: pt.Y})
			if s.err != nil {
				errs = append(errs, s.err[j])
			}
		}
		if len(centres) == 0 {
			continue
		}
		if err := errorBars(p, centres, errs, color.Gray{Y: 40}); err != nil {
			return nil, err
		}
		r, g, b, _ := c.RGBA()
		fig.Legend = append(fig.Legend, LegendEntry{Name: s.name, Color: template.CSS(fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8))})
		fig.Points += len(centres)
	}
	if fig.Points == 0 {
		return nil, nil
	}
	if len(ss) == 1 && ss[0].name == "" {
		fig.Legend = nil
	}
	p.NominalX(a.nominal...)
	p.X.Min, p.X.Max = -0.5, float64(len(a.nominal))-0.5
	if crowded(a.nominal) { // slanted, so neighbours do not overlap
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	}
	if p.Y.Min > 0 {
		p.Y.Min = 0
	}
	if p.Y.Max < 0 {
		p.Y.Max = 0
	}
	return finish(fig, p, a)
}

// valueTicks are ticks at exactly the values (labelled as they are
// written), for an axis with at most MaxTicks distinct values; nil
// otherwise.
func valueTicks(values []float64) []float64 {
	if len(values) == 0 || len(values) > MaxTicks {
		return nil
	}
	return values
}

// crowded reports whether category names set side by side would overlap
// on a figure's x axis: more characters per category than the plot's
// width gives one at the tick font (about 60 characters in all).
func crowded(names []string) bool {
	longest := 0
	for _, n := range names {
		longest = max(longest, len([]rune(n)))
	}
	return longest*len(names) > 60
}

// fitLabels shrinks the font of a title or axis label too long for a
// figure (5 × 3.4 inches) so that it fits instead of being cut off: a
// character is about 0.55 em wide, the title and x label have about
// 340 pt across, the y label 200 pt up; never below 6.5 pt.
func fitLabels(p *plot.Plot) {
	fit := func(t *text.Style, s string, room float64) {
		if n := 0.55 * float64(len([]rune(s))); n*float64(t.Font.Size) > room {
			t.Font.Size = vg.Length(math.Max(6.5, room/n))
		}
	}
	fit(&p.Title.TextStyle, p.Title.Text, 340)
	fit(&p.X.Label.TextStyle, p.X.Label.Text, 340)
	fit(&p.Y.Label.TextStyle, p.Y.Label.Text, 200)
}
