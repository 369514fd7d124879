package app

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/internal/cputime"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/sweep"
	"github.com/rdcn/rdcn/workload"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "emulate a rotor fabric packet by packet and report FCTs, utilisation, buffers",
		UsageText: "rdcn simulate [--config run.toml] [--set key=value …] [-o DIR] [--plot] [--check]\n\n" +
			"example: rdcn simulate --set topology.tors=16 --set routing.mode=vlb --set run.sim_time=20ms -o out --plot",
		Description: "Builds the schedule (schedule.kind or schedule.file), the workload (workload.* or\n" +
			"workload.flows_file) and the fabric, runs until run.sim_time and writes into DIR:\n" +
			"summary.json (simulated results only; identical for identical inputs), perf.json\n" +
			"(wall/CPU time, events/s, memory), flows.csv, timeseries.csv, buffer_cdf.csv,\n" +
			"workload.flows (the flows, in the src dst bytes start_ns format), schedule.json\n" +
			"(the schedule that ran) and, with --plot, fct_cdf.png and utilization.png.\n" +
			"Every key and its default is listed by\n" +
			"'rdcn simulate --keys' and in docs/simulate.md. Unset routing.mode and transport.kind\n" +
			"take the schedule's designed ones; flows arrive for workload.duration (80 % of\n" +
			"run.sim_time), then the fabric drains. Ctrl-C stops any phase within a moment and\n" +
			"exits with status 130; a run stopped while simulating writes what it has, marked\n" +
			"\"complete\": false.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "TOML run configuration"},
			&cli.StringSliceFlag{Name: "set", Usage: "override a key: --set section.key=value (repeatable)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "rdcn-simulate", Usage: "output directory"},
			&cli.BoolFlag{Name: "plot", Usage: "also write fct_cdf.png and utilization.png"},
			&cli.BoolFlag{Name: "check", Usage: "verify the invariants during the run (same as --set run.check=true)"},
			&cli.BoolFlag{Name: "keys", Usage: "list every configuration key with its default and exit"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no summary table on stdout"},
			&cli.BoolFlag{Name: "force", Usage: "run even when the memory estimate exceeds the memory available"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("keys") {
				for _, k := range scenario.Keys() {
					fmt.Fprintf(c.App.Writer, "%-30s %-12q %s\n", k.Name, k.Default, strings.ReplaceAll(k.Doc, "`", ""))
				}
				for _, r := range scenario.Registries() {
					fmt.Fprintf(c.App.Writer, "\n%s:\n", r.Key)
					for _, e := range r.Entries {
						fmt.Fprintf(c.App.Writer, "  %-10s %s%s\n", e.Name, e.Doc, readsNote(scenario.Params(e)))
						if r.Key == "transport.cc" {
							if law, ok := cc.Lookup(e.Name); ok && len(law.Params) > 0 {
								fmt.Fprintf(c.App.Writer, "  %-10s transport.cc_params: %s\n", "", lawParamsNote(law))
							}
						}
					}
				}
				fmt.Fprintf(c.App.Writer, "\nschedule.kind:\n")
				for _, k := range schedules.Kinds() {
					fmt.Fprintf(c.App.Writer, "  %-10s %s%s\n", k, schedules.Usage(k), kindNote(k))
				}
				return nil
			}
			if c.NArg() > 0 {
				return badInput("arguments", "unexpected %q (settings go in --set key=value or --config)", c.Args().First())
			}
			dir, err := followLink(c.String("output"))
			if err != nil {
				return err
			}
			if err := checkOutputDir(dir); err != nil {
				return err
			}
			sets := c.StringSlice("set")
			if c.Bool("check") {
				sets = append(sets, "run.check=true")
			}
			spec, err := loadSpec(c.String("config"), sets)
			if err != nil {
				return err
			}
			ctx, stop := signalContext(c.Context)
			defer stop()
			out, err := simulate(ctx, spec, c.App.ErrWriter, c.Bool("force"))
			if err != nil {
				return err
			}
			if err := out.write(dir, c.Bool("plot")); err != nil {
				return err
			}
			if !c.Bool("quiet") {
				fmt.Fprintln(c.App.Writer, scaleLine(out.summary))
				if out.setup.Schedule != nil { // leafspine has none
					printSchedule(c.App.Writer, out.setup.Schedule)
				}
				printSummary(c.App.Writer, out.summary)
				// Standard output stays byte-identical for the same inputs;
				// the wall time goes to stderr (and perf.json).
				fmt.Fprintf(c.App.Writer, "events %d; wrote %s\n", out.result.Events, c.String("output"))
				fmt.Fprintf(c.App.ErrWriter, "rdcn simulate: %.2f s wall, %.3g events/s (perf.json)\n",
					out.perf.WallSeconds, out.perf.EventsPerSecond)
				if e := scheduleEntries(out.setup.Schedule); e > maxScheduleEntries {
					fmt.Fprintf(c.App.Writer, "schedule.json left out: %d matching entries, more than %d\n", e, maxScheduleEntries)
				}
			}
			if warn := completionWarning(out.summary); warn != "" {
				fmt.Fprintln(c.App.ErrWriter, "rdcn simulate: "+warn)
			}
			if !out.summary.Complete {
				return &interruptedError{fmt.Sprintf("at %s simulated; %s holds the partial results (\"complete\": false)", out.summary.SimTime, c.String("output"))}
			}
			return nil
		},
	}
}

