package fabric_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestDiagnoseHandCases builds one run of each cause of unfinished flows
// by hand and checks Result.Diagnose names it (and summary.json's field
// carries it):
//
//   - sim_time: a 30 MB flow needs 24 ms at 10 Gbps even alone; the run
//     lasts 5 ms;
//   - capacity: six senders on other ToRs send 3 MB each to one host:
//     18 MB through one 10 Gbps downlink take 14.4 ms, each flow alone
//     2.4 ms, the run 6 ms, so that downlink is busy to the end;
//   - circuits: one 2 MB pulled flow on a RotorNet whose nights take
//     900 µs of every 1 ms slot: the circuits carry at most 4 × 125 kB
//     per ms (4 Gbps, below the host's 10), so the flow (1.6 ms alone)
//     is unfinished at 3 ms while every port is under 70 % busy;
//   - transport: one 2 MB flow on a leaf-spine with a one-packet fixed
//     window: about one packet per 6 µs round trip (2 Gbps), 8 ms for
//     the flow, unfinished at 4 ms with the fabric idle.
func TestDiagnoseHandCases(t *testing.T) {
	dir := t.TempDir()
	flows := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return "workload.flows_file=" + path
	}
	var incast []string
	for s := 1; s <= 6; s++ {
		incast = append(incast, fmt.Sprintf("%d 0 3000000 0", 4*s))
	}
	for _, tc := range []struct {
		cause string
		keys  []string
	}{
		{fabric.CauseSimTime, []string{flows("late", "0 4 30000000 0"), "run.sim_time=5ms"}},
		{fabric.CauseCapacity, []string{flows("incast", incast...), "topology.tors=8", "run.sim_time=6ms"}},
		{fabric.CauseCircuits, []string{flows("nights", "0 4 2000000 0"), "schedule.slot=1ms", "schedule.reconf=900us", "run.sim_time=3ms"}},
		{fabric.CauseTransport, []string{flows("window", "0 4 2000000 0"), "topology.kind=leafspine", "topology.hosts_per_tor=4",
			"transport.window=1pkt", "run.sim_time=4ms"}},
	} {
		setup := buildSpec(t, tc.keys...)
		r, err := fabric.Run(setup.Config)
		if err != nil {
			t.Fatal(err)
		}
		d := r.Diagnose()
		t.Logf("%s: %+v", tc.cause, d)
		if d == nil {
			t.Errorf("%s: every flow finished", tc.cause)
			continue
		}
		if d.Cause != tc.cause || d.Advice == "" {
			t.Errorf("%s: diagnosed %s (%+v)", tc.cause, d.Cause, *d)
		}
		s, err := r.Summarize(setup.Buckets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Unfinished == nil || s.Unfinished.Cause != tc.cause {
			t.Errorf("%s: summary carries %+v", tc.cause, s.Unfinished)
		}
	}
}
