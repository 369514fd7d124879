package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

func TestBucketIndex(t *testing.T) {
	b := DefaultBuckets()
	for _, tc := range []struct {
		bytes int64
		want  string
	}{
		{0, "short"}, {1, "short"}, {99_999, "short"}, {100_000, "medium"},
		{999_999, "medium"}, {1_000_000, "long"}, {1 << 40, "long"},
	} {
		if got := b.Name(b.Index(tc.bytes)); got != tc.want {
			t.Errorf("%d bytes: bucket %q, want %q", tc.bytes, got, tc.want)
		}
	}
	auto := Buckets{Edges: []int64{10_000, 100_000, 1_000_000}}
	var names []string
	for i := 0; i <= len(auto.Edges); i++ {
		names = append(names, auto.Name(i))
	}
	if diff := cmp.Diff([]string{"<10KB", "10KB-100KB", "100KB-1MB", ">=1MB"}, names); diff != "" {
		t.Error(diff)
	}
	if got := FormatBytes(1500); got != "1500B" {
		t.Errorf("FormatBytes(1500) = %q", got)
	}
}

func TestBucketsValidate(t *testing.T) {
	for _, tc := range []struct {
		b    Buckets
		want string
	}{
		{Buckets{Edges: []int64{0}}, "buckets.edges[0]: must be positive"},
		{Buckets{Edges: []int64{10, 10}}, "buckets.edges[1]: 10 is not above the previous edge 10"},
		{Buckets{Edges: []int64{10}, Names: []string{"a"}}, "buckets.names: has 1 names for 2 buckets"},
	} {
		if err := tc.b.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.b, err, tc.want)
		}
		if _, err := SummarizeFlows(nil, tc.b); err == nil {
			t.Errorf("%+v: SummarizeFlows accepted bad buckets", tc.b)
		}
	}
}

// SummarizeFlows against a brute-force split: every bucket's summary equals
// Summarize of the records whose size falls in it, counts add up to "all".
func TestSummarizeFlows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	records := make([]FlowRecord, 5000)
	for i := range records {
		ideal := rotor.Time(1 + rng.IntN(1_000_000_000))
		records[i] = FlowRecord{
			Bytes: int64(math.Exp(rng.Float64() * 17)),
			Ideal: ideal,
			FCT:   ideal + rotor.Time(rng.Int64N(int64(ideal)*3)),
		}
	}
	records[7].Ideal = 0 // no ideal: counted in FCT only
	rows, err := SummarizeFlows(records, Buckets{})
	if err != nil {
		t.Fatal(err)
	}
	lo := []int64{0, 100_000, 1_000_000}
	hi := []int64{100_000, 1_000_000, math.MaxInt64}
	total := 0
	for k, name := range []string{"short", "medium", "long"} {
		var fct, slow []float64
		for _, r := range records {
			if r.Bytes >= lo[k] && r.Bytes < hi[k] {
				fct = append(fct, float64(r.FCT)/1e6)
				if r.Ideal > 0 {
					slow = append(slow, float64(r.FCT)/float64(r.Ideal))
				}
			}
		}
		want := BucketSummary{Name: name, Count: len(fct), FCT: Summarize(fct), Slowdown: Summarize(slow)}
		if diff := cmp.Diff(want, rows[k]); diff != "" {
			t.Errorf("bucket %s:\n%s", name, diff)
		}
		if rows[k].Slowdown.Min < 1 {
			t.Errorf("bucket %s: slowdown below 1", name)
		}
		total += rows[k].Count
	}
	all := rows[3]
	if all.Name != "all" || all.Count != len(records) || total != len(records) || all.Slowdown.Count != len(records)-1 {
		t.Errorf("all row %q count %d (buckets %d), slowdown count %d", all.Name, all.Count, total, all.Slowdown.Count)
	}
	if _, err := SummarizeFlows([]FlowRecord{{Bytes: -1}}, Buckets{}); err == nil {
		t.Error("negative size accepted")
	}
	var buf bytes.Buffer
	if err := WriteFlowSummaryCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "bucket,count,fct_mean_us") || !strings.HasPrefix(lines[4], "all,5000,") {
		t.Errorf("summary CSV:\n%s", buf.String())
	}
}

func TestFormatFloatAndCSV(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {1e6, "1000000"}, {0.1, "0.1"}, {2.5, "2.5"}, {-3, "-3"},
		{1e15, "1e+15"}, {1e-5, "1e-05"}, {math.NaN(), "NaN"}, {math.Inf(1), "+Inf"}, {1.0 / 3, "0.3333333333333333"},
	} {
		if got := FormatFloat(tc.x); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 10000; i++ {
		x := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) {
			continue
		}
		back, err := strconv.ParseFloat(FormatFloat(x), 64)
		if err != nil || back != x {
			t.Fatalf("FormatFloat(%v) = %q does not read back (%v, %v)", x, FormatFloat(x), back, err)
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, []string{"name", "v"}, [][]string{{"a,b", "1"}, {`say "hi"`, "2"}}); err != nil {
		t.Fatal(err)
	}
	if want := "name,v\n\"a,b\",1\n\"say \"\"hi\"\"\",2\n"; buf.String() != want {
		t.Errorf("CSV %q, want %q", buf.String(), want)
	}
	if err := WriteCSV(&buf, []string{"a", "b"}, [][]string{{"1"}}); err == nil {
		t.Error("short row accepted")
	}
}
