package fabric

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestPullSingleFlow checks FCTs of host-buffered (pulled) packets that
// follow from the slot arithmetic of TestSingleFlowDirect's rotor (4 ToRs,
// one switch playing shifts 1, 2, 3; Δ = 10 µs, Δr = 1 µs; 10 Gbps, so an
// MTU takes 1.2 µs; 100 ns on every link). A pull request takes 100 ns
// down to the host, the packet 1.2 µs + 100 ns up.
//
//   - 1 packet 0→1 at t = 0, circuit 0→1 up: request [0, 0.1), host link
//     [0.1, 1.3), ToR 0 at 1.4, circuit [1.4, 2.6), ToR 1 at 2.7, host port
//     [2.7, 3.9), host at 4.0 µs.
//   - 2 packets 0→2 (direct): the circuit 0→2 is up [10, 19). At the night
//     of slot 0 (9 µs) ToR 0 prefetches for the next day: requests at 9,
//     host link [9.1, 10.3) and [10.3, 11.5), ToR 0 at 10.4 and 11.6,
//     circuit [10.4, 11.6) and [11.6, 12.8), ToR 2 at 11.7 and 12.9, host
//     port [11.7, 12.9) and [12.9, 14.1), host at 14.2 µs.
//   - 1 packet 0→2 with RotorLB: relayed through ToR 1 (circuit 0→1 up,
//     nothing direct for 1): ToR 1 at 2.7 as above, down to host 1 (port
//     [2.7, 3.9), stored at 4.0); ToR 1's circuit to 2 is up (shift 1), so
//     it pulls at once: request [4.0, 4.1), host link [4.1, 5.3), ToR 1 at
//     5.4, circuit [5.4, 6.6), ToR 2 at 6.7, host port [6.7, 7.9), host at
//     8.0 µs.
func TestPullSingleFlow(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cases := []struct {
		name    string
		flow    workload.Flow
		routing string
		want    rotor.Time
		hops    []int64
	}{
		{"live circuit", workload.Flow{Src: 0, Dst: 1, Bytes: 1500}, Direct, 4 * us, []int64{0, 1}},
		{"prefetched", workload.Flow{Src: 0, Dst: 2, Bytes: 3000}, Direct, 14*us + 200*ns, []int64{0, 2}},
		{"relayed", workload.Flow{Src: 0, Dst: 2, Bytes: 1500}, RotorLB, 8 * us, []int64{0, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), []workload.Flow{c.flow})
			cfg.Transport, cfg.Routing = Pull, c.routing
			r := runOneFlow(t, cfg, c.want)
			if !equalHops(r.Hops, c.hops) {
				t.Errorf("hops %v, want %v", r.Hops, c.hops)
			}
			if r.InFlightPackets != 0 || r.DroppedPackets != 0 || r.InjectedPackets != r.DeliveredPackets {
				t.Errorf("after the run: injected %d, delivered %d, %d in flight, %d dropped",
					r.InjectedPackets, r.DeliveredPackets, r.InFlightPackets, r.DroppedPackets)
			}
		})
	}
}

