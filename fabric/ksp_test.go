package fabric

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/workload"
)

// allSimplePaths enumerates every simple u→d path of adj by depth-first
// search, sorted by (hops, node sequence).
// TestYenAgainstBruteForce compares Yen's paths with the first k of all
// simple paths (depth-first enumeration, sorted by hops, then node
// sequence) on random directed graphs: the same paths in the same order,
// so in particular the k smallest lengths agree. One yen work space serves
// every call, as in the simulator.
// TestYenAgainstGonum compares the path lengths of our Yen with gonum's
// YenKShortestPaths on the slice graphs of an Opera schedule (too large
// for brute force): the same multiset of k smallest hop counts; and the
// guided spur search gives the same paths as the breadth-first one.
// unequalSchedule is a static two-switch schedule on five ToRs whose only
// 0→2 paths are 0→1→2 (switch A twice) and 0→3→4→2 (A: 3→4, B: 0→3,
// 4→2): the second shortest path is one hop longer than the shortest.
func unequalSchedule() *rotor.Schedule {
	us := rotor.Microsecond
	return &rotor.Schedule{Kind: "static", Nodes: 5, Switches: 2, Period: 1, Slot: 500 * us, Reconf: us,
		Matchings: [][][]int{
			{{1, 2, 0, 4, 3}},
			{{3, rotor.Idle, 4, 0, 2}},
		}}
}

// TestKSPUnequalCost: with k = 2 a flow takes the path its hash selects,
// the 3-hop one included (max hops in flows.csv, the hops histogram);
// with k = 1 or ECMP every flow takes the 2-hop shortest path.
func TestKSPUnequalCost(t *testing.T) {
	sc := unequalSchedule()
	us := rotor.Microsecond
	var flows []workload.Flow
	wantHops := map[int]int{}
	longer := 0
	for i := 0; i < 8; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: 0, Dst: 2, Bytes: 6000, Start: rotor.Time(i) * 5 * us})
		wantHops[i] = 2 + flowHash(int32(i), 0)%2
		if wantHops[i] == 3 {
			longer++
		}
	}
	if longer == 0 || longer == len(flows) {
		t.Fatalf("flow hashes give %d of %d flows the longer path: test too weak", longer, len(flows))
	}
	for _, tc := range []struct {
		name      string
		k         int
		multipath string
		want      func(id int) int
	}{
		{"k=1", 1, MultipathKSP, func(int) int { return 2 }},
		{"ecmp k=2", 2, MultipathECMP, func(int) int { return 2 }},
		{"ksp k=2", 2, MultipathKSP, func(id int) int { return wantHops[id] }},
		{"ksp k=8", 8, MultipathKSP, func(id int) int { return 2 + flowHash(int32(id), 0)%2 }},
	} {
		cfg := baseConfig(sc, flows)
		cfg.Routing, cfg.PathsK, cfg.Multipath = Paths, tc.k, tc.multipath
		cfg.Transport = LineRate
		cfg.SimTime = 400 * us
		r, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.FlowsComplete != len(flows) {
			t.Fatalf("%s: %d of %d flows complete", tc.name, r.FlowsComplete, len(flows))
		}
		got, want := map[int]int{}, map[int]int{}
		hist := make([]int64, 4)
		for _, f := range r.Flows {
			got[f.ID], want[f.ID] = f.MaxHops, tc.want(f.ID)
			hist[want[f.ID]] += 4 // 6000 B = 4 packets
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: max hops per flow (-want +got):\n%s", tc.name, diff)
		}
		for len(hist) > 0 && hist[len(hist)-1] == 0 {
			hist = hist[:len(hist)-1]
		}
		if diff := cmp.Diff(hist, r.Hops); diff != "" {
			t.Errorf("%s: hops histogram (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestKSPOperaEpochs runs low-latency traffic on k-shortest-path source
// routes over an Opera schedule for many epochs with run.check on (which
// also fails the run if a packet is ever not on its own source route):
// every flow completes, both with paths and vlb-paths and fabric ACKs, no
// packet reaches the hop limit, and the unequal-cost paths show in the
// mean hop count (above k = 1's).
func TestKSPOperaEpochs(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 16, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 0))
	var flows []workload.Flow
	for i := 0; i < 200; i++ {
		src := rng.IntN(16)
		dst := (src + 1 + rng.IntN(15)) % 16
		flows = append(flows, workload.Flow{ID: i, Src: src, Dst: dst, Bytes: int64(1500 * (1 + rng.IntN(20))), Start: rotor.Time(i) * 10 * us})
	}
	hops := map[string]float64{}
	for _, tc := range []struct {
		mode string
		k    int
	}{{Paths, 1}, {Paths, 4}, {VLBPaths, 4}} {
		cfg := baseConfig(sc, flows)
		cfg.Routing, cfg.PathsK = tc.mode, tc.k
		cfg.SimTime = 5 * rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s k=%d: %v", tc.mode, tc.k, err)
		}
		if r.FlowsComplete != len(flows) || r.HopLimitDropped != 0 {
			t.Fatalf("%s k=%d: %d of %d flows complete, %d packets at the hop limit", tc.mode, tc.k, r.FlowsComplete, len(flows), r.HopLimitDropped)
		}
		maxHops := 0
		for _, f := range r.Flows {
			maxHops = max(maxHops, f.MaxHops)
		}
		hops[tc.mode+string(rune('0'+tc.k))] = meanHops(r.Hops)
		t.Logf("%s k=%d: mean hops %.3f, max %d", tc.mode, tc.k, meanHops(r.Hops), maxHops)
	}
	if hops[Paths+"4"] <= hops[Paths+"1"] {
		t.Errorf("mean hops k=4 %.3f not above k=1 %.3f", hops[Paths+"4"], hops[Paths+"1"])
	}
	// The guard: with the hop limit at 3, packets that would take a 4th
	// hop are dropped and counted (and conservation still holds: Check).
	cfg := baseConfig(sc, flows)
	cfg.Routing, cfg.PathsK, cfg.Transport, cfg.hopLimit = Paths, 4, LineRate, 3
	cfg.SimTime = 5 * rotor.Millisecond
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.HopLimitDropped == 0 || r.HopLimitDropped > r.DroppedPackets || len(r.Hops) > 4 {
		t.Errorf("hop limit 3: %d packets dropped at it, %d dropped in all, hops histogram %v", r.HopLimitDropped, r.DroppedPackets, r.Hops)
	}
}
