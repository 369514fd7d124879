package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// pick returns quick or full.
func pick[T any](quick bool, q, full T) T {
	if quick {
		return q
	}
	return full
}

// mean is a Published.Ours of one metric's mean over matching points.
func mean(metric string, where map[string]string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) { return Mean(r, metric, where) }
}

func init() {
	Register(&Experiment{
		Name:          "tradeoff",
		Title:         "Throughput, delay and buffer across emulated-graph degrees",
		Source:        "Thesis (Addanki, Adaptive Protocols and Reconfigurable Optical Interconnects for Datacenter Networks, 2025), Table 7.1 and Fig. 7.1: n = 16 ToRs, U = 2 uplinks of 400 Gbps, Δ = 100 µs, Δr = 10 µs, B = 20 MB, L = 850 µs",
		Available:     true,
		Deterministic: "θ, delay and buffer are closed forms and certified LPs of each design; its one seed (schedule.seed) shuffles Mars's matchings, which changed no metric over seeds 1, 2 and 3",
		Spec: func(sc Scale) string {
			quick := sc.Quick
			return fmt.Sprintf(`kind = "tradeoff"
seed = 1
[base]
"topology.tors" = 16
"topology.uplinks" = 2
"topology.circuit_link" = "400Gbps"
"schedule.slot" = "100us"
"schedule.reconf" = "10us"
"tradeoff.buffer" = "20MB"
"tradeoff.delay" = "850us"
"tradeoff.gap" = %s
[axes]
"tradeoff.degree" = %s
`, pick(quick, "0.01", "0.001"), pick(quick, "[2, 4, 8, 16]", "[2, 4, 6, 8, 10, 12, 14, 16]"))
		},
		Figures: []report.Combined{{Title: "Fig. 7.1: throughput against the emulated graph's degree d", Axis: "tradeoff.degree",
			YLabel: "throughput θ", Metrics: []string{"degree.theta", "degree.theta_buffer_limited", "degree.theta_exact", "degree.theta_vlb"}}},
		Plot:      report.Info{Metrics: []string{"degree.delay_us", "degree.buffer_per_tor_mb"}}, // θ: Fig. 7.1 above
		Published: tradeoffPublished(),
	})
	Register(&Experiment{
		Name:  "mars-small-buffers",
		Title: "Mars vs Opera vs RotorNet vs an expander under small buffers (thesis §7.5)",
		Source: "Thesis §7.5 (Figs. 7.7–7.9): 64 ToRs × 4 hosts, 4 uplinks, 10 Gbps, 500 ns links, 1 µs reconfiguration; websearch at 1–20 % load, all-to-all and random permutation; " +
			"NDP for every design with buffers (trimming thresholds) of 8 and 4 packets per port; Mars a deBruijn emulated graph of degree 8 with Valiant paths, packets sprayed (routing vlb-slice); " +
			"Opera all shortest paths of each slice for short flows, bulk (≥ 15 MB) flows single-hop; RotorNet Valiant (standing for Sirius too: rdcn's sirius, the same shifts per uplink band, matched it within 0.1 % in a probe); a static Ramanujan-like expander over all shortest paths. " +
			"The thesis gives no slot length: here Δ = 9.6 µs, the slot at which Theorem 19 designs degree 8 for 8 packets per port (B = 8 packets × 8 ports × 1500 B = 96 KB per ToR, d = B/(c·Δ) = 8 at c = 10 Gbps). " +
			"Quick: 16 ToRs, 20 ms, loads 5 and 20 %; full: 64 ToRs, 50 ms",
		Available: true,
		Spec: func(sc Scale) string {
			quick := sc.Quick
			return fmt.Sprintf(`kind = "simulate"
seed = 1
[base]
"topology.tors" = %s
"topology.hosts_per_tor" = 4
"topology.uplinks" = 4
"topology.host_link" = "10Gbps"
"topology.circuit_link" = "10Gbps"
"topology.host_delay" = "500ns"
"topology.link_delay" = "500ns"
"workload.sizes" = "websearch"
"transport.kind" = "ndp"
"transport.min_rto" = "1ms"
"run.sim_time" = "%s"
[axes]
seed = %s
"workload.load" = %s
"workload.pattern" = ["all-to-all", "permutation"]
"buffer.per_port" = [4, 8]
[[axes.design]]
name = "mars"
"schedule.kind" = "mars"
"schedule.degree" = 8
"schedule.slot" = "%s"
"schedule.reconf" = "1us"
"routing.mode" = "vlb-slice"

[[axes.design]]
name = "opera"
"schedule.kind" = "opera"
"schedule.slot" = "%s"
"schedule.reconf" = "1us"
"routing.mode" = "paths"
"routing.paths_k" = 8
"routing.multipath" = "spray"

[[axes.design]]
name = "rotornet"
"schedule.kind" = "rotornet"
"schedule.slot" = "%s"
"schedule.reconf" = "1us"
"routing.mode" = "vlb"

[[axes.design]]
name = "expander"
"schedule.kind" = "static"
"schedule.tries" = 8
"routing.mode" = "paths"
"routing.paths_k" = 8
"routing.multipath" = "spray"
"routing.bulk" = "1TB"
`, pick(quick, "16", "64"), pick(quick, "20ms", "50ms"), pick(quick, "[1, 2]", "[1, 2, 3]"), pick(quick, "[0.05, 0.2]", "[0.01, 0.05, 0.1, 0.2]"),
				MarsSlot, MarsSlot, MarsSlot)
		},
		Plot: report.Info{X: []string{"workload.load"}, Metrics: []string{"host_utilization", "fct_p99_us.short",
			"fct_p99_us.long", "flows_completed_fraction", "buffer_p99_bytes"}, Facets: []string{"workload.pattern", "buffer.per_port"}},
		Published: marsPublished(),
		Figure:    PlotMarsSmallBuffers,
	})
	Register(&Experiment{
		Name:      "vermilion-noise",
		Title:     "Vermilion vs BvN under prediction noise",
		Source:    "Thesis §9.6: 8 nodes of degree 4 at 400 Gbps, duty cycle 0.99, a ring demand predicted with noise; schedules designed from the prediction and judged on the truth (certified any-routing θ)",
		Available: true,
		Spec: func(sc Scale) string {
			quick := sc.Quick
			return fmt.Sprintf(`kind = "predict"
seed = 1
[base]
"topology.tors" = 8
"topology.uplinks" = 4
"predict.samples" = %s
[axes]
seed = %s
"predict.matrix" = %s
"predict.noise" = %s
"predict.factor" = %s
[[axes.design]]
name = "vermilion-g1"
"predict.algorithm" = "vermilion"
"predict.gamma" = 1

[[axes.design]]
name = "vermilion-g3"
"predict.algorithm" = "vermilion"
"predict.gamma" = 3

[[axes.design]]
name = "vermilion-g10"
"predict.algorithm" = "vermilion"
"predict.gamma" = 10

[[axes.design]]
name = "randomized-g3"
"predict.algorithm" = "randomized"
"predict.gamma" = 3

[[axes.design]]
name = "bvn"
"predict.algorithm" = "bvn"
`, pick(quick, "3", "100"), pick(quick, "[1, 2]", "[1, 2, 3]"), pick(quick, `["ring"]`, `["ring", "chessboard", "skewring:0.8"]`),
				"[\"additive\", \"multiplicative\"]", "[0, 0.5, 1, 2, 5, 10]")
		},
		Plot: report.Info{Metrics: []string{"any_routing_mean", "any_routing_min", "single_hop_mean"},
			Facets: []string{"predict.matrix", "predict.noise"}},
		Published: []report.Published{
			{What: "Vermilion γ = 10, ring, perfect prediction: θ", Source: "§9.6", Value: 0.95,
				Ours: mean("any_routing_mean", map[string]string{"design": "vermilion-g10", "predict.factor": "0", "predict.matrix": "ring"}),
				Tol:  report.Tolerance{Abs: 0.015, NoDirection: true, Why: "quoted to two digits (± 0.005); ours is a certified lower bound within the gap 10⁻² (± 0.01)"}},
			{What: "BvN θ / the lowest other design's θ, ring, noise factor 10", Source: "§9.6 (BvN best without noise, worst with it; no number quoted)", Value: nan,
				Ours: lowestRatio("any_routing_mean", map[string]string{"predict.factor": "10", "predict.matrix": "ring"}, "design", "bvn"),
				Tol:  report.Claim(1, -1, "“worst with noise”: BvN below every other design, a ratio below 1")},
		},
	})
}

