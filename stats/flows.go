package stats

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rdcn/rdcn/rotor"
)

// FlowRecord is one completed flow: its size, its completion time, and its
// ideal completion time alone in the network (same path, no other traffic).
type FlowRecord struct {
	Bytes      int64
	FCT, Ideal rotor.Time
}

// Slowdown is FCT/Ideal (≥ 1 when Ideal is a true lower bound), or NaN when
// Ideal is not positive.
func (r FlowRecord) Slowdown() float64 {
	if r.Ideal <= 0 {
		return math.NaN()
	}
	return float64(r.FCT) / float64(r.Ideal)
}

// Buckets splits flows by size: bucket i holds sizes in [Edges[i−1], Edges[i])
// (the first from 0, the last unbounded), so len(Edges)+1 buckets. Names,
// if set, has one name per bucket; otherwise names are made from the edges
// ("<100KB", "100KB-1MB", ">=1MB").
type Buckets struct {
	Edges []int64
	Names []string
}

// DefaultBuckets is short < 100 KB ≤ medium < 1 MB ≤ long (SI units), the
// classes of the Credence/PowerTCP evaluations.
func DefaultBuckets() Buckets {
	return Buckets{Edges: []int64{100_000, 1_000_000}, Names: []string{"short", "medium", "long"}}
}

// Validate checks that edges are positive and strictly increasing and that
// Names, if given, has one entry per bucket.
func (b Buckets) Validate() error {
	for i, e := range b.Edges {
		if e <= 0 {
			return fmt.Errorf("buckets.edges[%d]: must be positive, got %d", i, e)
		}
		if i > 0 && e <= b.Edges[i-1] {
			return fmt.Errorf("buckets.edges[%d]: %d is not above the previous edge %d", i, e, b.Edges[i-1])
		}
	}
	if b.Names != nil && len(b.Names) != len(b.Edges)+1 {
		return fmt.Errorf("buckets.names: has %d names for %d buckets", len(b.Names), len(b.Edges)+1)
	}
	return nil
}

// Index is the bucket of a flow of the given size.
func (b Buckets) Index(bytes int64) int {
	lo, hi := 0, len(b.Edges)
	for lo < hi { // first edge > bytes
		mid := int(uint(lo+hi) >> 1)
		if b.Edges[mid] > bytes {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Name is the name of bucket i.
func (b Buckets) Name(i int) string {
	if b.Names != nil {
		return b.Names[i]
	}
	switch {
	case len(b.Edges) == 0:
		return "any"
	case i == 0:
		return "<" + FormatBytes(b.Edges[0])
	case i == len(b.Edges):
		return ">=" + FormatBytes(b.Edges[i-1])
	}
	return FormatBytes(b.Edges[i-1]) + "-" + FormatBytes(b.Edges[i])
}

// FormatBytes writes a size in the largest SI unit that divides it exactly
// (100000 → "100KB", 1500 → "1500B").
func FormatBytes(n int64) string {
	for _, u := range []struct {
		s string
		v int64
	}{{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if n != 0 && n%u.v == 0 {
			return strconv.FormatInt(n/u.v, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// BucketSummary summarises the flows of one size bucket: FCT in
// microseconds and slowdown (flows without a positive Ideal count in FCT
// only).
type BucketSummary struct {
	Name     string
	Count    int
	FCT      Summary // µs
	Slowdown Summary
}

// SummarizeFlows summarises records per bucket of b, followed by an "all"
// row. An empty b (no edges, no names) means DefaultBuckets.
func SummarizeFlows(records []FlowRecord, b Buckets) ([]BucketSummary, error) {
	if len(b.Edges) == 0 && b.Names == nil {
		b = DefaultBuckets()
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	nb := len(b.Edges) + 1
	fct := make([][]float64, nb+1)
	slow := make([][]float64, nb+1)
	for i, r := range records {
		if r.Bytes < 0 || r.FCT < 0 {
			return nil, fmt.Errorf("records[%d]: negative size %d or FCT %d", i, r.Bytes, r.FCT)
		}
		k := b.Index(r.Bytes)
		us := float64(r.FCT) / float64(rotor.Microsecond)
		fct[k] = append(fct[k], us)
		fct[nb] = append(fct[nb], us)
		if s := r.Slowdown(); !math.IsNaN(s) {
			slow[k] = append(slow[k], s)
			slow[nb] = append(slow[nb], s)
		}
	}
	out := make([]BucketSummary, nb+1)
	for k := range out {
		name := "all"
		if k < nb {
			name = b.Name(k)
		}
		out[k] = BucketSummary{Name: name, Count: len(fct[k]), FCT: Summarize(fct[k]), Slowdown: Summarize(slow[k])}
	}
	return out, nil
}

// WriteFlowSummaryCSV writes one row per bucket: bucket, count, then mean,
// p50, p99, p999 and max of FCT (µs) and of slowdown.
func WriteFlowSummaryCSV(w io.Writer, rows []BucketSummary) error {
	header := []string{"bucket", "count",
		"fct_mean_us", "fct_p50_us", "fct_p99_us", "fct_p999_us", "fct_max_us",
		"slowdown_mean", "slowdown_p50", "slowdown_p99", "slowdown_p999", "slowdown_max"}
	table := make([][]string, len(rows))
	for i, r := range rows {
		table[i] = []string{r.Name, strconv.Itoa(r.Count),
			FormatFloat(r.FCT.Mean), FormatFloat(r.FCT.P50), FormatFloat(r.FCT.P99), FormatFloat(r.FCT.P999), FormatFloat(r.FCT.Max),
			FormatFloat(r.Slowdown.Mean), FormatFloat(r.Slowdown.P50), FormatFloat(r.Slowdown.P99), FormatFloat(r.Slowdown.P999), FormatFloat(r.Slowdown.Max)}
	}
	return WriteCSV(w, header, table)
}
