package app

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/demand"
)

func runDemandCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"rdcn", "demand"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestDemandCommand(t *testing.T) {
	code, out, stderr := runDemandCLI(t, "--pattern", "uniform", "--tors", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff("0 1 1\n1 0 1\n1 1 0\n", out); diff != "" {
		t.Errorf("uniform n=3 (-want +got):\n%s", diff)
	}

	// Normalised to 1.6 Tbit/s: every row of the permutation carries it all.
	code, out, stderr = runDemandCLI(t, "--pattern", "permutation", "--tors", "4", "--normalize", "1.6Tbps", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff("0,0,1.6e+12,0\n0,0,0,1.6e+12\n1.6e+12,0,0,0\n0,1.6e+12,0,0\n", out); diff != "" {
		t.Errorf("normalised permutation (-want +got):\n%s", diff)
	}

	// Noise + normalisation into a file: deterministic, saturated.
	dir := t.TempDir()
	f1, f2 := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, f := range []string{f1, f2} {
		if code, _, stderr := runDemandCLI(t, "-p", "skew:0.3", "-n", "8", "--noise", "additive", "--delta", "4", "--seed", "5", "--normalize", "1", "-o", f); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	b1, _ := os.ReadFile(f1)
	b2, _ := os.ReadFile(f2)
	if !bytes.Equal(b1, b2) || !bytes.Contains(b1, []byte(",")) {
		t.Fatalf("same seed gave different files, or not CSV:\n%s\n%s", b1, b2)
	}
	m, err := demand.Read(bytes.NewReader(b1))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.MaxLineSum(); math.Abs(got-1) > 1e-12 {
		t.Errorf("normalised busiest node carries %v, want 1", got)
	}
	if cmp.Equal(m, demand.Skew(8, 0.3)) {
		t.Error("no noise was added")
	}

	// A file pattern: n from the file.
	code, out, stderr = runDemandCLI(t, "--pattern", f1, "--format", "csv")
	if code != 0 || out != string(b1) {
		t.Errorf("reading back the file: exit %d, %s, output differs: %v", code, stderr, out != string(b1))
	}
	// random without a seed takes --seed.
	_, r1, _ := runDemandCLI(t, "--pattern", "random", "--tors", "5", "--seed", "7")
	_, r2, _ := runDemandCLI(t, "--pattern", "random:7", "--tors", "5")
	if r1 != r2 || r1 == "" {
		t.Errorf("random --seed 7 and random:7 differ:\n%s\n%s", r1, r2)
	}
}

func TestDemandBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.txt")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pattern", "unifrom", "--tors", "4"}, `pattern: demand "unifrom": neither a pattern`},
		{[]string{"--tors", "4"}, "pattern: missing"},
		{[]string{"--pattern", "worst", "--tors", "4"}, "pattern: \"worst\" depends on a topology"},
		{[]string{"--pattern", "skew:2", "--tors", "4"}, "pattern: demand pattern \"skew:2\""},
		{[]string{"--pattern", "uniform"}, "tors: missing: pattern \"uniform\" needs --tors N"},
		{[]string{"--pattern", "uniform", "--tors", "-3"}, "tors: -3, want at least 2"},
		{[]string{"--pattern", "uniform", "--tors", "4", "--format", "xml"}, `format: "xml": want text, json or csv`},
		{[]string{"--pattern", "uniform", "--tors", "4", "--normalize", "fast"}, `normalize: "fast" is neither a number nor a rate`},
		{[]string{"--pattern", "uniform", "--tors", "4", "--normalize", "-1"}, "normalize: \"-1\" must be a positive"},
		{[]string{"--pattern", "uniform", "--tors", "4", "--noise", "gaussian", "--delta", "1"}, `noise: noise kind "gaussian"`},
		{[]string{"--pattern", "uniform", "--tors", "4", "--noise", "additive"}, "delta: missing"},
		{[]string{"--pattern", "uniform", "--tors", "4", "--delta", "1"}, "delta: given without --noise"},
		{[]string{"--pattern", "uniform", "--tors", "4", "--noise", "additive", "--delta", "-1"}, "delta: noise factor -1"},
		{[]string{"--pattern", "uniform", "--tors", "4", "--bogus"}, "flags:"},
		{[]string{"--pattern", "uniform", "--tors", "4", "extra"}, `arguments: unexpected "extra"`},
	}
	for _, tt := range tests {
		args := append(tt.args, "-o", out)
		code, stdout, stderr := runDemandCLI(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tt.args, code, stderr)
		}
		if !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%v: stderr %q, stdout %q; want one line containing %q", tt.args, stderr, stdout, tt.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%v: output file written on failure", tt.args)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("%v: left files behind: %v", tt.args, entries)
		}
	}
}

func TestDemandHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"rdcn", "demand", "--help"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "example: rdcn demand --pattern skew:0.2") {
		t.Errorf("help lacks an example:\n%s", out.String())
	}
}
