package app

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBufferLabBadInput(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "bad.trace")
	os.WriteFile(trace, []byte("ports 2\n0 5\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policies", "cs,dtt"}, `rdcn: policies: policy "dtt": unknown`},
		{[]string{"--param", "dt.alpah=1"}, "rdcn: policy dt: alpah: policy dt takes no such parameter"},
		{[]string{"--param", "dt.alpha=0"}, "rdcn: policy dt: alpha 0: must be positive"},
		{[]string{"--param", "dt.alpha=-1"}, "rdcn: policy dt: alpha -1: must be positive"},
		{[]string{"--param", "dt.alpha=x"}, `rdcn: param dt.alpha: "x" is not a number`},
		{[]string{"--param", "lqd.alpha=1", "--policies", "lqd"}, "rdcn: policy lqd: alpha: policy lqd takes no such parameter (takes: none)"},
		{[]string{"--traffic", "trace", "--trace", trace}, "rdcn: trace " + trace + `: line 2: port "5": want 0..1`},
		{[]string{"--traffic", "trace", "--trace", filepath.Join(dir, "missing")}, "rdcn: trace: open "},
		{[]string{"--traffic", "nope"}, `rdcn: traffic: "nope": want bursts`},
		{[]string{"--ports", "1"}, "rdcn: ports: 1: want 2..4096"},
		{[]string{"--flip", "1.5"}, "rdcn: flip: 1.5: must be a probability"},
		{[]string{"--fig14", "--flips", "0,2"}, `rdcn: flips: "2": want probabilities`},
		{[]string{"--fig14", "--ports", "4"}, "rdcn: ports: changes one set-up: name it with --setups"},
		{[]string{"--fig14", "--setups", "spread,burst"}, `rdcn: setups: fig14 set-up "burst": want one of`},
		{[]string{"--fig14", "--setups", "one-slot", "--load", "0"}, "rdcn: load: 0: want 0 < ρ ≤ 10"},
		{[]string{"--fig14", "--setups", "one-slot"}, "rdcn: fig14: fig14: no burst in the 5 training sequences of 50 slots"},
		// Issue 25, defects 12 and 13: flags the traffic does not read,
		// and an output folder that does not exist, before any work.
		{[]string{"--traffic", "bursts", "--trace", trace}, "rdcn: trace: is not read with --traffic bursts"},
		{[]string{"--traffic", "trace", "--trace", trace, "--load", "0.5"}, "rdcn: load: is not read with --traffic trace"},
		{[]string{"--traffic", "cs", "--on", "5"}, "rdcn: on: is not read with --traffic cs"},
		{[]string{"--fig14", "--traffic", "cs"}, "rdcn: traffic: is not read by --fig14"},
		{[]string{"--runs", "3"}, "rdcn: runs: is not read with --traffic bursts"},
		{[]string{"--train", filepath.Join(dir, "nope", "m.model")}, "rdcn: train: \"" + filepath.Join(dir, "nope", "m.model") + "\": the directory"},
		{[]string{"-o", filepath.Join(dir, "nope", "t.txt")}, "rdcn: output: \"" + filepath.Join(dir, "nope", "t.txt") + "\": the directory"},
	} {
		var out, errw bytes.Buffer
		args := append([]string{"rdcn", "buffer-lab"}, tc.args...)
		if !slices.Contains(tc.args, "trace") && !slices.Contains(tc.args, "cs") {
			args = append(args, "--slots", "50")
		}
		if code := run(args, &out, &errw); code != 2 {
			t.Errorf("%v: status %d, want 2 (stderr %q)", tc.args, code, errw.String())
			continue
		}
		if got := errw.String(); !strings.HasPrefix(got, tc.want) || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line starting %q", tc.args, got, tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", tc.args, out.String())
		}
	}
}