func equalHops(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPullLossless loads a fabric whose ToRs hold only 12 packets with
// websearch-like traffic at 60 % load: pushed traffic would lose
// thousands of packets (TestReliableDelivery), pulled traffic none. Every
// flow completes with exactly its bytes, and the invariants (conservation
// in packets and bytes, stored relayed bytes included) hold throughout.
func TestPullLossless(t *testing.T) {
	flows := testFlows(t, "100KB", 0.6, 3*rotor.Millisecond, 2)
	for _, mode := range []string{Direct, RotorLB} {
		t.Run(mode, func(t *testing.T) {
			cfg := loadedConfig(t, mode, flows)
			cfg.Transport = Pull
			cfg.Buffer = 12 * 1500
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.DroppedPackets != 0 {
				t.Errorf("%d pulled packets dropped", r.DroppedPackets)
			}
			if r.FlowsComplete != len(flows) {
				t.Errorf("%d of %d flows completed", r.FlowsComplete, len(flows))
			}
			for _, f := range r.Flows {
				if f.Received != f.Bytes || f.FCT < f.Ideal {
					t.Errorf("flow %d: received %d of %d B, FCT %v < ideal %v", f.ID, f.Received, f.Bytes, f.FCT, f.Ideal)
				}
			}
			if r.BufferPeak > 12*1500 {
				t.Errorf("buffer peak %d B > 18000 B", r.BufferPeak)
			}
			if mode == RotorLB && (len(r.Hops) < 3 || r.Hops[2] == 0) {
				t.Errorf("rotorlb relayed nothing: hops %v", r.Hops)
			}
		})
	}
}

// TestPullSaturatedThroughput: saturated permutation traffic, pulled. With
// host delay 0 a pull round trip (1.2 µs) equals the night, so the
// prefetched packets are at the ToR when the day starts and direct on the
// true rotor reaches the single-hop bound d/(n−1), RotorLB on the self-slot
// rotor the emulated-graph bound d/2 (as pushed traffic does in
// TestSaturatedThroughput). With 100 ns host delay the round trip is
// 1.4 µs: the first packet arrives 0.2 µs into the 12 µs day, so only 9 of
// the 10 packets a day holds fit and θ drops to 9/10 of the bound.
func TestPullSaturatedThroughput(t *testing.T) {
	d := 12.0 / 13.2
	ns := rotor.Nanosecond
	cases := []struct {
		name      string
		first     int
		routing   string
		hostDelay rotor.Time
		want      float64
		tol       float64
	}{
		{"direct true rotor", 1, Direct, 0, d / 7, 0.01},
		{"direct true rotor, late pulls", 1, Direct, 100 * ns, 0.9 * d / 7, 0.01},
		{"rotorlb self-slot", 0, RotorLB, 0, d / 2, 0.02},
		{"rotorlb self-slot, late pulls", 0, RotorLB, 100 * ns, 0.9 * d / 2, 0.02},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 8
			slot, reconf := 13200*rotor.Nanosecond, 1200*rotor.Nanosecond
			sc := cyclicSchedule(t, n, 1, c.first, slot, reconf)
			var flows []workload.Flow
			for i := 0; i < n; i++ {
				flows = append(flows, workload.Flow{ID: i, Src: i, Dst: (i + n/2) % n, Bytes: 1 << 40})
			}
			cfg := baseConfig(sc, flows)
			cfg.Transport, cfg.Routing = Pull, c.routing
			cfg.HostDelay = c.hostDelay
			cfg.Buffer = 40 * 1500
			cycles := 40
			cfg.SimTime = rotor.Time(cycles) * sc.CycleDuration()
			cfg.SeriesInterval = sc.CycleDuration()
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, u := range r.HostSeries[cycles/2 : cycles] {
				sum += u
			}
			got := sum / float64(cycles/2)
			if math.Abs(got-c.want) > c.tol*c.want {
				t.Errorf("throughput %.4f of host capacity, want %.4f ± %.0f%%", got, c.want, 100*c.tol)
			}
			if r.DroppedPackets != 0 {
				t.Errorf("%d drops", r.DroppedPackets)
			}
			t.Logf("θ = %.4f (want %.4f), hops %v", got, c.want, r.Hops)
		})
	}
}

// TestPullRotorLBSpare checks RotorLB's acceptance rule on the rotor of
// TestPullSingleFlow (4 ToRs, shifts 1, 2, 3, Δ = 10 µs, Δr = 1 µs, one day
// carries 11 250 B). A 1-packet flow 0→2 starts at t = 0, when ToR 0's
// circuit reaches ToR 1.
//
//   - ToR 1 idle: it has a whole day of spare capacity toward 2, accepts,
//     and the packet arrives relayed at 8.0 µs (TestPullSingleFlow).
//   - ToR 1's host holds 30 000 B for ToR 2 (flow started first): its own
//     backlog fills its next day to 2 (it requests at most 10 packets
//     during slot 0, so ≥ 15 000 B stay), spare = 11 250 − backlog < 0,
//     and ToR 1 refuses. The packet waits for the direct circuit 0→2 of
//     slot 1 [10, 19): prefetched at 9 µs, host link [9.1, 10.3), ToR 0 at
//     10.4, circuit [10.4, 11.6), ToR 2 at 11.7, host port [11.7, 12.9),
//     host at 13.0 µs. (ToR 1's packets to 2 left the host port by 10.3.)
//   - routing.offer = excess: ToR 0's backlog for 2 (1500 B) fits its own
//     next day, so it is not offered even to an idle ToR 1: 13.0 µs.
func TestPullRotorLBSpare(t *testing.T) {
	us := rotor.Microsecond
	probe := workload.Flow{ID: 1, Src: 0, Dst: 2, Bytes: 1500}
	busy := workload.Flow{ID: 0, Src: 1, Dst: 2, Bytes: 30000}
	cases := []struct {
		name    string
		flows   []workload.Flow
		offer   string
		want    rotor.Time
		maxHops int
	}{
		{"idle intermediate", []workload.Flow{probe}, OfferAll, 8 * us, 2},
		{"busy intermediate", []workload.Flow{busy, probe}, OfferAll, 13 * us, 1},
		{"excess offer", []workload.Flow{probe}, OfferExcess, 13 * us, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), c.flows)
			cfg.Transport, cfg.Routing, cfg.RelayOffer = Pull, RotorLB, c.offer
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got *FlowResult
			for i := range r.Flows {
				if r.Flows[i].Src == probe.Src {
					got = &r.Flows[i]
				}
			}
			if got == nil || !got.Done {
				t.Fatalf("probe flow did not complete: %+v", r.Flows)
			}
			if got.FCT != c.want || got.MaxHops != c.maxHops {
				t.Errorf("FCT %v over %d hops, want %v over %d", got.FCT, got.MaxHops, c.want, c.maxHops)
			}
			if r.FlowsComplete != len(c.flows) || r.DroppedPackets != 0 {
				t.Errorf("%d of %d flows complete, %d dropped", r.FlowsComplete, len(c.flows), r.DroppedPackets)
			}
		})
	}
}

