package fabric

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// ndpLS is lsConfig with transport ndp (two classes per port: trimmed
// headers and control ahead of data).
func ndpLS(leaves, spines, hosts int, fabric rotor.Rate, flows []workload.Flow) Config {
	cfg := lsConfig(leaves, spines, hosts, 1, 10*rotor.Gbps, fabric, flows)
	cfg.Transport, cfg.LeafSpine.Classes = NDP, 2
	return cfg
}

// TestNDPIdlePathFCT: FCTs by hand on the leaf-spine of
// TestLeafSpineSingleFlowFCT (10 Gbps, 1 µs per link; 1500 B take 1.2 µs,
// a 64 B ACK or PULL 51.2 ns per link). The base RTT (a data packet out
// and its ACK back over 4 links) is 4·(1.2 + 0.0512 + 2·1) = 13.0048 µs,
// so the first window is one BDP, ⌈16256 / 1500⌉ = 11 packets. A flow of
// at most 11 packets goes at line rate: FCT = 8.8 + (N − 1)·1.2 µs. A
// 100-packet flow too: packet k reaches the receiver at
// 8.8 + (k − 1)·1.2; its ACK then PULL leave 51.2 ns apart and the PULL
// takes 4·1.0512 µs back, so PULL k is at the sender at
// 13.056 + (k − 1)·1.2 µs, before its NIC finishes packet 11 + k − 1 at
// 13.2 + (k − 1)·1.2: the link never idles, FCT =
// 8.8 + 99·1.2 = 127.6 µs. With a first window of 1 packet a 2-packet
// flow waits for the first PULL: packet 2 leaves at 13.056 µs and
// arrives 8.8 µs later, FCT = 21.856 µs.
func TestNDPIdlePathFCT(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cases := []struct {
		name    string
		packets int64
		iw      int
		want    rotor.Time
	}{
		{"10 packets, in the first window", 10, 0, 19*us + 600*ns},
		{"100 packets, pulled at line rate", 100, 0, 127*us + 600*ns},
		{"2 packets, first window 1", 2, 1, 21*us + 856*ns},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: c.packets * 1500}})
			cfg.NDPWindow = c.iw
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			f := r.Flows[0]
			if !f.Done || f.FCT != c.want {
				t.Errorf("done %v, FCT = %v, want %v", f.Done, f.FCT, c.want)
			}
			if c.iw == 0 && f.FCT != f.Ideal {
				t.Errorf("FCT %v ≠ ideal %v: an NDP flow alone runs at line rate", f.FCT, f.Ideal)
			}
			if r.DroppedPackets != 0 || r.Trimmed != 0 || r.Retransmits != 0 || r.InFlightPackets != 0 {
				t.Errorf("idle path: %d dropped, %d trimmed, %d retransmitted, %d in flight", r.DroppedPackets, r.Trimmed, r.Retransmits, r.InFlightPackets)
			}
		})
	}
}

// TestNDPIncastLeafSpine: the 16-to-1 incast of TestLeafSpineIncastLineRate
// (16 × 150 kB to one host; 40 Gbps fabric, the receiver's 10 Gbps link the
// bottleneck) with NDP and a 60 kB buffer per switch: the first windows
// (16 × 10 packets: base RTT 4·(1.2 + 0.0512) + 2·2·(0.3 + 0.0128) +
// 8·1 = 11.128 µs) overflow the receiver's leaf. Switches
// trim, never drop, data (run.check verifies conservation with the trimmed
// bytes), every flow completes, and the last byte arrives within 3 % of the
// link arithmetic, 4.8 µs + 2.4 MB / 10 Gbps + 1 µs = 1925.8 µs: the
// pulls keep the bottleneck busy.
func TestNDPIncastLeafSpine(t *testing.T) {
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 150_000})
	}
	cfg := ndpLS(2, 4, 16, 40*rotor.Gbps, flows)
	cfg.Buffer = 60_000
	r, last := runToLastByte(t, cfg)
	if r.Trimmed == 0 {
		t.Fatal("no packet trimmed: the incast did not overflow the buffer")
	}
	if r.DroppedData != 0 {
		t.Errorf("%d data bytes dropped: NDP switches trim, they do not drop data", r.DroppedData)
	}
	ideal := 1925*rotor.Microsecond + 800*rotor.Nanosecond
	if float64(last) > 1.03*float64(ideal) || last < ideal {
		t.Errorf("last byte at %v, want within 3 %% above the link arithmetic %v", last, ideal)
	}
	t.Logf("last byte %v (ideal %v), %d trimmed, %d headers dropped, %d retransmits", last, ideal, r.Trimmed, r.HeadersDropped, r.Retransmits)
}

