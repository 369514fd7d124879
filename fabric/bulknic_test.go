package fabric

import (
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// bulkNICConfig is the fabric of TestSingleFlowDirect (4 ToRs, one rotor
// switch playing shifts 1, 2, 3, slot 10 µs with 1 µs of night, 10 Gb/s,
// 100 ns per link) with two hosts per ToR, running NDP under paths:
// flows of at least 100 kB between racks are pulled bulk flows.
func bulkNICConfig(t *testing.T, nic string, flows []workload.Flow) Config {
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*rotor.Microsecond, rotor.Microsecond), flows)
	cfg.HostsPerToR = 2
	cfg.Transport, cfg.Routing, cfg.BulkBytes = NDP, Paths, 100_000
	cfg.NDPWindow, cfg.MinRTO, cfg.NDPBulkNIC = 10, rotor.Second, nic
	cfg.SimTime = 2 * rotor.Millisecond
	return cfg
}

// TestNDPBulkNICLast: host 0 starts an NDP flow A of 10 packets (all in
// its first window) to host 1, in its own rack, at t = 0, and a bulk flow
// B to host 4 (ToR 2) 1 ns later, which ToR 0 pulls at once (relayed
// over the circuit to ToR 1 that is up).
//
// By hand, A alone: its 10 packets leave host 0's NIC back to back, the
// last in [10.8 µs, 12 µs); 100 ns to ToR 0; its host port [12.1, 13.3);
// 100 ns: A's FCT is 13.4 µs. With transport.ndp_bulk_nic = last, ToR 0
// pulls nothing from host 0 while A's packets wait at its NIC, and asks
// again when the last has left: A's FCT is exactly A alone's. With fcfs
// (rdcn's default) B's pulls take the NIC between A's packets and A
// finishes later. B completes either way.
func TestNDPBulkNICLast(t *testing.T) {
	a := workload.Flow{ID: 0, Src: 0, Dst: 1, Bytes: 10 * 1500}
	b := workload.Flow{ID: 1, Src: 0, Dst: 4, Bytes: 300_000, Start: rotor.Nanosecond}
	const alone = 13*rotor.Microsecond + 400*rotor.Nanosecond
	run := func(nic string, flows ...workload.Flow) *Result {
		t.Helper()
		r, err := Run(bulkNICConfig(t, nic, flows))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range r.Flows {
			if !f.Done {
				t.Fatalf("%s: flow %d (%d B) not done", nic, f.ID, f.Bytes)
			}
		}
		return r
	}
	if got := run(NDPBulkLast, a).Flows[0].FCT; got != alone {
		t.Fatalf("A alone: FCT %v, want %v by hand", got, alone)
	}
	if got := run(NDPBulkLast, a, b).Flows[0].FCT; got != alone {
		t.Errorf("last: A's FCT beside B is %v, want A alone's %v", got, alone)
	}
	r := run(NDPBulkFCFS, a, b)
	if !r.Flows[1].Pulled {
		t.Fatal("B was not pulled")
	}
	if got := r.Flows[0].FCT; got <= alone {
		t.Errorf("fcfs: A's FCT beside B is %v, want more than A alone's %v (B's pulls take the NIC first come, first served)", got, alone)
	} else {
		t.Logf("fcfs: A's FCT beside B %v", got)
	}
}

// TestNDPBulkNICKey: transport.ndp_bulk_nic takes its two choices only.
func TestNDPBulkNICKey(t *testing.T) {
	_, err := Run(bulkNICConfig(t, "first", nil))
	if err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_bulk_nic: ") {
		t.Errorf("ndp_bulk_nic=first: got %v, want a transport.ndp_bulk_nic error", err)
	}
}
