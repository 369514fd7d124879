package app

import (
	"image/color"
	"io"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// pairRows are the watched pair's series in CSV units: Gb/s and KB, with
// 1 in the day column for a bin that overlaps a circuit day.
func pairRows(w *fabric.PairSeries, bin rotor.Time) [][]float64 {
	gbps := func(b float64) float64 { return b * 8 / bin.Seconds() / 1e9 }
	rows := make([][]float64, len(w.Delivered))
	k := 0
	for i := range rows {
		from, to := rotor.Time(i)*bin, rotor.Time(i+1)*bin
		for k < len(w.Days) && w.Days[k].End <= from {
			k++
		}
		day := 0.0
		if k < len(w.Days) && w.Days[k].Start < to {
			day = 1
		}
		rows[i] = []float64{float64(from) / float64(rotor.Microsecond), gbps(w.Delivered[i]), gbps(w.Circuit[i]), w.VOQ[i] / 1000, day}
	}
	return rows
}

func writePairSeries(out io.Writer, w *fabric.PairSeries, bin rotor.Time) error {
	var rows [][]string
	for _, r := range pairRows(w, bin) {
		row := make([]string, len(r))
		for j, x := range r {
			row[j] = stats.FormatFloat(x)
		}
		rows = append(rows, row)
	}
	return stats.WriteCSV(out, []string{"time_us", "delivered_gbps", "circuit_gbps", "voq_kb", "day"}, rows)
}

// plotPair draws the watched pair's throughput (Gb/s, left) and VOQ
// (KB, scaled onto the same axis, dashed) with its circuit days shaded:
// the PowerTCP thesis's Fig. 2.8a for one run.
func plotPair(w *fabric.PairSeries, bin rotor.Time, title string) *plot.Plot {
	return plotPairWindow(w, bin, title, 0, rotor.MaxTime)
}

// plotPairWindow is plotPair for the bins that start in [from, to).
func plotPairWindow(w *fabric.PairSeries, bin rotor.Time, title string, from, to rotor.Time) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time (µs)"
	p.Y.Label.Text = "Gb/s (throughput); KB / 10 (VOQ)"
	var top float64
	var thr, voq plotter.XYs
	us := func(t rotor.Time) float64 { return float64(t) / float64(rotor.Microsecond) }
	for _, r := range pairRows(w, bin) {
		if r[0] < us(from) || r[0] >= us(to) {
			continue
		}
		x := r[0] + us(bin)/2
		thr, voq = append(thr, plotter.XY{X: x, Y: r[1]}), append(voq, plotter.XY{X: x, Y: r[3] / 10})
		top = max(top, r[1], r[3]/10)
	}
	top = max(top*1.05, 1)
	for _, d := range w.Days {
		if d.End <= from || d.Start >= to {
			continue
		}
		x0, x1 := us(max(d.Start, from)), us(min(d.End, to))
		poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x1, Y: 0}, {X: x1, Y: top}, {X: x0, Y: top}})
		if err == nil {
			poly.Color = color.Gray{Y: 225}
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
	}
	if l, err := plotter.NewLine(thr); err == nil {
		l.Color = color.RGBA{B: 200, A: 255}
		p.Add(l)
		p.Legend.Add("delivered (Gb/s)", l)
	}
	if l, err := plotter.NewLine(voq); err == nil {
		l.Color = color.RGBA{R: 200, A: 255}
		l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		p.Add(l)
		p.Legend.Add("VOQ (KB / 10)", l)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Y.Min, p.Y.Max = 0, top
	return p
}
