package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/internal/testsched"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// cyclicSchedule is testsched.Cyclic (a RotorNet-style rotor: switch s
// in slot k maps i → i + first + s + k·u mod n), failing t on error.
func cyclicSchedule(t testing.TB, n, u, first int, slot, reconf rotor.Time) *rotor.Schedule {
	t.Helper()
	sc, err := testsched.Cyclic(n, u, first, slot, reconf)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// meanHops is the mean of a hop-count histogram (h[k]: packets that took k hops).
func meanHops(h []int64) float64 {
	var s, c float64
	for k, x := range h {
		s += float64(k) * float64(x)
		c += float64(x)
	}
	return s / c
}

// runOneFlow runs cfg, whose workload is one flow, and checks that the
// flow completes with FCT want.
func runOneFlow(t *testing.T, cfg Config, want rotor.Time) *Result {
	t.Helper()
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Flows) != 1 || !r.Flows[0].Done {
		t.Fatalf("flow did not complete: %+v", r.Flows)
	}
	if got := r.Flows[0].FCT; got != want {
		t.Errorf("FCT = %v, want %v", got, want)
	}
	return r
}

func baseConfig(sc *rotor.Schedule, flows []workload.Flow) Config {
	return Config{
		Schedule: sc, HostsPerToR: 1,
		HostLink: 10 * rotor.Gbps, CircuitLink: 10 * rotor.Gbps,
		HostDelay: 100 * rotor.Nanosecond, LinkDelay: 100 * rotor.Nanosecond,
		Buffer: 10_000_000, Flows: &SliceSource{Flows: flows},
		SimTime: rotor.Millisecond, Check: true,
		// The hand-computed tests were written for direct routing, the
		// windowed transport, a 10-packet window and complete sharing,
		// without send jitter.
		Routing: Direct, Transport: Windowed, Window: 10 * 1500,
		SendJitter: NoSendJitter,
		NewPolicy:  func(int) tor.PolicyMaker { return tor.Named("cs", nil, nil, nil) },
	}
}

// TestSingleFlowDirect checks FCTs that follow from the slot arithmetic.
//
// Four ToRs, one host each, one rotor switch playing shifts 1, 2, 3 (true
// rotor), slot Δ = 10 µs of which the last Δr = 1 µs is night; 10 Gbps
// everywhere, so a 1500 B packet serialises in 1.2 µs; every link has
// 100 ns propagation. Host 0 sends to host 2 at t = 0; the circuit 0→2
// (shift 2) is slot 1, day [10 µs, 19 µs), next day [40 µs, 49 µs).
//
//   - 2 packets: they wait in VOQ 2 until 10 µs. Packet 1 crosses the
//     circuit [10, 11.2), reaches ToR 2 at 11.3, the host port [11.3, 12.5),
//     the host at 12.6. Packet 2 crosses [11.2, 12.4), reaches ToR 2 at
//     12.5, host port [12.5, 13.7), host at 13.8 µs. FCT = 13.8 µs.
//   - 8 packets: 7 fit in the 9 µs day ([10, 18.4)); the 8th would end at
//     19.6 > 19 and waits for the next day: circuit [40, 41.2), ToR 2 at
//     41.3, host port [41.3, 42.5), host at 42.6 µs. FCT = 42.6 µs.
//   - 1 packet to host 1 (shift 1, slot 0, day [0, 9)): host link [0, 1.2),
//     ToR 0 at 1.3, circuit [1.3, 2.5), ToR 1 at 2.6, host port
//     [2.6, 3.8), host at 3.9 µs — the ideal FCT, no waiting.
//   - 1 packet to host 3 starting at 8 µs: reaches ToR 0 at 9.3 µs, after
//     slot 0's day; shift 3 is slot 2, day [20, 29): circuit [20, 21.2),
//     host at 22.6 µs; FCT = 14.6 µs.
func TestSingleFlowDirect(t *testing.T) {
	us := rotor.Microsecond
	ns := rotor.Nanosecond
	cases := []struct {
		name      string
		flow      workload.Flow
		transport string
		acks      string
		want      rotor.Time
	}{
		{"2 packets", workload.Flow{Src: 0, Dst: 2, Bytes: 3000}, LineRate, "", 13*us + 800*ns},
		{"8 packets wait a cycle", workload.Flow{Src: 0, Dst: 2, Bytes: 12000}, LineRate, "", 42*us + 600*ns},
		{"1 packet on a live circuit", workload.Flow{Src: 0, Dst: 1, Bytes: 1500}, LineRate, "", 3*us + 900*ns},
		{"misses the day", workload.Flow{Src: 0, Dst: 3, Bytes: 1500, Start: 8 * us}, LineRate, "", 14*us + 600*ns},
		// A window of 10 packets never binds for 2 packets; ACK paths do not change the FCT.
		{"2 packets, window, fabric ACKs", workload.Flow{Src: 0, Dst: 2, Bytes: 3000}, Windowed, AcksFabric, 13*us + 800*ns},
		{"2 packets, window, ideal ACKs", workload.Flow{Src: 0, Dst: 2, Bytes: 3000}, Windowed, AcksIdeal, 13*us + 800*ns},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), []workload.Flow{c.flow})
			cfg.Transport, cfg.Acks = c.transport, c.acks
			r := runOneFlow(t, cfg, c.want)
			if r.InFlightPackets != 0 || r.DroppedPackets != 0 {
				t.Errorf("after the run: %d packets in flight, %d dropped", r.InFlightPackets, r.DroppedPackets)
			}
		})
	}
}

