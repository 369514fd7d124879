package experiment

import (
	"slices"
	"strings"

	"github.com/rdcn/rdcn/report"
)

// The FB paper's Fig. 7 as a sweep: three deployments (multi-queue with
// TCP, multi-queue with DCTCP, single queue with TCP), each with the
// paper's baselines, at its high (90 %) and low (40 %) load of the leaf
// uplinks. The deployments have different policies, so each (deployment,
// policy) pair is one variant of the setup axis; the quick scale is
// scenario/testdata/buffers/run.sh's 26 runs.

// fbLoads are workload.load per host link for the paper's 90 % and 40 %
// of the leaf uplinks (5:1).
var fbLoads = []struct{ pct, load string }{{"90", "0.18"}, {"40", "0.08"}}

// fbSetups are the variants: run.sh's fb section, key for key.
func fbSetups() []variant {
	var vs []variant
	multi := []string{"topology.queues_per_port", "3", "topology.incast_queue", "1"}
	newreno := []string{"transport.cc", `"newreno"`}
	for _, dep := range []struct {
		suffix string
		set    []string
	}{
		{"", slices.Concat(multi, newreno)},
		{"-dctcp", slices.Concat(multi, []string{"transport.cc", `"dctcp"`, "buffer.ecn_threshold", `"20pkt"`})},
	} {
		for _, p := range []string{"fb", "dt", "cs", "fba"} {
			set := dep.set
			if p != "cs" { // CS has no α; the others give queues 0 and 1 high priority
				set = slices.Concat(set, []string{"buffer.hi_queues", "2"})
			}
			vs = append(vs, policy(p+dep.suffix, p, set...))
		}
	}
	single := slices.Concat([]string{"topology.queues_per_port", "1"}, newreno)
	for _, p := range []string{"fb", "dt", "cs", "fab", "ib"} {
		set := single
		if p == "fb" || p == "dt" {
			set = slices.Concat(set, []string{"buffer.hi_queues", "0"})
		}
		vs = append(vs, policy(p+"-1q", p, set...))
	}
	return vs
}

// fbAt is the points of setup s at the paper's load pct.
func fbAt(s, pct string) map[string]string {
	for _, l := range fbLoads {
		if l.pct == pct {
			return map[string]string{"setup": s, "workload.load": l.load}
		}
	}
	panic("experiment: fb load " + pct)
}

// fbPublished: the reductions Fig. 7 and §6.3 quote, each with the two
// cells it is computed from (mean QCT, ms; throughput and buffer, %).
func fbPublished() []report.Published {
	qct := func(what, a, b, pct string, value float64, cells string) report.Published {
		return report.Published{What: what + " (%), " + pct + " % load", Source: "FB paper, Fig. 7 (" + cells + ")", Value: value,
			Ours: reduction("qct_mean_us", fbAt(a, pct), fbAt(b, pct)), Tol: paperCut}
	}
	return []report.Published{
		qct("FB's mean QCT below DT's, multi-queue, TCP", "fb", "dt", "90", 67, "34 and 103 ms; §6.3: −67 %"),
		qct("FB's mean QCT below DT's, multi-queue, TCP", "fb", "dt", "40", 37, "47 and 75 ms; §6.3: −37 %"),
		qct("FB with TCP below DT with DCTCP, mean QCT, multi-queue", "fb", "dt-dctcp", "90", 53, "34 and 72 ms; §6: −53 %"),
		qct("FB with TCP below DT with DCTCP, mean QCT, multi-queue", "fb", "dt-dctcp", "40", 10, "47 and 52 ms; §6: −10 %"),
		qct("FB's mean QCT below DT's, single queue, TCP", "fb-1q", "dt-1q", "90", 87.8, "29 and 237 ms"),
		qct("FAB's mean QCT below DT's, single queue, TCP", "fab-1q", "dt-1q", "90", 56.1, "104 and 237 ms"),
		{What: "FB's throughput / DT's, multi-queue, TCP, 90 % load", Source: "FB paper, Fig. 7 (86 and 86 %; §6.3: on par, at worst 3 % lower)", Value: 1,
			Ours: ratioAt("delivered_load", fbAt("fb", "90"), fbAt("dt", "90")),
			Tol:  report.Ratio(0.03, "“on par, at worst 3 % lower than DT”: within 3 %; a ratio of 1 has no direction")},
		{What: "FB's mean buffer occupancy below DT's (%), multi-queue, TCP, 90 % load", Source: "FB paper, Fig. 7 (27 and 59 % of the buffer)", Value: 54.2,
			Ours: reduction("buffer_mean_bytes", fbAt("fb", "90"), fbAt("dt", "90")), Tol: paperCut},
	}
}

func init() {
	Register(&Experiment{
		Name:  "fb",
		Title: "FB vs DT, CS, FBA (multi-queue) and DT, CS, FAB, IB (single queue): mean QCT, throughput, buffer",
		Source: "FB: A Flexible Buffer Management Scheme for Data Center Switches: Fig. 7, queries of 50 % of the buffer beside websearch at 90 % and 40 % of the leaf uplinks (workload.load 0.18 and 0.08 per host link, 5:1). " +
			"2 leaves × 40 servers at 1 Gbps, 2 spines, 1 MB per switch, 25 µs links (scenario/testdata/buffers/fb-query.toml). Multi-queue: 3 queues per port (ACKs, queries, websearch; 2 high-priority), with NewReno or DCTCP (ECN step at 20 packets); single queue: one queue, NewReno. Transport: NewReno, ns-3.31's default and the paper's TCP rows (windowed, 100 ms minimum RTO, the paper's); " +
			"FB's priority comes from the queue, so with one queue rdcn's FB has no classifier and is not the paper's single-queue FB (docs/buffers.md)",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Spec: func(sc Scale) string {
			var loads []string
			for _, l := range fbLoads {
				loads = append(loads, l.load)
			}
			return incastSpec("fb-query.toml", sc.Quick, "1s", "1.5s",
				[]string{"workload.load", "buffer.policy", "buffer.hi_queues", "topology.queues_per_port", "topology.incast_queue", "transport.cc"},
				`"workload.load" = [`+strings.Join(loads, ", ")+"]\n"+variants("setup", fbSetups()...))
		},
		Plot:      report.Info{X: []string{"setup"}, Metrics: []string{"qct_mean_us", "delivered_load", "buffer_mean_bytes", "drop_rate", "incast_unfinished"}},
		Published: fbPublished(),
	})
}
