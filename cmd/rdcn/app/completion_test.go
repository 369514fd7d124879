package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// TestCompletionWarningEverywhere: runs too short for their flows to
// finish make demo, sweep and report (of the sweep and of one point)
// print the very line simulate prints (completionWarning of the same
// summary), once per unfinished run.
func TestCompletionWarningEverywhere(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rdcn", "demo", "--tors", "8", "--uplinks", "4", "--sim-time", "1ms", "-o", filepath.Join(t.TempDir(), "demo.txt")}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stderr.String(), "measured flows ("); n != 4 {
		t.Errorf("demo: %d completion warnings, want one per fabric:\n%s", n, stderr.String())
	}
	if !strings.Contains(stderr.String(), "rdcn demo: mars: only ") {
		t.Errorf("demo: no warning for mars:\n%s", stderr.String())
	}

	dir := t.TempDir()
	spec := filepath.Join(dir, "short.toml")
	if err := os.WriteFile(spec, []byte(`kind = "simulate"
[base]
"topology.tors" = 4
"topology.hosts_per_tor" = 2
"topology.uplinks" = 2
"run.sim_time" = "2ms"
[axes]
"workload.load" = [0.2, 0.4]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res")
	stderr.Reset()
	if code := run([]string{"rdcn", "sweep", "--jobs", "1", "-o", out, spec}, &stdout, &stderr); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr.String())
	}
	r, err := sweep.Collect(out)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range r.Points {
		sum, err := report.ReadSummary(p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if w := completionWarning(sum); w != "" {
			want = append(want, "point "+p.Name+": "+w)
		}
	}
	if len(want) == 0 {
		t.Fatal("every flow finished in 2 ms: the test needs unfinished ones")
	}
	check := func(cmd, got string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(got, "rdcn "+cmd+": "+w+"\n") {
				t.Errorf("%s: stderr lacks %q:\n%s", cmd, w, got)
			}
		}
	}
	check("sweep", stderr.String())

	stderr.Reset()
	if code := run([]string{"rdcn", "report", "-o", filepath.Join(dir, "r.html"), out}, &stdout, &stderr); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr.String())
	}
	check("report", stderr.String())

	stderr.Reset()
	p := r.Points[len(r.Points)-1]
	if code := run([]string{"rdcn", "report", "-o", filepath.Join(dir, "p.html"), p.Dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("report of a point: exit %d: %s", code, stderr.String())
	}
	sum, _ := report.ReadSummary(p.Dir)
	if w := completionWarning(sum); w == "" || stderr.String() != "rdcn report: "+w+"\n" {
		t.Errorf("report of a point: stderr %q, want simulate's warning %q", stderr.String(), w)
	}

	// rdcn simulate's own output directory: the report's FCT CDF counts
	// the unfinished flows in its legend, and the warning is simulate's.
	sim := filepath.Join(dir, "sim")
	stderr.Reset()
	run([]string{"rdcn", "simulate", "-q", "-o", sim, "--set", "topology.tors=4", "--set", "topology.hosts_per_tor=2", "--set", "topology.uplinks=2",
		"--set", "run.sim_time=2ms", "--set", "workload.load=0.4"}, &stdout, &stderr)
	simWarn := strings.TrimPrefix(stderr.String(), "rdcn simulate: ")
	sum, err = report.ReadSummary(sim)
	if err != nil || sum.Measured.Unfinished == 0 || simWarn == "" {
		t.Fatalf("simulate: %v, %+v, stderr %q: the test needs unfinished flows", err, sum.Measured, stderr.String())
	}
	stderr.Reset()
	html := filepath.Join(dir, "sim.html")
	if code := run([]string{"rdcn", "report", "-o", html, sim}, &stdout, &stderr); code != 0 || stderr.String() != "rdcn report: "+simWarn {
		t.Errorf("report of a simulate directory: exit %d, stderr %q, want simulate's warning %q", code, stderr.String(), simWarn)
	}
	page, _ := os.ReadFile(html)
	legend := fmt.Sprintf("measured flows (%d of %d unfinished, censored)", sum.Measured.Unfinished, sum.Measured.Started)
	if !strings.Contains(string(page), legend) {
		t.Errorf("the single run's FCT CDF lacks %q", legend)
	}
}
