package sweep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// small is a 12-point simulate sweep of about 10 ms of CPU a point.
const small = `kind = "simulate"
seed = 3
[base]
"topology.tors" = 4
"topology.hosts_per_tor" = 2
"topology.uplinks" = 2
"run.sim_time" = "2ms"
[axes]
"workload.load" = [0.1, 0.3, 0.5]
"buffer.policy" = ["dt", "cs"]
seed = [1, 2]
`

func mustParse(t testing.TB, text string) *Spec {
	t.Helper()
	s, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func runSweep(t *testing.T, s *Spec, dir string, opt Options) *Outcome {
	t.Helper()
	opt.Dir = dir
	out, err := Run(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func csvOf(t *testing.T, dirs ...string) string {
	t.Helper()
	r, err := Collect(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Corrupt) > 0 || len(r.Missing) > 0 {
		t.Fatalf("corrupt %v, missing %v", r.Corrupt, r.Missing)
	}
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRunResumeCollect(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	out := runSweep(t, s, dir, Options{Jobs: 2, SpecText: []byte(small)})
	if out.Points != 12 || out.Ran != 12 || len(out.Failed) != 0 {
		t.Fatalf("outcome %+v", out)
	}
	want := csvOf(t, dir)
	if n := strings.Count(want, "\n"); n != 1+12*27 {
		t.Errorf("%d CSV lines, want 1 + 12 points × 27 metrics", n)
	}
	// Damage three points: one removed, one without its done marker, one
	// with a stale marker, plus the leftover of an interrupted write.
	pts := s.Points()
	os.RemoveAll(filepath.Join(dir, PointsDir, pts[0].Name))
	os.Remove(filepath.Join(dir, PointsDir, pts[5].Name, DoneFile))
	os.WriteFile(filepath.Join(dir, PointsDir, pts[9].Name, DoneFile), []byte("stale\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, PointsDir, ".tmp-"+pts[3].Name+"-123"), 0o755)
	out = runSweep(t, s, dir, Options{Jobs: 2})
	if out.Skipped != 9 || out.Ran != 3 {
		t.Fatalf("resumed: skipped %d ran %d, want 9 and 3", out.Skipped, out.Ran)
	}
	if got := csvOf(t, dir); got != want {
		t.Errorf("resumed CSV differs from the first run's")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, PointsDir, ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary directories left: %v", left)
	}
	// A third run has nothing to do.
	if out = runSweep(t, s, dir, Options{Jobs: 2}); out.Ran != 0 || out.Skipped != 12 {
		t.Errorf("third run %+v", out)
	}
}

func TestShardsCollectToUnsharded(t *testing.T) {
	s := mustParse(t, small)
	whole := t.TempDir()
	runSweep(t, s, whole, Options{Jobs: 2})
	var dirs []string
	total := 0
	for i := range 4 {
		d := t.TempDir()
		out := runSweep(t, s, d, Options{Jobs: 1, Shard: Shard{i, 4}})
		total += out.Ran
		dirs = append(dirs, d)
		if r, _ := Collect(d); len(r.Missing) != 12-out.Ran {
			t.Errorf("shard %d: %d missing, ran %d", i, len(r.Missing), out.Ran)
		}
	}
	if total != 12 {
		t.Errorf("shards ran %d points, want 12", total)
	}
	if a, b := csvOf(t, dirs...), csvOf(t, whole); a != b {
		t.Errorf("4 shards collected differ from the unsharded run:\n%s\nvs\n%s", a, b)
	}
}

func TestRunRefusesAnotherSpec(t *testing.T) {
	dir := t.TempDir()
	runSweep(t, mustParse(t, small), dir, Options{Jobs: 2})
	other := mustParse(t, strings.Replace(small, "0.5]", "0.6]", 1))
	_, err := Run(context.Background(), other, Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "different sweep spec") {
		t.Fatalf("error %v, want a refusal", err)
	}
	if r, _ := Collect(dir); len(r.Points) != 12 {
		t.Errorf("the refused run changed the results: %d points", len(r.Points))
	}
	// A directory holding something else is refused too.
	busy := t.TempDir()
	os.WriteFile(filepath.Join(busy, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Run(context.Background(), other, Options{Dir: busy}); err == nil || !strings.Contains(err.Error(), "not a sweep results directory") {
		t.Errorf("non-empty directory: %v", err)
	}
}

func TestBadPointDoesNotStopOthers(t *testing.T) {
	s := mustParse(t, strings.Replace(small, "[0.1, 0.3, 0.5]", "[0.1, -2]", 1))
	dir := t.TempDir()
	out := runSweep(t, s, dir, Options{Jobs: 2})
	if len(out.Failed) != 4 || out.Ran != 8 {
		t.Fatalf("outcome ran %d failed %v, want 4 of 8 failed", out.Ran, out.Failed)
	}
	for _, f := range out.Failed {
		if !strings.HasPrefix(f.Point, "load=-2_") || !strings.Contains(f.Error(), "workload.load") {
			t.Errorf("failure %q does not name the point and the key", f.Error())
		}
		if _, err := os.Stat(filepath.Join(dir, FailedDir, f.Point+".txt")); err != nil {
			t.Errorf("no failure record: %v", err)
		}
	}
	r, _ := Collect(dir)
	if len(r.Points) != 4 || len(r.Missing) != 4 {
		t.Errorf("collected %d, missing %d", len(r.Points), len(r.Missing))
	}
}

func TestCollectCorrupt(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	runSweep(t, s, dir, Options{Jobs: 2, SpecText: []byte(small)})
	p := s.Points()[4].Name
	os.WriteFile(filepath.Join(dir, PointsDir, p, MetricsFile), []byte("metric,value\nx,notanumber\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, PointsDir, "stray"), 0o755)
	r, err := Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Corrupt) != 2 || len(r.Points) != 11 || len(r.Missing) != 1 || r.Missing[0] != p {
		t.Fatalf("corrupt %v, %d points, missing %v", r.Corrupt, len(r.Points), r.Missing)
	}
	if !strings.Contains(r.Corrupt[0].Error(), p) || !strings.Contains(r.Corrupt[0].Error(), MetricsFile+": its content differs") {
		t.Errorf("corrupt point not named: %v", r.Corrupt[0])
	}
}

// spin is a test kind: CPU work, counting how many points run at once.
type spin struct {
	keyList
	running, peak atomic.Int32
}

func (k *spin) SeedKeys(map[string]string) []string { return nil }

func (k *spin) Run(ctx context.Context, cfg [][2]string, _ string) ([]Metric, error) {
	n := k.running.Add(1)
	defer k.running.Add(-1)
	for {
		p := k.peak.Load()
		if n <= p || k.peak.CompareAndSwap(p, n) {
			break
		}
	}
	x := 1.0
	for i := range 30_000_000 {
		x += 1 / float64(i+1)
	}
	return []Metric{{"harmonic", x}}, nil
}

var spinKind = &spin{keyList: keyList{{"spin.x", "0", "an axis"}}}
var registerSpin sync.Once

// TestTwoJobsKeepTwoCoresBusy runs 24 CPU-bound points with 2 jobs. It
// asserts that two points ran at once and reports the process's CPU/wall
// ratio (2 when both cores are ours; the test machine is shared, so the
// ratio is logged, not asserted).
func TestTwoJobsKeepTwoCoresBusy(t *testing.T) {
	registerSpin.Do(func() { Register("spin-test", spinKind) })
	var vals []string
	for i := range 24 {
		vals = append(vals, fmt.Sprint(i))
	}
	s := mustParse(t, "kind = \"spin-test\"\n[axes]\n\"spin.x\" = ["+strings.Join(vals, ", ")+"]\n")
	out := runSweep(t, s, t.TempDir(), Options{Jobs: 2})
	if out.Ran != 24 || len(out.Failed) > 0 {
		t.Fatalf("outcome %+v", out)
	}
	if p := spinKind.peak.Load(); p != 2 {
		t.Errorf("at most %d points ran at once, want 2", p)
	}
	one := runSweep(t, s, t.TempDir(), Options{Jobs: 1})
	t.Logf("24 points: 2 jobs: wall %.2f s, CPU %.2f s, CPU/wall %.2f; 1 job: wall %.2f s, CPU/wall %.2f (load from other processes lowers both)",
		out.Wall.Seconds(), out.CPU.Seconds(), out.CPU.Seconds()/out.Wall.Seconds(), one.Wall.Seconds(), one.CPU.Seconds()/one.Wall.Seconds())
}
