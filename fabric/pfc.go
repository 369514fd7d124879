package fabric

import (
	"math/bits"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// Priority flow control (IEEE 802.1Qbb) on the leaf-spine fabric. A
// switch's buffer policy decides when an ingress queue (ingress port,
// class) of a lossless class pauses and resumes (tor.Switch.OnPFC); this
// file carries the decision across the link: a pause or resume frame
// leaves once the packet being serialised on that port in the reverse
// direction is done, takes pfcFrame bytes of serialisation and the link's
// propagation, and then stops (or restarts) the upstream port's queue of
// that class, or the host NIC's packets of that class. A port pauses
// classes, not packets: the packet on the wire when the pause arrives
// still goes, and the headroom (pfcHeadroom) holds it.
//
// Decisions the sources leave open:
//   - pause frames are 64 B and take no bandwidth from the data on the
//     reverse link (they only wait for its current packet);
//   - a host NIC has one queue: while the class of its next packet (its
//     ACKs first, then data) is paused, it sends nothing; with incast
//     flows in a class of their own (topology.incast_queue), a pause of
//     either data class holds all its data;
//   - headroom per ingress queue is the authors' artifact's
//     2·(MTU+48) + 3860 + 2·rate·delay bytes for the fastest, longest link
//     of the fabric; the headroom pool is that times the switch's ingress
//     queues of lossless classes, and must be at most half the buffer.

const pfcFrame = 64 // bytes of a PFC frame on the wire

// pfc is the engine's PFC state. Upstreams are numbered like the ports
// (global port ids, port.go) and then the hosts' NICs.
type pfc struct {
	lossless uint8   // bit k: class k is lossless
	up       []int32 // [global port]: the port at the other end of its link, or −1−host
	from     []int32 // [packet index]: the global port that sent it last (with Hops > 0)
	paused   []uint8 // [upstream]: classes paused
	since    []rotor.Time
	pauses   int64 // pause frames sent
	resumes  int64 // resume frames sent
	pausedT  rotor.Time
	lost     int64 // packets of lossless classes dropped (must stay 0)
}

// PFCStats is what priority flow control did in a run (nil without
// lossless classes).
type PFCStats struct {
	PauseFrames, ResumeFrames int64
	// PausedTime sums, over the upstream ports' (and NICs') classes, the
	// time each was paused.
	PausedTime rotor.Time
	// LosslessDropped counts packets of lossless classes that a switch
	// dropped: 0 unless a headroom was too small.
	LosslessDropped int64
}

// pfcHeadroom is the headroom of one ingress queue of a lossless class
// (see the file comment) and the headroom pool of a switch with ports
// ports.
func (c *Config) pfcHeadroom(ports int) (perQueue, pool int64) {
	ls := c.LeafSpine
	link := func(r rotor.Rate, d rotor.Time) int64 {
		return 2*int64(c.MTU+48) + 3860 + 2*int64(r.BytesIn(d))
	}
	perQueue = max(link(c.HostLink, c.HostDelay), link(ls.FabricLink, ls.FabricDelay))
	return perQueue, perQueue * int64(ports) * int64(bits.OnesCount8(c.Lossless))
}

// validatePFC checks Config.Lossless.
func (c *Config) validatePFC() error {
	if c.Lossless == 0 {
		return nil
	}
	ls := c.LeafSpine
	if ls == nil {
		return cfgErr(losslessKey, "PFC is modelled on the leaf-spine fabric only (topology.kind = leafspine)")
	}
	if classes := max(ls.Classes, 1); int(c.Lossless)>>classes != 0 {
		return cfgErr(losslessKey, "class %d: the ports have only %d queues (topology.queues_per_port)", bits.Len8(c.Lossless)-1, classes)
	}
	ports := max(c.HostsPerToR+ls.Spines*ls.LinksPerPair, ls.Leaves*ls.LinksPerPair)
	q, pool := c.pfcHeadroom(ports)
	if 2*pool > int64(c.Buffer) {
		return cfgErr(losslessKey, "PFC headroom of %d B per ingress queue × %d ports × %d lossless classes = %d B is more than half of buffer.size %d B",
			q, ports, bits.OnesCount8(c.Lossless), pool, int64(c.Buffer))
	}
	return nil
}

// pfcSwitch adds the PFC fields to the configuration of a switch with
// ports ports.
func (s *sim) pfcSwitch(c *tor.Config, ports int) {
	if s.cfg.Lossless == 0 {
		return
	}
	c.Lossless = s.cfg.Lossless
	c.Headroom, c.HeadroomPool = s.cfg.pfcHeadroom(ports)
}

// newPFC pairs the leaf-spine's ports (leaf l's uplink j·K+k with spine
// j's port l·K+k, leaf l's host port h with host l·H+h) and hears every
// switch's pauses and resumes.
func (s *sim) newPFC() {
	if s.cfg.Lossless == 0 {
		return
	}
	pt, ls := &s.ports, s.ls
	total := int(pt.base[len(pt.sw)])
	f := &pfc{lossless: s.cfg.Lossless, up: make([]int32, total)}
	L, K := ls.cfg.Leaves, ls.cfg.LinksPerPair
	for l, tr := range s.tors {
		for h := 0; h < s.H; h++ {
			f.up[pt.base[l]+int32(tr.HostPort(h))] = -1 - int32(l*s.H+h)
		}
		for u := 0; u < ls.uplinks; u++ {
			j, k := u/K, u%K
			g, sg := pt.base[l]+int32(tr.FabricPort(u)), pt.base[L+j]+int32(ls.spines[j].FabricPort(l*K+k))
			f.up[g], f.up[sg] = sg, g
		}
	}
	f.paused = make([]uint8, total+s.n*s.H)
	f.since = make([]rotor.Time, len(f.paused)*tor.MaxQueues)
	for sw, tr := range pt.sw {
		base := pt.base[sw] // a Switch's port p is the switch's port p (no circuit uplinks)
		tr.Switch().OnPFC = func(now rotor.Time, inPort int32, class int, pause bool) {
			s.sendPFC(base+inPort, class, pause)
		}
	}
	s.pfc = f
}

// sendPFC sends a pause or resume of class from global port g to its
// upstream.
func (s *sim) sendPFC(g int32, class int, pause bool) {
	pt := &s.ports
	pe := &pt.peer[g]
	at := max(s.q.Now(), pt.freeAt[g]) + s.rates[pe.link].TransmitTime(pfcFrame) + pe.delay
	arg := int32(class)
	if pause {
		s.pfc.pauses++
		arg |= 1 << 8
	} else {
		s.pfc.resumes++
	}
	s.q.Schedule(at, evPFC, g, arg)
}

// pfcArrive applies a pause or resume frame sent by global port g.
func (s *sim) pfcArrive(g int32, arg int32) {
	f := s.pfc
	class, pause := uint(arg&0xff), arg>>8 != 0
	u := f.up[g]
	i := int(u)
	if u < 0 {
		i = len(f.up) + int(-1-u)
	}
	now := s.q.Now()
	bit := uint8(1) << class
	if pause {
		if f.paused[i]&bit == 0 {
			f.paused[i] |= bit
			f.since[i*tor.MaxQueues+int(class)] = now
		}
		return
	}
	if f.paused[i]&bit == 0 {
		return
	}
	f.paused[i] &^= bit
	f.pausedT += now - f.since[i*tor.MaxQueues+int(class)]
	if u < 0 {
		if h := -1 - u; !s.hosts[h].busy {
			s.hostSend(h)
		}
		return
	}
	s.portSend(s.ports.port(u))
}

// pfcSent records that global port g sent packet idx (its ingress port at
// the next switch is g's peer).
func (f *pfc) sent(g, idx int32) {
	if int(idx) >= len(f.from) {
		f.from = append(f.from, make([]int32, int(idx)+1-len(f.from)+len(f.from)/2+64)...)
	}
	f.from[idx] = g
}

// ingress is the port of switch sw on which packet idx (p) came in: its
// source host's port if it has not crossed a switch yet, else the peer of
// the port that sent it.
func (s *sim) ingress(sw int, idx int32, p *packet.Packet) int {
	if p.Hops == 0 {
		return s.tors[sw].HostPort(int(p.SrcHost) - sw*s.H)
	}
	return int(s.pfc.up[s.pfc.from[idx]] - s.ports.base[sw])
}

// nicPaused reports whether host h's NIC must hold its next packet: PFC
// paused its class.
func (s *sim) nicPaused(h int32) bool {
	if s.pfc == nil {
		return false
	}
	m := s.pfc.paused[len(s.pfc.up)+int(h)]
	if m == 0 {
		return false
	}
	if s.hosts[h].acks.Len() > 0 || s.ls.data == 0 {
		return m&1 != 0 // ACKs are class 0
	}
	return m&^1 != 0 // a data class
}

// pfcDropped counts a dropped packet of a lossless class.
func (s *sim) pfcDropped(idx int32) {
	if s.pfc.lossless>>uint(s.class(s.pool.At(idx)))&1 != 0 {
		s.pfc.lost++
		if s.cfg.Check {
			p := s.pool.At(idx)
			s.fail("PFC: a packet of lossless class %d (flow %d, %s) was dropped", s.class(p), p.Flow, p.Kind)
		}
	}
}

// pfcStats closes the pauses still open at stop.
func (s *sim) pfcStats(stop rotor.Time) *PFCStats {
	f := s.pfc
	if f == nil {
		return nil
	}
	t := f.pausedT
	for i, m := range f.paused {
		for ; m != 0; m &= m - 1 {
			t += stop - f.since[i*tor.MaxQueues+bits.TrailingZeros8(m)]
		}
	}
	return &PFCStats{PauseFrames: f.pauses, ResumeFrames: f.resumes, PausedTime: t, LosslessDropped: f.lost}
}

// PFCSummary is PFCStats in a Summary: paused_us sums the paused time of
// every upstream port's (and host NIC's) class.
type PFCSummary struct {
	PauseFrames     int64 `json:"pause_frames"`
	ResumeFrames    int64 `json:"resume_frames"`
	PausedUs        Num   `json:"paused_us"`
	LosslessDropped int64 `json:"lossless_dropped"`
}
