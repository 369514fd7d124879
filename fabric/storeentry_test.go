package fabric_test

import (
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestPullListsMatchEntries: a waiting list keeps its bytes and its
// head's and tail's ready times, which the buffer sample reads instead of
// the entries, and a relay store is ordered by its packets' ready times,
// the last kept beside it (storeLast). With run.check every sample
// compares them with a walk of the entries; a RotorNet run with RotorLB at
// 16 ToRs (relayed packets stored) must pass, and end with lists to
// compare again here. The check itself must see a stored packet changed
// behind its store's back.
func TestPullListsMatchEntries(t *testing.T) {
	setup := setupFromTOML(t, "testdata/perf/a-rotornet.toml", "topology.tors=16",
		"workload.load=0.4", "run.sim_time=3ms", "workload.duration=3ms", "run.check=true")
	cfg := setup.Config
	cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
	sim, err := fabric.NewSim(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(); err != nil {
		t.Fatal(err) // run.check failed during the run
	}
	waiting, stores := sim.PullListsHeld()
	if waiting == 0 || stores == 0 || sim.StoredPeak() == 0 {
		t.Fatalf("%d waiting lists and %d relay stores hold packets at the end (peak %d stored at a rack): the run tests nothing", waiting, stores, sim.StoredPeak())
	}
	t.Logf("at the end: %d waiting lists and %d relay stores hold packets", waiting, stores)
	if err := sim.PullListErrors(); err != "" {
		t.Fatalf("after the run: %s", err)
	}
	if !sim.StaleStoredPacket() {
		t.Fatal("no stored packet to change")
	}
	if err := sim.PullListErrors(); !strings.Contains(err, "as its last ready time") {
		t.Fatalf("a stored packet changed behind its entry: the check says %q", err)
	}
}
