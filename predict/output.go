package predict

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"github.com/rdcn/rdcn/internal/plotgrid"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Header is the CSV header of WriteCSV.
var Header = []string{
	"matrix", "noise", "noise_factor", "algorithm", "gamma", "k", "l", "samples", "period_mean",
	"single_hop_mean", "single_hop_min", "single_hop_max",
	"any_mean", "any_min", "any_max", "any_upper_mean",
	"consistency_bound", "robustness_bound", "pooled_any", "pooled_any_upper",
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }

func optNum(x *float64) string {
	if x == nil {
		return ""
	}
	return num(*x)
}

// anyCells are the per-draw reading's CSV cells (mean, min, max, upper),
// empty when the row has no per-draw reading.
func anyCells(r Row) []string {
	if r.Any == nil {
		return []string{"", "", "", ""}
	}
	return []string{num(r.Any.Mean), num(r.Any.Min), num(r.Any.Max), optNum(r.AnyUpper)}
}

// pooledCells are the pooled reading's CSV cells (lower, upper).
func pooledCells(r Row) []string {
	if r.Pooled == nil {
		return []string{"", ""}
	}
	return []string{num(r.Pooled.Lower), num(r.Pooled.Upper)}
}

// WriteCSV writes one line per row under Header.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{
			r.Matrix, r.Noise, num(r.Factor), string(r.Algorithm), num(r.Gamma),
			strconv.Itoa(r.K), strconv.Itoa(r.L), strconv.Itoa(r.Samples), num(r.Period.Mean),
			num(r.SingleHop.Mean), num(r.SingleHop.Min), num(r.SingleHop.Max),
		}
		rec = append(rec, anyCells(r)...)
		rec = append(rec, optNum(r.Consistency), optNum(r.Robustness))
		rec = append(rec, pooledCells(r)...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Report is the JSON document of WriteJSON.
type Report struct {
	Format string `json:"format"` // "rdcn.predict/v1"
	Study  Study  `json:"study"`
	Rows   []Row  `json:"rows"`
}

// WriteJSON writes the study and its rows as one indented JSON document.
func WriteJSON(w io.Writer, s Study, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Report{Format: "rdcn.predict/v1", Study: s, Rows: rows})
}

// Plot draws θ (certified any-routing) against the noise factor: one panel
// per matrix (rows) and noise kind × reading (columns: the per-draw mean
// over the samples and the pooled reading, for those the rows carry), one
// line per algorithm and γ; colour follows γ, dashes the algorithm. The
// robustness bound 1/(2γ)·(1−Δr/Δ) of deterministic Vermilion is drawn as
// a thin dotted line in the same colour. format is "svg" or "png".
func Plot(w io.Writer, rows []Row, format string) error {
	var matrices, noises []string
	var gammas []float64
	var readings []Reading
	for _, r := range rows {
		if r.Any != nil && !slices.Contains(readings, PerDraw) {
			readings = append(readings, PerDraw)
		}
		if r.Pooled != nil && !slices.Contains(readings, Pooled) {
			readings = append(readings, Pooled)
		}
		if !slices.Contains(matrices, r.Matrix) {
			matrices = append(matrices, r.Matrix)
		}
		if !slices.Contains(noises, r.Noise) {
			noises = append(noises, r.Noise)
		}
		if r.Algorithm != BvN && !slices.Contains(gammas, r.Gamma) {
			gammas = append(gammas, r.Gamma)
		}
	}
	if len(matrices) == 0 || len(readings) == 0 {
		return fmt.Errorf("plot: no rows")
	}
	slices.Sort(readings) // per-draw before pooled
	// theta is a row's θ in reading rd.
	theta := func(r Row, rd Reading) (float64, bool) {
		switch {
		case rd == PerDraw && r.Any != nil:
			return r.Any.Mean, true
		case rd == Pooled && r.Pooled != nil:
			return r.Pooled.Lower, true
		}
		return 0, false
	}
	type column struct {
		noise   string
		reading Reading
	}
	var columns []column
	for _, nz := range noises {
		for _, rd := range readings {
			columns = append(columns, column{nz, rd})
		}
	}
	slices.Sort(gammas)
	colour := func(g float64) color.Color {
		if g == 0 {
			return color.Black
		}
		return palette[slices.Index(gammas, g)%len(palette)]
	}
	dashes := map[Algorithm][]vg.Length{
		Deterministic: nil,
		Randomized:    {vg.Points(5), vg.Points(3)},
		BvN:           {vg.Points(1.5), vg.Points(2)},
	}

	plots := make([][]*plot.Plot, len(matrices))
	for i, m := range matrices {
		plots[i] = make([]*plot.Plot, len(columns))
		for j, col := range columns {
			nz := col.noise
			p := plot.New()
			p.Title.Text = m + ", " + nz + " noise"
			if len(readings) > 1 {
				p.Title.Text += ", " + string(col.reading)
			}
			p.X.Label.Text = "noise factor"
			p.Y.Label.Text = "throughput θ"
			p.Y.Min, p.Y.Max = 0, 1
			p.Add(plotter.NewGrid())
			type key struct {
				a Algorithm
				g float64
			}
			lines := map[key]plotter.XYs{}
			var order []key
			bounds := map[float64]float64{}
			for _, r := range rows {
				if r.Matrix != m || r.Noise != nz {
					continue
				}
				y, ok := theta(r, col.reading)
				if !ok {
					continue
				}
				k := key{r.Algorithm, r.Gamma}
				if _, ok := lines[k]; !ok {
					order = append(order, k)
				}
				lines[k] = append(lines[k], plotter.XY{X: r.Factor, Y: y})
				if r.Algorithm == Deterministic && r.Robustness != nil {
					bounds[r.Gamma] = *r.Robustness
				}
			}
			for _, k := range order {
				l, err := plotter.NewLine(lines[k])
				if err != nil {
					return fmt.Errorf("plot: %w", err)
				}
				l.Color = colour(k.g)
				l.Width = vg.Points(1.2)
				l.Dashes = dashes[k.a]
				p.Add(l)
				if i == 0 && j == 0 {
					name := string(k.a)
					if k.a != BvN {
						name += " γ=" + num(k.g)
					}
					p.Legend.Add(name, l)
				}
			}
			for _, g := range gammas {
				b, ok := bounds[g]
				if !ok {
					continue
				}
				xs := lines[key{Deterministic, g}]
				if len(xs) == 0 {
					continue
				}
				lo, hi := xs[0].X, xs[0].X
				for _, xy := range xs {
					lo, hi = min(lo, xy.X), max(hi, xy.X)
				}
				l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: b}, {X: hi, Y: b}})
				if err != nil {
					return fmt.Errorf("plot: %w", err)
				}
				l.Color = colour(g)
				l.Width = vg.Points(0.6)
				l.Dashes = []vg.Length{vg.Points(0.5), vg.Points(2)}
				p.Add(l)
			}
			p.Legend.Top = false
			p.Legend.Left = true
			p.Legend.TextStyle.Font.Size = vg.Points(7)
			plots[i][j] = p
		}
	}

	width := vg.Points(300 * float64(len(columns)))
	height := vg.Points(240 * float64(len(matrices)))
	tiles := draw.Tiles{Rows: len(matrices), Cols: len(columns),
		PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	return plotgrid.Write(w, plots, tiles, width, height, format)
}

// palette is colour-blind safe (Okabe–Ito) for up to 7 values of γ.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{213, 94, 0, 255},    // vermilion
	color.RGBA{86, 180, 233, 255},  // sky
	color.RGBA{240, 228, 66, 255},  // yellow
}
