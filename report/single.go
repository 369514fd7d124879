package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
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

// censoredCDF is the FCT CDF of the measured flows of flows.csv (columns
// bytes, done, fct_us, start_us; those started in the summary's window):
// ranks of the completed ones over all of them, so the unfinished ones,
// censored at the run's end, keep it below 1; the legend counts them.
func censoredCDF(flows *table, sum *fabric.Summary) (*Figure, error) {
	m := sum.Measured
	var fcts []float64
	measured := 0
	for i, r := range flows.rows {
		start, err := flows.number(i, 3, "start_us")
		if err != nil {
			return nil, err
		}
		if start < float64(m.FromUs) || start >= float64(m.ToUs) {
			continue
		}
		measured++
		if r[1] == "true" {
			fct, err := flows.number(i, 2, "fct_us")
			if err != nil {
				return nil, err
			}
			fcts = append(fcts, fct)
		}
	}
	slices.Sort(fcts)
	s := series{name: censoredName("measured flows", measured-len(fcts), measured), censored: len(fcts) < measured, censorAt: longestFCT(sum)}
	for i, x := range fcts {
		s.xy = append(s.xy, plotter.XY{X: x, Y: float64(i+1) / float64(measured)})
	}
	f, err := lineFigure(axes{title: "FCT CDF", x: "FCT (µs, log)", y: "CDF", logX: true}, []series{s})
	if f != nil {
		f.Note = "Over the flows started in the measurement window; those unfinished at the run's end are censored there (their FCT exceeds any drawn), so the curve stops at completed/measured and a dotted line carries it to the longest FCT the run could show."
	}
	return f, err
}

