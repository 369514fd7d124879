package fabric

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
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

// TestSpecIncast: the workload.incast_* keys give queries of exactly
// incast_senders responders on other ToRs, each sending incast_bytes to
// the querying host at the query time, about hosts·rate·duration queries
// (Poisson), on top of the background load.
func TestSpecIncast(t *testing.T) {
	setup := buildSpec(t, "topology.tors=6", "topology.hosts_per_tor=2", "workload.load=0.1",
		"workload.incast_senders=3", "workload.incast_bytes=20KB", "workload.incast_rate=1000",
		"run.sim_time=20ms")
	type query struct {
		dst, n int
		start  rotor.Time
		srcs   map[int]bool
	}
	queries := map[int]*query{}
	background := 0
	for _, f := range setup.Flows {
		if f.Query == 0 {
			background++
			continue
		}
		q := queries[f.Query]
		if q == nil {
			q = &query{dst: f.Dst, start: f.Start, srcs: map[int]bool{}}
			queries[f.Query] = q
		}
		if f.Dst != q.dst || f.Start != q.start || f.Bytes != 20_000 || f.Src/2 == f.Dst/2 || q.srcs[f.Src] {
			t.Fatalf("query %d: flow %+v does not fit (dst %d, start %v, responders %v)", f.Query, f, q.dst, q.start, q.srcs)
		}
		q.srcs[f.Src] = true
		q.n++
	}
	for id, q := range queries {
		if q.n != 3 {
			t.Errorf("query %d has %d responders, want 3", id, q.n)
		}
	}
	mean := 12 * 1000 * 0.020 // hosts × queries/s × seconds
	if got := float64(len(queries)); math.Abs(got-mean) > 5*math.Sqrt(mean) {
		t.Errorf("%v queries, want about %v (Poisson)", got, mean)
	}
	if background == 0 {
		t.Error("no background flows beside the queries")
	}
}

// TestSpecMatrixPattern: with workload.pattern = matrix every flow goes
// from ToR i to a ToR the matrix gives weight: a file holding the shift
// i → i+2 and the generator "ring" (i → i+1).
func TestSpecMatrixPattern(t *testing.T) {
	const n = 6
	file := filepath.Join(t.TempDir(), "shift2.txt")
	var text string
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w := 0
			if j == (i+2)%n {
				w = 1
			}
			text += fmt.Sprintf("%d ", w)
		}
		text += "\n"
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		matrix string
		shift  int
	}{{file, 2}, {"ring", 1}} {
		setup := buildSpec(t, fmt.Sprintf("topology.tors=%d", n), "topology.hosts_per_tor=2",
			"workload.pattern=matrix", "workload.matrix="+c.matrix, "run.sim_time=5ms")
		if len(setup.Flows) == 0 {
			t.Fatalf("%s: no flows", c.matrix)
		}
		for _, f := range setup.Flows {
			if src, dst := f.Src/2, f.Dst/2; dst != (src+c.shift)%n {
				t.Fatalf("%s: flow %+v goes from ToR %d to ToR %d, want %d", c.matrix, f, src, dst, (src+c.shift)%n)
			}
		}
	}
}
