package fabric_test

import (
	"strings"
	"testing"
)

// TestRelayStoresInOrder: a relay store is ordered by its packets' ready
// times (fill looks at its head only) and keeps the last one beside it
// (storeLast, which storeRelayed compares an arrival with). With
// run.check every sample checks both with a walk of the store; a RotorNet
// run with RotorLB at 16 ToRs (relayed packets stored, some out of
// order) must pass, and end with stores to check again here. The check
// itself must see a stored packet changed behind its store's back.
func TestRelayStoresInOrder(t *testing.T) {
	sim := simFromTOML(t, "testdata/perf/a-rotornet.toml", "topology.tors=16",
		"workload.load=0.4", "run.sim_time=3ms", "workload.duration=3ms", "run.check=true")
	if _, err := sim.Run(); err != nil {
		t.Fatal(err) // run.check failed during the run
	}
	if stores := sim.StoresHeld(); stores == 0 || sim.StoredPeak() == 0 {
		t.Fatalf("%d relay stores hold packets at the end (peak %d stored at a rack): the run tests nothing", stores, sim.StoredPeak())
	}
	if err := sim.StoreErrors(); err != "" {
		t.Fatalf("after the run: %s", err)
	}
	if !sim.StaleStoredPacket() {
		t.Fatal("no stored packet to change")
	}
	if err := sim.StoreErrors(); !strings.Contains(err, "as its last ready time") {
		t.Fatalf("a stored packet changed behind its store: the check says %q", err)
	}
}
