package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/cmd/rdcn/app"
)

// runMain runs the command line and returns its standard output.
func runMain(t *testing.T, args ...string) string {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = f
	code := app.Main(append([]string{"extend"}, args...))
	os.Stdout = old
	if code != 0 {
		t.Fatalf("%v: exit %d", args, code)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKeysListNewComponents: rdcn simulate --keys of this binary names
// each registered component with its parameters and their defaults,
// exactly as it names rdcn's own.
func TestKeysListNewComponents(t *testing.T) {
	out := runMain(t, "simulate", "--keys")
	for _, want := range []string{
		// the policy: a choice of buffer.policy, its registry entry and its parameter key
		"tdt, protean or harmonic (see the registry table)",
		"  harmonic   Harmonic (Kesselman–Mansour): the i longest queues hold at most B·H_i/H_N (reads buffer.n = \"\")",
		"buffer.n                       \"\"           queues N the harmonic series runs over (ports × queues); empty: the policy's default (harmonic derived)",
		// the law: a choice of transport.cc and its parameters with defaults
		"powertcp, retcp, swift, theta-powertcp or timely; checked before the run",
		"  swift      Swift (Kumar et al., SIGCOMM 2020)",
		"transport.cc_params: target = \"base RTT + 25 µs\", ai = \"1\", beta = \"0.8\", max_mdf = \"0.5\", fs_range = \"0\", fs_min_cwnd = \"0.1\", fs_max_cwnd = \"100\", min_cwnd = \"0.001\", max_cwnd = \"100000\", retx_reset = \"5\", init_window = \"10pkt\"",
		// the schedule: its usage and default timing
		"  random-rotor n−1 rotor matchings of randomly relabelled cyclic shifts, in random order round-robin over U switches (seeded) (default slot 100us, reconf 10us)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--keys lacks %q", want)
		}
	}
	list := runMain(t, "experiment", "list")
	if !strings.Contains(list, "extend-compare") {
		t.Errorf("experiment list lacks extend-compare:\n%s", list)
	}
}