var nan = math.NaN()

// tradeoffPublished is thesis Table 7.1 and Fig. 7.1.
func tradeoffPublished() []report.Published {
	// Table 7.1's values are closed forms of n, U, Δ, B and L; ours come
	// from the same formulas and a certified LP at gap 10⁻² (quick) or
	// 10⁻³, so 1 % covers the LP's gap.
	closed := report.Exact(0.01, "a closed form of n, U, Δ, B, L; ours within the LP's certified gap (≤ 1 %)")
	return []report.Published{
		{What: "static θ", Source: "Table 7.1", Value: 0.125, Ours: mean("static.theta", nil), Tol: closed},
		{What: "complete graph θ", Source: "Table 7.1", Value: 0.5, Ours: mean("complete.theta", nil), Tol: closed},
		{What: "complete graph delay (µs)", Source: "Table 7.1", Value: 1600, Ours: mean("complete.delay_us", nil), Tol: closed},
		{What: "complete graph buffer per ToR (MB)", Source: "Table 7.1", Value: 80, Ours: mean("complete.buffer_per_tor_mb", nil), Tol: closed},
		{What: "complete graph θ within 20 MB", Source: "Table 7.1", Value: 0.125, Ours: mean("complete-buffer-limited.theta_buffer_limited", nil), Tol: closed},
		{What: "Mars degree d", Source: "Table 7.1", Value: 4, Ours: mean("mars.degree", nil), Tol: closed},
		{What: "Mars θ", Source: "Table 7.1", Value: 0.25, Ours: mean("mars.theta", nil), Tol: closed},
		{What: "Mars delay (µs)", Source: "Table 7.1", Value: 850, Ours: mean("mars.delay_us", nil),
			Tol:  report.Tolerance{AtMost: true, Rel: 0.01, NoDirection: true, Why: "the table prints the delay requirement L: a design meets it at or below"},
			Note: "the table prints the requirement L; the design's own ARD = 2·log₄16·2·100 µs = 800 µs meets it"},
		{What: "Mars buffer per ToR (MB)", Source: "Table 7.1", Value: 20, Ours: mean("mars.buffer_per_tor_mb", nil), Tol: closed},
		{What: "buffer-limited θ peaks at Mars's degree: θ there", Source: "Fig. 7.1", Value: 0.25, Ours: peak("degree.theta_buffer_limited"), Tol: closed,
			Note: "Mars sits where the throughput bounds with and without the buffer meet"},
	}
}