// readsNote is " (reads k1 = "default", …)" for an entry's own keys, else "".
// lawParamsNote lists a law's parameters with their defaults.
func lawParamsNote(law cc.Spec) string {
	parts := make([]string, len(law.Params))
	for i, p := range law.Params {
		def := p.Default
		if p.Env != nil {
			def = cmp.Or(p.EnvDoc, "base RTT")
		}
		parts[i] = fmt.Sprintf("%s = %q", p.Key, def)
	}
	return strings.Join(parts, ", ")
}

// kindNote is a schedule kind's default timing and the schedules.Params
// fields it reads beyond those every kind reads.
func kindNote(kind string) string {
	g, _ := schedules.Lookup(kind)
	note := fmt.Sprintf(" (default slot %v, reconf %v", g.Slot, g.Reconf)
	if len(g.Reads) > 0 {
		note += "; reads " + strings.Join(g.Reads, ", ")
	}
	return note + ")"
}

func readsNote(keys []scenario.Key) string {
	if len(keys) == 0 {
		return ""
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s = %q", k.Name, k.Default)
	}
	return " (reads " + strings.Join(parts, ", ") + ")"
}

func loadSpec(config string, sets []string) (*scenario.Spec, error) {
	spec := scenario.NewSpec()
	if config != "" {
		text, err := limits.ReadFile(config, limits.MaxTextBytes)
		if err != nil {
			return nil, badInput("config", "%v", err)
		}
		if err := spec.LoadTOML(bytes.NewReader(text)); err != nil {
			return nil, asInput("config "+config, err)
		}
	}
	for _, kv := range sets {
		if err := spec.SetArg(kv); err != nil {
			return nil, asInput("set", err)
		}
	}
	return spec, nil
}

// perfReport is perf.json: how long the run took on this machine.
type perfReport struct {
	WallSeconds     float64                `json:"wall_seconds"`
	CPUSeconds      float64                `json:"cpu_seconds"`
	Events          uint64                 `json:"events"`
	EventsPerSecond float64                `json:"events_per_second"`
	PeakRSSBytes    int64                  `json:"peak_rss_bytes"`
	Memory          []fabric.MemorySample  `json:"memory"`
	SimulatedMs     float64                `json:"simulated_ms"`
	CPUSecondsPerMs float64                `json:"cpu_seconds_per_simulated_ms"`
	PathCache       *fabric.PathCacheStats `json:"path_cache,omitempty"`
}

type simOutput struct {
	setup   *scenario.Setup
	result  *fabric.Result
	summary *fabric.Summary
	perf    perfReport
}

