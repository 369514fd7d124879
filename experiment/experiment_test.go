package experiment

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

func TestRegistry(t *testing.T) {
	want := []string{"tradeoff", "mars-small-buffers", "vermilion-noise", "abm", "credence", "fb", "tdt", "protean", "reverie", "powertcp-rdcn", "abm-load"}
	for _, n := range want {
		e, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		if e.Available {
			for _, quick := range []bool{true, false} {
				s, err := sweep.Parse(strings.NewReader(e.Spec(Scale{Quick: quick, Inputs: "/inputs"})))
				if err != nil {
					t.Fatalf("%s (quick %v): %v", n, quick, err)
				}
				if s.Size() < 2 {
					t.Errorf("%s: %d points", n, s.Size())
				}
			}
		} else if !strings.HasPrefix(e.Reason, "needs ") {
			t.Errorf("%s: reason %q", n, e.Reason)
		}
	}
	if len(List()) != len(want) {
		t.Errorf("%d experiments, want %d", len(List()), len(want))
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("unknown experiment accepted")
	}
	e := &Experiment{Name: "unavailable-test", Reason: "needs a test"}
	if _, err := Run(context.Background(), e, Options{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("unavailable experiment ran: %v", err)
	}
}

// TestTradeoffReproducesTable71 runs the quick tradeoff experiment and
// compares each published value with ours: all of Table 7.1 agrees except
// Mars's delay, where the thesis prints the requirement (850 µs) and the
// design's own delay is 800 µs; so every verdict, in the report too, is
// within band.
func TestTradeoffReproducesTable71(t *testing.T) {
	e, _ := Lookup("tradeoff")
	dir, r := runQuick(t, e)
	for _, p := range e.Published {
		ours, ok := p.Ours(r)
		if !ok {
			t.Errorf("%s: no value of ours", p.What)
			continue
		}
		want := p.Value
		if p.What == "Mars delay (µs)" {
			want = 800
		}
		if math.Abs(ours-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s: ours %v, want %v (published %v)", p.What, ours, want, p.Value)
		}
		if v := p.Judge(r).Verdict; v != report.WithinBand {
			t.Errorf("%s: %s", p.What, v.Word())
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil || !strings.Contains(string(page), "Fig. 7.1") || !strings.Contains(string(page), "10 of 10 published values reproduced, 0 same direction only (0 differ, 0 with no value of ours)") {
		t.Errorf("report: %v", err)
	}
	var b bytes.Buffer
	if err := WritePublished(&b, e, dir); err != nil || !strings.HasPrefix(b.String(), "tradeoff: 10 of 10 published values reproduced") ||
		strings.Count(b.String(), "| within band |") != 10 {
		t.Errorf("rdcn experiment run's table: %v\n%s", err, b.String())
	}
}

// TestTDTLosslessBursts runs the quick tdt experiment (three runs of the
// trace, well under a second) and compares the lossless-burst shares with
// those scenario/testdata/buffers/run.sh counts from the same runs' flows.csv
// with awk (DT 57.8 %, EDT 58.9 %, TDT 85.4 % of 192 bursts with the send
// jitter of one packet time; docs/buffers.md's 57.3, 58.9 and 87.0 were
// counted with 0.1), a second count by other code; the paper's order DT <
// EDT < TDT must hold.
func TestTDTLosslessBursts(t *testing.T) {
	e, _ := Lookup("tdt")
	dir, r := runQuick(t, e)
	runSh := map[string]float64{"DT": 57.8125, "EDT": 58.8542, "TDT": 85.4167}
	one := r.Replicates()
	if len(one) != 2 {
		t.Fatalf("%d replicates, want 2", len(one))
	}
	var prev float64
	for _, p := range e.Published {
		ours, ok := p.Ours(one[0]) // replicate 1 is run.sh's run
		name := strings.Fields(p.What)[0]
		name = strings.TrimSuffix(name, ":")
		if !ok || math.Abs(ours-runSh[name]) > 0.05 {
			t.Errorf("%s: ours %v (ok %v), run.sh %v", p.What, ours, ok, runSh[name])
		}
		if ours <= prev {
			t.Errorf("%s: %v not above the previous policy's %v", p.What, ours, prev)
		}
		prev = ours
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "points", "policy=dt_seed=1", "config.toml"))
	if err != nil || !strings.Contains(string(cfg), `"size" = "1MB"`) || !strings.Contains(string(cfg), filepath.Join(dir, InputsDir, "tdt.flows")) {
		t.Errorf("the point's configuration lacks the set-up's buffer or the trace: %v\n%s", err, cfg)
	}
}

// TestCredenceMatchesRunSh runs the quick credence experiment (seven runs
// of about 0.15 s per replicate) and compares replicate 1's incast p95
// FCTs with the ones
// scenario/testdata/buffers/run.sh computes with awk from the same runs'
// flows.csv (nearest rank; docs/buffers.md), within 1 %: the sweep's base
// must be the set-up's configuration, seeds included.
func TestCredenceMatchesRunSh(t *testing.T) {
	e, _ := Lookup("credence")
	_, r := runQuick(t, e)
	// run.sh's pct (nearest rank) on the 40 % runs after issue 29's
	// transport (SACK recovery, RFC 6298 timer, ns-3's start-up, send
	// jitter of one packet time) and RFC 8257 marking, with the retrained
	// built-in model, and RFC 6675's rescue retransmission.
	for policy, want := range map[string]float64{"dt": 10380, "abm": 253.0, "lqd": 259.6, "credence": 259.6, "p0.005": 301.1, "p0.01": 507.4, "p0.1": 10330} {
		got, ok := Mean(r, "incast_fct_p95_us", map[string]string{"policy": policy, sweep.ReplicateAxis: "1"}) // replicate 1 is run.sh's run
		if !ok || math.Abs(got-want) > 0.01*want {
			t.Errorf("%s: incast p95 FCT %v µs (ok %v), run.sh %v", policy, got, ok, want)
		}
	}
}

// runQuick runs e at quick scale into a new directory and collects it.
func runQuick(t *testing.T, e *Experiment) (string, *sweep.Results) {
	t.Helper()
	dir := t.TempDir()
	out, err := Run(context.Background(), e, Options{Quick: true, Dir: dir, Jobs: 2, Version: "test"})
	if err != nil || len(out.Failed) > 0 {
		t.Fatalf("%v %v", err, out)
	}
	r, err := sweep.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, r
}

// TestReverieSpec: the reverie sweep keeps the set-up's lossless class
// (PFC) and runs the four policies at the three loads, 3 replicates at
// the full scale, 2 at the quick one.
func TestReverieSpec(t *testing.T) {
	e, _ := Lookup("reverie")
	for quick, want := range map[bool]int{true: 24, false: 36} {
		text := e.Spec(Scale{Quick: quick})
		s, err := sweep.Parse(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if s.Size() != want {
			t.Errorf("quick %v: %d points, want %d", quick, s.Size(), want)
		}
		if !strings.Contains(text, `"buffer.lossless" = "1"`) {
			t.Errorf("quick %v: no lossless class in\n%s", quick, text)
		}
	}
}

// TestPowerTCPRDCNSpec: the case study's sweep runs the seven schemes of
// docs/cc.md's table (2 replicates at the quick scale, 3 at the full) on
// the flow file written under Inputs, with no
// scheme inheriting the set-up's law.
func TestPowerTCPRDCNSpec(t *testing.T) {
	e, _ := Lookup("powertcp-rdcn")
	for quick, want := range map[bool]int{true: 14, false: 21} {
		text := e.Spec(Scale{Quick: quick, Inputs: "/inputs"})
		s, err := sweep.Parse(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if s.Size() != want {
			t.Errorf("quick %v: %d points, want %d", quick, s.Size(), want)
		}
		if !strings.Contains(text, `"workload.flows_file" = "/inputs/rdcn.flows"`) {
			t.Errorf("quick %v: flow file not under Inputs in\n%s", quick, text)
		}
		if strings.Count(text, `"transport.cc" =`) != 7 {
			t.Errorf("quick %v: transport.cc set %d times, want once per scheme", quick, strings.Count(text, `"transport.cc" =`))
		}
	}
}

// TestReportWriteFailureLeavesNoTemp: a report that cannot be put in
// place (report.html is a non-empty directory) fails and leaves no
// temporary file behind, and a stale `.report.html.tmp` of an earlier
// crash does not block the next write (issue 25, defect 10).
func TestReportWriteFailureLeavesNoTemp(t *testing.T) {
	e, _ := Lookup("tradeoff")
	dir, _ := runQuick(t, e)
	report := filepath.Join(dir, ReportFile)
	if err := os.Remove(report); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(report, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), e, Options{Quick: true, Dir: dir, Jobs: 1}); err == nil {
		t.Fatal("report.html is a directory, yet Run succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(left) > 0 {
		t.Errorf("a failed write left %q", left)
	}
	if err := os.RemoveAll(report); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "."+ReportFile+".tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), e, Options{Quick: true, Dir: dir, Jobs: 1}); err != nil {
		t.Fatalf("a stale temporary name blocked the report: %v", err)
	}
	if st, err := os.Stat(report); err != nil || !st.Mode().IsRegular() {
		t.Errorf("report: %v", err)
	}
}
