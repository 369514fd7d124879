package fabric

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// lsConfig is a leaf-spine fabric with 1 µs propagation on every link,
// without send jitter.
func lsConfig(leaves, spines, hosts, links int, host, fabric rotor.Rate, flows []workload.Flow) Config {
	return Config{
		LeafSpine:   &LeafSpine{Leaves: leaves, Spines: spines, LinksPerPair: links, FabricLink: fabric, FabricDelay: rotor.Microsecond},
		HostsPerToR: hosts, HostLink: host, HostDelay: rotor.Microsecond,
		Buffer: 10_000_000, Flows: &SliceSource{Flows: flows},
		SimTime: 10 * rotor.Millisecond, Check: true,
		SendJitter: NoSendJitter, // hand-computed times
	}
}

// TestLeafSpineSingleFlowFCT: FCTs from the link arithmetic. 10 Gbps
// everywhere, 1 µs on each link: a 1500 B packet takes 1.2 µs per link.
// Across leaves a packet crosses 4 links (host→leaf, leaf→spine,
// spine→leaf, leaf→host), pipelined: FCT = 4·(1.2 + 1) + (N − 1)·1.2 µs
// for N packets. Within a leaf: 2·(1.2 + 1) + (N − 1)·1.2 µs. A short last
// packet of b bytes takes b·0.8 ns per link (1500 + 500 B: the second
// packet waits for the first on every link and reaches the host 0.4 µs
// after it). With 40 Gbps fabric links
// the fabric links take 0.3 µs per packet and the host links bind.
func TestLeafSpineSingleFlowFCT(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	g := rotor.Gbps
	cases := []struct {
		name      string
		fabric    rotor.Rate
		flow      workload.Flow
		transport string
		want      rotor.Time
	}{
		{"1 packet across", 10 * g, workload.Flow{Src: 0, Dst: 2, Bytes: 1500}, LineRate, 8*us + 800*ns},
		{"2 packets across", 10 * g, workload.Flow{Src: 0, Dst: 2, Bytes: 3000}, LineRate, 10 * us},
		{"10 packets across", 10 * g, workload.Flow{Src: 1, Dst: 3, Bytes: 15000}, LineRate, 19*us + 600*ns},
		{"10 packets across, window", 10 * g, workload.Flow{Src: 1, Dst: 3, Bytes: 15000}, Windowed, 19*us + 600*ns},
		// 1500 + 500 B: the 500 B packet takes 0.4 µs a link, behind the first.
		{"1.33 packets across", 10 * g, workload.Flow{Src: 0, Dst: 3, Bytes: 2000}, LineRate, 8*us + 800*ns + 400*ns},
		{"3 packets within a leaf", 10 * g, workload.Flow{Src: 0, Dst: 1, Bytes: 4500}, LineRate, 4*us + 400*ns + 2*1200*ns},
		// host links 1.2 µs, fabric links 0.3 µs: 2·1.2 + 2·0.3 + 4 + (N − 1)·1.2 with N = 4.
		{"4 packets, fast fabric", 40 * g, workload.Flow{Src: 0, Dst: 2, Bytes: 6000}, LineRate, 7*us + 3*1200*ns},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := lsConfig(2, 2, 2, 1, 10*g, c.fabric, []workload.Flow{c.flow})
			cfg.Transport, cfg.SendJitter = c.transport, NoSendJitter
			r := runOneFlow(t, cfg, c.want)
			// Alone, every flow is ideal, a short last packet included.
			if got := r.Flows[0].Ideal; got != c.want {
				t.Errorf("ideal FCT = %v, want %v (alone, a flow is ideal)", got, c.want)
			}
			if r.InFlightPackets != 0 || r.DroppedPackets != 0 {
				t.Errorf("after the run: %d packets in flight, %d dropped", r.InFlightPackets, r.DroppedPackets)
			}
		})
	}
}