// TestPullHostPortContention checks the booking of a ToR→host port by
// pulled packets. Five ToRs, one host each, two switches (cyclicSchedule:
// switch 0 plays shifts 1, 3 and switch 1 shifts 2, 4), so in slot 0 ToR 1
// reaches ToR 2 through switch 0 and ToR 0 reaches it through switch 1.
// Hosts 0 and 1 each send one MTU to host 2 at t = 0 (direct): request
// [0, 0.1), host link [0.1, 1.3), ToR at 1.4, circuit [1.4, 2.6), ToR 2 at
// 2.7 µs, both. The port serves them one after the other: [2.7, 3.9) and
// [3.9, 5.1), so one flow completes at 4.0 µs and the other at 5.2 µs.
func TestPullHostPortContention(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	flows := []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 1500}, {ID: 1, Src: 1, Dst: 2, Bytes: 1500}}
	cfg := baseConfig(cyclicSchedule(t, 5, 2, 1, 10*us, 1*us), flows)
	cfg.Transport, cfg.Routing = Pull, Direct
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var fct []rotor.Time
	for _, f := range r.Flows {
		if !f.Done {
			t.Fatalf("flow %d did not complete", f.ID)
		}
		fct = append(fct, f.FCT)
	}
	slices.Sort(fct)
	if want := []rotor.Time{4 * us, 5*us + 200*ns}; !slices.Equal(fct, want) {
		t.Errorf("FCTs %v, want %v", fct, want)
	}
}

// TestRelayStoreNoAllocPerPacket: storing a relayed packet (an entry of
// its relay store, the packet back to the pool) and making it again
// allocate nothing per packet: the stores' arrays come from and go back
// to a pool (des.Arrays). The same 32 flows (4 from each of 8 ToRs
// to the next, one rotor switch, RotorLB relaying most of them, pulled) run once with 300 kB and once with 1.2 MB each: the
// longer run relays about four times the packets but allocates about as
// often (set-up, growth of the stores to their peak): the extra
// allocations are under 1 % of the extra relayed packets.
func TestRelayStoreNoAllocPerPacket(t *testing.T) {
	us := rotor.Microsecond
	run := func(bytes int64) (allocs uint64, relayed int64) {
		var flows []workload.Flow
		for k := 0; k < 4; k++ {
			for s := 0; s < 8; s++ {
				flows = append(flows, workload.Flow{ID: len(flows), Src: s, Dst: (s + 1) % 8, Bytes: bytes})
			}
		}
		cfg := baseConfig(cyclicSchedule(t, 8, 1, 1, 50*us, 2*us), flows)
		cfg.Transport, cfg.Routing, cfg.Check = Pull, RotorLB, false
		cfg.SimTime = 100 * rotor.Millisecond
		mallocs, r := runCountingMallocs(t, cfg)
		if r.InjectedPackets != r.DeliveredPackets || len(r.Hops) < 3 {
			t.Fatalf("%d B a flow: %d packets injected, %d delivered, hops %v: want every packet delivered, some relayed",
				bytes, r.InjectedPackets, r.DeliveredPackets, r.Hops)
		}
		return mallocs, r.Hops[2]
	}
	a1, r1 := run(300_000)
	a2, r2 := run(1_200_000)
	if r2-r1 < 10_000 {
		t.Fatalf("%d and %d packets relayed: the longer run does not exercise the stores", r1, r2)
	}
	if extra := float64(a2) - float64(a1); extra > 0.01*float64(r2-r1) {
		t.Errorf("%d allocations for %d relayed packets, %d for %d: %.0f more for %d more", a1, r1, a2, r2, extra, r2-r1)
	}
	t.Logf("%d allocations for %d relayed packets, %d for %d", a1, r1, a2, r2)
}

// runCountingMallocs runs cfg and returns the heap allocations the run
// made (after a GC) with its result; a failed run fails t.
func runCountingMallocs(t *testing.T, cfg Config) (uint64, *Result) {
	t.Helper()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	r, err := Run(cfg)
	runtime.ReadMemStats(&ms1)
	if err != nil {
		t.Fatal(err)
	}
	return ms1.Mallocs - ms0.Mallocs, r
}
