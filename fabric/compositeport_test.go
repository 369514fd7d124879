package fabric

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// operaSimConfig is a 4-ToR rotor fabric (one host each, direct routing)
// running NDP with transport.ndp_ports = operasim: private data queues of
// portPackets packets and header queues of headers.
func operaSimConfig(t *testing.T, flows []workload.Flow, portPackets, headers int) Config {
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*rotor.Microsecond, rotor.Microsecond), flows)
	cfg.Transport, cfg.NDPPorts = NDP, NDPPortsOperaSim
	cfg.NDPPortData = rotor.Bytes(portPackets * 1500)
	cfg.NDPHeaderQueue = headers
	return cfg
}

// dataPacket allocates a data packet of flow 0 of size bytes.
func dataPacket(s *sim, size int32) int32 {
	idx := s.pool.Alloc()
	p := s.pool.At(idx)
	p.Kind, p.Size, p.Flow = packet.Data, size, 0
	return idx
}

// drain takes every packet of q in order.
func drain(s *sim, tr *tor.ToR, q tor.QueueID) []int32 {
	var out []int32
	for tr.Len(q) > 0 {
		out = append(out, tr.Take(s.q.Now(), q))
	}
	return out
}

// TestNDPOperaSimTrimLast: a VOQ output whose 3-packet data queue is full
// takes 8 more data packets. For each, the port's random source (a
// *rand.Rand replaced by PCG(7, 7)) draws once; an independent PCG(7, 7)
// gives the same draws, and opera-sim's rule says what follows: below ½
// the packet queued last is trimmed into the header queue and the
// arrival takes its place, otherwise the arrival is trimmed. The data
// and header queues' contents, in order, must equal that model's, every
// trim counted once as a switch refusal.
func TestNDPOperaSimTrimLast(t *testing.T) {
	s, err := newSimFor(operaSimConfig(t, nil, 3, 100))
	if err != nil {
		t.Fatal(err)
	}
	tr := s.tors[0]
	dq, hq := tr.VOQ(1, tor.Local), tr.VOQ(1, tor.HeaderVOQ)
	var data, headers []int32
	for range 3 {
		idx := dataPacket(s, 1500)
		if !s.ndpEnqueue(tr, dq, idx, -1) {
			t.Fatal("refused below the port's 3 packets")
		}
		data = append(data, idx)
	}
	s.ndp.portRand = rand.New(rand.NewPCG(7, 7))
	draws := rand.New(rand.NewPCG(7, 7))
	lastTrims := 0
	for k := range 8 {
		idx := dataPacket(s, 1500)
		if !s.ndpEnqueue(tr, dq, idx, -1) {
			t.Fatalf("arrival %d lost: it is queued or its header is", k)
		}
		if draws.Float64() < 0.5 { // the last one queued is trimmed
			headers = append(headers, data[len(data)-1])
			data[len(data)-1] = idx
			lastTrims++
		} else {
			headers = append(headers, idx)
		}
	}
	if lastTrims == 0 || lastTrims == 8 {
		t.Fatalf("%d of 8 draws below ½: the seed exercises one branch only", lastTrims)
	}
	for _, h := range headers {
		if p := s.pool.At(h); p.Kind != packet.Trimmed || p.Size != s.cfg.AckSize {
			t.Errorf("packet %d in the header queue: kind %v, %d B", h, p.Kind, p.Size)
		}
	}
	if s.ndp.trimmed != 8 || s.ndp.trimmedLast != int64(lastTrims) || tr.Drops != 8 {
		t.Errorf("trimmed %d (%d last), switch refusals %d: want 8 (%d), 8", s.ndp.trimmed, s.ndp.trimmedLast, tr.Drops, lastTrims)
	}
	if got := drain(s, tr, dq); !slices.Equal(got, data) {
		t.Errorf("data queue %v, want %v", got, data)
	}
	if got := drain(s, tr, hq); !slices.Equal(got, headers) {
		t.Errorf("header queue %v, want %v", got, headers)
	}
}