// Run writes the HTML report of one rdcn simulate output directory:
// FCT against flow size and by size bucket, utilisation and buffer
// occupancy over time, the occupancy CDF, drops and the configuration.
func Run(w io.Writer, dir string, info Info) (err error) {
	defer func() { // a plotting library's panic on odd data is one error
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: cannot plot its data: %v", dir, r)
		}
	}()
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
	added := false
	add := func(f *Figure, err error) error {
		if err != nil {
			return err
		}
		if added = f != nil; added {
			pg.Figures = append(pg.Figures, *f)
		}
		return nil
	}
	note := func(text string) { // what the figure just added draws
		if added {
			pg.Figures[len(pg.Figures)-1].Note = text
		}
	}
	circuits := summaryValue(sum, "topology.kind") != fabric.TopologyLeafSpine
	if err := add(barFigure(axes{title: "FCT by flow-size bucket", x: "flow-size bucket (run.fct_buckets)", y: "FCT (µs)", nominal: names, yZero: true},
		[]series{p50, p99})); err != nil {
		return err
	}
	note("Percentiles over each bucket's measured flows that completed; a bucket in which none completed has no bar (the table below counts the unfinished).")
	flows, err := readColumns(filepath.Join(dir, "flows.csv"), "bytes", "done", "fct_us", "start_us")
	if err != nil {
		return err
	}
	if flows != nil {
		s := series{name: "flows"}
		step := max(1, len(flows.rows)/MaxScatter)
		drawn := 0
		for i, r := range flows.rows {
			if r[1] != "true" && r[1] != "false" {
				return &DamagedError{flows.path, i + 2, fmt.Sprintf("done %q is neither true nor false", r[1])}
			}
			if i%step == 0 {
				drawn++
			}
			if r[1] != "true" {
				continue
			}
			size, err := flows.number(i, 0, "bytes")
			if err != nil {
				return err
			}
			fct, err := flows.number(i, 2, "fct_us")
			if err != nil {
				return err
			}
			if i%step == 0 {
				s.xy = append(s.xy, plotter.XY{X: size, Y: fct})
			}
		}
		if err := add(scatterFigure(axes{title: "FCT against flow size (completed flows)", x: "flow size (bytes, log)", y: "FCT (µs)", logX: true}, s)); err != nil {
			return err
		}
		note(fmt.Sprintf("One dot per completed flow among every %d-th of flows.csv's %d flows (%d looked at); unfinished flows have no FCT and no dot.", step, len(flows.rows), drawn))
		f, err := censoredCDF(flows, sum)
		if err := add(f, err); err != nil {
			return err
		}
	}
	tsCols := []string{"time_us", "host_utilization", "circuit_utilization", "buffer_mean_bytes", "voq_mean_bytes"}
	ts, err := readColumns(filepath.Join(dir, "timeseries.csv"), tsCols...)
	if err != nil {
		return err
	}
	if ts != nil {
		names := []string{"time_us", "host downlinks", "circuit uplinks", "ToR buffer", "VOQ"}
		cols := make([]series, len(names))
		for i := range ts.rows {
			t, err := ts.number(i, 0, "time_us")
			if err != nil {
				return err
			}
			for c := 1; c < len(names); c++ {
				v, err := ts.number(i, c, tsCols[c])
				if err != nil {
					return err
				}
				cols[c].xy = append(cols[c].xy, plotter.XY{X: t / 1000, Y: v})
			}
		}
		for c := 1; c < len(names); c++ {
			cols[c].name = names[c]
		}
		util := []series{cols[1]}
		if circuits {
			util = append(util, cols[2])
		}
		if err := add(lineFigure(axes{title: "Utilisation over time", x: "time (ms)", y: "utilisation (fraction of capacity)", yZero: true}, util)); err != nil {
			return err
		}
		note("Each point: the bytes the links carried in one run.series_interval bin over what they could carry in it, all links of the kind together.")
		if err := add(lineFigure(axes{title: "Buffer occupancy over time", x: "time (ms)", y: "occupancy (bytes, mean over ToRs)", yZero: true},
			[]series{cols[3], cols[4]})); err != nil {
			return err
		}
		note("Each point: the occupancy sampled in one run.series_interval bin, averaged over the samples and the ToRs.")
	}
	bc, err := readColumns(filepath.Join(dir, "buffer_cdf.csv"), "what", "bytes", "cdf")
	if err != nil {
		return err
	}
	if bc != nil {
		var ss []series
		for _, what := range [][2]string{{"tor_buffer", "ToR shared buffer"}, {"voq", "VOQ"}} {
			s := series{name: what[1]}
			for i, r := range bc.rows {
				if r[0] != what[0] {
					continue
				}
				x, err := bc.number(i, 1, "bytes")
				if err != nil {
					return err
				}
				y, err := bc.number(i, 2, "cdf")
				if err != nil {
					return err
				}
				s.xy = append(s.xy, plotter.XY{X: x, Y: y})
			}
			ss = append(ss, s)
		}
		if err := add(lineFigure(axes{title: "Buffer occupancy CDF", x: "occupancy (bytes, log)", y: "CDF (fraction of samples)", logX: true}, ss)); err != nil {
			return err
		}
		note("Over the occupancy samples (Poisson times, run.sample_interval apart on average) of every ToR's shared buffer and every VOQ.")
	}
	var none missing
	f := func(x float64) string {
		if math.IsNaN(x) {
			return NoValue
		}
		return strconv.FormatFloat(x, 'g', 5, 64)
	}
	pg.Extra = append(pg.Extra, tableData{Header: []string{"Drops and delivery"}, Rows: [][]string{
		{"packets injected", strconv.FormatInt(sum.Packets.Injected, 10)},
		{"packets delivered", strconv.FormatInt(sum.Packets.Delivered, 10)},
		{"packets dropped", strconv.FormatInt(sum.Packets.Dropped, 10)},
		{"drop rate", f(float64(sum.DropRate))},
		{"data bytes dropped", strconv.FormatInt(sum.Bytes.DataDropped, 10)},
		{"flows completed / started", fmt.Sprintf("%d / %d", sum.Flows.Completed, sum.Flows.Started)},
		{"host utilisation", f(float64(sum.HostUtilization))},
		{"simulated time", sum.SimTime},
	}})
	if circuits {
		drops := &pg.Extra[len(pg.Extra)-1]
		drops.Rows = slices.Insert(drops.Rows, len(drops.Rows)-1, []string{"circuit utilisation", f(float64(sum.CircuitUtilization))})
	}
	fct := tableData{Header: []string{"FCT by bucket (µs)"}, Rows: [][]string{{"bucket", "flows completed", "unfinished", "p50", "p99", "p99.9", "slowdown p99"}},
		Note: "Percentiles over the measured flows that completed; unfinished: measured flows not complete at the run's end, in no percentile."}
	for _, bk := range sum.FCT {
		g := func(m string, x float64) string { return none.value(m+"."+bk.Bucket, x, true, f) }
		fct.Rows = append(fct.Rows, []string{bk.Bucket, strconv.Itoa(bk.FCTus.Count), strconv.Itoa(bk.Unfinished), g("fct_p50_us", float64(bk.FCTus.P50)),
			g("fct_p99_us", float64(bk.FCTus.P99)), g("fct_p999_us", float64(bk.FCTus.P999)), g("slowdown_p99", float64(bk.Slowdown.P99))})
	}
	if n := none.note(len(sum.FCT)); n != "" {
		fct.Note += " " + n
	}
	pg.Extra = append(pg.Extra, fct)
	return pageTemplate.Execute(w, pg)
}

// summaryValue is key's value in a summary's configuration echo ("" if
// absent).
func summaryValue(s *fabric.Summary, key string) string {
	for _, kv := range s.Config {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}