// minCompleted is the fraction of the measured flows below which simulate
// warns that the FCT percentiles describe only the flows that finished.
const minCompleted = 0.95

// completionWarning is one line when fewer than minCompleted of the
// measured flows completed, else "".
func completionWarning(s *fabric.Summary) string {
	m := s.Measured
	if f := m.CompletedFraction(); m.Started == 0 || f >= minCompleted {
		return ""
	}
	line := fmt.Sprintf("only %d of %d measured flows (%.1f %%) completed by run.sim_time %s; %d unfinished are in no FCT percentile (delivered %.1f %% of the offered bytes)",
		m.Completed, m.Started, 100*m.CompletedFraction(), s.SimTime, m.Unfinished, 100*float64(m.DeliveredFraction))
	if d := s.Unfinished; d != nil {
		line += fmt.Sprintf("; cause: %s (%d too late to finish alone, %d on busy ports, %d waiting for circuits, %d transport-limited): %s",
			d.Cause, d.TooLate, d.Busy, d.Circuits, d.Transport, d.Advice)
	}
	return line
}

// simulate builds and runs spec; unless force, a run whose memory
// estimate exceeds what is available is refused before it starts.
func simulate(ctx context.Context, spec *scenario.Spec, stderr io.Writer, force bool) (*simOutput, error) {
	if err := checkSpecMemory(spec, force); err != nil {
		return nil, err
	}
	setup, err := spec.BuildContext(ctx)
	if ctx.Err() != nil {
		return nil, &interruptedError{"while building the schedule and workload; nothing written"}
	}
	if err != nil {
		return nil, asInput("config", err)
	}
	if err := checkSimulateMemory(setup, force); err != nil {
		return nil, err
	}
	cfg := setup.Config
	cfg.Context = ctx
	for _, ms := range []rotor.Time{10, 50, 100, 200, 400, 1000} {
		if at := ms * rotor.Millisecond; at <= cfg.SimTime {
			cfg.MemoryAt = append(cfg.MemoryAt, at)
		}
	}
	if at := cfg.SimTime; len(cfg.MemoryAt) == 0 || cfg.MemoryAt[len(cfg.MemoryAt)-1] != at {
		cfg.MemoryAt = append(cfg.MemoryAt, at)
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions64(int64(cfg.SimTime/rotor.Microsecond),
			progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("simulating"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
		start := time.Now()
		cfg.ProgressEvery = 1 << 18
		cfg.Progress = func(now rotor.Time, events uint64) {
			bar.Describe(fmt.Sprintf("%v simulated, %.3g events/s", now, float64(events)/time.Since(start).Seconds()))
			bar.Set64(int64(now / rotor.Microsecond))
		}
		defer bar.Finish()
	}
	cpu0, _ := cpuAndRSS()
	t0 := time.Now()
	res, err := fabric.Run(cfg)
	if err != nil && ctx.Err() != nil {
		return nil, &interruptedError{"while setting up the run; nothing written"}
	}
	if err != nil {
		var ce *fabric.ConfigError
		if asConfigErr(err, &ce) {
			return nil, badInput(ce.Field, "%s", ce.Problem)
		}
		return nil, err
	}
	wall := time.Since(t0).Seconds()
	cpu1, rss := cpuAndRSS()
	sum, err := res.Summarize(setup.Buckets, spec.Values())
	if err != nil {
		return nil, err
	}
	p := perfReport{WallSeconds: wall, CPUSeconds: cpu1 - cpu0, Events: res.Events, PeakRSSBytes: rss,
		Memory: res.Memory, SimulatedMs: float64(res.SimTime) / float64(rotor.Millisecond), PathCache: res.PathCache}
	if wall > 0 {
		p.EventsPerSecond = float64(res.Events) / wall
	}
	if p.SimulatedMs > 0 {
		p.CPUSecondsPerMs = p.CPUSeconds / p.SimulatedMs
	}
	return &simOutput{setup: setup, result: res, summary: sum, perf: p}, nil
}

func asConfigErr(err error, target **fabric.ConfigError) bool {
	ce, ok := err.(*fabric.ConfigError)
	if ok {
		*target = ce
	}
	return ok
}

// maxScheduleEntries caps schedule.json: the schedule that ran is written
// unless it has more matching entries (switches × period × n) than this,
// about 100 MB of JSON (RotorNet beyond ~4 000 ToRs).
const maxScheduleEntries = 1 << 24

func scheduleEntries(s *rotor.Schedule) int64 {
	if s == nil {
		return 0
	}
	return int64(s.Switches) * int64(s.Period) * int64(s.Nodes)
}

// simOutputNames are the files simulate may write into its directory.
var simOutputNames = []string{"summary.json", "perf.json", "flows.csv", "timeseries.csv", "buffer_cdf.csv",
	"workload.flows", "schedule.json", "fct_cdf.png", "utilization.png", "pair_series.csv", "pair.png"}

// followLink is where a symlink dir points (the run replaces that
// directory and keeps the link, as the other commands' -o does); any
// other path as it is. A dangling link is refused.
func followLink(dir string) (string, error) {
	if fi, err := os.Lstat(dir); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return dir, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", badInput("output", "%q is a symlink to nothing: %v", dir, err)
	}
	return real, nil
}

// reportFile is the report `rdcn report DIR` writes into a simulate
// output directory: rdcn's too, so a rerun replaces it with the rest.
const reportFile = "report.html"

// checkOutputDir refuses, before the run, an output directory the results
// could not be written to: an empty name, a path that is a file, a
// directory that takes no new files, or one where an output name is taken
// by a directory. (write renames the files in one by one; these checks
// keep that from failing halfway.)
func checkOutputDir(dir string) error {
	if dir == "" {
		return badInput("output", "empty directory name")
	}
	fi, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		// Nothing is created before the run: the nearest existing ancestor
		// must be a directory that takes new entries (write makes the rest).
		anc := filepath.Dir(filepath.Clean(dir))
		for {
			fi, err := os.Stat(anc)
			if err == nil {
				if !fi.IsDir() {
					return badInput("output", "%q is not a directory", anc)
				}
				return probeWritable(anc)
			}
			if !os.IsNotExist(err) {
				return badInput("output", "%v", err)
			}
			up := filepath.Dir(anc)
			if up == anc {
				return badInput("output", "no existing directory above %q", dir)
			}
			anc = up
		}
	case err != nil:
		return badInput("output", "%v", err)
	case !fi.IsDir():
		return badInput("output", "%q exists and is not a directory", dir)
	}
	if err := onlySimOutputs(dir); err != nil {
		return err
	}
	return probeWritable(filepath.Dir(filepath.Clean(dir)))
}

