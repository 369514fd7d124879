package docs_test

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestTDTRowFollowsEquation8: buffers.md explains DT's 57.3 % lossless
// bursts by the TDT paper's eq. (8), not by slow bursts. Recompute what it
// quotes: eq. (8)'s longest burst DT absorbs for the paper's own values,
// the share of exponential on-periods (mean 250 µs) that short, and the
// count in the trace the experiment runs.
func TestTDTRowFollowsEquation8(t *testing.T) {
	const (
		alpha, n, m = 1.0, 2.0, 1.0
		b           = 8e6 // bits: 1 MB
		r, c        = 8e9, 1e9
	)
	dmax := alpha * b / ((1 + alpha*n) * ((1+alpha*m)*(r-c) - alpha*n*c)) // seconds
	if math.Abs(dmax-222.2e-6) > 0.1e-6 {
		t.Fatalf("eq. (8): %v s, the paper says 222 µs", dmax)
	}
	share := 1 - math.Exp(-dmax/250e-6)
	f, err := os.Open("../scenario/testdata/buffers/tdt/tdt.flows")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	durations := map[string]float64{} // burst (query) → duration, s
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 5 {
			continue
		}
		bytes, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		durations[fields[4]] = bytes * 8 / 1e9 // each sender sends D × 1 Gbps
	}
	short := 0
	for _, d := range durations {
		if d <= dmax {
			short++
		}
	}
	doc, err := os.ReadFile("buffers.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, want := range []string{
		"gives 222 µs as the longest burst DT absorbs whole",
		strconv.FormatFloat(100*share, 'f', 1, 64) + " % of bursts are that short",
		"in our trace, " + strconv.Itoa(short) + " of the " + strconv.Itoa(len(durations)),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("buffers.md does not say %q", want)
		}
	}
	if strings.Contains(text, "reach the port at less than 8 Gbps") {
		t.Error("buffers.md still explains DT's lossless bursts by slow bursts, which eq. (8) rules out")
	}
}