// lowestRatio is metric at axis = v over the lowest of the other values of
// axis, each the mean over the points matching where.
func lowestRatio(metric string, where map[string]string, axis, v string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) {
		at := func(x string) map[string]string {
			m := map[string]string{axis: x}
			for k, w := range where {
				m[k] = w
			}
			return m
		}
		ours, ok := Mean(r, metric, at(v))
		lowest := math.Inf(1)
		for _, a := range r.Manifest.Axes {
			if a.Name != axis {
				continue
			}
			for _, x := range a.Values {
				if y, ok := Mean(r, metric, at(x)); ok && x != v {
					lowest = min(lowest, y)
				}
			}
		}
		if !ok || !(lowest > 0) || math.IsInf(lowest, 1) {
			return 0, false
		}
		return ours / lowest, true
	}
}

// peak is the largest value of a metric over the points.
func peak(metric string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) {
		best, ok := 0.0, false
		for _, p := range r.Points {
			for _, m := range p.Metrics {
				if m.Name == metric && m.Value == m.Value && (!ok || m.Value > best) {
					best, ok = m.Value, true
				}
			}
		}
		return best, ok
	}
}

// Describe is one line about e for rdcn experiment list.
func Describe(e *Experiment) string {
	if !e.Available {
		return fmt.Sprintf("%-20s unavailable: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("%-20s %s", e.Name, strings.TrimSpace(e.Title))
}
