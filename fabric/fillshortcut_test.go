package fabric_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/fabric"
)

// TestFillShortcutSameRun: fill, asked after every circuit departure,
// returns at once when its ToR has no pulled flow with bytes to request
// and stores no relayed packet (mayPull), and startUplink reads a pair's
// pull lists only when the bitmaps and counts say they are not empty.
// The run must be the same as with fill looking at the lists every time:
// Opera with NDP and a bulk cutoff low enough that many flows are pulled
// and relayed (stored at intermediate racks' hosts), run.check on (it
// recounts the stores against storedAt).
func TestFillShortcutSameRun(t *testing.T) {
	run := func(shortcut bool) (*fabric.Result, *fabric.Sim) {
		sim := simFromTOML(t, "testdata/perf/a-opera-operasim.toml", "topology.tors=16",
			"routing.bulk=200KB", "run.sim_time=4ms", "workload.duration=3ms", "run.check=true")
		if !shortcut {
			sim.NoFillShortcut()
		}
		r, err := sim.Run()
		if err != nil {
			t.Fatal(err)
		}
		return r, sim
	}
	fast, sim := run(true)
	slow, _ := run(false)
	if fast.Reads.PulledFlows == 0 || sim.StoredPeak() == 0 {
		t.Fatalf("%d pulled flows, at most %d relayed packets stored at one rack: the run tests nothing", fast.Reads.PulledFlows, sim.StoredPeak())
	}
	t.Logf("%d events, %d pulled flows, up to %d relayed packets stored at one rack", fast.Events, fast.Reads.PulledFlows, sim.StoredPeak())
	if d := cmp.Diff(slow, fast); d != "" {
		t.Fatalf("the shortcut changed the run (-without +with):\n%s", d)
	}
}