// TestLeafSpineIncastLineRate: 16 senders on leaf 0 send 150 kB each to
// one host on leaf 1 at t = 0 (line rate, no window). 4 spines with
// 40 Gbps links: the fabric carries 160 Gbps, the receiver's 10 Gbps host
// link is the bottleneck and, with a buffer that holds everything, stays
// busy from the first arrival to the last: 16·100 packets at 1.2 µs each
// arrive by 1600·1.2 µs after the first packet reaches the host port,
// exactly line rate. The first packet reaches the last leaf at
// 1.2 + 1 + 0.3 + 1 + 0.3 + 1 = 4.8 µs; the last byte reaches the host
// at 4.8 + 1600·1.2 + 1 = 1925.8 µs.
func TestLeafSpineIncastLineRate(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	g := rotor.Gbps
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 150_000, Query: 1})
	}
	cfg := lsConfig(2, 4, 16, 1, 10*g, 40*g, flows)
	cfg.Transport = LineRate
	r, last := runToLastByte(t, cfg)
	if want := 1925*us + 800*ns; last != want {
		t.Errorf("last byte delivered at %v, want %v (the bottleneck idle at some point)", last, want)
	}
	if r.DroppedPackets != 0 {
		t.Errorf("%d packets dropped with a buffer that holds them all", r.DroppedPackets)
	}
}

// TestLeafSpineECMPChiSquare: 10,000 single-packet flows from leaf 0 to
// leaf 1 over 8 spines: the flows each spine carries (its bytes / 1500)
// are uniform by a chi-square test at 1 % (7 degrees of freedom: the
// critical value is 18.475).
func TestLeafSpineECMPChiSquare(t *testing.T) {
	const flows, spines = 10_000, 8
	var fl []workload.Flow
	for i := 0; i < flows; i++ {
		fl = append(fl, workload.Flow{ID: i, Src: i % 4, Dst: 4 + i%4, Bytes: 1500, Start: rotor.Time(i) * 2 * rotor.Microsecond})
	}
	cfg := lsConfig(2, spines, 4, 1, 10*rotor.Gbps, 10*rotor.Gbps, fl)
	cfg.Transport = LineRate
	cfg.SimTime = 30 * rotor.Millisecond
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var count [spines]float64
	for i := 0; i < flows; i++ {
		count[s.ls.flowHash(int32(i), 0)%spines]++
	}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	if r.FlowsComplete != flows {
		t.Fatalf("%d of %d flows complete", r.FlowsComplete, flows)
	}
	// What the spines carried must be what the hash says.
	for j, sp := range s.ls.spines {
		var sent float64
		for p := 0; p < sp.NumPorts(); p++ {
			sent += float64(sp.TxBytes(p)) / 1500
		}
		if sent != count[j] {
			t.Errorf("spine %d carried %v packets, the hash sends it %v", j, sent, count[j])
		}
	}
	chi := 0.0
	e := float64(flows) / spines
	for _, c := range count {
		chi += (c - e) * (c - e) / e
	}
	if chi > 18.475 {
		t.Errorf("chi-square %.2f over %v exceeds the 1 %% critical value 18.475", chi, count)
	}
	if math.IsNaN(chi) {
		t.Error("chi-square is NaN")
	}
}

// TestLeafSpineBurstDrops: complete sharing, a deterministic burst. Eight
// hosts of leaf 0 send 30 packets each, at line rate (1.2 µs a packet),
// host i starting at i·37 ns, to host i of leaf 1 over one spine. Leaf 0's
// uplink, 11 Gbps, is the bottleneck; leaf 0's buffer holds 20 packets.
// Packet k of host i reaches leaf 0 at i·37 ns + (k+1)·1.2 µs + 1 µs. The
// hand computation below is a FIFO with a 20-packet buffer fed those
// times and served every 1500 B/11 Gbps (the packet in service has left
// the buffer); no arrival ties a departure, so the order is unambiguous.
// The drops equal its overflow; nothing else is lost. With a device
// queue of 7 (topology.device_queue) the port's FIFO holds 7 waiting
// packets outside the buffer: the hand FIFO holds 27 (180 drops, not 187).
func TestLeafSpineBurstDrops(t *testing.T) {
	for _, dev := range []int{0, 7} {
		t.Run(fmt.Sprintf("device_queue=%d", dev), func(t *testing.T) { testLeafSpineBurstDrops(t, dev) })
	}
}

