package fabric

import (
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// Slowdown definitions (run.slowdown): the ideal FCT a flow's FCT is
// divided by (FlowResult.Ideal).
const (
	// SlowdownIdeal: the flow alone on its shortest path, store-and-forward:
	// its packets pipelined over the hops, each serialised on every hop,
	// plus the propagation (storeAndForward).
	SlowdownIdeal = "ideal"
	// SlowdownNS3: the ABM evaluation's definition in ns-3
	// (inet-tub/ns3-datacenter, examples/ABM): the path's propagation
	// round trip plus the flow's bytes at the host link rate.
	SlowdownNS3 = "ns3"
)

// Slowdowns is the table of slowdown definitions.
var Slowdowns = Registry{Key: "run.slowdown", What: "slowdown definition", Entries: []Entry{
	{Name: SlowdownIdeal, Doc: "FCT over the flow's FCT alone on its shortest path, store-and-forward: its packets pipelined over the hops (a short last packet waits behind the full one before it on every hop) plus the propagation"},
	{Name: SlowdownNS3, Doc: "FCT over the base RTT (propagation both ways on the flow's path) plus bytes / topology.host_link, as ns-3's ABM evaluation (ns3-datacenter, examples/ABM) computes it; a handshake (transport.handshake) counts in the FCT, not in this ideal, as there"},
}}

// maxPathHops bounds the links of an idle path (leaf-spine: host, uplink,
// downlink, host).
const maxPathHops = 4

// idlePath is the links of a flow's shortest path, in order, as the
// ideal FCTs assume them: the one-circuit path on the rotor fabric, the
// path through one spine on the leaf-spine, host–ToR–host within a rack.
type idlePath struct {
	rate  [maxPathHops]rotor.Rate
	delay [maxPathHops]rotor.Time
	n     int
}

func (p *idlePath) add(r rotor.Rate, d rotor.Time) {
	p.rate[p.n], p.delay[p.n] = r, d
	p.n++
}

// pathOf is the idle path from host src to host dst.
func (s *sim) pathOf(src, dst int32) idlePath {
	var p idlePath
	p.add(s.cfg.HostLink, s.cfg.HostDelay)
	if s.torOf(src) != s.torOf(dst) {
		if s.ls != nil {
			p.add(s.ls.cfg.FabricLink, s.ls.cfg.FabricDelay)
			p.add(s.ls.cfg.FabricLink, s.ls.cfg.FabricDelay)
		} else {
			p.add(s.rates[linkCircuit], s.cfg.LinkDelay)
		}
	}
	p.add(s.cfg.HostLink, s.cfg.HostDelay)
	return p
}

// propagation is the one-way propagation delay of p.
func (p *idlePath) propagation() rotor.Time {
	var d rotor.Time
	for k := range p.n {
		d += p.delay[k]
	}
	return d
}

// storeAndForward is the time from the first bit of a message of bytes,
// cut into segments of seg bytes (the last one shorter), leaving its
// source until its last bit reaches the destination, with nothing else on
// p: a segment starts on a link when it has wholly arrived and the one
// before it has left. The last bit's departure is the heaviest monotone
// path through the (segment, hop) grid of transmit times; with n−1 full
// segments and a last one, that path runs the full segments over hops
// 0…k (the n−2 extra ones on the slowest of them) and the last segment
// over hops k…end, for the best k. Transmit times are rounded per
// segment, as the engine serialises them.
func (p *idlePath) storeAndForward(bytes, seg int64) rotor.Time {
	if bytes <= 0 {
		return 0
	}
	n := (bytes + seg - 1) / seg
	last := rotor.Bytes(bytes - (n-1)*seg)
	var best, full, slowest rotor.Time
	for k := range p.n {
		var t rotor.Time
		if n > 1 {
			tk := p.rate[k].TransmitTime(rotor.Bytes(seg))
			full += tk
			slowest = max(slowest, tk)
			t = full + rotor.Time(n-2)*slowest
		}
		for j := k; j < p.n; j++ {
			t += p.rate[j].TransmitTime(last)
		}
		best = max(best, t)
	}
	return best + p.propagation()
}

// idealFCT is the FCT f's slowdown divides by, by run.slowdown's
// definition.
func (s *sim) idealFCT(f workload.Flow) rotor.Time {
	if f.Bytes <= 0 {
		return 0
	}
	p := s.pathOf(int32(f.Src), int32(f.Dst))
	if s.cfg.Slowdown == SlowdownNS3 {
		return 2*p.propagation() + s.cfg.HostLink.TransmitTime(rotor.Bytes(f.Bytes))
	}
	return p.storeAndForward(f.Bytes, int64(s.segmentOf(f)))
}

// segmentOf is flow f's payload bytes per segment (a data packet is its
// payload on the wire): its class's MSS (transport.mss,
// transport.incast_mss) for the flows of a transport that reads
// transport.mss (window, pull's windowed flows, a registered transport
// that lists it), the MTU for the pulled, NDP and line-rate ones.
func (s *sim) segmentOf(f workload.Flow) int32 {
	c := &s.cfg
	switch {
	case !s.cc.classMSS || c.Pulled(f):
		return c.MTU
	case f.Query > 0:
		return c.IncastMSS
	}
	return c.MSS
}

// handshakeTime is the SYN and SYN-ACK's round trip on f's idle path: one
// ACK-sized packet each way, store-and-forward (flowsetup.go).
func (s *sim) handshakeTime(f workload.Flow) rotor.Time {
	p := s.pathOf(int32(f.Src), int32(f.Dst))
	return 2 * p.storeAndForward(int64(s.cfg.AckSize), int64(s.cfg.AckSize))
}
