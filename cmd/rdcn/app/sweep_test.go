package app

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/rdcn/rdcn/sweep"
)

// sweepSpec24 is 24 simulate points of roughly 0.1–0.5 s each.
const sweepSpec24 = `kind = "simulate"
seed = 5
[base]
"topology.tors" = 8
"topology.hosts_per_tor" = 4
"run.sim_time" = "20ms"
[axes]
"workload.load" = [0.1, 0.2, 0.3, 0.4]
"buffer.policy" = ["dt", "cs"]
seed = [1, 2, 3]
`

func writeSpec(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "spec.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// rdcnRun runs the CLI in process.
func rdcnRun(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(append([]string{"rdcn"}, args...), &o, &e)
	return status, o.String(), e.String()
}

func finishedPoints(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	entries, _ := os.ReadDir(filepath.Join(dir, sweep.PointsDir))
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, sweep.PointsDir, e.Name(), sweep.DoneFile)); err == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestSweepKilledAndResumed builds rdcn, SIGKILLs a 24-point sweep half-way,
// resumes it, and checks that the resumed run runs exactly the missing
// points and that collect's CSV is byte-identical to an uninterrupted run's.
func TestSweepKilledAndResumed(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go toolchain not on PATH: cannot build the rdcn binary")
	}
	bin := filepath.Join(t.TempDir(), "rdcn")
	if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/rdcn/rdcn/cmd/rdcn").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	spec := writeSpec(t, sweepSpec24)
	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(bin, "sweep", "--jobs", "2", "-o", dir, spec)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	done := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), " done in ") {
			if done++; done == 10 {
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
	}
	cmd.Wait()
	before := finishedPoints(t, dir)
	if len(before) < 10 || len(before) >= 24 {
		t.Fatalf("%d points finished at the kill, want between 10 and 23", len(before))
	}
	// Resume: the points it runs are exactly the missing ones.
	res := exec.Command(bin, "sweep", "--jobs", "2", "-o", dir, spec)
	var rout, rerr bytes.Buffer
	res.Stdout, res.Stderr = &rout, &rerr
	if err := res.Run(); err != nil {
		t.Fatalf("resume: %v\n%s", err, rerr.String())
	}
	var ran []string
	for _, m := range regexp.MustCompile(`\] (\S+) done in `).FindAllStringSubmatch(rerr.String(), -1) {
		ran = append(ran, m[1])
	}
	var all []string
	for _, p := range mustSpec(t, sweepSpec24).Points() {
		all = append(all, p.Name)
	}
	var missing []string
	for _, n := range all {
		if !slices.Contains(before, n) {
			missing = append(missing, n)
		}
	}
	slices.Sort(ran)
	slices.Sort(missing)
	if !slices.Equal(ran, missing) {
		t.Errorf("resume ran %v, want the missing %v", ran, missing)
	}
	t.Logf("killed after %d points; resume: %s", len(before), strings.TrimSpace(rout.String()))
	// Collect equals an uninterrupted run's.
	whole := filepath.Join(t.TempDir(), "whole")
	if st, _, e := rdcnRun("sweep", "-o", whole, spec); st != 0 {
		t.Fatalf("uninterrupted sweep: %d %s", st, e)
	}
	a, err := exec.Command(bin, "collect", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	_, b, _ := rdcnRun("collect", whole)
	if string(a) != b || len(a) == 0 {
		t.Errorf("collect after kill+resume differs from the uninterrupted run (%d vs %d bytes)", len(a), len(b))
	}
}

func mustSpec(t *testing.T, text string) *sweep.Spec {
	t.Helper()
	s, err := sweep.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const quickSpec = `kind = "throughput"
[base]
"throughput.demand" = "uniform"
"throughput.gap" = 0.01
[axes]
"topology.tors" = [8, 12]
"schedule.kind" = ["rotornet", "opera", "sirius"]
`

func TestSweepShardsCollect(t *testing.T) {
	spec := writeSpec(t, quickSpec)
	root := t.TempDir()
	var dirs []string
	for i := range 4 {
		d := filepath.Join(root, "shard"+string(rune('0'+i)))
		if st, _, e := rdcnRun("sweep", "--shard", string(rune('0'+i))+"/4", "-o", d, spec); st != 0 {
			t.Fatalf("shard %d: %d %s", i, st, e)
		}
		dirs = append(dirs, d)
	}
	st, sharded, e := rdcnRun(append([]string{"collect"}, dirs...)...)
	if st != 0 {
		t.Fatalf("collect shards: %d %s", st, e)
	}
	whole := filepath.Join(root, "whole")
	rdcnRun("sweep", "-o", whole, spec)
	_, want, _ := rdcnRun("collect", whole)
	if sharded != want || !strings.HasPrefix(want, "point,topology.tors,schedule.kind,metric,value\n") {
		t.Errorf("4 shards:\n%s\nunsharded:\n%s", sharded, want)
	}
	// One shard alone is incomplete: status 1, one line.
	st, _, e = rdcnRun("collect", dirs[0])
	if st != 1 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "points missing") {
		t.Errorf("one shard: status %d, stderr %q", st, e)
	}
}

func TestSweepEmitSlurm(t *testing.T) {
	spec := writeSpec(t, quickSpec)
	res := filepath.Join(t.TempDir(), "res")
	st, script, e := rdcnRun("sweep", "--emit", "slurm", "--shards", "3", "--cpus", "2", "-o", res, spec)
	if st != 0 {
		t.Fatalf("%d %s", st, e)
	}
	for _, want := range []string{"#SBATCH --array=0-2\n", "#SBATCH --cpus-per-task=2\n", `--shard "${SLURM_ARRAY_TASK_ID}/3" --jobs 2 -o '` + res + `' '` + spec + `'`} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	if _, err := os.Stat(filepath.Join(res, sweep.ManifestFile)); err != nil {
		t.Errorf("--emit slurm did not prepare the results directory: %v", err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	f := filepath.Join(t.TempDir(), "job.sh")
	os.WriteFile(f, []byte(script), 0o755)
	if out, err := exec.Command(bash, "-n", f).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s", err, out)
	}
}

func TestSweepEmitKubernetes(t *testing.T) {
	spec := writeSpec(t, quickSpec)
	st, manifest, e := rdcnRun("sweep", "--emit", "k8s", "--shards", "4", "--pvc", "shared", "--image", "reg/rdcn:1", spec)
	if st != 0 {
		t.Fatalf("%d %s", st, e)
	}
	dec := yaml.NewDecoder(strings.NewReader(manifest))
	var docs []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			break
		}
		docs = append(docs, d)
	}
	if len(docs) != 2 || docs[0]["kind"] != "ConfigMap" || docs[1]["kind"] != "Job" {
		t.Fatalf("documents %v", docs)
	}
	if got := docs[0]["data"].(map[string]any)["sweep.toml"]; got != quickSpec {
		t.Errorf("ConfigMap spec %q", got)
	}
	js := docs[1]["spec"].(map[string]any)
	if js["completionMode"] != "Indexed" || js["completions"] != 4 || js["parallelism"] != 4 {
		t.Errorf("job spec %v", js)
	}
	pod := js["template"].(map[string]any)["spec"].(map[string]any)
	ctr := pod["containers"].([]any)[0].(map[string]any)
	args := ctr["args"].([]any)[0].(string)
	if ctr["image"] != "reg/rdcn:1" || !strings.Contains(args, `--shard "$JOB_COMPLETION_INDEX/4"`) || !strings.Contains(args, "-o /results") {
		t.Errorf("container %v", ctr)
	}
	vols := pod["volumes"].([]any)
	if claim := vols[0].(map[string]any)["persistentVolumeClaim"].(map[string]any)["claimName"]; claim != "shared" {
		t.Errorf("results volume claim %v", claim)
	}
	if pod["restartPolicy"] != "Never" {
		t.Errorf("restartPolicy %v", pod["restartPolicy"])
	}
}

