package fabric

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
)

// Topology kinds (topology.kind): the rotor fabric, and the leaf-spine
// when Config.LeafSpine is set.
const (
	TopologyRotor     = "rotor"     // ToRs joined by rotor circuit switches playing schedule.*
	TopologyLeafSpine = "leafspine" // a two-tier Clos of packet switches
)

// ECMP is the leaf-spine fabric's routing: a flow's packets take the
// uplink and the spine's downlink that a hash of the flow picks, so they
// stay in order and flows spread over the spines.
const ECMP = routing.ECMP

// LeafSpine is a two-tier Clos fabric. Config.HostsPerToR hosts attach to
// each leaf by Config.HostLink links with Config.HostDelay propagation;
// each leaf connects to each spine by LinksPerPair links of FabricLink
// with FabricDelay propagation. A leaf's oversubscription is
// HostsPerToR·HostLink / (Spines·LinksPerPair·FabricLink). Every switch
// is a tor shared-buffer switch of Config.Buffer bytes under the buffer
// policy (Config.NewPolicy: leaves are switches 0…Leaves−1, spines
// Leaves…Leaves+Spines−1), with Classes queues per port served in strict
// priority or round robin: control packets (ACKs) in class 0, data in the
// last class.
type LeafSpine struct {
	Leaves, Spines int
	LinksPerPair   int        // parallel links between each leaf and each spine
	FabricLink     rotor.Rate // leaf↔spine link rate
	FabricDelay    rotor.Time // leaf↔spine propagation
	Classes        int        // queues per port; 0: 1
	RoundRobin     bool       // serve a port's queues in turn, not in strict priority
	// IncastClass, in 1…Classes−1, is the queue of incast (query) flows'
	// data packets (e.g. a lossless class beside lossy background
	// traffic); 0: the data queue, as every flow's.
	IncastClass int
	// DeviceQueue is the packets each switch port holds in a transmit
	// FIFO outside the shared buffer, as ns-3's point-to-point device
	// queue (100 packets by default there) under its queue disc: a packet
	// leaves the switch's queues (and the shared buffer) as soon as the
	// FIFO has room, so the policy sees only the excess. 0: none.
	DeviceQueue int
}

// Limits of the leaf-spine fabric.
const (
	MaxLeafSpineSwitches = 4096
	MaxLinksPerPair      = 64
	MaxDeviceQueue       = 1 << 16
	// DefaultDeviceQueue: no FIFO outside the buffer, every queued packet
	// is in the shared buffer (the buffer papers' switch model).
	DefaultDeviceQueue = 0
)

// ValidateLeafSpine checks c's leaf-spine fabric (Config.LeafSpine) and
// what it needs of the rest of c.
func (c *Config) ValidateLeafSpine() error {
	ls := c.LeafSpine
	switch {
	case c.Schedule != nil:
		return cfgErr("topology.kind", "leafspine has no circuit schedule (leave schedule.* unset)")
	case ls.Leaves < 1 || ls.Leaves > MaxLeafSpineSwitches:
		return cfgErr("topology.leaves", "must be in [1, %d], got %d", MaxLeafSpineSwitches, ls.Leaves)
	case ls.Spines < 1 || ls.Spines > MaxLeafSpineSwitches:
		return cfgErr("topology.spines", "must be in [1, %d], got %d", MaxLeafSpineSwitches, ls.Spines)
	case ls.LinksPerPair < 1 || ls.LinksPerPair > MaxLinksPerPair:
		return cfgErr("topology.links_per_pair", "must be in [1, %d], got %d", MaxLinksPerPair, ls.LinksPerPair)
	case ls.FabricLink <= 0:
		return cfgErr("topology.fabric_link", "must be positive, got %v", ls.FabricLink)
	case ls.FabricDelay < 0:
		return cfgErr("topology.fabric_delay", "must not be negative, got %v", ls.FabricDelay)
	case ls.Classes < 0 || ls.Classes > tor.MaxClasses:
		return cfgErr("topology.queues_per_port", "must be in [1, %d], got %d", tor.MaxClasses, ls.Classes)
	case ls.IncastClass < 0 || ls.IncastClass > 0 && ls.IncastClass >= ls.Classes:
		return cfgErr("topology.incast_queue", "must be in [1, queues_per_port − 1 = %d] (queue 0 carries ACKs), got %d", ls.Classes-1, ls.IncastClass)
	case ls.DeviceQueue < 0 || ls.DeviceQueue > MaxDeviceQueue:
		return cfgErr("topology.device_queue", "must be in [0, %d] packets, got %d", MaxDeviceQueue, ls.DeviceQueue)
	case ls.DeviceQueue > 0 && (c.Lossless != 0 || c.Transport == NDP):
		return cfgErr("topology.device_queue", "a FIFO outside the buffer would hide queues from PFC and from ndp's trimming: leave it 0 with buffer.lossless or ndp")
	case c.Leaves()*c.HostsPerToR > MaxHosts:
		return cfgErr("topology.hosts_per_tor", "%d leaves × %d hosts is more than the limit of %d hosts", ls.Leaves, c.HostsPerToR, MaxHosts)
	case c.Routing != ECMP:
		return cfgErr("routing.mode", "leafspine routes by ECMP (%q), not %q", ECMP, c.Routing)
	case c.Transport == NDP && ls.Classes < 2:
		return cfgErr("topology.queues_per_port", "ndp queues trimmed headers ahead of data: needs at least 2, got %d", max(ls.Classes, 1))
	case c.Transport == Pull:
		return cfgErr("transport.kind", "pull needs circuits; leafspine runs window or linerate")
	case c.PacketSwitchLink > 0:
		return cfgErr("topology.packet_switch_link", "leafspine has no separate packet switch (its spines are)")
	}
	return nil
}

