package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/rdcn/rdcn/fabric"
)

// MaxScatter caps the flows drawn in a single run's FCT-against-size plot
// (every k-th flow of flows.csv, in file order).
const MaxScatter = 4000

// ReadSummary reads the summary.json of an rdcn simulate output directory
// (or of a simulate point of a sweep).
func ReadSummary(dir string) (*fabric.Summary, error) {
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return nil, fmt.Errorf("%s: not an rdcn simulate output directory (summary.json: %v)", dir, err)
	}
	var sum fabric.Summary
	if err := json.Unmarshal(b, &sum); err != nil || !strings.HasPrefix(sum.Format, "rdcn.simulate/") {
		return nil, fmt.Errorf("%s/summary.json: not an rdcn.simulate summary", dir)
	}
	return &sum, nil
}

// Run writes the HTML report of one rdcn simulate output directory:
// FCT against flow size and by size bucket, utilisation and buffer
// occupancy over time, the occupancy CDF, drops and the configuration.
func Run(w io.Writer, dir string, info Info) error {
	sum, err := ReadSummary(dir)
	if err != nil {
		return err
	}
	if info.Title == "" {
		info.Title = "rdcn simulate: " + filepath.Base(filepath.Clean(dir))
	}
	pg := page{Info: info, Kind: "simulate"}
	var cfg strings.Builder
	var seeds []string
	for _, kv := range sum.Config {
		fmt.Fprintf(&cfg, "%s = %q\n", kv[0], kv[1])
		if strings.HasSuffix(kv[0], ".seed") {
			seeds = append(seeds, kv[0]+" "+kv[1])
		}
	}
	pg.Config, pg.Seed = cfg.String(), strings.Join(seeds, ", ")
	if !sum.Complete {
		pg.Info.Description += " The run was interrupted: the results cover " + sum.SimTime + " only."
	}
	// FCT by bucket.
	var names []string
	var p50, p99 series
	p50.name, p99.name = "p50", "p99"
	for i, bk := range sum.FCT {
		names = append(names, bk.Bucket)
		p50.xy = append(p50.xy, plotter.XY{X: float64(i), Y: float64(bk.FCTus.P50)})
		p99.xy = append(p99.xy, plotter.XY{X: float64(i), Y: float64(bk.FCTus.P99)})
	}
	add := func(f *Figure, err error) error {
		if err != nil {
			return err
		}
		if f != nil {
			pg.Figures = append(pg.Figures, *f)
		}
		return nil
	}
	if err := add(lineFigure(axes{title: "FCT by flow-size bucket", x: "bucket", y: "FCT (µs)", nominal: names, yZero: true},
		[]series{p50, p99})); err != nil {
		return err
	}
	if rows, err := readCSV(filepath.Join(dir, "flows.csv")); err == nil {
		s := series{name: "flows"}
		step := max(1, len(rows)/MaxScatter)
		for i := 0; i < len(rows); i += step {
			if len(rows[i]) < 7 || rows[i][5] != "true" {
				continue
			}
			size, _ := strconv.ParseFloat(rows[i][3], 64)
			fct, _ := strconv.ParseFloat(rows[i][6], 64)
			s.xy = append(s.xy, plotter.XY{X: size, Y: fct})
		}
		if err := add(scatterFigure(axes{title: "FCT against flow size (completed flows)", x: "flow size (bytes, log)", y: "FCT (µs)", logX: true}, s)); err != nil {
			return err
		}
	}
	if rows, err := readCSV(filepath.Join(dir, "timeseries.csv")); err == nil {
		col := func(c int, name string) series {
			s := series{name: name}
			for _, r := range rows {
				t, _ := strconv.ParseFloat(r[0], 64)
				v, _ := strconv.ParseFloat(r[c], 64)
				s.xy = append(s.xy, plotter.XY{X: t / 1000, Y: v})
			}
			return s
		}
		if err := add(lineFigure(axes{title: "Utilisation over time", x: "time (ms)", y: "fraction of capacity", yZero: true},
			[]series{col(1, "host downlinks"), col(2, "circuit uplinks")})); err != nil {
			return err
		}
		if err := add(lineFigure(axes{title: "Buffer occupancy over time", x: "time (ms)", y: "mean bytes", yZero: true},
			[]series{col(3, "ToR buffer"), col(4, "VOQ")})); err != nil {
			return err
		}
	}
	if rows, err := readCSV(filepath.Join(dir, "buffer_cdf.csv")); err == nil {
		var ss []series
		for _, what := range []string{"tor_buffer", "voq"} {
			s := series{name: what}
			for _, r := range rows {
				if r[0] == what {
					x, _ := strconv.ParseFloat(r[1], 64)
					y, _ := strconv.ParseFloat(r[2], 64)
					s.xy = append(s.xy, plotter.XY{X: x, Y: y})
				}
			}
			ss = append(ss, s)
		}
		if err := add(lineFigure(axes{title: "Buffer occupancy CDF", x: "bytes (log)", y: "CDF", logX: true}, ss)); err != nil {
			return err
		}
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 5, 64) }
	pg.Extra = append(pg.Extra, tableData{Header: []string{"Drops and delivery"}, Rows: [][]string{
		{"packets injected", strconv.FormatInt(sum.Packets.Injected, 10)},
		{"packets delivered", strconv.FormatInt(sum.Packets.Delivered, 10)},
		{"packets dropped", strconv.FormatInt(sum.Packets.Dropped, 10)},
		{"drop rate", f(float64(sum.DropRate))},
		{"data bytes dropped", strconv.FormatInt(sum.Bytes.DataDropped, 10)},
		{"flows completed / started", fmt.Sprintf("%d / %d", sum.Flows.Completed, sum.Flows.Started)},
		{"host utilisation", f(float64(sum.HostUtilization))},
		{"circuit utilisation", f(float64(sum.CircuitUtilization))},
		{"simulated time", sum.SimTime},
	}})
	fct := tableData{Header: []string{"FCT by bucket (µs)"}, Rows: [][]string{{"bucket", "flows completed", "unfinished", "p50", "p99", "p99.9", "slowdown p99"}},
		Note: "Percentiles over the measured flows that completed; unfinished: measured flows not complete at the run's end, in no percentile."}
	for _, bk := range sum.FCT {
		fct.Rows = append(fct.Rows, []string{bk.Bucket, strconv.Itoa(bk.FCTus.Count), strconv.Itoa(bk.Unfinished), f(float64(bk.FCTus.P50)),
			f(float64(bk.FCTus.P99)), f(float64(bk.FCTus.P999)), f(float64(bk.Slowdown.P99))})
	}
	pg.Extra = append(pg.Extra, fct)
	return pageTemplate.Execute(w, pg)
}