// TestIdealFCT compares idealFCT with the no-wait timeline derived above
// (1 packet to host 1: 3.9 µs) and the 2-packet pipeline: host link
// [0, 2.4), circuit [1.3, 3.7), host port [2.6, 5.0), arrival 5.1 µs.
func TestIdealFCT(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	s, err := newSim(func() Config {
		c := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), nil)
		c.defaults()
		return c
	}())
	if err != nil {
		t.Fatal(err)
	}
	got := []rotor.Time{
		s.idealFCT(workload.Flow{Src: 0, Dst: 1, Bytes: 1500}),
		s.idealFCT(workload.Flow{Src: 0, Dst: 1, Bytes: 3000}),
		s.idealFCT(workload.Flow{Src: 0, Dst: 1, Bytes: 1}),
	}
	want := []rotor.Time{3*us + 900*ns, 5*us + 100*ns, 300*ns + 3*800}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ideal FCTs (-want +got):\n%s", diff)
	}
}

// TestSeriesAligned checks that the time series of a run have one row per
// bin each: ⌈end/interval⌉ for the run, and one more for something
// happening at the very end. The flow 0→1 (done at 3.9 µs) is acked over
// shift 3, slot 2: the ack crosses a circuit at exactly 20 µs.
func TestSeriesAligned(t *testing.T) {
	sc := cyclicSchedule(t, 4, 1, 1, 10*rotor.Microsecond, rotor.Microsecond)
	const interval = 10 * rotor.Microsecond
	for _, tc := range []struct {
		end   rotor.Time
		atEnd bool // the ack at 20 µs opens a bin at end
	}{
		{20 * rotor.Microsecond, true},
		{2700 * rotor.Nanosecond, false},
		{25 * rotor.Microsecond, false}, // the ack falls in the run's last bin
	} {
		cfg := baseConfig(sc, []workload.Flow{{ID: 0, Src: 0, Dst: 1, Bytes: 1500}}) // a fresh source per run
		cfg.SeriesInterval = interval
		cfg.SimTime = tc.end
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := int((tc.end + interval - 1) / interval)
		if tc.atEnd {
			want++
		}
		if n := len(r.HostSeries); n != want || len(r.CircuitSeries) != n || len(r.BufferSeries) != n || len(r.VOQSeries) != n {
			t.Errorf("sim_time %v: %d host, %d circuit, %d buffer, %d VOQ bins; want %d each", tc.end, n, len(r.CircuitSeries), len(r.BufferSeries), len(r.VOQSeries), want)
			continue
		}
		if tc.atEnd && r.CircuitSeries[want-1] == 0 {
			t.Errorf("sim_time %v: no circuit traffic in the bin opened at the end", tc.end)
		}
	}
}