// TestNDPRotorIncast: on a rotor fabric (four ToRs, one host each, direct
// routing, VLB or RotorLB) three hosts send 300 kB each to host 3 with NDP
// and a 20 kB buffer per ToR: switches trim but never drop data, and
// every flow completes (run.check on). The first window is set to 7
// packets (10.5 kB), more than DT's share of one queue (α = 1: 10 kB), so
// the source ToRs must trim; the default, one BDP at the base RTT
// (4.35 µs direct: 4 packets), would fit and test no trimming.
func TestNDPRotorIncast(t *testing.T) {
	us := rotor.Microsecond
	var flows []workload.Flow
	for i := 0; i < 3; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 3, Bytes: 300_000})
	}
	for _, mode := range []string{Direct, VLB, RotorLB} {
		t.Run(mode, func(t *testing.T) {
			cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows)
			cfg.Routing, cfg.Transport, cfg.Buffer, cfg.SimTime = mode, NDP, 20_000, 10*rotor.Millisecond
			cfg.NDPWindow = 7
			cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named("dt", nil, nil, nil) }
			r, _ := runToLastByte(t, cfg)
			if r.Trimmed == 0 || r.DroppedData != 0 {
				t.Errorf("%d trimmed (want > 0), %d data bytes dropped (want 0)", r.Trimmed, r.DroppedData)
			}
		})
	}
}

// BenchmarkNDPIncast runs the incast of TestNDPIncastLeafSpine with 1.5 MB
// per sender (16,000 packets, with trimming and retransmissions); one op is
// one run. allocs/pkt is the heap allocations per delivered packet: the
// per-run setup spread over the packets, ≪ 1 when nothing allocates per
// packet.
func BenchmarkNDPIncast(b *testing.B) {
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 1_500_000})
	}
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	var mallocs, pkts uint64
	for b.Loop() {
		cfg := ndpLS(2, 4, 16, 40*rotor.Gbps, flows)
		cfg.Buffer, cfg.SimTime, cfg.Check = 60_000, 50*rotor.Millisecond, false
		runtime.ReadMemStats(&ms0)
		r, err := Run(cfg)
		runtime.ReadMemStats(&ms1)
		if err != nil {
			b.Fatal(err)
		}
		if r.DroppedData != 0 || r.Trimmed == 0 {
			b.Fatalf("%d data bytes dropped, %d trimmed", r.DroppedData, r.Trimmed)
		}
		mallocs += ms1.Mallocs - ms0.Mallocs
		pkts += uint64(r.DeliveredPackets)
	}
	b.ReportMetric(float64(mallocs)/float64(pkts), "allocs/pkt")
}

// TestNDPBadInput: NDP on a leaf-spine with one queue per port (headers
// could not pass data) and a negative first window are refused, naming
// the key.
func TestNDPBadInput(t *testing.T) {
	cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
	cfg.LeafSpine.Classes = 1
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "topology.queues_per_port: ") {
		t.Errorf("one class: got %v, want a topology.queues_per_port error", err)
	}
	cfg = ndpLS(2, 2, 2, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
	cfg.NDPWindow = -1
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_window: ") {
		t.Errorf("negative window: got %v, want a transport.ndp_window error", err)
	}
}

// runToLastByte runs cfg, fails unless every flow completes, and returns
// the result and when the last byte of any flow arrived.
func runToLastByte(t *testing.T, cfg Config) (*Result, rotor.Time) {
	t.Helper()
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var last rotor.Time
	for _, f := range r.Flows {
		if !f.Done {
			t.Fatalf("flow %d did not complete", f.ID)
		}
		last = max(last, f.Start+f.FCT)
	}
	return r, last
}

// ndpTally sums the flows' timeouts and counts the completed flows.
func ndpTally(r *Result) (timeouts int64, done int) {
	for _, f := range r.Flows {
		timeouts += f.Timeouts
		if f.Done {
			done++
		}
	}
	return timeouts, done
}

