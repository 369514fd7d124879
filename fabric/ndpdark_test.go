package fabric

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/internal/testsched"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// darkSchedule is testsched.DarkCircuit with 10 µs nights: the circuit
// 0 → 1 is up in [0, 90 µs) and again only from 1.2 ms, while the path
// 0 → 3 → 2 → 1 (switch B, and A after its slot 0) stays up.
func darkSchedule(t *testing.T) *rotor.Schedule {
	t.Helper()
	sc, err := testsched.DarkCircuit(10 * rotor.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// darkConfig: host 0 sends 30 packets to host 1 at t = 0 over paths
// routing with NDP. The circuits run at 1 Gbps against 10 Gbps host
// links, so the pulled packets queue at ToR 0 for the direct circuit
// 0 → 1 (12 µs a packet: 7 cross in its 90 µs day) and some are still
// queued when it goes dark at 90 µs.
func darkConfig(t *testing.T, dark string) Config {
	cfg := baseConfig(darkSchedule(t), []workload.Flow{{Src: 0, Dst: 1, Bytes: 30 * 1500}})
	cfg.CircuitLink = rotor.Gbps
	cfg.Routing, cfg.Transport, cfg.NDPDark = Paths, NDP, dark
	cfg.SimTime = 5 * rotor.Millisecond
	return cfg
}

// TestNDPDarkCircuit: packets queued at a ToR for a circuit that goes dark.
// With trim they are cut to headers that take the new slice's path
// (0 → 3 → 2 → 1), the receiver NACKs and pulls them again, and the flow
// completes with no timeout, before the direct circuit's next day
// (1.2 ms) and before the 1 ms timeout could fire. With wait they wait
// for that day (parked), the sender hears nothing for transport.min_rto
// and times out: the FCT exceeds 1 ms, and the summary counts the
// timeout as one behind a dark circuit. With routing.source = nic trim
// does the same as with hop. Nothing is dropped either way;
// run.check verifies the byte balance with the cut payload.
func TestNDPDarkCircuit(t *testing.T) {
	trim, err := Run(darkConfig(t, NDPDarkTrim))
	if err != nil {
		t.Fatal(err)
	}
	f := trim.Flows[0]
	d := trim.NDPDark
	if !f.Done || f.Timeouts != 0 || f.FCT >= rotor.Millisecond {
		t.Errorf("trim: done %v, %d timeouts, FCT %v: want done without a timeout in under 1 ms", f.Done, f.Timeouts, f.FCT)
	}
	if d == nil || d.Trimmed == 0 || d.Parked != 0 || d.Timeouts != 0 {
		t.Errorf("trim: dark stats %+v: want packets trimmed, none parked (every dark circuit has another path), no timeout", d)
	}
	if trim.DroppedPackets != 0 || trim.InFlightPackets != 0 {
		t.Errorf("trim: %d dropped, %d in flight", trim.DroppedPackets, trim.InFlightPackets)
	}

	wait, err := Run(darkConfig(t, NDPDarkWait))
	if err != nil {
		t.Fatal(err)
	}
	f = wait.Flows[0]
	d = wait.NDPDark
	if !f.Done || f.Timeouts == 0 || f.FCT <= rotor.Millisecond {
		t.Errorf("wait: done %v, %d timeouts, FCT %v: want a timeout and an FCT above 1 ms", f.Done, f.Timeouts, f.FCT)
	}
	if d == nil || d.Trimmed != 0 || d.Moved != 0 || d.Parked == 0 || d.Timeouts == 0 || d.TimeoutFlows != 1 {
		t.Errorf("wait: dark stats %+v: want packets parked and the flow's timeout counted behind the dark circuit", d)
	}
	if wait.DroppedPackets != 0 {
		t.Errorf("wait: %d dropped", wait.DroppedPackets)
	}
	t.Logf("trim: FCT %v, %+v; wait: FCT %v, %+v", trim.Flows[0].FCT, *trim.NDPDark, f.FCT, *d)

	// routing.source = nic: the packets queued for 0 → 1 carry their NIC's
	// slice, which still says 1; the slice of now decides, so they are
	// trimmed the same (they were parked and timed out before).
	cfg := darkConfig(t, NDPDarkTrim)
	cfg.RoutingSource = RoutingSourceNIC
	nic, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f, d := nic.Flows[0], nic.NDPDark; !f.Done || f.Timeouts != 0 || d.Parked != 0 || d.Trimmed != trim.NDPDark.Trimmed || f.FCT != trim.Flows[0].FCT {
		t.Errorf("trim, source nic: done %v, %d timeouts, FCT %v, %+v: want the source-hop run's FCT %v and %d trimmed",
			f.Done, f.Timeouts, f.FCT, *d, trim.Flows[0].FCT, trim.NDPDark.Trimmed)
	}

	again, err := Run(darkConfig(t, NDPDarkTrim))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(trim.Flows, again.Flows) || *trim.NDPDark != *again.NDPDark || trim.Events != again.Events {
		t.Error("trim: two runs of the same configuration differ")
	}
}

// TestNDPDarkKeys: transport.ndp_dark and transport.ndp_pull_pacing take
// only their choices, and wait is refused where no packet could leave
// its dark circuit for another next hop (direct routing keeps every
// packet for its circuit).
func TestNDPDarkKeys(t *testing.T) {
	cfg := darkConfig(t, "drop")
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_dark: ") {
		t.Errorf("ndp_dark=drop: got %v, want a transport.ndp_dark error", err)
	}
	cfg = darkConfig(t, NDPDarkWait)
	cfg.Routing = Direct
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_dark: ") {
		t.Errorf("wait with direct routing: got %v, want a transport.ndp_dark error", err)
	}
	cfg = darkConfig(t, "")
	cfg.NDPPullPacing = "receiver"
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_pull_pacing: ") {
		t.Errorf("ndp_pull_pacing=receiver: got %v, want a transport.ndp_pull_pacing error", err)
	}
}

