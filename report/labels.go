package report

import "strings"

// label names a metric or a sweep key on a figure's axis: what it is, and
// its unit ("" for a pure number).
type label struct{ name, unit string }

// metricLabels are the metrics of the sweep kinds (package sweep), by
// their name without a bucket or design part (fct_p99_us.short →
// fct_p99_us; mars.theta → theta).
var metricLabels = map[string]label{
	// simulate
	"fct_p50_us":                    {"FCT p50", "µs"},
	"fct_p99_us":                    {"FCT p99", "µs"},
	"slowdown_p99":                  {"FCT slowdown p99", "× ideal FCT"},
	"flows_completed_fraction":      {"flows completed", "fraction of started"},
	"flows_completed":               {"flows completed", "flows"},
	"flows_unfinished":              {"flows unfinished at the end", "flows"},
	"delivered_fraction":            {"bytes delivered", "fraction of offered"},
	"host_utilization":              {"host link utilisation", "fraction"},
	"circuit_utilization":           {"circuit utilisation", "fraction"},
	"circuit_util_demand":           {"circuit utilisation, demand days", "fraction"},
	"queueing_latency_p99_us":       {"queueing latency p99", "µs"},
	"queueing_latency_p999_us":      {"queueing latency p99.9", "µs"},
	"drop_rate":                     {"drop rate", "fraction of packets"},
	"dropped_packets":               {"packets dropped", "packets"},
	"buffer_mean_bytes":             {"ToR buffer occupancy, mean", "bytes"},
	"buffer_p99_bytes":              {"ToR buffer occupancy p99", "bytes"},
	"buffer_peak_bytes":             {"ToR buffer occupancy, peak", "bytes"},
	"delivered_load":                {"delivered load", "fraction of a host link"},
	"qct_mean_us":                   {"query completion time, mean", "µs"},
	"qct_p50_us":                    {"query completion time p50", "µs"},
	"qct_p99_us":                    {"query completion time p99", "µs"},
	"pfc_pauses":                    {"PFC pause frames", "frames"},
	"pfc_paused_us":                 {"time paused by PFC", "µs"},
	"incast_fct_p50_us":             {"incast FCT p50", "µs"},
	"incast_fct_p95_us":             {"incast FCT p95", "µs"},
	"incast_fct_p99_us":             {"incast FCT p99", "µs"},
	"incast_fct_p999_us":            {"incast FCT p99.9", "µs"},
	"incast_slowdown_p99":           {"incast slowdown p99", "× ideal FCT"},
	"incast_unfinished":             {"incast flows unfinished", "flows"},
	"query_lossless_fraction":       {"bursts absorbed without loss", "fraction"},
	"background_short_slowdown_p99": {"short background slowdown p99", "× ideal FCT"},
	// throughput
	"theta":         {"θ", "× hose rate"},
	"theta_upper":   {"θ, certified upper end", "× hose rate"},
	"route_length":  {"average route length", "hops"},
	"per_node_gbps": {"throughput per node", "Gb/s"},
	// tradeoff (per design)
	"degree":               {"degree d", ""},
	"theta_closed_form":    {"θ (Theorem 17)", "× hose rate"},
	"theta_exact":          {"θ any routing", "× hose rate"},
	"theta_vlb":            {"θ VLB", "× hose rate"},
	"theta_buffer_limited": {"θ within the buffer", "× hose rate"},
	"delay_us":             {"average route delay", "µs"},
	"buffer_per_tor_mb":    {"buffer per ToR", "MB"},
	// predict
	"any_routing_mean":  {"θ any routing, sample mean", "× hose rate"},
	"any_routing_min":   {"θ any routing, worst sample", "× hose rate"},
	"single_hop_mean":   {"θ single hop, sample mean", "× hose rate"},
	"consistency_bound": {"consistency bound", "× hose rate"},
	"robustness_bound":  {"robustness bound", "× hose rate"},
}

// keyLabels are the sweep keys the experiments put on an x axis.
var keyLabels = map[string]label{
	"workload.load":         {"offered load", "fraction of the host link"},
	"buffer.per_port":       {"buffer per port", "packets"},
	"buffer.alpha":          {"DT's α", ""},
	"schedule.degree":       {"degree d", ""},
	"schedule.slot":         {"slot Δ", ""},
	"topology.tors":         {"ToRs", ""},
	"tradeoff.degree":       {"degree d", ""},
	"predict.noise":         {"prediction noise", ""},
	"predict.factor":        {"noise factor", ""},
	"predict.gamma":         {"trust γ", ""},
	"workload.incast_bytes": {"incast response", "bytes"},
	"seed":                  {"seed", ""},
}

// metricLabel is the axis label of metric m, "name (unit)" (describe).
func metricLabel(m string) string { return withUnit(describe(m)) }

// describe is metric m's name and unit: a bucket (fct_p99_us.short)
// names its flows, a design part (mars.theta) its design; an unknown
// metric keeps its name (underscores as spaces), a last "_us", "_ms",
// "_bytes" or "_gbps" read as its unit.
func describe(m string) (name, unit string) {
	base, part := m, ""
	if i := strings.LastIndex(m, "."); i >= 0 {
		if _, ok := metricLabels[m[i+1:]]; ok { // design.metric (tradeoff)
			base, part = m[i+1:], m[:i]
			if base == "theta" {
				base = "theta_closed_form"
			}
			if part == "degree" { // the tradeoff.degree row: the figure's x
				part = ""
			}
		} else { // metric.bucket (simulate)
			base, part = m[:i], m[i+1:]+" flows"
		}
	}
	l, ok := metricLabels[base]
	if !ok {
		l = label{name: base}
		for _, u := range [][2]string{{"_us", "µs"}, {"_ms", "ms"}, {"_bytes", "bytes"}, {"_gbps", "Gb/s"}} {
			if n, ok := strings.CutSuffix(base, u[0]); ok {
				l = label{n, u[1]}
			}
		}
		l.name = strings.ReplaceAll(l.name, "_", " ")
	}
	if part != "" {
		l.name += ", " + part
	}
	return l.name, l.unit
}

// keyLabel is the axis label of a sweep key: its name and unit when
// keyLabels knows it, else the key itself (the name a user set).
func keyLabel(key string) string {
	if l, ok := keyLabels[key]; ok {
		return withUnit(l.name, l.unit)
	}
	return key
}

func withUnit(name, unit string) string {
	if unit == "" {
		return name
	}
	return name + " (" + unit + ")"
}
