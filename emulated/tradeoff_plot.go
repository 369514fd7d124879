package emulated

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotTradeoff draws thesis Fig. 7.1 for c: throughput against the degree d
// of the emulated graph, the closed form 1/(2·log_d n) and, with a buffer,
// the buffer-limited min(θ, B/(U·c·ARD)) over every multiple of U in
// [U, n], with the rows' designs marked (and their engine θ when computed).
// format is "svg" or "png".
func PlotTradeoff(w io.Writer, c TradeoffConfig, rows []TradeoffRow, format string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if format != "svg" && format != "png" {
		return fmt.Errorf("plot format: %q, want svg or png", format)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Throughput vs degree: n = %d, U = %d, c = %v, Δ = %v", c.Nodes, c.Uplinks, c.Link, c.Slot)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.Text = "degree d of the emulated graph (delay grows →)"
	p.Y.Label.Text = "throughput θ (worst-case permutation)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = degreeTicks(c.Uplinks, c.Nodes)
	p.Y.Min = 0
	p.Add(plotter.NewGrid())

	var free, limited plotter.XYs
	for _, d := range curveDegrees(c.Uplinks, c.Nodes) {
		r, err := c.closedForm("", d)
		if err != nil {
			return err
		}
		free = append(free, plotter.XY{X: float64(d), Y: r.Theta})
		limited = append(limited, plotter.XY{X: float64(d), Y: r.ThetaBufferLimited})
	}
	blue := color.RGBA{R: 31, G: 119, B: 180, A: 255}
	red := color.RGBA{R: 214, G: 39, B: 40, A: 255}
	green := color.RGBA{R: 44, G: 160, B: 44, A: 255}
	gray := color.RGBA{R: 90, G: 90, B: 90, A: 255}
	if err := addLine(p, free, blue, nil, "θ = 1/(2·log_d n), no buffer limit (Thm 17)"); err != nil {
		return err
	}
	if c.Buffer > 0 {
		if err := addLine(p, limited, red, []vg.Length{vg.Points(5), vg.Points(3)}, fmt.Sprintf("θ within B = %v per ToR (Thm 16)", c.Buffer)); err != nil {
			return err
		}
	}

	var exact, vlb plotter.XYs
	var marks plotter.XYs
	var labels []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.ThetaExact != nil {
			exact = append(exact, plotter.XY{X: float64(r.Degree), Y: *r.ThetaExact})
		}
		if r.ThetaVLB != nil {
			vlb = append(vlb, plotter.XY{X: float64(r.Degree), Y: *r.ThetaVLB})
		}
		if strings.HasPrefix(r.Design, "degree-") {
			continue
		}
		y := r.Theta
		if r.Design == DesignCompleteBuffer || r.Design == DesignMars {
			y = r.ThetaBufferLimited
		}
		key := fmt.Sprintf("%d/%g", r.Degree, y)
		label := fmt.Sprintf("%s (d=%d)", r.Design, r.Degree)
		if seen[key] {
			continue
		}
		seen[key] = true
		marks = append(marks, plotter.XY{X: float64(r.Degree), Y: y})
		labels = append(labels, label)
	}
	if len(exact) > 0 {
		if err := addPoints(p, exact, green, draw.CircleGlyph{}, "θ exact, any routing (engine, duty cycle incl.)"); err != nil {
			return err
		}
	}
	if len(vlb) > 0 {
		if err := addPoints(p, vlb, gray, draw.TriangleGlyph{}, "θ VLB (engine)"); err != nil {
			return err
		}
	}
	if len(marks) > 0 {
		if err := addPoints(p, marks, color.Black, draw.SquareGlyph{}, ""); err != nil {
			return err
		}
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: marks, Labels: labels})
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(7)
			l.TextStyle[i].XAlign = draw.XCenter
		}
		l.Offset = vg.Point{Y: vg.Points(5)}
		p.Add(l)
	}
	p.Y.Max = math.Max(p.Y.Max, 0.55) * 1.08
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(7)
	wt, err := p.WriterTo(vg.Points(520), vg.Points(360), format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

func addLine(p *plot.Plot, xys plotter.XYs, col color.Color, dashes []vg.Length, name string) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = col, vg.Points(1.5), dashes
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

func addPoints(p *plot.Plot, xys plotter.XYs, col color.Color, shape draw.GlyphDrawer, name string) error {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: shape}
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
	return nil
}

// curveDegrees is every multiple of u in [max(u,2), n], thinned to about
// 400 points on a log grid for large n.
func curveDegrees(u, n int) []int {
	lo := u
	if lo < 2 {
		lo = 2
	}
	var ds []int
	if (n-lo)/u <= 400 {
		for d := lo; d <= n; d += u {
			ds = append(ds, d)
		}
		return ds
	}
	last := 0
	for i := 0; i <= 400; i++ {
		d := int(math.Round(float64(lo) * math.Pow(float64(n)/float64(lo), float64(i)/400)))
		d -= d % u
		if d >= lo && d > last {
			ds = append(ds, d)
			last = d
		}
	}
	return ds
}

// degreeTicks labels U, powers of two in between, and n.
func degreeTicks(u, n int) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		add := func(d int) {
			for _, t := range ts {
				if t.Value == float64(d) {
					return
				}
			}
			ts = append(ts, plot.Tick{Value: float64(d), Label: fmt.Sprint(d)})
		}
		add(max2(u))
		for d := 2; d < n; d *= 2 {
			if d > u {
				add(d)
			}
		}
		add(n)
		return ts
	})
}

func max2(u int) int {
	if u < 2 {
		return 2
	}
	return u
}