// TestNDPHeaderQueue: trimmed headers and control packets do not compete
// with data for the shared buffer. A rotor incast (12 hosts on three ToRs
// send 300 kB each to one host; 20 kB buffers full of data) with the
// default header queue trims thousands of packets and loses nothing at
// all: no data, no header, no ACK, NACK or PULL, no timeout. The
// leaf-spine incast of TestNDPIncastLeafSpine with header queues of 1 to
// 4 headers per port overflows them: the overflowing headers return to
// their senders (none is dropped), every flow completes, and no sender
// ever times out. On the rotor incast a header queue of 8 returns headers
// across the rotor fabric, drops none, and every flow completes (ACKs and
// PULLs that find it full are dropped; timeouts recover them). run.check
// verifies the byte balance throughout.
func TestNDPHeaderQueue(t *testing.T) {
	us := rotor.Microsecond
	var flows []workload.Flow
	for i := 0; i < 12; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 15, Bytes: 300_000})
	}
	for _, mode := range []string{Direct, RotorLB} {
		t.Run("rotor-"+mode, func(t *testing.T) {
			cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows)
			cfg.HostsPerToR = 4
			cfg.Routing, cfg.Transport, cfg.Buffer, cfg.SimTime = mode, NDP, 20_000, 20*rotor.Millisecond
			cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named("dt", nil, nil, nil) }
			r, _ := runToLastByte(t, cfg)
			to, _ := ndpTally(r)
			if r.Trimmed < 1000 || r.DroppedPackets != 0 || r.HeadersBounced != 0 || to != 0 {
				t.Errorf("%d trimmed (want ≥ 1000), %d packets dropped, %d headers bounced, %d timeouts (want 0 each)", r.Trimmed, r.DroppedPackets, r.HeadersBounced, to)
			}
		})
	}
	t.Run("rotor-direct-8", func(t *testing.T) { // returned headers cross the rotor fabric
		cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows)
		cfg.HostsPerToR = 4
		cfg.Routing, cfg.Transport, cfg.Buffer, cfg.SimTime = Direct, NDP, 20_000, 20*rotor.Millisecond
		cfg.NDPHeaderQueue = 8
		cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named("dt", nil, nil, nil) }
		r, _ := runToLastByte(t, cfg)
		if r.HeadersBounced == 0 || r.HeadersDropped != 0 || r.DroppedData != 0 {
			t.Errorf("%d headers bounced (want > 0), %d headers and %d data bytes dropped (want 0)", r.HeadersBounced, r.HeadersDropped, r.DroppedData)
		}
	})
	var lf []workload.Flow
	for i := 0; i < 16; i++ {
		lf = append(lf, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 150_000})
	}
	for _, hq := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("leaf-spine-%d", hq), func(t *testing.T) {
			cfg := ndpLS(2, 4, 16, 40*rotor.Gbps, lf)
			cfg.Buffer, cfg.NDPHeaderQueue = 60_000, hq
			r, _ := runToLastByte(t, cfg)
			to, _ := ndpTally(r)
			if r.HeadersBounced == 0 || r.DroppedPackets != 0 || to != 0 {
				t.Errorf("%d headers bounced (want > 0), %d packets dropped, %d timeouts (want 0 each)", r.HeadersBounced, r.DroppedPackets, to)
			}
		})
	}
	cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, lf[:1])
	cfg.NDPHeaderQueue = -1
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_header_queue: ") {
		t.Errorf("negative header queue: got %v, want a transport.ndp_header_queue error", err)
	}
}

