package app

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rdcn/rdcn/scenario"
)

var (
	sharedBinOnce sync.Once
	sharedBin     string
	sharedBinErr  string
)

// sharedRdcn builds the rdcn binary once for the tests that run it under
// prlimit (removed by the test's cleanup of the last user: the directory
// is the first test's temporary directory's sibling, kept for the run).
func sharedRdcn(t *testing.T) string {
	t.Helper()
	sharedBinOnce.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			sharedBinErr = "go toolchain not on PATH"
			return
		}
		dir, err := os.MkdirTemp("", "rdcn-limits-")
		if err != nil {
			sharedBinErr = err.Error()
			return
		}
		sharedBin = filepath.Join(dir, "rdcn")
		if out, err := exec.Command(gobin, "build", "-o", sharedBin, "github.com/rdcn/rdcn/cmd/rdcn").CombinedOutput(); err != nil {
			sharedBinErr = "go build: " + err.Error() + "\n" + string(out)
		}
	})
	if sharedBinErr != "" {
		t.Skip(sharedBinErr)
	}
	t.Cleanup(func() {}) // the binary stays for the other tests of this run
	return sharedBin
}

// runUnderPrlimit runs rdcn with its address space capped at as bytes
// (prlimit --as), in dir; it returns stdout, stderr and the exit status.
func runUnderPrlimit(t *testing.T, as string, dir string, args ...string) (string, string, int) {
	t.Helper()
	stdout, stderr, code, _ := runUnderPrlimitRSS(t, as, dir, args...)
	return stdout, stderr, code
}

// runUnderPrlimitRSS is runUnderPrlimit that also returns the peak
// resident set of the run in bytes (prlimit execs rdcn, so the child's
// maxrss is rdcn's).
func runUnderPrlimitRSS(t *testing.T, as string, dir string, args ...string) (string, string, int, int64) {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit not on PATH")
	}
	bin := sharedRdcn(t)
	cmd := exec.Command(prlimit, append([]string{"--as=" + as, bin}, args...)...)
	cmd.Dir = dir
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	err = cmd.Run()
	var rss int64
	if cmd.ProcessState != nil {
		rss = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
	}
	return out.String(), errw.String(), exitCode(err), rss
}

// TestSweepAnalysisSizeChecks: sweep points of kinds throughput, tradeoff
// and predict apply the commands' limit of 8192 ToRs before they
// allocate: each oversized point is a failed/ entry naming topology.tors
// and the sweep goes on (issue 25, defect 1: 100 000 ToRs tried to
// allocate 80 GB and the out-of-memory crash took the whole sweep down; 10⁹
// recorded a makeslice panic).
func TestSweepAnalysisSizeChecks(t *testing.T) {
	for _, tc := range []struct{ kind, base string }{
		{"throughput", `"schedule.kind"="rotornet"` + "\n" + `"topology.uplinks"=2`},
		{"tradeoff", `"topology.uplinks"=2`},
		{"predict", `"topology.uplinks"=2`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			dir := t.TempDir()
			spec := "kind=\"" + tc.kind + "\"\n[base]\n" + tc.base + "\n[axes]\n\"topology.tors\"=[100000, 9000, 1000000000, 8]\n"
			if err := os.WriteFile(filepath.Join(dir, "s.toml"), []byte(spec), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runUnderPrlimit(t, "4294967296", dir, "sweep", "-j", "1", "-o", "out", "s.toml")
			if code != 1 || strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "fatal error") {
				t.Fatalf("exit %d, want 1 (3 points failed), stderr:\n%.2000s", code, stderr)
			}
			failed, _ := filepath.Glob(filepath.Join(dir, "out", "failed", "*.txt"))
			if len(failed) != 3 {
				t.Fatalf("%d failure records, want 3 (the oversized points): %v", len(failed), failed)
			}
			for _, f := range failed {
				b, _ := os.ReadFile(f)
				if !strings.HasPrefix(string(b), "topology.tors: ") || strings.Contains(string(b), "panic") {
					t.Errorf("%s: %q, want a refusal naming topology.tors", filepath.Base(f), b)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "points", "tors=8", "done")); err != nil {
				t.Errorf("the 8-ToR point did not finish: %v", err)
			}
		})
	}
}