func testLeafSpineBurstDrops(t *testing.T, dev int) {
	const senders, pkts, buf = 8, 30, 20
	us, ns := rotor.Microsecond, rotor.Nanosecond
	var flows []workload.Flow
	for i := 0; i < senders; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: senders + i, Bytes: pkts * 1500, Start: rotor.Time(i) * 37 * ns})
	}
	fabric := 11 * rotor.Gbps
	cfg := lsConfig(2, 1, senders, 1, 10*rotor.Gbps, fabric, flows)
	cfg.Transport, cfg.Buffer = LineRate, buf*1500
	cfg.LeafSpine.DeviceQueue = dev
	cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named("cs", nil, nil, nil) }
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var arrivals []rotor.Time
	for i := 0; i < senders; i++ {
		for k := 0; k < pkts; k++ {
			arrivals = append(arrivals, rotor.Time(i)*37*ns+rotor.Time(k+1)*1200*ns+us)
		}
	}
	slices.Sort(arrivals)
	service := fabric.TransmitTime(1500)
	queued, dropped, busy, free := 0, 0, false, rotor.Time(0)
	for _, a := range arrivals {
		for busy && free <= a {
			if free == a {
				t.Fatalf("an arrival ties a departure at %v: the hand order is ambiguous", a)
			}
			if queued > 0 {
				queued--
				free += service
			} else {
				busy = false
			}
		}
		switch {
		case !busy:
			busy, free = true, a+service
		case queued < buf+dev: // the port's FIFO holds dev outside the buffer
			queued++
		default:
			dropped++
		}
	}
	if dropped < 50 {
		t.Fatalf("the burst overflows only %d packets: test too weak", dropped)
	}
	if int(r.DroppedPackets) != dropped {
		t.Errorf("dropped %d packets, the overflow by hand is %d", r.DroppedPackets, dropped)
	}
	if want := int64(senders*pkts-dropped) * 1500; r.DeliveredData != want {
		t.Errorf("delivered %d data bytes, want %d", r.DeliveredData, want)
	}
}

// TestLeafSpinePortIDsUnique: in the leaf-spine, the rotor fabric and the
// hybrid's packet switch, every queue's port id is unique in its switch
// (two queues share one iff they are classes of one port or the two VOQ
// classes toward one ToR), and every physical port (circuit uplinks and
// host ports included) is one port of port.go with a global id unique in
// the fabric and a peer.
func TestLeafSpinePortIDsUnique(t *testing.T) {
	us := rotor.Microsecond
	ls := lsConfig(3, 2, 4, 2, 10*rotor.Gbps, 40*rotor.Gbps, nil)
	ls.LeafSpine.Classes = 2
	rotorCfg := baseConfig(cyclicSchedule(t, 7, 3, 1, 10*us, us), nil)
	rotorCfg.HostsPerToR = 3
	hybrid := baseConfig(cyclicSchedule(t, 5, 2, 1, 10*us, us), nil)
	hybrid.PacketSwitchLink, hybrid.Routing = 10*rotor.Gbps, Hybrid
	for name, cfg := range map[string]Config{"leafspine": ls, "rotor": rotorCfg, "hybrid": hybrid} {
		s, err := newSimFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		switches := append([]*tor.ToR(nil), s.tors...)
		if s.ps != nil {
			switches = append(switches, s.ps)
		}
		if s.ls != nil {
			switches = append(switches, s.ls.spines...)
		}
		for _, tr := range switches {
			c := tr.Config()
			seen := map[tor.QueueID]string{}
			use := func(q tor.QueueID, port int, what string) {
				if o, ok := seen[q]; ok {
					t.Errorf("%s switch %d: queue %d is both %s and %s", name, tr.ID, q, o, what)
				}
				seen[q] = what
				if got := tr.QueuePort(q); got != port {
					t.Errorf("%s switch %d: %s drains into port %d, want %d", name, tr.ID, what, got, port)
				}
			}
			for p := c.Uplinks; p < c.Uplinks+c.Hosts+c.Ports+btoi(c.PacketSwitch); p++ {
				for k := range tr.Classes() {
					use(tr.PortQueue(p, k), p, fmt.Sprintf("port %d class %d", p, k))
				}
			}
			for v := range c.ToRs {
				use(tr.VOQ(v, tor.Transit), tr.VOQPort(v), fmt.Sprintf("transit VOQ %d", v))
				use(tr.VOQ(v, tor.Local), tr.VOQPort(v), fmt.Sprintf("local VOQ %d", v))
			}
		}
		checkGlobalPortIDs(t, name, s, switches)
	}
}

