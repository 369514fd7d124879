package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// TestDCTCPDefaultK: DCTCP without buffer.ecn_threshold marks each port at
// the DCTCP paper's K > C·RTT/7, the fewest whole packets above it. On a
// leaf-spine with 10 Gb/s host and 100 Gb/s fabric links, 1 µs each,
// 1500 B packets and 64 B ACKs, the base RTT is 2·(1.2 + 0.0512 + 2) +
// 2·(0.12 + 0.00512 + 2) = 10.75264 µs. At 10 Gb/s (833 333 packets/s)
// C·RTT = 8.9605 packets, /7 = 1.28: K = 2 packets = 3000 B; at 100 Gb/s
// 12.8: K = 13 packets = 19 500 B. The summary reports both. A K the user
// sets wins.
func TestDCTCPDefaultK(t *testing.T) {
	g := rotor.Gbps
	cfg := lsConfig(2, 2, 2, 1, 10*g, 100*g, []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 15_000}})
	cfg.CC = "dctcp"
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.cfg.baseRTT(), 10_752_640*rotor.Picosecond; got != want {
		t.Fatalf("base RTT %v, want %v", got, want)
	}
	want := []PortMarking{{Rate: 10 * g, ECN: tor.ECN{K: 3000}}, {Rate: 100 * g, ECN: tor.ECN{K: 19_500}}}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, r.ECN); diff != "" {
		t.Errorf("default marking (-want +got):\n%s", diff)
	}
	sum, err := r.Summarize(stats.Buckets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]ECNSummary{{Rate: "10Gbps", KBytes: 3000}, {Rate: "100Gbps", KBytes: 19_500}}, sum.ECN); diff != "" {
		t.Errorf("summary's marking (-want +got):\n%s", diff)
	}
	cfg.ECNThreshold = 30_000
	r, err = Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]PortMarking{{Rate: 10 * g, ECN: tor.ECN{K: 30_000}}, {Rate: 100 * g, ECN: tor.ECN{K: 30_000}}}, r.ECN); diff != "" {
		t.Errorf("set threshold (-want +got):\n%s", diff)
	}
}

// TestDCQCNDefaultRED: DCQCN without buffer.ecn_threshold gets RED on
// every port, Kmin and Kmax the bytes the port drains in 32 and 128 µs
// (the PowerTCP artefact's 100 KB and 400 KB at 25 Gb/s), max_p 0.2; set
// thresholds replace them.
func TestDCQCNDefaultRED(t *testing.T) {
	g := rotor.Gbps
	cfg := lsConfig(2, 2, 2, 1, 25*g, 100*g, []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 15_000}})
	cfg.CC = "dcqcn"
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []PortMarking{{Rate: 25 * g, ECN: tor.ECN{MinTh: 100_000, MaxTh: 400_000, MaxP: 0.2}},
		{Rate: 100 * g, ECN: tor.ECN{MinTh: 400_000, MaxTh: 1_600_000, MaxP: 0.2}}}
	if diff := cmp.Diff(want, r.ECN); diff != "" {
		t.Errorf("default RED (-want +got):\n%s", diff)
	}
	cfg.REDMin, cfg.REDMax, cfg.REDMaxP = 5000, 200_000, 0.01
	if r, err = Run(cfg); err != nil {
		t.Fatal(err)
	}
	if got := r.ECN[1].ECN; got != (tor.ECN{MinTh: 5000, MaxTh: 200_000, MaxP: 0.01}) {
		t.Errorf("set RED: %+v", got)
	}
}

// TestThetaPowerTCPPathRTT: θ-PowerTCP's τ is its flow's own path base
// RTT, as in the authors' RDMA code. 10 Gb/s and 1 µs on every link of a
// leaf-spine, 1500 B packets, 64 B ACKs: a flow within a leaf crosses two
// links, τ = 2·(1.2 + 0.0512 + 2) = 6.5024 µs, its first window
// 10 Gb/s·τ = 8128 B; a flow across leaves four, τ = 13.0048 µs, 16 256 B.
func TestThetaPowerTCPPathRTT(t *testing.T) {
	g := rotor.Gbps
	cfg := lsConfig(2, 2, 2, 1, 10*g, 10*g, nil)
	cfg.CC = "theta-powertcp"
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    workload.Flow
		want int64
	}{{workload.Flow{Src: 0, Dst: 1}, 8128}, {workload.Flow{Src: 0, Dst: 2}, 16_256}} {
		l, err := s.newLaw(c.f)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Window(); got != c.want {
			t.Errorf("flow %d→%d: first window %d B, want %d", c.f.Src, c.f.Dst, got, c.want)
		}
	}
}
