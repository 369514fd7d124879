package fabric

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// websearchFlows draws flows of size sizes at the given load on 9 ToRs × 4
// hosts for the first `dur` of the run.
func testFlows(t testing.TB, sizes string, load float64, dur rotor.Time, seed uint64) []workload.Flow {
	t.Helper()
	sd, err := workload.Sizes(sizes)
	if err != nil {
		t.Fatal(err)
	}
	flows, err := workload.Generate(workload.Config{Hosts: 36, HostsPerTor: 4, HostRate: 10 * rotor.Gbps,
		Load: load, Sizes: sd, Duration: dur}, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	return flows
}

func loadedConfig(t testing.TB, routing string, flows []workload.Flow) Config {
	sc := cyclicSchedule(t, 9, 2, 1, 20*rotor.Microsecond, 2*rotor.Microsecond)
	cfg := baseConfig(sc, flows)
	cfg.HostsPerToR = 4
	cfg.CircuitLink = 20 * rotor.Gbps
	cfg.Routing = routing
	cfg.Buffer = 40 * 1500 // small: forces drops and retransmissions
	cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named("dt", map[string]float64{"alpha": 1}, nil, nil) }
	cfg.MinRTO = 200 * rotor.Microsecond
	cfg.SimTime = 30 * rotor.Millisecond
	return cfg
}

// TestReliableDelivery loads a small-buffer fabric so that packets are
// dropped, and checks that the reliable transport still completes every
// flow, that each completed flow received exactly its bytes, and that the
// conservation invariant (checked throughout with Check) holds.
func TestReliableDelivery(t *testing.T) {
	flows := testFlows(t, "100KB", 0.5, 3*rotor.Millisecond, 1)
	for _, mode := range []string{Direct, VLB, RotorLB, Paths, Earliest, VLBPaths} {
		for _, acks := range []string{AcksFabric, AcksIdeal} {
			t.Run(mode+"/"+acks, func(t *testing.T) {
				cfg := loadedConfig(t, mode, flows)
				cfg.Acks = acks
				r, err := Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if r.FlowsComplete != len(flows) {
					t.Errorf("%d of %d flows completed", r.FlowsComplete, len(flows))
				}
				for _, f := range r.Flows {
					if f.Done && (f.Received != f.Bytes || f.FCT < f.Ideal) {
						t.Errorf("flow %d: received %d of %d B, FCT %v < ideal %v", f.ID, f.Received, f.Bytes, f.FCT, f.Ideal)
					}
				}
				if r.DroppedPackets == 0 || r.Retransmits == 0 {
					t.Errorf("expected drops and retransmissions with a 40-packet buffer, got %d and %d", r.DroppedPackets, r.Retransmits)
				}
				if r.BufferPeak > int64(cfg.Buffer) {
					t.Errorf("buffer peak %d above size %d", r.BufferPeak, cfg.Buffer)
				}
				t.Logf("flows %d, drops %d, retx %d, timeouts %d, reordered %d, hops %v",
					len(flows), r.DroppedPackets, r.Retransmits, r.Timeouts, r.Reordered, r.Hops)
			})
		}
	}
}

// TestDeterministic runs the same configuration twice and compares every
// result field except the memory samples.
func TestDeterministic(t *testing.T) {
	flows := testFlows(t, "websearch", 0.3, 2*rotor.Millisecond, 2)
	var results []*Result
	for i := 0; i < 2; i++ {
		cfg := loadedConfig(t, VLB, flows)
		cfg.SimTime = 5 * rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	if diff := cmp.Diff(results[0], results[1], cmpopts.IgnoreFields(Result{}, "Memory"), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
}

// TestHybrid: with an electrical packet switch, traffic whose destination
// has no circuit now crosses it; everything completes, conservation holds.
func TestHybrid(t *testing.T) {
	flows := testFlows(t, "20KB", 0.3, 2*rotor.Millisecond, 3)
	cfg := loadedConfig(t, Hybrid, flows)
	cfg.Buffer = 1 << 20
	cfg.PacketSwitchLink = 10 * rotor.Gbps
	cfg.PacketSwitchDelay = 200 * rotor.Nanosecond
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.FlowsComplete != len(flows) || r.PacketSwitchBytes == 0 || r.CircuitBytes == 0 {
		t.Errorf("completed %d of %d flows; packet switch carried %d B, circuits %d B (want both > 0)",
			r.FlowsComplete, len(flows), r.PacketSwitchBytes, r.CircuitBytes)
	}
	if _, err := Run(func() Config { c := loadedConfig(t, Hybrid, flows); return c }()); err == nil {
		t.Error("hybrid without a packet switch was accepted")
	}
}