// TestNDPOperaSimHeaderOverflow: with a header queue of 2 at a VOQ output,
// a third trimmed header returns to its sender (counted bounced), a full
// data queue whose last packet would be trimmed returns that packet's
// header too, while the arrival is queued, and a control packet that
// finds it full is returned as well, as opera-sim's CompositeQueue
// returns every header-only packet: an ACK of flow 1 → 0 (its sink host 0
// at this ToR, its source host 1 at ToR 1) goes back toward host 0,
// addressed to it and its ToR 0, unrouted, flagged Returned, counted
// returned and not dropped. A returned packet that finds a header queue
// full again is dropped.
func TestNDPOperaSimHeaderOverflow(t *testing.T) {
	s, err := newSimFor(operaSimConfig(t, nil, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	s.flows = append(s.flows, flowState{f: workload.Flow{Src: 0, Dst: 1, Bytes: 1 << 20}, srcToR: 0, dstToR: 1})
	tr := s.tors[0]
	dq, hq := tr.VOQ(1, tor.Local), tr.VOQ(1, tor.HeaderVOQ)
	first := dataPacket(s, 1500)
	if !s.ndpEnqueue(tr, dq, first, -1) {
		t.Fatal("data refused by an empty port")
	}
	s.ndp.portRand = rand.New(rand.NewPCG(1, 1))
	ref := rand.New(rand.NewPCG(1, 1))
	var arrivals, queuedLast int // arrivals trimmed; last packets trimmed
	for tr.Len(hq) < 2 {
		if ref.Float64() < 0.5 {
			queuedLast++
		} else {
			arrivals++
		}
		s.ndpEnqueue(tr, dq, dataPacket(s, 1500), -1)
	}
	if s.ndp.bounced != 0 {
		t.Fatalf("%d bounced with room in the header queue", s.ndp.bounced)
	}
	// The header queue is full: the next draw decides which header bounces.
	lastQueued := tr.Head(dq)
	idx := dataPacket(s, 1500)
	lastTrimmed := ref.Float64() < 0.5
	s.ndpEnqueue(tr, dq, idx, -1)
	bounced := idx
	if lastTrimmed {
		bounced = lastQueued
		if tr.Head(dq) != idx {
			t.Error("the arrival is not queued after the last packet was trimmed")
		}
	}
	if p := s.pool.At(bounced); s.ndp.bounced != 1 || p.Kind != packet.Nack || !p.Has(packet.Bounced) {
		t.Errorf("bounced %d; packet %d: kind %v, flags %b: want it returned as a bounced NACK", s.ndp.bounced, bounced, p.Kind, p.Flags)
	}
	s.flows = append(s.flows, flowState{f: workload.Flow{ID: 1, Src: 1, Dst: 0, Bytes: 1 << 20}, srcToR: 1, dstToR: 0})
	ack := s.pool.Alloc()
	a := s.pool.At(ack)
	a.Reset(packet.Ack)
	a.Flow, a.Size, a.SrcHost, a.DstHost, a.DstToR, a.Hops = 1, s.cfg.AckSize, 0, 1, 1, 1
	if s.ndpEnqueue(tr, dq, ack, -1) || s.ndp.queueDrops != 0 || s.ndp.returned != 1 {
		t.Errorf("an ACK at a full header queue: queue drops %d, returned %d: want 0, 1", s.ndp.queueDrops, s.ndp.returned)
	}
	if !a.Has(packet.Returned) || a.Kind != packet.Ack || a.SrcHost != 1 || a.DstHost != 0 || a.DstToR != 0 || a.Hops != 0 || a.Via != packet.NoToR || a.Route != packet.NoRoute {
		t.Errorf("returned ACK: kind %v, flags %b, hosts %d → %d, ToR %d, hops %d, via %d, route %d: want an ACK flagged Returned, 1 → 0, ToR 0, unrouted", a.Kind, a.Flags, a.SrcHost, a.DstHost, a.DstToR, a.Hops, a.Via, a.Route)
	}
	if s.ndpEnqueue(tr, dq, ack, -1) || s.ndp.queueDrops != 1 || s.ndp.returned != 1 {
		t.Errorf("a returned ACK at a full header queue: queue drops %d, returned %d: want 1, 1", s.ndp.queueDrops, s.ndp.returned)
	}
	t.Logf("%d arrivals and %d last packets trimmed before the queue filled; the overflow trimmed the last packet: %v", arrivals, queuedLast, lastTrimmed)
}

// TestNDPOperaSimConserves: an incast of three 300 kB NDP flows into one
// host through 4-packet private queues and 8-header queues (direct and
// RotorLB routing; the receiver's ToR→host port is a booked port, whose
// turn a trimmed last packet gives back): ports trim arrivals and last
// packets. run.check recounts every switch's queues
// (shared, header and private bytes) and balances the bytes: every data
// packet sent is delivered, trimmed to its header (payload cut counted)
// or dropped and counted. No data is dropped, and every flow completes.
// Two runs give the same result. A run stopped at 150 µs, with data in
// the private queues, balances too.
func TestNDPOperaSimConserves(t *testing.T) {
	var flows []workload.Flow
	for i := range 3 {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 3, Bytes: 300_000})
	}
	for _, mode := range []string{Direct, RotorLB} {
		t.Run(mode, func(t *testing.T) {
			run := func() (*Result, int64, int64) {
				cfg := operaSimConfig(t, flows, 4, 8)
				cfg.Routing, cfg.SimTime, cfg.NDPWindow = mode, 10*rotor.Millisecond, 7
				s, err := newSimFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				r, err := s.run()
				if err != nil {
					t.Fatal(err)
				}
				return r, s.ndp.trimmedLast, s.ndp.bounced
			}
			r, last, bounced := run()
			for _, f := range r.Flows {
				if !f.Done {
					t.Errorf("flow %d not done", f.ID)
				}
			}
			if r.Trimmed == 0 || last == 0 || r.DroppedData != 0 {
				t.Errorf("%d trimmed (%d of them the last packet queued), %d data bytes dropped: want trims of both kinds, no data dropped", r.Trimmed, last, r.DroppedData)
			}
			again, last2, bounced2 := run()
			if !slices.Equal(r.Flows, again.Flows) || last != last2 || bounced != bounced2 || r.Events != again.Events {
				t.Error("two runs of the same configuration differ")
			}
			t.Logf("trimmed %d (last %d), bounced %d, events %d", r.Trimmed, last, bounced, r.Events)
		})
	}
	// Stopped mid-run, with data in the private queues: the byte balance
	// counts them in flight.
	cfg := operaSimConfig(t, flows, 4, 8)
	cfg.Routing, cfg.SimTime, cfg.NDPWindow = RotorLB, 150*rotor.Microsecond, 7
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.run(); err != nil {
		t.Fatal(err)
	}
	var private int64
	for _, tr := range s.tors {
		private += tr.PrivateBytes()
	}
	if private == 0 {
		t.Error("nothing in the private queues at 150 µs: the balance was not tested with them")
	}
}

