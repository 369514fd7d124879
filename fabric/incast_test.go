package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// TestIncastQCT checks the query completion time on the fabric of
// TestSingleFlowDirect (four ToRs, one host each, true rotor, Δ = 10 µs,
// Δr = 1 µs, 10 Gbps, 100 ns links). Query 1 at t = 0: host 0 sends 2
// packets to host 2 (FCT 13.8 µs, derived there) and host 1 sends 1 packet
// to host 2 over shift 1, live in slot 0: host link [0, 1.2), circuit
// [1.3, 2.5), host port [2.6, 3.8), at the host 3.9 µs. The two never share
// host 2's port, so QCT = 13.8 µs. Query 2 (15 MB from host 3 at 100 µs)
// cannot finish in the 1 ms run; a background flow (query 0) is not a
// query.
func TestIncastQCT(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	flows := []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 3000, Query: 1},
		{ID: 1, Src: 1, Dst: 2, Bytes: 1500, Query: 1},
		{ID: 2, Src: 3, Dst: 2, Bytes: 15_000_000, Start: 100 * us, Query: 2},
		{ID: 3, Src: 1, Dst: 3, Bytes: 1500, Start: 500 * us},
	}
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows)
	cfg.Transport = LineRate
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Flows[1].FCT, 3*us+900*ns; got != want {
		t.Errorf("host 1's response FCT = %v, want %v", got, want)
	}
	started, completed, qct := r.Queries()
	if diff := cmp.Diff([]any{2, 1, []float64{13.8}}, []any{started, completed, qct}); diff != "" {
		t.Errorf("queries started, completed, QCT µs (-want +got):\n%s", diff)
	}
	s, err := r.Summarize(stats.Buckets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := s.Queries; q == nil || q.Started != 2 || q.Completed != 1 || q.QCTus.Count != 1 || q.QCTus.Max != 13.8 {
		t.Errorf("summary queries = %+v, want 2 started, 1 completed, QCT 13.8 µs", q)
	}
	h, rows := r.FlowsCSV()
	if h[len(h)-1] != "query" {
		t.Fatalf("flows.csv header %v: last column is not query", h)
	}
	var col []string
	for _, row := range rows {
		col = append(col, row[len(row)-1])
	}
	if diff := cmp.Diff([]string{"1", "1", "2", "0"}, col); diff != "" {
		t.Errorf("flows.csv query column (-want +got):\n%s", diff)
	}

	// Without queries the summary has no queries entry.
	cfg = baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows[3:])
	r, err = Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Summarize(stats.Buckets{}, nil); s.Queries != nil {
		t.Errorf("a run without queries reports %+v", s.Queries)
	}
}
