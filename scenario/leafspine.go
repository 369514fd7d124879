package scenario

import (
	"context"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/stats"
)

// leafSpineKeys are the keys of the leaf-spine topology (in Keys after
// the topology keys both kinds read); a leaf is a ToR, so
// topology.hosts_per_tor, host_link, host_delay and mtu keep their
// meaning.
var leafSpineKeys = []Key{
	{"topology.leaves", "32", "leafspine: leaves (ToRs), each with topology.hosts_per_tor hosts"},
	{"topology.spines", "2", "leafspine: spines"},
	{"topology.links_per_pair", "1", "leafspine: parallel links between each leaf and each spine"},
	{"topology.fabric_link", "10Gbps", "leafspine: leaf↔spine link rate (oversubscription = hosts_per_tor·host_link / (spines·links_per_pair·fabric_link))"},
	{"topology.fabric_delay", "500ns", "leafspine: leaf↔spine propagation delay"},
	{"topology.queues_per_port", "1", "leafspine: queues per switch port; with 2 or more, ACKs take the first and data the last"},
	{"topology.incast_queue", "", "leafspine: the queue of incast (query) flows' data packets, 1 … queues_per_port − 1 (e.g. a lossless class, buffer.lossless, beside lossy background traffic); empty: the data queue (the last), as every flow's"},
	{"topology.device_queue", strconv.Itoa(fabric.DefaultDeviceQueue), "leafspine: packets each switch port holds in a transmit FIFO outside the shared buffer, as ns-3's point-to-point device queue under its queue disc (100 there): the buffer policy sees only what waits beyond it; 0: none (every queued packet is in the shared buffer)"},
	{"topology.port_scheduling", "strict", "leafspine: how a port serves its queues: strict (priority, the first queue first) or rr (round robin, one packet each)"},
}

// rotorOnlyKeys are read only by the rotor topology.
var rotorOnlyKeys = []string{"topology.tors", "topology.uplinks", "topology.circuit_link", "topology.link_delay",
	"topology.packet_switch_link", "topology.packet_switch_delay", "buffer.packet_switch",
	"routing.paths_k", "routing.multipath", "routing.bulk", "routing.relay_limit", "routing.offer", "routing.guard", "routing.source", "transport.pull_depth", "transport.ndp_dark"}

// checkTopologyKeys fails on keys of one topology kind set for the other.
func (s *Spec) checkTopologyKeys(p *specParser) {
	kind := s.values["topology.kind"]
	switch kind {
	case fabric.TopologyRotor:
		for _, k := range leafSpineKeys {
			if s.set[k.Name] && s.values[k.Name] != k.Default {
				p.fail(k.Name, "is read only with topology.kind %s, not %s", fabric.TopologyLeafSpine, kind)
			}
		}
	case fabric.TopologyLeafSpine:
		for _, k := range rotorOnlyKeys {
			if s.set[k] && s.values[k] != defaultOf(k) {
				p.fail(k, "is read only with topology.kind %s, not %s", fabric.TopologyRotor, kind)
			}
		}
		for k := range s.set {
			if strings.HasPrefix(k, "schedule.") && s.values[k] != defaultOf(k) {
				p.fail(k, "leafspine has no circuit schedule; leave schedule.* unset")
			}
		}
	default:
		p.fail("topology.kind", "unknown kind %q (want %s or %s)", kind, fabric.TopologyRotor, fabric.TopologyLeafSpine)
	}
}

// buildLeafSpine is Build for topology.kind = leafspine: cfg holds the
// keys both topologies read.
func (s *Spec) buildLeafSpine(ctx context.Context, p *specParser, cfg fabric.Config, buckets stats.Buckets, mtu, hpt int) (*Setup, error) {
	ls := &fabric.LeafSpine{
		Leaves:       p.int("topology.leaves", 1),
		Spines:       p.int("topology.spines", 1),
		LinksPerPair: p.int("topology.links_per_pair", 1),
		FabricLink:   p.rate("topology.fabric_link", false),
		FabricDelay:  p.time("topology.fabric_delay", false),
		Classes:      p.int("topology.queues_per_port", 1),
		DeviceQueue:  p.int("topology.device_queue", 0),
	}
	if s.values["topology.incast_queue"] != "" {
		ls.IncastClass = p.int("topology.incast_queue", 1) // queue 0 carries ACKs
	}
	switch sched := s.values["topology.port_scheduling"]; sched {
	case "strict":
	case "rr":
		ls.RoundRobin = true
	default:
		p.fail("topology.port_scheduling", "unknown scheduling %q (want strict or rr)", sched)
	}
	if p.err != nil {
		return nil, p.err
	}
	if ls.Leaves > fabric.MaxLeafSpineSwitches || ls.Spines > fabric.MaxLeafSpineSwitches || ls.LinksPerPair > fabric.MaxLinksPerPair {
		cfg.LeafSpine = ls
		if err := cfg.ValidateLeafSpine(); err != nil { // names the key, before anything is sized by it
			return nil, err
		}
	}
	if ls.Leaves*hpt > fabric.MaxHosts {
		return nil, cfgErr("topology.hosts_per_tor", "%d leaves × %d hosts = %d hosts, more than the limit of %d", ls.Leaves, hpt, ls.Leaves*hpt, fabric.MaxHosts)
	}
	cfg.LeafSpine = ls
	switch mode := s.values["routing.mode"]; {
	case !s.set["routing.mode"] || mode == defaultOf("routing.mode"):
		cfg.Routing = fabric.ECMP
	case mode != fabric.ECMP:
		return nil, cfgErr("routing.mode", "leafspine routes by %s, not %q", fabric.ECMP, mode)
	}
	// The keys a transport, law or policy reads, set beside another one
	// (transport.cc with linerate …), as on the rotor fabric.
	if s.checkModeKeys(p, cfg.PathsK); p.err != nil {
		return nil, p.err
	}
	// One buffer size for every switch; per_port counts a leaf's ports.
	return s.buildRest(ctx, p, cfg, buckets, ls.Leaves, hpt, hpt+ls.Spines*ls.LinksPerPair, mtu)
}