// checkGlobalPortIDs: the global ids of all physical ports of switches
// (in s.ports' order) are 0…count−1, each once, and map back to their
// switch and port; circuit uplinks are t·U+u (s.peer's index), the
// booked host ports of the rotor fabric hosts0+host, every port has a
// peer on a link of positive rate, and the hosts' NICs follow them.
func checkGlobalPortIDs(t *testing.T, name string, s *sim, switches []*tor.ToR) {
	t.Helper()
	pt := &s.ports
	count := int(pt.base[len(pt.sw)])
	owner := make([]string, count)
	ports := 0
	for sw, tr := range switches {
		if pt.sw[sw] != tr {
			t.Fatalf("%s: s.ports' switch %d is not the fabric's", name, sw)
		}
		c := tr.Config()
		for p := 0; p < tr.NumPorts()-c.ToRs; p++ {
			ports++
			what := fmt.Sprintf("switch %d port %d", sw, p)
			g := pt.id(sw, p)
			if g < 0 || int(g) >= count {
				t.Errorf("%s: %s has global id %d outside [0, %d)", name, what, g, count)
				continue
			}
			if owner[g] != "" {
				t.Errorf("%s: global id %d is both %s and %s", name, g, owner[g], what)
			}
			owner[g] = what
			if gs, gp := pt.port(g); gs != sw || gp != p {
				t.Errorf("%s: global id %d of %s maps back to switch %d port %d", name, g, what, gs, gp)
			}
			if pe := pt.peer[g]; s.rates[pe.link] <= 0 || pe.ev == evFlow {
				t.Errorf("%s: %s has no peer", name, what)
			}
			switch {
			case p < c.Uplinks:
				if want := int32(sw*s.U + p); g != want || pt.peer[g].ev != evToRArrive || pt.peer[g].link != linkCircuit {
					t.Errorf("%s: uplink %s: global id %d (want %d), peer %+v", name, what, g, want, pt.peer[g])
				}
			case s.ls == nil && p < c.Uplinks+c.Hosts:
				host := int32(sw*s.H + p - c.Uplinks)
				if g != pt.hosts0+host || pt.peer[g].ev != evHostArrive || pt.peer[g].target != host {
					t.Errorf("%s: host port %s: global id %d (want %d), peer %+v", name, what, g, pt.hosts0+host, pt.peer[g])
				}
			}
		}
	}
	if ports != count {
		t.Errorf("%s: %d physical ports, %d global ids", name, ports, count)
	}
	// The hosts' NICs come after every switch port, host h's at nic0+h,
	// each to its host's ToR or leaf over the host link.
	if pt.nic0 != int32(count) || len(pt.freeAt) != count+len(s.hosts) {
		t.Errorf("%s: NICs from global id %d of %d, want %d of %d", name, pt.nic0, len(pt.freeAt), count, count+len(s.hosts))
	}
	for h := range s.hosts {
		g := pt.nic(int32(h))
		tr := int32(h / s.H)
		if pe := pt.peer[g]; pe.ev != evToRArrive || pe.target != tr || pe.link != linkHost || pe.delay != s.cfg.HostDelay || pt.portSw[g] != tr {
			t.Errorf("%s: host %d's NIC (global id %d): peer %+v, switch %d, want ToR %d over the host link", name, h, g, pe, pt.portSw[g], tr)
		}
	}
}

// newSimFor is Run's set-up without the run.
func newSimFor(cfg Config) (*sim, error) {
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return newSim(cfg)
}

// runUntil starts s and handles its events up to end, as Run's loop does
// (without its checks and progress).
func (s *sim) runUntil(end rotor.Time) {
	s.start()
	for {
		kind, target, arg, ok := s.q.PopUntil(end)
		if !ok {
			return
		}
		if kind == evPortFree && target < s.ports.hosts0 {
			s.uplinkFree(target)
		} else {
			s.dispatch(kind, target, arg)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
