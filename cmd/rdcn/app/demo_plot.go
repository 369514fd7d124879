package app

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rdcn/rdcn/fabric"
)

// plotDemo draws the demo's FCT percentiles (short p50/p99, long p50/p99)
// per fabric on a log scale, as svg or png. Missing percentiles (no flow
// of that size finished) are left out.
func plotDemo(w io.Writer, title string, rows []demoRow, format string) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(8)
	p.Y.Label.Text = "flow completion time (µs, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	p.NominalX(names...)
	series := []struct {
		name  string
		pick  func(demoRow) fabric.Num
		col   color.Color
		shape draw.GlyphDrawer
		dx    float64
	}{
		{"short p50", func(r demoRow) fabric.Num { return r.short.FCTus.P50 }, color.RGBA{R: 31, G: 119, B: 180, A: 255}, draw.CircleGlyph{}, -0.15},
		{"short p99", func(r demoRow) fabric.Num { return r.short.FCTus.P99 }, color.RGBA{R: 31, G: 119, B: 180, A: 255}, draw.TriangleGlyph{}, -0.05},
		{"long p50", func(r demoRow) fabric.Num { return r.long.FCTus.P50 }, color.RGBA{R: 214, G: 39, B: 40, A: 255}, draw.CircleGlyph{}, 0.05},
		{"long p99", func(r demoRow) fabric.Num { return r.long.FCTus.P99 }, color.RGBA{R: 214, G: 39, B: 40, A: 255}, draw.TriangleGlyph{}, 0.15},
	}
	for _, s := range series {
		var xys plotter.XYs
		for i, r := range rows {
			if v := float64(s.pick(r)); v > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
				xys = append(xys, plotter.XY{X: float64(i) + s.dx, Y: v})
			}
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: s.col, Radius: vg.Points(3), Shape: s.shape}
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(rows))-0.5
	p.Y.Max *= 4 // room for the legend above the points
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(7)
	wt, err := p.WriterTo(vg.Points(480), vg.Points(320), format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}
