// Package stats turns simulation output into numbers: quantiles and
// summaries, flow-completion-time (FCT) and slowdown tables by flow-size
// bucket, fixed-interval time series (e.g. bytes per 1 ms bin → link
// utilisation), time-weighted histograms (buffer-occupancy CDFs) and
// deterministic CSV output. It knows nothing about fabrics.
//
// Quantiles interpolate linearly between closest ranks, like numpy's
// default: the 0.99-quantile of 1..101 is 100 (see Quantile). Summaries
// report mean, min, p50, p95, p99, p99.9 and max.
//
// Slowdown is FCT / ideal FCT, the ideal being the flow's completion time
// alone in the network; flows are bucketed short < 100 KB ≤ medium < 1 MB ≤
// long by default (Buckets).
//
// The accumulators are built for hot paths: TimeSeries.Add,
// Histogram.Add and TimeWeighted.Set do not allocate (a TimeSeries grows by
// bins only, when time reaches a new bin). Floats are written by
// FormatFloat, the shortest decimal that reads back exactly, so the same run
// gives byte-identical CSV.
package stats