// TestInputsReadWithLimit: the files a user names are read through a byte
// limit, so /dev/zero as a sweep spec, a --config, a schedule or a demand
// matrix ends with one line naming it, exit 2, under a 4 GiB address
// space (issue 25, defect 2: each ran out of memory with a stack trace).
// 4 GiB, not the 2 GiB of the defect: glibc reserves 72 MiB of address
// space per OS thread (see TestSimulateStreamsFlowFile).
// A sparse regular file past the limit is refused by its size, unread.
func TestInputsReadWithLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 17<<20); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"sweep spec", []string{"sweep", "-o", "s", "/dev/zero"}, "rdcn: spec: /dev/zero is larger than 16 MiB"},
		{"config", []string{"simulate", "--config", "/dev/zero", "-o", "o"}, "rdcn: config: /dev/zero is larger than 16 MiB"},
		{"config, sparse file", []string{"simulate", "--config", big, "-o", "o"}, "rdcn: config: " + big + " is larger than 16 MiB"},
		{"sweep spec, sparse file", []string{"sweep", "-o", "s", big}, "rdcn: spec: " + big + " is larger than 16 MiB"},
		{"workload.matrix", []string{"simulate", "--set", "workload.pattern=matrix", "--set", "workload.matrix=/dev/zero", "-o", "o"}, "workload.matrix: /dev/zero: demand: line 1: longer than 16 MiB"},
		{"schedule.file", []string{"simulate", "--set", "schedule.file=/dev/zero", "-o", "o"}, "schedule.file: /dev/zero: schedule: want '{'"},
		{"throughput --schedule", []string{"throughput", "--schedule", "/dev/zero", "--demand", "uniform"}, "rdcn: schedule /dev/zero: schedule: want '{'"},
		{"throughput --demand", []string{"throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--demand", "/dev/zero"}, "rdcn: demand: /dev/zero: demand: line 1: longer than 16 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runUnderPrlimit(t, "4294967296", dir, tc.args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr:\n%.1500s\nwant exit 2 and one line holding %q", code, stderr, tc.want)
			}
			for _, o := range []string{"o", "s"} {
				if _, err := os.Stat(filepath.Join(dir, o)); err == nil {
					t.Errorf("%s was written", o)
				}
			}
		})
	}
}

// TestSimulateMemoryRefusal: a simulate whose memory estimate exceeds the
// address space left is refused before it runs, exit 2 and one line
// naming memory and --force (issue 25, defect 17: 8192 ToRs under a
// 4 GiB address space died out of memory with a stack trace).
func TestSimulateMemoryRefusal(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runUnderPrlimit(t, "4294967296", dir, "simulate", "--set", "topology.tors=8192",
		"--set", "topology.uplinks=4", "--set", "run.sim_time=1ms", "-o", "o")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "rdcn: memory: ") || !strings.Contains(stderr, "--force") {
		t.Fatalf("exit %d, stderr:\n%.1500s\nwant exit 2 and one line: rdcn: memory: … --force", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "o")); err == nil {
		t.Error("the refused run wrote its output directory")
	}
}