// Leaves is the number of ToRs (leaves) of the configured fabric.
func (c *Config) Leaves() int {
	if c.LeafSpine != nil {
		return c.LeafSpine.Leaves
	}
	return c.Schedule.Nodes
}

// leafSpine is the engine's state of a leaf-spine fabric. Switches are
// numbered leaves first, then spines (as in s.ports).
type leafSpine struct {
	cfg     LeafSpine
	spines  []*tor.ToR
	data    int // class of data packets (control: 0)
	ecmp    *routing.ECMPRouter
	uplinks int // per leaf: Spines·LinksPerPair
}

// newLeafSpine builds the spines and connects every port; the leaves are
// s.tors, built by newSim.
func (s *sim) newLeafSpine() error {
	c := s.cfg.LeafSpine
	ls := &leafSpine{cfg: *c, ecmp: s.router.(*routing.ECMPRouter), uplinks: c.Spines * c.LinksPerPair}
	ls.data = max(c.Classes, 1) - 1
	L, K := c.Leaves, c.LinksPerPair
	ls.spines = make([]*tor.ToR, c.Spines)
	for j := range ls.spines {
		tc := tor.Config{Ports: L * K, Classes: c.Classes, RoundRobin: c.RoundRobin, Buffer: s.cfg.Buffer, PortRate: c.FabricLink}
		s.pfcSwitch(&tc, tc.Ports)
		sp, err := s.newSwitch(L+j, L+j, tc)
		if err != nil {
			return err
		}
		ls.spines[j] = sp
	}
	pt := &s.ports
	pt.init(append(append([]*tor.ToR(nil), s.tors...), ls.spines...), false, &s.q) // no circuit uplinks: every port's free event is a timer
	if c.DeviceQueue > 0 {
		pt.dev, pt.devCap = make([]des.Ring[int32], pt.nic0), c.DeviceQueue
	}
	fabric := portPeer{delay: c.FabricDelay, link: linkFabric, hop: true}
	for l, tr := range s.tors {
		for h := 0; h < s.H; h++ {
			pt.connect(l, tr.HostPort(h), portPeer{delay: s.cfg.HostDelay, link: linkHost,
				ev: evHostArrive, target: int32(l*s.H + h)})
		}
		for u := 0; u < ls.uplinks; u++ { // uplink j·K+k goes to spine j
			fabric.ev, fabric.target = evSpineArrive, int32(u/K)
			pt.connect(l, tr.FabricPort(u), fabric)
		}
	}
	for j, sp := range ls.spines {
		for d := 0; d < L*K; d++ { // port l·K+k goes to leaf l
			fabric.ev, fabric.target = evToRArrive, int32(d/K)
			pt.connect(L+j, sp.FabricPort(d), fabric)
		}
	}
	s.ls = ls
	s.newPFC()
	return nil
}

// flowHash is ECMP's hash of flow f at switch sw.
func (ls *leafSpine) flowHash(f int32, sw int) uint64 { return ls.ecmp.Hash(f, sw) }

// class is the queue class of packet p: control packets and (ndp)
// trimmed headers first, then incast flows' data (with IncastClass), then
// the other data.
func (s *sim) class(p *packet.Packet) int {
	ls := s.ls
	switch {
	case p.Kind != packet.Data:
		return 0
	case ls.cfg.IncastClass > 0 && s.flows[p.Flow].f.Query != 0:
		return ls.cfg.IncastClass
	}
	return ls.data
}

// leafArrive forwards packet idx arriving at leaf l: down to its host, or
// up to the spine link its flow hashes to.
func (s *sim) leafArrive(l int, idx int32) {
	ls := s.ls
	p := s.pool.At(idx)
	tr := s.tors[l]
	var port int
	if p.DstToR == int32(l) {
		port = tr.HostPort(int(p.DstHost) - l*s.H)
	} else {
		port = tr.FabricPort(int(ls.flowHash(p.Flow, l) % uint64(ls.uplinks)))
	}
	in := -1
	if s.pfc != nil {
		in = s.ingress(l, idx, p)
	}
	if s.enqueueFrom(tr, tr.PortQueue(port, s.class(p)), idx, in) {
		s.portSend(l, port)
	}
}

// spineArrive forwards packet idx arriving at spine j down to its
// destination leaf, on the link its flow hashes to.
func (s *sim) spineArrive(j int, idx int32) {
	ls := s.ls
	p := s.pool.At(idx)
	sw := ls.cfg.Leaves + j
	tr := ls.spines[j]
	k := int(ls.flowHash(p.Flow, sw) % uint64(ls.cfg.LinksPerPair))
	port := tr.FabricPort(int(p.DstToR)*ls.cfg.LinksPerPair + k)
	in := -1
	if s.pfc != nil {
		in = s.ingress(sw, idx, p)
	}
	if s.enqueueFrom(tr, tr.PortQueue(port, s.class(p)), idx, in) {
		s.portSend(sw, port)
	}
}