// TestNDPNICOrder: transport.ndp_nic on one leaf (10 Gbps, 1 µs per link;
// a 1500 B packet takes 1.2 µs on each): host 0 starts a 100-packet flow
// A to host 1 at t = 0 with a first window of 10, and a 2-packet flow B
// to host 2 at 0.1 µs. The two leave the leaf on different ports, so
// only host 0's NIC orders them. With turns the flows with credit
// alternate: A [0, 1.2), A again at 1.2 (it was back in line before B
// came), B [2.4, 3.6), A, B [4.8, 6.0); B's last packet reaches host 2 at
// 6.0 + 1 + 1.2 + 1 = 9.2 µs, FCT 9.1 µs. With fifo B's two packets queue
// behind A's first window of 10 (A's PULLs, from 6.5 µs on, queue behind
// B): B leaves in [12, 14.4), FCT 14.4 + 3.2 − 0.1 = 17.5 µs. A bad
// choice is refused with the key's name. operasim queues the same
// packets as fifo here (nothing is retransmitted): B's FCT is fifo's.
func TestNDPNICOrder(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	for _, c := range []struct {
		nic  string
		want rotor.Time
	}{{NDPNICTurns, 9*us + 100*ns}, {NDPNICFIFO, 17*us + 500*ns}, {NDPNICOperaSim, 17*us + 500*ns}} {
		cfg := ndpLS(2, 2, 3, 10*rotor.Gbps, []workload.Flow{
			{Src: 0, Dst: 1, Bytes: 100 * 1500}, {Src: 0, Dst: 2, Bytes: 2 * 1500, Start: 100 * ns}})
		cfg.NDPWindow, cfg.NDPNIC = 10, c.nic
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, b := r.Flows[0], r.Flows[1]
		if !a.Done || !b.Done || b.FCT != c.want {
			t.Errorf("%s: done %v %v, B's FCT %v, want %v", c.nic, a.Done, b.Done, b.FCT, c.want)
		}
		if r.DroppedPackets != 0 || r.Trimmed != 0 || r.InFlightPackets != 0 {
			t.Errorf("%s: %d dropped, %d trimmed, %d in flight", c.nic, r.DroppedPackets, r.Trimmed, r.InFlightPackets)
		}
	}
	cfg := ndpLS(2, 2, 3, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 1, Bytes: 1500}})
	cfg.NDPNIC = "lifo"
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_nic: ") {
		t.Errorf("ndp_nic=lifo: got %v, want a transport.ndp_nic error", err)
	}
}

// TestNDPNICMadeAtCredit: what a credit files at the NIC while a
// retransmission is queued. Host 0 starts a 100-packet flow (first window
// 10) on one leaf; at 0.6 µs its first packet is on the wire and the
// other 9 wait at the NIC. Segment 0 is then NACKed and three PULLs come.
// opera-sim's NdpSrc::send_packet makes a packet per PULL: the
// retransmission of segment 0 for the first (its NIC's retransmission
// class), new segments 10 and 11 for the others (new data, behind the 9).
// operasim must queue exactly that; fifo files all three credits as
// retransmissions (one is queued when each comes) and picks the segments
// when they leave, so new data jumps ahead of the new data queued before.
func TestNDPNICMadeAtCredit(t *testing.T) {
	ns := rotor.Nanosecond
	for _, nic := range []string{NDPNICOperaSim, NDPNICFIFO} {
		cfg := ndpLS(2, 2, 3, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 1, Bytes: 100 * 1500}})
		cfg.NDPWindow, cfg.NDPNIC = 10, nic
		s, err := newSimFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.runUntil(600 * ns)
		src := s.flows[0].src.(*cc.NDP)
		now := s.q.Now()
		src.OnNack(0, now)
		for range 3 {
			src.OnPull(now)
		}
		s.ndpWake(0)
		nh := &s.ndp.hosts[0]
		if nic == NDPNICFIFO {
			if nh.retx.Len() != 3 || nh.fresh.Len() != 9 {
				t.Errorf("fifo: %d retransmission entries, %d new (want 3 and 9)", nh.retx.Len(), nh.fresh.Len())
			}
			continue
		}
		if nh.retx.Len() != 1 || nh.fresh.Len() != 11 {
			t.Fatalf("operasim: %d retransmissions, %d new packets queued (want 1 and 11)", nh.retx.Len(), nh.fresh.Len())
		}
		if p := s.pool.At(nh.retx.At(0)); p.Seq != 0 || !p.Has(packet.Retx) {
			t.Errorf("operasim: retransmission class holds seq %d (retx %v), want segment 0 resent", p.Seq, p.Has(packet.Retx))
		}
		for i := range 11 {
			if p := s.pool.At(nh.fresh.At(i)); p.Seq != int64(i+1)*1500 || p.Has(packet.Retx) {
				t.Errorf("operasim: new-data packet %d is seq %d (retx %v), want %d", i, p.Seq, p.Has(packet.Retx), (i+1)*1500)
			}
		}
	}
}