// TestSweepBadInput: each mistake is one line on stderr.
func TestSweepBadInput(t *testing.T) {
	good := writeSpec(t, quickSpec)
	dir := t.TempDir()
	used := filepath.Join(dir, "used")
	if st, _, e := rdcnRun("sweep", "-o", used, good); st != 0 {
		t.Fatal(e)
	}
	other := writeSpec(t, strings.Replace(quickSpec, "[8, 12]", "[8, 16]", 1))
	corrupt := filepath.Join(t.TempDir(), "corrupt")
	rdcnRun("sweep", "-o", corrupt, good)
	pts, _ := os.ReadDir(filepath.Join(corrupt, sweep.PointsDir))
	bad := filepath.Join(corrupt, sweep.PointsDir, pts[2].Name(), sweep.MetricsFile)
	os.WriteFile(bad, []byte("garbage\"\n"), 0o644)
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"unknown key on an axis", []string{"sweep", writeSpec(t, "kind = \"simulate\"\n[axes]\n\"workload.lod\" = [0.1]\n")}, 2, `axes."workload.lod": "workload.lod": unknown key`},
		{"empty axis", []string{"sweep", writeSpec(t, "kind = \"simulate\"\n[axes]\n\"workload.load\" = []\n")}, 2, "empty axis"},
		{"malformed shard", []string{"sweep", "--shard", "5/4", good}, 2, `shard: "5/4": I must be in [0, 4)`},
		{"different spec", []string{"sweep", "-o", used, other}, 2, "holds results of a different sweep spec"},
		{"corrupt point", []string{"collect", corrupt}, 1, "skipped 1 damaged point directories: " + filepath.Dir(bad)},
		{"no spec", []string{"sweep"}, 2, "want one sweep spec file"},
		{"emit what", []string{"sweep", "--emit", "pbs", good}, 2, `emit: "pbs"`},
		// -o into the test's directory, so that nothing is written into
		// the package directory.
		{"unknown experiment", []string{"experiment", "run", "-o", filepath.Join(dir, "nope"), "nope"}, 2, `"nope": unknown`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _, e := rdcnRun(tc.args...)
			if st != tc.status || strings.Count(e, "\n") != 1 || !strings.Contains(e, tc.want) {
				t.Errorf("status %d, stderr %q; want %d and one line containing %q", st, e, tc.status, tc.want)
			}
		})
	}
	if r, _ := sweep.Collect(used); len(r.Points) != 6 {
		t.Errorf("the refused spec changed the results dir: %d points", len(r.Points))
	}
}

