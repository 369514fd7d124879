package docs_test

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestTDTRowFollowsEquation8: buffers.md explains DT's 57.8 % lossless
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

// TestProteanRowsCompareLikeForLike: the Protean paper's 5× and 6.9× are
// means over loads; every row that sets ours beside them says so, and the
// over-loads table's ratios and means follow from its own FCT cells.
func TestProteanRowsCompareLikeForLike(t *testing.T) {
	for file, marks := range map[string][]string{
		"buffers.md": {"5× better than DT, 6.9× than CS (TCP), each a **mean over the loads**"},
		"sweeps.md":  {"| incast p99.9 FCT, DT / Protean | 5 (mean over loads) |", "| incast p99.9 FCT, CS / Protean | 6.9 (mean over loads) |", "The published 5 and 6.9 are averages over the loads"},
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range marks {
			if !strings.Contains(string(b), m) {
				t.Errorf("%s does not say %q", file, m)
			}
		}
	}
	b, err := os.ReadFile("buffers.md")
	if err != nil {
		t.Fatal(err)
	}
	ms := func(s string) float64 {
		x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), " ms"), 64)
		if err != nil {
			t.Fatalf("cell %q: %v", s, err)
		}
		return x
	}
	var sumDT, sumCS float64
	loads := 0
	for _, line := range strings.Split(string(b), "\n") {
		c := strings.Split(line, "|")
		if len(c) != 8 || !strings.HasSuffix(strings.TrimSpace(c[1]), "%") || !strings.HasSuffix(strings.TrimSpace(c[2]), "ms") {
			continue
		}
		dt, cs, pr := ms(c[2]), ms(c[3]), ms(c[4])
		for i, want := range []float64{dt / pr, cs / pr} {
			if got := ms(c[5+i]); math.Abs(got-want) > 0.02 {
				t.Errorf("%s: ratio %v, its cells give %.3f", strings.TrimSpace(line), got, want)
			}
		}
		sumDT += dt / pr
		sumCS += cs / pr
		loads++
	}
	if loads != 4 {
		t.Fatalf("the Protean over-loads table has %d loads, want 4", loads)
	}
	for _, want := range []string{
		"**" + strconv.FormatFloat(sumDT/4, 'f', 2, 64) + "** (published 5)",
		"**" + strconv.FormatFloat(sumCS/4, 'f', 2, 64) + "** (published 6.9)",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("buffers.md: the mean row should read %q", want)
		}
	}
}