// onlySimOutputs refuses a directory holding anything but files simulate
// (or report) writes: the run replaces the whole directory, and must not
// delete what rdcn did not write.
func onlySimOutputs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return badInput("output", "%v", err)
	}
	for _, e := range entries {
		if slices.Contains(simOutputNames, e.Name()) && e.IsDir() {
			return badInput("output", "%q is a directory; simulate writes a file there", filepath.Join(dir, e.Name()))
		}
		if !slices.Contains(simOutputNames, e.Name()) && (e.Name() != reportFile || e.IsDir()) {
			return badInput("output", "%q holds %q, which rdcn did not write; the run replaces the directory, so choose a new or empty one", dir, e.Name())
		}
	}
	return nil
}

// probeWritable checks that a file can be created in dir (and removes it).
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".rdcn-probe*")
	if err != nil {
		return outputFailure(err, "cannot write in %q: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// write puts this run's files, and only them, into dir: all are written
// into a temporary sibling directory, which replaces dir (an earlier run's
// output, see onlySimOutputs) only when all of them succeeded.
func (o *simOutput) write(dir string, withPlots bool) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return outputFailure(err, "%v", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return outputFailure(err, "cannot create a directory next to %q: %v", dir, err)
	}
	defer os.RemoveAll(tmp)
	files := map[string]func(io.Writer) error{
		"summary.json": func(w io.Writer) error { return writeJSON(w, o.summary) },
		"perf.json":    func(w io.Writer) error { return writeJSON(w, o.perf) },
		"flows.csv": func(w io.Writer) error {
			h, rows := o.result.FlowsCSV()
			return stats.WriteCSV(w, h, rows)
		},
		"timeseries.csv": func(w io.Writer) error { return o.writeSeries(w) },
		"buffer_cdf.csv": func(w io.Writer) error { return o.writeBufferCDF(w) },
		"workload.flows": func(w io.Writer) error { return workload.WriteFlows(w, o.setup.Flows) },
	}
	if sc := o.setup.Schedule; sc != nil && scheduleEntries(sc) <= maxScheduleEntries {
		files["schedule.json"] = func(w io.Writer) error { return rotor.WriteJSON(w, sc) }
	}
	if withPlots {
		files["fct_cdf.png"] = o.plotFCT
		files["utilization.png"] = o.plotUtilization
	}
	if w := o.result.Watch; w != nil {
		files["pair_series.csv"] = func(out io.Writer) error { return writePairSeries(out, w, o.result.SeriesInterval) }
		if withPlots {
			files["pair.png"] = func(out io.Writer) error {
				return writePNG(plotPair(w, o.result.SeriesInterval, fmt.Sprintf("ToR %d → ToR %d", w.Src, w.Dst)), out)
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := os.Create(filepath.Join(tmp, n))
		if err != nil {
			return err
		}
		if err := files[n](f); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", n, err)
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return os.Rename(tmp, dir)
	}
	if err := onlySimOutputs(dir); err != nil { // checked before the run; again now
		return err
	}
	old, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".old*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(old)
	prev := filepath.Join(old, "prev")
	if err := os.Rename(dir, prev); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(prev, dir) // put the earlier run back
		return err
	}
	return nil
}

func (o *simOutput) writeSeries(w io.Writer) error {
	h, rows := o.result.SeriesCSV()
	return stats.WriteCSV(w, h, rows)
}

func (o *simOutput) writeBufferCDF(w io.Writer) error {
	h, rows := o.result.BufferCDFCSV()
	return stats.WriteCSV(w, h, rows)
}

func (o *simOutput) plotFCT(w io.Writer) error {
	p := plot.New()
	p.X.Label.Text = "FCT (µs, log scale)"
	p.Y.Label.Text = "CDF"
	// Over the measured flows; the unfinished ones are censored at the
	// run's end, so the CDF stops at completed/measured.
	fcts, measured := sweep.CensoredFCTs(o.result)
	p.Title.Text = fmt.Sprintf("Flow completion time (%d of %d measured flows unfinished, censored)", measured-len(fcts), measured)
	var pts plotter.XYs
	for i, v := range fcts {
		if v > 0 {
			pts = append(pts, plotter.XY{X: v, Y: float64(i+1) / float64(measured)})
		}
	}
	if len(pts) == 0 { // a log axis needs a positive range: an empty linear one instead
		p.Title.Text += " (no flow completed)"
		return writePNG(p, w)
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	p.Add(l, plotter.NewGrid())
	return writePNG(p, w)
}

func (o *simOutput) plotUtilization(w io.Writer) error {
	r := o.result
	p := plot.New()
	p.Title.Text = "Utilisation"
	p.X.Label.Text = "time (ms)"
	p.Y.Label.Text = "fraction of capacity"
	series := func(y []float64) plotter.XYs {
		pts := make(plotter.XYs, len(y))
		for i, v := range y {
			pts[i] = plotter.XY{X: (float64(i) + 0.5) * float64(r.SeriesInterval) / float64(rotor.Millisecond), Y: v}
		}
		return pts
	}
	if len(r.HostSeries) > 0 {
		h, err := plotter.NewLine(series(r.HostSeries))
		if err != nil {
			return err
		}
		c, err := plotter.NewLine(series(r.CircuitSeries))
		if err != nil {
			return err
		}
		c.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(h, c, plotter.NewGrid())
		p.Legend.Add("host downlinks", h)
		p.Legend.Add("circuit uplinks", c)
		p.Legend.Top = true
	}
	p.Y.Min = 0
	return writePNG(p, w)
}

func writePNG(p *plot.Plot, w io.Writer) error {
	wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "png")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

func fmtNum(n fabric.Num) string {
	f := float64(n)
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.4g", f)
}

// printSchedule is one line on the schedule that ran (schedule.json has
// it whole).
func printSchedule(w io.Writer, s *rotor.Schedule) {
	fmt.Fprintf(w, "schedule %s: %d ToRs, %d switches, period %d slots of %s (reconf %v), duty cycle %.4g",
		s.Kind, s.Nodes, s.Switches, s.Period, slotText(s), s.Reconf, s.DutyCycle())
	if d, ok := s.Meta["degree"]; ok {
		fmt.Fprintf(w, ", degree %v", d)
	}
	fmt.Fprintln(w)
}

func printSummary(w io.Writer, s *fabric.Summary) {
	m := s.Measured
	if s.Complete {
		fmt.Fprintf(w, "simulated %s: %d flows started, %d completed, %d unfinished\n", s.SimTime, s.Flows.Started, s.Flows.Completed, s.Flows.Unfinished)
	} else {
		fmt.Fprintf(w, "INTERRUPTED after %s simulated: %d flows started, %d completed, %d unfinished\n", s.SimTime, s.Flows.Started, s.Flows.Completed, s.Flows.Unfinished)
	}
	fmt.Fprintf(w, "measured flows (start in [%sus, %sus)): %d started, %d completed, %d unfinished; offered load %s, delivered %s (%s of the offered bytes)\n",
		fmtNum(m.FromUs), fmtNum(m.ToUs), m.Started, m.Completed, m.Unfinished, fmtNum(m.OfferedLoad), fmtNum(m.DeliveredLoad), fmtNum(m.DeliveredFraction))
	width := len("bucket")
	for _, b := range s.FCT {
		width = max(width, len(b.Bucket))
	}
	fmt.Fprintf(w, "%-*s %7s %10s %12s %12s %12s %10s %10s\n", width, "bucket", "done", "unfinished", "fct_p50_us", "fct_p99_us", "fct_p999_us", "slow_p50", "slow_p99")
	for _, b := range s.FCT {
		fmt.Fprintf(w, "%-*s %7d %10d %12s %12s %12s %10s %10s\n", width, b.Bucket, b.FCTus.Count, b.Unfinished, fmtNum(b.FCTus.P50),
			fmtNum(b.FCTus.P99), fmtNum(b.FCTus.P999), fmtNum(b.Slowdown.P50), fmtNum(b.Slowdown.P99))
	}
	if q := s.Queries; q != nil { // a query has no slowdown
		fmt.Fprintf(w, "%-*s %7d %10d %12s %12s %12s %10s %10s   (%d of %d queries completed)\n", width, "qct", q.QCTus.Count, q.Started-q.Completed,
			fmtNum(q.QCTus.P50), fmtNum(q.QCTus.P99), fmtNum(q.QCTus.P999), "-", "-", q.Completed, q.Started)
	}
	fmt.Fprintf(w, "slowdown definition (run.slowdown): %s\n", s.SlowdownDefinition)
	circuits := configValue(s, "topology.kind") != fabric.TopologyLeafSpine
	if circuits {
		fmt.Fprintf(w, "host utilisation %s, circuit utilisation %s, drops %d of %d packets\n",
			fmtNum(s.HostUtilization), fmtNum(s.CircuitUtilization), s.Packets.Dropped, s.Packets.Injected)
	} else {
		fmt.Fprintf(w, "host utilisation %s, drops %d of %d packets\n", fmtNum(s.HostUtilization), s.Packets.Dropped, s.Packets.Injected)
	}
	if p := s.PFC; p != nil {
		fmt.Fprintf(w, "PFC: %d pause and %d resume frames, %s us paused in all, %d lossless packets dropped\n",
			p.PauseFrames, p.ResumeFrames, fmtNum(p.PausedUs), p.LosslessDropped)
	}
	for _, e := range s.ECN {
		if e.KBytes > 0 {
			fmt.Fprintf(w, "ECN marking at %s ports: K = %d B\n", e.Rate, e.KBytes)
		} else {
			fmt.Fprintf(w, "ECN marking at %s ports: RED from %d B to %d B, max_p %v\n", e.Rate, e.MinBytes, e.MaxBytes, e.MaxP)
		}
	}
	if circuits {
		fmt.Fprintln(w, hopsLine(s.Hops))
	}
	if d := s.DemandCircuit; circuits && len(d.Pairs) > 0 {
		fmt.Fprintf(w, "circuit utilisation on days with demand %s (%d ToR pairs)\n", fmtNum(d.Utilization), len(d.Pairs))
	}
	if q := s.QueueingLatencyUs; q.Packets > 0 {
		fmt.Fprintf(w, "queueing latency (µs) of %d data packets: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s\n",
			q.Packets, fmtNum(q.P50), fmtNum(q.P90), fmtNum(q.P99), fmtNum(q.P999), fmtNum(q.Max))
	}
}

// configValue is key's value in the summary's configuration echo ("" if
// absent).
func configValue(s *fabric.Summary, key string) string {
	for _, kv := range s.Config {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

// scaleLine is the console's first line: the run's scale (hosts, how
// they are connected, the workload and how long it runs), from the
// summary's configuration echo.
func scaleLine(s *fabric.Summary) string {
	v := func(key string) string { return configValue(s, key) }
	var b strings.Builder
	b.WriteString("scale: ")
	hpt, _ := strconv.Atoi(v("topology.hosts_per_tor"))
	if v("topology.kind") == fabric.TopologyLeafSpine {
		leaves, _ := strconv.Atoi(v("topology.leaves"))
		fmt.Fprintf(&b, "leaf-spine of %d leaves × %d hosts (%d hosts at %s), %s spines (%s leaf–spine links per pair at %s)",
			leaves, hpt, leaves*hpt, v("topology.host_link"), v("topology.spines"), v("topology.links_per_pair"), v("topology.fabric_link"))
	} else {
		tors, _ := strconv.Atoi(v("topology.tors"))
		fmt.Fprintf(&b, "%d ToRs × %d hosts (%d hosts at %s), %s uplinks of %s",
			tors, hpt, tors*hpt, v("topology.host_link"), v("topology.uplinks"), v("topology.circuit_link"))
	}
	arrivals := (rotor.Time(float64(s.Measured.ToUs)) * rotor.Microsecond).String()
	if f := v("workload.flows_file"); f != "" {
		fmt.Fprintf(&b, "; flows from %s", f)
	} else {
		fmt.Fprintf(&b, "; %s flows at load %s", v("workload.sizes"), v("workload.load"))
		if v("workload.incast_senders") != "0" {
			fmt.Fprintf(&b, " plus incast (%s senders × %s, %s queries per second per host)", v("workload.incast_senders"), v("workload.incast_bytes"), v("workload.incast_rate"))
		}
	}
	fmt.Fprintf(&b, " starting in the first %s of %s simulated", arrivals, s.SimTime)
	return b.String()
}

// hopsLine labels summary.json's hops histogram: data packets delivered
// after h circuit hops, as "h:count" pairs.
func hopsLine(hops []int64) string {
	var b strings.Builder
	b.WriteString("delivered data packets by circuit hops (hops:packets):")
	for h, n := range hops {
		fmt.Fprintf(&b, " %d:%d", h, n)
	}
	return b.String()
}

// cpuAndRSS returns the process's CPU seconds and peak resident set size.
func cpuAndRSS() (cpu float64, rss int64) {
	t, rss, _ := cputime.Process()
	return t.Seconds(), rss
}