// TestFlagsAfterTheName: `rdcn experiment run tradeoff --quick -o DIR`
// (the form) and `rdcn sweep SPEC -o DIR --jobs 1` read the flags
// after the positional argument as those before it; an unknown one there
// is still refused.
func TestFlagsAfterTheName(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "exp")
	if st, out, e := rdcnRun("experiment", "run", "tradeoff", "--quick", "-o", exp, "--jobs", "1"); st != 0 ||
		!strings.Contains(out, "report "+filepath.Join(exp, "report.html")) {
		t.Fatalf("status %d, stdout %q, stderr %q", st, out, e)
	}
	if _, err := os.Stat(filepath.Join(exp, "report.html")); err != nil {
		t.Error(err)
	}
	res := filepath.Join(dir, "res")
	if st, _, e := rdcnRun("sweep", writeSpec(t, quickSpec), "-o", res, "--jobs", "1"); st != 0 {
		t.Fatal(e)
	}
	if n := len(finishedPoints(t, res)); n != 6 {
		t.Errorf("sweep with trailing -o: %d points in %s, want 6", n, res)
	}
	if st, _, e := rdcnRun("experiment", "run", "tradeoff", "--nope"); st != 2 || !strings.Contains(e, "-nope") {
		t.Errorf("unknown trailing flag: status %d, stderr %q", st, e)
	}
}

// TestSweepEmitHostileOutput: the issue's `--emit slurm -o $'r\ntouch
// PWNED2\n#'` is refused with one line before anything is created; a
// directory named with $() and quotes is quoted, and the script passes
// bash -n (issue 25, defect 3; sweep's TestSlurmHostilePaths runs them).
func TestSweepEmitHostileOutput(t *testing.T) {
	spec := writeSpec(t, quickSpec)
	newline := filepath.Join(t.TempDir(), "r\ntouch PWNED2\n#")
	st, script, e := rdcnRun("sweep", "--emit", "slurm", "-o", newline, spec)
	if st != 2 || strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "rdcn: output: ") || script != "" {
		t.Errorf("newline in -o: status %d, stderr %q, stdout %q; want 2, one line naming output, no script", st, e, script)
	}
	if _, err := os.Lstat(newline); err == nil {
		t.Errorf("the refused results directory was created")
	}
	quoted := filepath.Join(t.TempDir(), `r'$(touch PWNED2)'"`+"`x`")
	st, script, e = rdcnRun("sweep", "--emit", "slurm", "-o", quoted, spec)
	if st != 0 || !strings.Contains(script, " -o "+sweep.ShellQuote(quoted)+" ") {
		t.Fatalf("status %d, stderr %q; script:\n%s", st, e, script)
	}
	f := filepath.Join(t.TempDir(), "job.sh")
	os.WriteFile(f, []byte(script), 0o644)
	if out, err := exec.Command("bash", "-n", f).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s", err, out)
	}
}

// TestSweepBusyDir: a second sweep into a results directory another run
// holds is refused with status 1 (the command is right, the directory
// busy: rerun later) and one line (issue 25, defect 5).
func TestSweepBusyDir(t *testing.T) {
	spec := writeSpec(t, quickSpec)
	dir := filepath.Join(t.TempDir(), "res")
	if st, _, e := rdcnRun("sweep", "-o", dir, spec); st != 0 {
		t.Fatal(e)
	}
	f, err := os.OpenFile(filepath.Join(dir, sweep.LockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	st, _, e := rdcnRun("sweep", "-o", dir, spec)
	if st != 1 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "rdcn: output: "+dir+" is in use by another rdcn sweep") {
		t.Errorf("status %d, stderr %q; want 1 and one line: in use", st, e)
	}
}