// TestNDPDarkNoAllocPerPacket: trimming at dark circuits and per-flow
// pull pacing allocate nothing per packet. The same 60 flows run once
// with 150 kB and once with 600 kB each through the dark circuit of
// darkSchedule: the longer run delivers about four times the packets
// and meets the dark circuit far more often, but allocates about as
// often (set-up, and the growth of queues and per-flow state): the
// extra allocations are under 1 % of the extra packets.
func TestNDPDarkNoAllocPerPacket(t *testing.T) {
	run := func(pacing string, bytes int64) (allocs uint64, r *Result) {
		var flows []workload.Flow
		for i := 0; i < 60; i++ {
			flows = append(flows, workload.Flow{ID: i, Src: i % 4, Dst: (i%4 + 1) % 4, Bytes: bytes, Start: rotor.Time(i) * 20 * rotor.Microsecond})
		}
		cfg := baseConfig(darkSchedule(t), flows)
		cfg.CircuitLink = rotor.Gbps
		cfg.Routing, cfg.Transport, cfg.NDPPullPacing = Paths, NDP, pacing
		cfg.SimTime, cfg.Check = 100*rotor.Millisecond, false
		mallocs, r := runCountingMallocs(t, cfg)
		return mallocs, r
	}
	for _, pacing := range []string{NDPPaceHost, NDPPaceFlow} {
		a1, r1 := run(pacing, 150_000)
		a2, r2 := run(pacing, 600_000)
		dp := r2.DeliveredPackets - r1.DeliveredPackets
		dd := r2.NDPDark.Trimmed + r2.NDPDark.Moved - r1.NDPDark.Trimmed - r1.NDPDark.Moved
		if dp < 10_000 || dd < 1_000 {
			t.Fatalf("%s: %d more packets delivered, %d more met a dark circuit: the longer run does not exercise the path", pacing, dp, dd)
		}
		if extra := float64(a2) - float64(a1); extra > 0.01*float64(dp) {
			t.Errorf("%s: %d allocations for %d packets, %d for %d: %.0f more for %d more packets", pacing, a1, r1.DeliveredPackets, a2, r2.DeliveredPackets, extra, dp)
		}
		t.Logf("%s: %d allocations for %d packets (%d at dark circuits), %d for %d (%d)", pacing, a1, r1.DeliveredPackets,
			r1.NDPDark.Trimmed+r1.NDPDark.Moved, a2, r2.DeliveredPackets, r2.NDPDark.Trimmed+r2.NDPDark.Moved)
	}
}

// TestNDPDarkCircuitBackWithinSlot: a circuit that is back one slot after
// its night (Mars's 2-slot cycle) is waited for, not trimmed at. The flow
// of darkConfig on darkSchedule with switch A alternating shift 1 and
// shift 3: 0 → 1 goes dark at 90 µs and is up again at 200 µs, one slot
// (100 µs) after the 10 µs night. The packets queued for it wait (parked)
// instead of being cut to headers, and the flow completes without a
// timeout. Before, they were trimmed (as on darkSchedule itself, whose
// 0 → 1 is back only at 1.2 ms: TestNDPDarkCircuit still trims there).
func TestNDPDarkCircuitBackWithinSlot(t *testing.T) {
	cfg := darkConfig(t, NDPDarkTrim)
	sc := *cfg.Schedule
	a := make([][]int, sc.Period)
	for k := range a {
		a[k] = sc.Matchings[0][k%2] // shift 1, shift 3, shift 1, …
	}
	sc.Matchings = [][][]int{a, sc.Matchings[1]}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg.Schedule = &sc
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f, d := r.Flows[0], r.NDPDark
	if !f.Done || f.Timeouts != 0 || f.FCT >= rotor.Millisecond {
		t.Errorf("done %v, %d timeouts, FCT %v: want done without a timeout in under 1 ms", f.Done, f.Timeouts, f.FCT)
	}
	if d == nil || d.Trimmed != 0 || d.Moved != 0 || d.Parked == 0 || d.Timeouts != 0 {
		t.Errorf("dark stats %+v: want the packets parked for the circuit's return, none trimmed", d)
	}
	if r.DroppedPackets != 0 || r.InFlightPackets != 0 {
		t.Errorf("%d dropped, %d in flight", r.DroppedPackets, r.InFlightPackets)
	}
	t.Logf("FCT %v, %+v", f.FCT, *d)
}