// TestSimulateMemoryEstimate: fabric.Config.MemoryEstimate bounds the
// peak resident set of rdcn simulate (the kernel's maxrss of the child)
// within 0.95–1.35 of it (0.85–1.35 below 100 MB of peak), at 512 and 1024
// ToRs for 1 ms and at 512 ToRs for 10 ms (issue 26: the 1 ms model was 0.4–0.6× the peak at 10 ms).
func TestSimulateMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations of 512 and 1024 ToRs")
	}
	bin := sharedRdcn(t)
	for _, tc := range []struct{ tors, simTime string }{{"512", "1ms"}, {"1024", "1ms"}, {"512", "10ms"}} {
		dir := t.TempDir()
		sets := []string{"topology.tors=" + tc.tors, "topology.uplinks=4", "run.sim_time=" + tc.simTime}
		var args []string
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		// The smaller peak of two runs: under CPU contention the GC's
		// concurrent mark lags and a small heap peaks higher (512 ToRs,
		// 1 ms: 33–34 MB in six quiet runs, 42 MB once beside the other
		// packages' tests).
		var rss int64
		for run := range 2 {
			cmd := exec.Command(bin, append([]string{"simulate", "-q", "-o", filepath.Join(dir, fmt.Sprint("o", run))}, args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
			if r := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024; run == 0 || r < rss {
				rss = r
			}
		}
		spec, err := scenario.With(sets...)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := spec.Build()
		if err != nil {
			t.Fatal(err)
		}
		est := setup.Config.MemoryEstimate(setup.Flows)
		t.Logf("%s ToRs, %s: estimate %d MB, peak RSS %d MB", tc.tors, tc.simTime, est>>20, rss>>20)
		// Below 100 MB the GC's pacing moves the peak by up to a quarter
		// (512 ToRs, 1 ms: 0.89 and 0.93 of it in two CI runs beside the
		// other packages' tests, 1.10–1.13 quiet), so the floor there is
		// 0.85; above, 0.95.
		low := 0.95
		if rss < 100e6 {
			low = 0.85
		}
		// Above: 1.35. 512 ToRs, 10 ms gave 1.25 quiet and 1.31 once
		// under load with the per-pair rows (the smaller peak of two runs
		// is the favourable one); an estimate that high costs only a
		// refusal near the limit. With the flat per-pair tables up to
		// 1,024 ToRs on huge pages: 1.05, 1.03 and 1.13 (load average 8).
		if r := float64(est) / float64(rss); r < low || r > 1.35 {
			t.Errorf("%s ToRs, %s: estimate %d B is %.2f × the peak RSS %d B, want %.2f … 1.35", tc.tors, tc.simTime, est, r, rss, low)
		}
	}
}

// TestSimulateStreamsFlowFile: a flow file of 10 million lines feeding a
// 1 ms run is read only up to the run's end: the run's peak resident set
// stays below 256 MiB (issue 25, defect 17: the file was read whole,
// 1.98 GB resident for 10⁷ flows; streamed, 20 MB). The bound is on the
// resident set, not on the address space: the binary links glibc through
// cgo (net/http, imported by progressbar), and glibc reserves an 8 MiB
// stack and a 64 MiB malloc arena per OS thread, so the address space a
// run needs varies with its thread count (64 ToRs: 1.65–1.79 GB with six
// or seven threads; a CI run failed at start under 1.5 GiB). The 8 GiB cap only keeps a
// regression from taking the machine. Its first 1 ms is what the run
// starts, so flows.csv lists exactly the flows the file starts by then.
func TestSimulateStreamsFlowFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 10⁷-line flow file")
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.flows"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const lines, hosts = 10_000_000, 64
	for i := 0; i < lines; i++ { // one flow a microsecond: 10 s of flows
		fmt.Fprintf(w, "%d %d 1500 %d\n", i%hosts, (i%hosts+1+i/hosts%(hosts-1))%hosts, i*1000)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, stderr, code, rss := runUnderPrlimitRSS(t, "8589934592", dir, "simulate", "-q", "-o", "o",
		"--set", "topology.tors=16", "--set", "topology.uplinks=4", "--set", "workload.flows_file=big.flows",
		"--set", "run.sim_time=1ms")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%.1500s", code, stderr)
	}
	if rss <= 0 || rss > 256<<20 {
		t.Errorf("peak RSS %d B, want (0, 256 MiB]: the flow file was read beyond the run's end", rss)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "o", "flows.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// starts 0, 1, …, 1000 µs: the flows at or before run.sim_time
	if rows := strings.Count(string(csv), "\n") - 1; rows != 1001 {
		t.Errorf("flows.csv has %d flows, want 1001 (starts 0 … 1 ms)", rows)
	}
}

// TestSimulateUnsortedFlowFile: a flow file out of start order is refused
// with one line naming the key and the line, since the run reads it in
// order without holding it.
func TestSimulateUnsortedFlowFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "u.flows"), []byte("0 1 1500 2000\n1 2 1500 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd("simulate", "-q", "-o", filepath.Join(dir, "o"), "--set", "topology.tors=16", "--set", "topology.uplinks=4",
		"--set", "workload.flows_file="+filepath.Join(dir, "u.flows"), "--set", "run.sim_time=1ms")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "workload.flows_file") || !strings.Contains(stderr, "line 2") || !strings.Contains(stderr, "sorted") {
		t.Errorf("exit %d, stderr %q; want 2 and one line naming workload.flows_file, line 2 and the sort", code, stderr)
	}
}
