package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
		if out, err := exec.Command(gobin, "build", "-o", sharedBin, ".").CombinedOutput(); err != nil {
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
	return out.String(), errw.String(), exitCode(err)
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