// TestNDPOperaSimNoStall: with no timeout (transport.min_rto longer than
// the run, as opera-sim runs NDP) a flow that loses an ACK, NACK or PULL
// can stall for good. The incast of TestNDPOperaSimConserves (direct
// routing, 4-packet private queues) with header queues of 8 overflows
// them with control packets. opera-sim's port returns them instead of
// dropping them, so none is lost: control packets are returned, none is
// dropped (no packet at all), and every flow completes.
func TestNDPOperaSimNoStall(t *testing.T) {
	var flows []workload.Flow
	for i := range 3 {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 3, Bytes: 300_000})
	}
	cfg := operaSimConfig(t, flows, 4, 8)
	cfg.SimTime, cfg.NDPWindow, cfg.MinRTO = 20*rotor.Millisecond, 7, rotor.Second
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	to, done := ndpTally(r)
	if r.ControlReturned == 0 || r.DroppedPackets != 0 || done != len(flows) || to != 0 {
		t.Errorf("%d control packets returned (want > 0), %d packets dropped (want 0), %d of %d flows done, %d timeouts (want 0)", r.ControlReturned, r.DroppedPackets, done, len(flows), to)
	}
	t.Logf("%d trimmed, %d headers bounced, %d control packets returned", r.Trimmed, r.HeadersBounced, r.ControlReturned)
}

