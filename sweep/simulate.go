package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/stats"
)

// Simulate is the kind "simulate": a packet-level run of package fabric
// with the keys of rdcn simulate (scenario.Keys()). A point writes
// summary.json, timeseries.csv, buffer_cdf.csv and fct_cdf.csv.
type Simulate struct{}

func init() { Register("simulate", Simulate{}) }

// CheckKey accepts fabric's keys.
func (Simulate) CheckKey(key string) error {
	if err := scenario.NewSpec().Set(key, ""); err != nil {
		var ce *fabric.ConfigError
		if errors.As(err, &ce) {
			return fmt.Errorf("%s: %s", ce.Field, ce.Problem)
		}
		return err
	}
	return nil
}

// SeedKeys are the routing's seed and, unless the flows come from a file
// (which the workload generator's keys must then leave alone), the
// workload's.
func (Simulate) SeedKeys(config map[string]string) []string {
	if config["workload.flows_file"] != "" {
		return []string{"run.seed"}
	}
	return []string{"run.seed", "workload.seed"}
}

// fctCDFPoints caps the points of a point's fct_cdf.csv.
const fctCDFPoints = 200

// Run builds and runs the configuration.
func (Simulate) Run(ctx context.Context, config [][2]string, dir string) ([]Metric, error) {
	spec := scenario.NewSpec()
	for _, kv := range config {
		if err := spec.Set(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	setup, err := spec.Build()
	if err != nil {
		return nil, err
	}
	cfg := setup.Config
	if err := checkMemory(cfg.MemoryEstimate(setup.Flows)); err != nil {
		return nil, err
	}
	cfg.Context = ctx
	res, err := fabric.Run(cfg)
	if err != nil {
		return nil, err
	}
	if !res.Complete {
		return nil, fmt.Errorf("interrupted at %v of simulated time", res.SimTime)
	}
	sum, err := res.Summarize(setup.Buckets, spec.Values())
	if err != nil {
		return nil, err
	}
	if err := writeJSONFile(dir, "summary.json", sum); err != nil {
		return nil, err
	}
	if err := writeCSVFile(dir, "timeseries.csv", tableOf(res.SeriesCSV())); err != nil {
		return nil, err
	}
	if err := writeCSVFile(dir, "buffer_cdf.csv", tableOf(res.BufferCDFCSV())); err != nil {
		return nil, err
	}
	if err := writeCSVFile(dir, "fct_cdf.csv", fctCDF(res)); err != nil {
		return nil, err
	}
	return append(simulateMetrics(sum), incastMetrics(res)...), nil
}

// simulateMetrics are a summary's scalars: FCT p50/p99 (µs) and slowdown
// p99 per size bucket, completion (the fraction of every flow; the measured
// flows completed and unfinished at the run's end, the fraction of
// their bytes delivered and the delivered load per host link), utilisation (all days, and the days
// that carried demand: NaN without circuits), queueing latency p99/p99.9
// (µs), drops and buffers; QCT mean, p50 and p99 (µs) with incast queries, and the
// PFC pause frames sent and paused time (µs) with buffer.lossless.
func simulateMetrics(s *fabric.Summary) []Metric {
	var m []Metric
	add := func(name string, v float64) { m = append(m, Metric{name, v}) }
	for _, b := range s.FCT {
		add("fct_p50_us."+b.Bucket, float64(b.FCTus.P50))
		add("fct_p99_us."+b.Bucket, float64(b.FCTus.P99))
		add("slowdown_p99."+b.Bucket, float64(b.Slowdown.P99))
	}
	done := math.NaN()
	if s.Flows.Started > 0 {
		done = float64(s.Flows.Completed) / float64(s.Flows.Started)
	}
	add("flows_completed_fraction", done)
	add("flows_completed", float64(s.Measured.Completed))
	add("flows_unfinished", float64(s.Measured.Unfinished))
	add("delivered_fraction", float64(s.Measured.DeliveredFraction))
	add("delivered_load", float64(s.Measured.DeliveredLoad))
	add("host_utilization", float64(s.HostUtilization))
	add("circuit_utilization", float64(s.CircuitUtilization))
	add("circuit_util_demand", float64(s.DemandCircuit.Utilization))
	add("queueing_latency_p99_us", float64(s.QueueingLatencyUs.P99))
	add("queueing_latency_p999_us", float64(s.QueueingLatencyUs.P999))
	add("drop_rate", float64(s.DropRate))
	add("dropped_packets", float64(s.Packets.Dropped))
	add("buffer_mean_bytes", float64(s.Buffer.MeanBytes))
	add("buffer_p99_bytes", float64(s.Buffer.P99Bytes))
	add("buffer_peak_bytes", float64(s.Buffer.PeakBytes))
	if q := s.Queries; q != nil {
		add("qct_mean_us", float64(q.QCTus.Mean))
		add("qct_p50_us", float64(q.QCTus.P50))
		add("qct_p99_us", float64(q.QCTus.P99))
	}
	if p := s.PFC; p != nil {
		add("pfc_pauses", float64(p.PauseFrames))
		add("pfc_paused_us", float64(p.PausedUs))
	}
	return m
}

// incastMetrics are the incast flows' (those of a query) FCT percentiles
// (µs), p99 slowdown and unfinished count, and the fraction of queries
// that lost nothing (every flow's bytes arrived, none retransmitted: the
// TDT paper's lossless bursts), over the flows of the measured window;
// and the p99 slowdown of the short background flows (not of a query,
// below the short bucket's edge: the buffer papers' "short flows"); none
// without queries.
func incastMetrics(r *fabric.Result) []Metric {
	var fct, slow, short []float64
	unfinished := 0
	lossy := map[int]bool{}
	shortEdge := stats.DefaultBuckets().Edges[0]
	for _, f := range r.Flows {
		if !r.Measure.Contains(f.Start) {
			continue
		}
		if f.Query <= 0 {
			if f.Done && f.Bytes < shortEdge {
				short = append(short, stats.FlowRecord{Bytes: f.Bytes, FCT: f.FCT, Ideal: f.Ideal}.Slowdown())
			}
			continue
		}
		lossy[f.Query] = lossy[f.Query] || f.Received < f.Bytes || f.Retransmits > 0
		if !f.Done {
			unfinished++
			continue
		}
		fct = append(fct, float64(f.FCT)/float64(rotor.Microsecond))
		slow = append(slow, stats.FlowRecord{Bytes: f.Bytes, FCT: f.FCT, Ideal: f.Ideal}.Slowdown())
	}
	if len(lossy) == 0 {
		return nil
	}
	lossless := 0
	for _, l := range lossy {
		if !l {
			lossless++
		}
	}
	t, sd := stats.Summarize(fct), stats.Summarize(slow)
	return []Metric{{"incast_fct_p50_us", t.P50}, {"incast_fct_p95_us", t.P95}, {"incast_fct_p99_us", t.P99},
		{"incast_fct_p999_us", t.P999}, {"incast_slowdown_p99", sd.P99}, {"incast_unfinished", float64(unfinished)},
		{"query_lossless_fraction", float64(lossless) / float64(len(lossy))},
		{"background_short_slowdown_p99", stats.Summarize(short).P99}}
}

// fctCDF is the FCT distribution of the measured flows (those the FCT
// percentiles count) at up to fctCDFPoints evenly spaced ranks of the
// completed ones (always the first and the last). The unfinished ones are
// censored at the run's end: their FCT is longer than any drawn, so they
// count in the denominator and the CDF ends at completed/measured, below 1
// when a flow is unfinished.
func fctCDF(r *fabric.Result) table {
	fcts, measured := CensoredFCTs(r)
	var rows [][]string
	n := len(fcts)
	step := max(1, n/fctCDFPoints)
	for i := 0; i < n; i += step {
		rows = append(rows, []string{stats.FormatFloat(fcts[i]), stats.FormatFloat(float64(i+1) / float64(measured))})
	}
	if n > 0 && (n-1)%step != 0 {
		rows = append(rows, []string{stats.FormatFloat(fcts[n-1]), stats.FormatFloat(float64(n) / float64(measured))})
	}
	return table{[]string{"fct_us", "cdf"}, rows}
}

// CensoredFCTs are the FCTs (µs, ascending) of the measured flows that
// completed, and the number of measured flows: those started in the
// measurement window, completed or not. An FCT CDF divides ranks by
// measured, so the flows unfinished at the run's end (censored there) keep
// it below 1.
func CensoredFCTs(r *fabric.Result) (fcts []float64, measured int) {
	for _, f := range r.Flows {
		if !r.Measure.Contains(f.Start) {
			continue
		}
		measured++
		if f.Done {
			fcts = append(fcts, float64(f.FCT)/float64(rotor.Microsecond))
		}
	}
	slices.Sort(fcts)
	return fcts, measured
}
