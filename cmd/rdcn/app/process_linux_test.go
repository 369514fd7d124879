package app

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildRdcn builds the rdcn binary into a temporary directory.
func buildRdcn(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go toolchain not on PATH: cannot build the rdcn binary")
	}
	bin := filepath.Join(t.TempDir(), "rdcn")
	if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/rdcn/rdcn/cmd/rdcn").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// exitCode is cmd's exit status after Wait.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestSignalExitStatus: a run stopped by SIGTERM exits 143 (128 + 15),
// by SIGINT 130, with one line on stderr (issue 25, defect 14: SIGTERM
// gave 130; an interrupted sweep gave 1).
func TestSignalExitStatus(t *testing.T) {
	bin := buildRdcn(t)
	spec := writeSpec(t, sweepSpec24)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		want int
		args []string
		wait string // a stderr line that shows the run is under way
		// nothing: the command cannot save a partial result, so OUT's
		// directory must stay empty (no output, no temporary file).
		nothing bool
	}{
		{"simulate SIGTERM", syscall.SIGTERM, 143, append(append([]string{"simulate", "-o", "OUT"}, smallRun...), "--set", "run.sim_time=100s"), "", false},
		{"simulate SIGINT", syscall.SIGINT, 130, append(append([]string{"simulate", "-o", "OUT"}, smallRun...), "--set", "run.sim_time=100s"), "", false},
		{"sweep SIGTERM", syscall.SIGTERM, 143, []string{"sweep", "--jobs", "1", "-o", "OUT", spec}, " done in ", false},
		// Issue 25, defect 14: these had no handler and died silently.
		// The design question prints its best answer so far (issue 28).
		{"tradeoff SIGTERM", syscall.SIGTERM, 143, []string{"tradeoff", "--tors", "1024", "--uplinks", "4", "-o", "OUT"}, "", false},
		{"predict SIGINT", syscall.SIGINT, 130, []string{"predict", "--tors", "128", "--samples", "20", "-o", "OUT"}, "", true},
		{"credence train SIGTERM", syscall.SIGTERM, 143, []string{"credence", "train", "--config", filepath.Join("..", "..", "..", "fabric", "testdata", "credence", "train.toml"), "--set", "run.sim_time=10s", "-o", "OUT"}, "", true},
		{"buffer-lab --fig14 SIGTERM", syscall.SIGTERM, 143, []string{"buffer-lab", "--fig14", "--slots", "2000000", "--runs", "20", "-o", "OUT"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{}, tc.args...)
			outDir := t.TempDir()
			for i, a := range args {
				if a == "OUT" {
					args[i] = filepath.Join(outDir, "out")
				}
			}
			cmd := exec.Command(bin, args...)
			stderr, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var lines []string
			sc := bufio.NewScanner(stderr)
			if tc.wait != "" {
				for sc.Scan() {
					if lines = append(lines, sc.Text()); strings.Contains(sc.Text(), tc.wait) {
						break
					}
				}
			} else {
				time.Sleep(2 * time.Second) // past signal.Notify, even on a loaded machine
			}
			cmd.Process.Signal(tc.sig)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			st := exitCode(cmd.Wait())
			last := ""
			if len(lines) > 0 {
				last = lines[len(lines)-1]
			}
			if st != tc.want || !strings.HasPrefix(last, "rdcn: interrupted") {
				t.Errorf("exit %d, last stderr line %q; want %d and rdcn: interrupted …", st, last, tc.want)
			}
			if entries, _ := os.ReadDir(outDir); tc.nothing && (len(entries) > 0 || len(lines) != 1) {
				t.Errorf("left %v in the output directory, stderr %q; want nothing and one line", entries, lines)
			}
			if tc.args[0] == "tradeoff" {
				if b, err := os.ReadFile(filepath.Join(outDir, "out")); err != nil || !strings.Contains(string(b), "stopped (interrupt)") {
					t.Errorf("the stopped design question wrote %q (%v); want its answer so far, marked stopped (interrupt)", b, err)
				}
			}
		})
	}
}

// TestReadOnlyOutputExitStatus: an output on a read-only file system is a
// runtime failure, status 1, not bad input (issue 25, defect 14). The
// read-only tmpfs is mounted in a private mount namespace (unshare -m);
// the test skips where that is not allowed.
func TestReadOnlyOutputExitStatus(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare not found")
	}
	ro := t.TempDir()
	if out, err := exec.Command(unshare, "-m", "sh", "-c", `mount -t tmpfs -o ro tmpfs "$1" && ! touch "$1/x" 2>/dev/null`, "sh", ro).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a read-only tmpfs in a private mount namespace: %v %s", err, out)
	}
	bin := buildRdcn(t)
	spec := writeSpec(t, quickSpec)
	for _, args := range [][]string{
		append([]string{"simulate", "-q", "-o", filepath.Join(ro, "out"), "--set", "run.sim_time=1ms"}, smallRun...),
		{"sweep", "-o", filepath.Join(ro, "res"), spec},
		{"schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "-o", filepath.Join(ro, "s.json")},
		{"experiment", "run", "--quick", "-o", filepath.Join(ro, "exp"), "tradeoff"},
	} {
		cmd := exec.Command(unshare, append([]string{"-m", "sh", "-c", `mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"`, "sh", ro, bin}, args...)...)
		out, err := cmd.CombinedOutput()
		if st := exitCode(err); st != 1 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "read-only file system") {
			t.Errorf("rdcn %s: exit %d, output %q; want 1 and one line: read-only file system", args[0], st, out)
		}
	}
	if entries, _ := os.ReadDir(ro); len(entries) > 0 {
		t.Errorf("the test wrote into %s outside its namespace", ro)
	}
}

// TestConcurrentSweepsRefused: the two `sweep -j 2 -o DIR` at
// once, as processes: the second is refused with status 1 and one line
// while the first runs, and the first finishes every point with no
// failure recorded (issue 25, defect 5).
func TestConcurrentSweepsRefused(t *testing.T) {
	bin := buildRdcn(t)
	spec := writeSpec(t, sweepSpec24)
	dir := filepath.Join(t.TempDir(), "res")
	first := exec.Command(bin, "sweep", "-j", "2", "-o", dir, spec)
	stderr, _ := first.StderrPipe()
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.Contains(sc.Text(), " done in ") {
	}
	out, err := exec.Command(bin, "sweep", "-j", "2", "-o", dir, spec).CombinedOutput()
	if st := exitCode(err); st != 1 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "is in use by another rdcn sweep (pid ") {
		t.Errorf("second sweep: exit %d, output %q; want 1 and one line: in use", st, out)
	}
	for sc.Scan() {
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first sweep: %v", err)
	}
	if n := len(finishedPoints(t, dir)); n != 24 {
		t.Errorf("%d points finished, want 24", n)
	}
	if failed, _ := os.ReadDir(filepath.Join(dir, "failed")); len(failed) > 0 {
		t.Errorf("failures recorded: %v", failed)
	}
}