// TestNDPOperaSimKeys: transport.ndp_ports takes its two choices and
// operasim only where it applies: NDP, a rotor fabric without a packet
// switch, a private queue of at least one packet; a private queue size
// is refused with the shared model (it would not be read).
func TestNDPOperaSimKeys(t *testing.T) {
	bad := []struct {
		name string
		edit func(*Config)
	}{
		{"unknown model", func(c *Config) { c.NDPPorts = "fifo" }},
		{"not ndp", func(c *Config) { c.Transport = Windowed }},
		{"packet switch", func(c *Config) { c.PacketSwitchLink = 10 * rotor.Gbps; c.Routing = Hybrid }},
		{"queue below one packet", func(c *Config) { c.NDPPortData = 1000 }},
		{"queue size with shared", func(c *Config) { c.NDPPorts = NDPPortsShared }},
	}
	for _, b := range bad {
		cfg := operaSimConfig(t, nil, 8, 10)
		b.edit(&cfg)
		if _, err := newSimFor(cfg); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if _, err := newSimFor(operaSimConfig(t, nil, 8, 10)); err != nil {
		t.Errorf("operasim on a rotor fabric: %v", err)
	}
}

// TestNDPOperaSimNoAllocPerPacket: opera-sim's port model allocates
// nothing per packet. The incast of TestNDPOperaSimConserves (RotorLB)
// runs with 300 kB and 1.2 MB per flow: the longer run delivers about
// four times the packets and trims far more, but allocates about as
// often (set-up, and the growth of queues): the extra allocations are
// under 1 % of the extra packets.
func TestNDPOperaSimNoAllocPerPacket(t *testing.T) {
	run := func(bytes int64) (uint64, *Result, int64) {
		var flows []workload.Flow
		for i := range 3 {
			flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 3, Bytes: bytes})
		}
		cfg := operaSimConfig(t, flows, 4, 8)
		cfg.Routing, cfg.SimTime, cfg.NDPWindow, cfg.Check = RotorLB, 50*rotor.Millisecond, 7, false
		s, err := newSimFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		r, err := s.run()
		runtime.ReadMemStats(&ms1)
		if err != nil {
			t.Fatal(err)
		}
		return ms1.Mallocs - ms0.Mallocs, r, s.ndp.trimmedLast
	}
	a1, r1, l1 := run(1_200_000)
	a2, r2, l2 := run(4_800_000)
	dp := r2.DeliveredPackets - r1.DeliveredPackets
	if dp < 1_500 || r2.Trimmed-r1.Trimmed < 100 || l2 <= l1 {
		t.Fatalf("%d more packets, %d more trims (%d → %d of the last packet): the longer run does not exercise the ports", dp, r2.Trimmed-r1.Trimmed, l1, l2)
	}
	if extra := float64(a2) - float64(a1); extra > 0.001*float64(dp) {
		t.Errorf("%d allocations for %d packets, %d for %d: %.0f more for %d more packets", a1, r1.DeliveredPackets, a2, r2.DeliveredPackets, extra, dp)
	}
	t.Logf("%d allocations for %d packets (%d trims), %d for %d (%d)", a1, r1.DeliveredPackets, r1.Trimmed, a2, r2.DeliveredPackets, r2.Trimmed)
}
