package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/internal/memlimit"
	"github.com/rdcn/rdcn/predict"
)

// TestMemoryRefusal: under a fake 100 MB limit, a predict study whose
// estimate exceeds it is refused up front with exit 2 and one line giving
// the estimate and the limit; a small one runs.
func TestMemoryRefusal(t *testing.T) {
	saved := availableMemory
	defer func() { availableMemory = saved }()
	availableMemory = func() (memlimit.Limit, bool) { return memlimit.Limit{Bytes: 100e6, Source: "test limit"}, true }

	args := []string{"rdcn", "predict", "--tors", "2048", "--samples", "1", "--matrices", "ring", "--factors", "0",
		"--gammas", "1", "--algorithms", "bvn", "--noise", "additive", "--workers", "1"}
	// 2·(1 + 1 + 8)·8·2048² bytes = 671 MB (truth, the pooled reading's pool, one evaluation).
	want := gigabytes(predict.Study{Nodes: 2048, Matrices: []string{"ring"}, Noises: []string{"additive"}, Factors: []float64{0},
		Gammas: []float64{1}, Algorithms: []predict.Algorithm{predict.BvN}, Samples: 1, Workers: 1}.MemoryEstimate())
	if want != "671 MB" {
		t.Fatalf("estimate %s, want 671 MB", want)
	}
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	msg := errb.String()
	if code != 2 || strings.Count(msg, "\n") != 1 || !namesField(msg, "memory") ||
		!strings.Contains(msg, "671 MB") || !strings.Contains(msg, "100 MB available (test limit)") || out.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %d bytes", code, msg, out.Len())
	}
	out.Reset()
	errb.Reset()
	small := []string{"rdcn", "predict", "--tors", "8", "--samples", "1", "--matrices", "ring", "--factors", "0",
		"--gammas", "1", "--algorithms", "bvn"}
	if code := run(small, &out, &errb); code != 0 {
		t.Errorf("n = 8 under 100 MB: exit %d: %s", code, errb.String())
	}
}
