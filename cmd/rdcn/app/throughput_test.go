package app

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestThroughputCLI(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"rdcn", "throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "4",
		"--self-slot", "--slot", "100us", "--demand", "permutation", "--format", "json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Theta, Lower, Upper, Gap float64
		Routing, Solver          string
		Nodes, Iterations        int
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// Closed form: 1/2, within the certified interval.
	if got.Lower > 0.5+1e-9 || got.Upper < 0.5-1e-9 || got.Gap > 1e-3 || got.Routing != "any" ||
		got.Solver != "fptas" || got.Nodes != 8 || got.Iterations == 0 {
		t.Errorf("got %+v", got)
	}
	out.Reset()
	code = run([]string{"rdcn", "throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "4",
		"--self-slot", "--slot", "100us", "--demand", "permutation", "--routing", "direct"}, &out, &errb)
	if code != 0 || !strings.HasPrefix(out.String(), "theta 0.125000") {
		t.Errorf("direct: exit %d, output %q", code, out.String())
	}
}

// TestThroughputDeterministic runs the same command twice per format: the
// outputs must be the same bytes, with or without --timing, whose wall
// time goes to stderr only.
func TestThroughputDeterministic(t *testing.T) {
	args := []string{"rdcn", "throughput", "--kind", "opera", "--tors", "16", "--uplinks", "4", "--demand", "random:3"}
	for _, format := range []string{"text", "json", "csv"} {
		var a, b, errA, errB bytes.Buffer
		if code := run(append(args, "--format", format), &a, &errA); code != 0 || errA.Len() != 0 {
			t.Fatalf("%s: exit %d, stderr %q", format, code, errA.String())
		}
		if code := run(append(args, "--format", format, "--timing"), &b, &errB); code != 0 {
			t.Fatalf("%s --timing: exit %d, stderr %q", format, code, errB.String())
		}
		if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two runs differ:\n%s\n%s", format, a.String(), b.String())
		}
		if e := errB.String(); !strings.HasPrefix(e, "rdcn throughput: solver fptas, ") || !strings.HasSuffix(e, " s wall\n") || strings.Count(e, "\n") != 1 {
			t.Errorf("%s --timing: stderr %q, want one timing line", format, e)
		}
	}
}

func TestThroughputCLIBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"rdcn.schedule/v1","nodes":`), 0o644)
	cases := [][]string{
		{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--demand", "bogus"},
		{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--routing", "ecmp"},
		{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--gap", "0"},
		{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--link", "fast"},
		{"--kind", "nope", "--tors", "8", "--uplinks", "4"},
		{"--schedule", bad},
		{},
	}
	for _, args := range cases {
		var out, errb bytes.Buffer
		out_ := filepath.Join(dir, "out.json")
		code := run(append([]string{"rdcn", "throughput", "-o", out_}, args...), &out, &errb)
		if code != 2 || !isOneErrorLine(errb.String()) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line \"rdcn: …\"", args, code, errb.String())
		}
		if _, err := os.Stat(out_); err == nil {
			t.Errorf("%v: wrote an output file", args)
		}
	}
}

func TestBoundsCLI(t *testing.T) {
	var out, errb bytes.Buffer
	// Thesis Table 7.1 setting, complete graph: θ(worst) = 1/2 without
	// reconfiguration time, ARL 2 over Γ = 8 slots of 100 µs → 80 MB/node.
	code := run([]string{"rdcn", "bounds", "--kind", "rotornet", "--tors", "16", "--uplinks", "2",
		"--self-slot", "--slot", "100us", "--reconf", "0s", "--format", "json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Theta, TUB, ARL float64
		BufferPerNode   int64 `json:"buffer_per_node_bytes"`
		Degree          int
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Theta-0.5) > 1e-3 || got.Degree != 15 || math.Abs(got.TUB-15.0/16) > 1e-9 {
		t.Errorf("got %+v", got)
	}
	// Buffer per node is θ·M·ARL·Γ·Δ/n with the flow's ARL ≤ 2: at most
	// the 80 MB of Table 7.1.
	if got.BufferPerNode <= 0 || got.BufferPerNode > 80_100_000 {
		t.Errorf("buffer per node %d, want in (0, 80 MB]", got.BufferPerNode)
	}
}

// --time-limit stops the solver and prints a valid certified interval
// marked stopped, with exit status 3: the RotorNet shift permutation has
// θ* = 1/2 (n = 32, idle self-slot, no reconfiguration), and a gap of
// 1e-9 is never reached within 1 ns.
func TestThroughputTimeLimit(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"rdcn", "throughput", "--kind", "rotornet", "--tors", "32", "--uplinks", "4", "--self-slot",
		"--slot", "100us", "--reconf", "0us", "--demand", "permutation", "--gap", "1e-9", "--time-limit", "1ns",
		"--format", "json"}, &out, &errb)
	if code != exitStopped {
		t.Fatalf("exit %d, want %d: %s", code, exitStopped, errb.String())
	}
	var got struct {
		Lower, Upper, Gap float64
		Stopped           string
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if got.Stopped != "time-limit" || !(got.Lower <= 0.5+1e-9 && 0.5 <= got.Upper+1e-9) || !(got.Lower > 0) {
		t.Errorf("got %+v, want stopped time-limit and 1/2 in [lower, upper]", got)
	}
	if msg := errb.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "stopped (time-limit)") {
		t.Errorf("stderr %q: want one line saying it stopped", msg)
	}
	for _, bad := range []string{"0s", "-5s"} {
		out.Reset()
		errb.Reset()
		code := run([]string{"rdcn", "throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "4",
			"--demand", "permutation", "--time-limit", bad}, &out, &errb)
		if code != 2 || !strings.HasPrefix(errb.String(), "rdcn: time-limit: ") || out.Len() != 0 {
			t.Errorf("--time-limit %s: exit %d, stderr %q, stdout %q", bad, code, errb.String(), out.String())
		}
	}
}
