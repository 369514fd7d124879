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

// TestRelayStoreEntriesMatchPackets: a relay store keeps entries
// (storedPkt), not packets, and makes a packet again when its ToR pulls
// one. A second store of whole packets beside it (ShadowStores: each
// pair's packets in arrival order, the next one found by a scan for the
// earliest ready time, of equal ones the earliest stored) must give the
// same packet, field by field but Sent and SrcHost, each stored packet
// once, on a RotorNet run with RotorLB at 16 ToRs (some arrivals out of
// order) and with run.check (packets and bytes conserved). It fails when
// an entry's ready time, keeper or order is made wrong.
func TestRelayStoreEntriesMatchPackets(t *testing.T) {
	for _, keys := range [][]string{
		{"topology.tors=16"},
		{"topology.tors=12", "topology.hosts_per_tor=3", "buffer.policy=dt"}, // a policy that is not plain
	} {
		sim := simFromTOML(t, "testdata/perf/a-rotornet.toml", append(keys,
			"workload.load=0.4", "run.sim_time=3ms", "workload.duration=3ms", "run.check=true")...)
		sim.ShadowStores()
		r, err := sim.Run()
		if err != nil {
			t.Fatalf("%v: %v", keys, err) // a packet differed, or run.check failed
		}
		compared, held := sim.ShadowCompared()
		if compared < 1000 || held == 0 {
			t.Fatalf("%v: %d packets made from entries and compared, %d still stored: the run tests too little", keys, compared, held)
		}
		if int64(held) != int64(sim.StoredNow()) {
			t.Fatalf("%v: the second store holds %d packets, the stores %d", keys, held, sim.StoredNow())
		}
		t.Logf("%v: %d packets compared, %d stored at the end, %d delivered", keys, compared, held, r.DeliveredPackets)
	}
}
