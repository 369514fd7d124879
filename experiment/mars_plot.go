package experiment

import (
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rdcn/rdcn/internal/plotgrid"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/sweep"
)

// marsDesigns are the designs of mars-small-buffers in the figure's
// order, with their colours (Okabe–Ito).
var marsDesigns = []struct {
	name string
	col  color.Color
}{
	{"mars", color.RGBA{213, 94, 0, 255}},
	{"opera", color.RGBA{0, 114, 178, 255}},
	{"expander", color.RGBA{0, 158, 115, 255}},
	{"rotornet", color.RGBA{204, 121, 167, 255}},
}

// PlotMarsSmallBuffers draws mars-small-buffers' results as the thesis'
// Figs. 7.7–7.9: the top row effective throughput (host downlink
// utilisation) against load under all-to-all and permutation at 8
// packets per port, and against the buffer under permutation at the
// highest load (Fig. 7.7a–c); the bottom row the p99 FCT of short flows
// against load under all-to-all and permutation (Figs. 7.9, 7.8) and of
// long flows under all-to-all (Fig. 7.9d). Each point is the mean over
// seeds, with its 95 % confidence interval as a bar (seedInterval). format
// is png or svg.
func PlotMarsSmallBuffers(w io.Writer, r *sweep.Results, format string) error {
	loads := axisValues(r, "workload.load")
	buffers := axisValues(r, "buffer.per_port")
	if len(loads) == 0 || len(buffers) == 0 {
		return fmt.Errorf("mars-small-buffers plot: the results have no workload.load or buffer.per_port axis")
	}
	top := loads[len(loads)-1]
	type panel struct {
		title, ylabel, metric, pattern string
		xAxis                          string // "load" or "buffer"
		log                            bool
	}
	panels := [][]panel{
		{
			{"(a) all-to-all, 8 packets per port (Fig. 7.7a)", "effective throughput", "host_utilization", "all-to-all", "load", false},
			{"(b) permutation, 8 packets per port (Fig. 7.7b)", "effective throughput", "host_utilization", "permutation", "load", false},
			{"(c) permutation, load " + top + " (Fig. 7.7c)", "effective throughput", "host_utilization", "permutation", "buffer", false},
		},
		{
			{"short flows, all-to-all (Fig. 7.9)", "p99 FCT (µs)", "fct_p99_us.short", "all-to-all", "load", true},
			{"short flows, permutation (Fig. 7.8)", "p99 FCT (µs)", "fct_p99_us.short", "permutation", "load", true},
			{"long flows, all-to-all (Fig. 7.9)", "p99 FCT (µs)", "fct_p99_us.long", "all-to-all", "load", true},
		},
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, row := range panels {
		plots[i] = make([]*plot.Plot, len(row))
		for j, pn := range row {
			p := plot.New()
			p.Title.Text = pn.title
			p.Title.TextStyle.Font.Size = vg.Points(9)
			p.Y.Label.Text = pn.ylabel
			p.X.Label.Text = "load"
			xs := loads
			if pn.xAxis == "buffer" {
				p.X.Label.Text = "buffer (packets per port)"
				xs = buffers
			}
			if n := len(r.Replicates()); n > 1 {
				p.X.Label.Text += fmt.Sprintf(" (mean over %d seeds, bars: 95 %% CI)", n)
			}
			if pn.log {
				p.Y.Scale = plot.LogScale{}
				p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
			} else {
				p.Y.Min = 0
			}
			p.Add(plotter.NewGrid())
			for _, d := range marsDesigns {
				var pts plotter.XYs
				var bars struct {
					plotter.XYs
					plotter.YErrors
				}
				for _, x := range xs {
					where := map[string]string{"design": d.name, "workload.pattern": pn.pattern, "workload.load": x, "buffer.per_port": "8"}
					if pn.xAxis == "buffer" {
						where["workload.load"], where["buffer.per_port"] = top, x
					}
					v, ok := Mean(r, pn.metric, where)
					if !ok || pn.log && v <= 0 {
						continue
					}
					xf, _ := strconv.ParseFloat(x, 64)
					pts = append(pts, plotter.XY{X: xf, Y: v})
					if iv := seedInterval(r, pn.metric, where); iv.Half > 0 && (!pn.log || iv.Lo() > 0) {
						bars.XYs = append(bars.XYs, plotter.XY{X: xf, Y: v})
						bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{iv.Half, iv.Half})
					}
				}
				if len(bars.XYs) > 0 {
					eb, err := plotter.NewYErrorBars(bars)
					if err != nil {
						return err
					}
					eb.Color = d.col
					p.Add(eb)
				}
				if len(pts) == 0 {
					continue
				}
				l, s, err := plotter.NewLinePoints(pts)
				if err != nil {
					return err
				}
				l.Color, s.Color = d.col, d.col
				s.Shape = draw.CircleGlyph{}
				p.Add(l, s)
				p.Legend.Add(d.name, l, s)
			}
			p.Legend.Top, p.Legend.Left = true, true
			p.Legend.TextStyle.Font.Size = vg.Points(7)
			plots[i][j] = p
		}
	}
	width, height := vg.Points(900), vg.Points(520)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	return plotgrid.Write(w, plots, tiles, width, height, format)
}

// seedInterval is the mean of a metric over the points matching where,
// taken per seed, with its 95 % confidence interval (stats.MeanCI).
func seedInterval(r *sweep.Results, metric string, where map[string]string) stats.Interval {
	var per []float64
	for _, sub := range r.Replicates() {
		if v, ok := Mean(sub, metric, where); ok {
			per = append(per, v)
		}
	}
	return stats.MeanCI(per)
}

// axisValues are the values of the named axis, in increasing numeric
// order.
func axisValues(r *sweep.Results, name string) []string {
	for _, a := range r.Manifest.Axes {
		if a.Name == name {
			v := slices.Clone(a.Values)
			slices.SortFunc(v, func(x, y string) int {
				a, _ := strconv.ParseFloat(x, 64)
				b, _ := strconv.ParseFloat(y, 64)
				switch {
				case a < b:
					return -1
				case a > b:
					return 1
				}
				return 0
			})
			return v
		}
	}
	return nil
}
