package scenario

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

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
