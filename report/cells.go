package report

import (
	"fmt"
	"math"
	"strings"
)

// NoValue stands in a table cell for a metric a point does not have or
// has as NaN; the table's note says why (missing.note).
const NoValue = "–"

// missing counts, per metric, the cells a table shows as NoValue.
type missing struct {
	order []string
	count map[string]int
}

// add notes one NoValue cell of metric m.
func (ms *missing) add(m string) string {
	if ms.count == nil {
		ms.count = map[string]int{}
	}
	if ms.count[m] == 0 {
		ms.order = append(ms.order, m)
	}
	ms.count[m]++
	return NoValue
}

// value is the cell of a metric value: format(v), or NoValue (counted)
// when the point lacks it or it is NaN.
func (ms *missing) value(m string, v float64, ok bool, format func(float64) string) string {
	if !ok || math.IsNaN(v) {
		return ms.add(m)
	}
	return format(v)
}

// note explains the table's NoValue cells, metrics with the same reason
// together ("" without any): of rows rows.
func (ms *missing) note(rows int) string {
	if len(ms.order) == 0 {
		return ""
	}
	var reasons []string
	byReason := map[string][]string{}
	for _, m := range ms.order {
		r := whyNoValue(m)
		if _, ok := byReason[r]; !ok {
			reasons = append(reasons, r)
		}
		byReason[r] = append(byReason[r], fmt.Sprintf("%s (%d of %d rows)", m, ms.count[m], rows))
	}
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = strings.Join(byReason[r], ", ") + ": " + r
	}
	return NoValue + " no value (the metric is undefined there, not zero): " + strings.Join(parts, "; ") + "."
}

// whyNoValue says why metric m can have no value at a point.
func whyNoValue(m string) string {
	base, bucket, _ := strings.Cut(m, ".")
	switch {
	case strings.HasPrefix(base, "fct_") || strings.HasPrefix(base, "slowdown_"):
		return "no measured flow of the " + bucket + " bucket completed (flows_completed and flows_unfinished count the measured flows: those that start after run.warmup)"
	case strings.HasPrefix(base, "qct_"):
		return "no measured query completed"
	case strings.HasPrefix(base, "incast_"):
		return "no incast response completed"
	case base == "background_short_slowdown_p99":
		return "no short background flow completed"
	case base == "circuit_util_demand":
		return "no circuit day carried demand"
	case strings.HasPrefix(base, "queueing_latency"):
		return "no data packet was delivered"
	case base == "query_lossless_fraction":
		return "no incast burst"
	case base == "flows_completed_fraction" || base == "delivered_fraction":
		return "no measured flow"
	case strings.HasPrefix(bucket, "theta_exact") || strings.HasPrefix(bucket, "theta_vlb"):
		return "the engine did not run (tradeoff.exact = false)"
	case base == "consistency_bound" || base == "robustness_bound":
		return "the bound is defined for Vermilion only"
	}
	return "undefined at this point"
}