// Same seed, same bytes; the CS adversary's table shows the ratio.
func TestBufferLabRun(t *testing.T) {
	args := []string{"rdcn", "buffer-lab", "--traffic", "cs", "--ports", "4", "--buffer", "8", "--rounds", "100", "--policies", "cs,lqd"}
	var a, b, errw bytes.Buffer
	if code := run(args, &a, &errw); code != 0 {
		t.Fatalf("status %d: %s", code, errw.String())
	}
	run(args, &b, &errw)
	if a.String() != b.String() {
		t.Errorf("two runs differ:\n%s\n%s", a.String(), b.String())
	}
	if !strings.Contains(a.String(), "cs   110   3.7000") {
		t.Errorf("table:\n%s", a.String())
	}
	var f bytes.Buffer
	png := filepath.Join(t.TempDir(), "f.png")
	if code := run([]string{"rdcn", "buffer-lab", "--fig14", "--setups", "spread", "--slots", "300", "--runs", "1", "--flips", "0,0.5", "--plot", png}, &f, &errw); code != 0 {
		t.Fatalf("fig14: status %d: %s", code, errw.String())
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("no plot: %v", err)
	}
	// Both set-ups by default, each named; a set-up's rows do not depend on
	// the other running beside it.
	var both, alone bytes.Buffer
	csv := []string{"rdcn", "buffer-lab", "--fig14", "--slots", "30000", "--runs", "1", "--flips", "0.7", "--format", "csv"}
	if run(csv, &both, &errw) != 0 || run(append(csv, "--setups", "one-slot"), &alone, &errw) != 0 {
		t.Fatalf("fig14 csv: %s", errw.String())
	}
	if !strings.HasPrefix(f.String(), "spread: bursts of B delivered N packets a slot") || !strings.Contains(both.String(), "\nspread,0.7,") {
		t.Errorf("set-ups not named:\n%s\n%s", f.String(), both.String())
	}
	oneSlot := strings.SplitAfter(both.String(), "\n")[2]
	if !strings.HasPrefix(oneSlot, "one-slot,0.7,") || !strings.Contains(alone.String(), oneSlot) {
		t.Errorf("one-slot row inside both:\n%s\nalone:\n%s", both.String(), alone.String())
	}
}

// A trained model file is written, read back and used; a missing or
// corrupt one is bad input.
func TestBufferLabModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.forest")
	var out, errw bytes.Buffer
	base := []string{"rdcn", "buffer-lab", "--slots", "400", "--policies", "lqd,credence"}
	if code := run(append(base, "--runs", "2", "--train", model), &out, &errw); code != 0 {
		t.Fatalf("train: status %d: %s", code, errw.String())
	}
	var out2 bytes.Buffer
	if code := run(append(base, "--model", model), &out2, &errw); code != 0 {
		t.Fatalf("model: status %d: %s", code, errw.String())
	}
	if out.String() != out2.String() {
		t.Errorf("the written model gives another table:\n%s\n%s", out.String(), out2.String())
	}
	bad := filepath.Join(dir, "bad.forest")
	os.WriteFile(bad, []byte("rdcn-forest 1\ntree\nleaf 7\n"), 0o644)
	for path, want := range map[string]string{
		bad:                             "rdcn: model: " + bad + `: line 3: leaf value "7"`,
		filepath.Join(dir, "no.forest"): "rdcn: model: " + filepath.Join(dir, "no.forest") + ": open",
	} {
		errw.Reset()
		if code := run(append(base, "--model", path), &out, &errw); code != 2 || !strings.HasPrefix(errw.String(), want) {
			t.Errorf("--model %s: status %d, stderr %q, want 2 and %q", path, code, errw.String(), want)
		}
	}
}

func TestBufferLabFormats(t *testing.T) {
	base := []string{"rdcn", "buffer-lab", "--traffic", "cs", "--ports", "4", "--buffer", "8", "--rounds", "100", "--policies", "cs,lqd"}
	for format, want := range map[string]string{
		"csv":  "policy,sent,opt,opt_over_alg,proven_bound\ncs,110,407,3.7,5\nlqd,407,407,1,1.707\n",
		"json": `"opt_over_alg": 3.7,`,
	} {
		var out, errw bytes.Buffer
		if code := run(append(base, "--format", format), &out, &errw); code != 0 {
			t.Fatalf("%s: status %d: %s", format, code, errw.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s:\n%s\nwant %q", format, out.String(), want)
		}
	}
}
