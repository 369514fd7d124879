package fabric

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
)

// HybridVOQ is the routing mode of the PowerTCP thesis's reconfigurable-
// network study (and of reTCP's Etalon testbed): every packet leaving a
// ToR waits in the per-destination VOQ; the circuit drains VOQ v during
// its day toward v, and the packet-switch port drains, round robin, the
// VOQs whose circuit is not up (so a VOQ is served exclusively by its
// circuit while it is up). ACKs have strict priority: they wait in the
// VOQ's first class (the relay class of the multi-hop modes; hybrid-voq
// relays nothing), which the circuit and the packet-switch port serve
// first. Without it, a round robin over VOQs sends one ACK per data
// packet of the other VOQs, and the ACK clock caps every flow whose ACKs
// share a packet-switch port with data at that port's packet rate.
const HybridVOQ = routing.HybridVOQ

// voqState is hybrid-voq's and prebuffering's per-ToR state.
type voqState struct {
	ps  bool               // the packet-switch port drains the VOQs (hybrid-voq)
	rr  []int32            // [t]: the VOQ the packet-switch port looks at first
	pre [][]*tor.Prebuffer // [t][v]: VOQ t→v's capacity schedule; nil: no limit
}

// initVOQ sets up hybrid-voq and prebuffering (validate has checked the
// combination).
func (s *sim) initVOQ() error {
	c := &s.cfg
	if c.Routing != HybridVOQ && c.Prebuffer == nil {
		return nil
	}
	v := &voqState{ps: c.Routing == HybridVOQ, rr: make([]int32, s.n)}
	if pb := c.Prebuffer; pb != nil {
		v.pre = make([][]*tor.Prebuffer, s.n)
		for t := range v.pre {
			v.pre[t] = make([]*tor.Prebuffer, s.n)
			for d := range v.pre[t] {
				if d == t {
					continue
				}
				days, cycle, err := tor.CircuitDays(s.sched, t, d)
				if err != nil {
					continue // no circuit t→d: the VOQ keeps the shared buffer's limit
				}
				p, err := tor.NewPrebuffer(int64(pb.Small), int64(pb.Big), pb.Lead, cycle, days)
				if err != nil {
					return cfgErr("buffer.prebuffer", "%v", err)
				}
				v.pre[t][d] = p
			}
		}
	}
	s.voq = v
	return nil
}

// voqCapacity is the capacity of ToR t's VOQ toward v at now (both
// classes together); −1: no limit of its own.
func (s *sim) voqCapacity(t int, v int32, now rotor.Time) int64 {
	if s.voq.pre == nil || s.voq.pre[t][v] == nil {
		return -1
	}
	return s.voq.pre[t][v].Capacity(now)
}

// voqArrive queues packet idx at ToR t in its VOQ toward next: tail-drop
// at the VOQ's prebuffer capacity (a shrinking capacity drops nothing
// already queued), then the circuit if it is up, else the packet switch.
func (s *sim) voqArrive(t int, next int32, class int, idx int32) {
	tr := s.tors[t]
	p := s.pool.At(idx)
	if s.voq.ps && p.Kind != packet.Data { // ACKs (ndp: NACKs, PULLs, trimmed headers) first
		class = tor.Transit
	}
	if c := s.voqCapacity(t, next, s.q.Now()); c >= 0 {
		if tr.VOQBytes(int(next))+int64(p.Size) > c {
			s.m.prebufferDrops++
			s.drop(idx)
			return
		}
	}
	if !s.enqueue(tr, tr.VOQ(int(next), class), idx) {
		return
	}
	s.kick(t, next, class == tor.Local && s.relay != nil)
	if s.voq.ps && !(circuitState{s}).Up(t, next) {
		s.portSend(t, tr.PacketSwitchPort())
	}
}

// pickVOQ is the VOQ of ToR t the packet-switch port serves next among
// the destinations whose circuit is not up now: the first class (ACKs)
// of any, else round robin over the second; ok is false if none has a
// packet.
func (s *sim) pickVOQ(t int) (tor.QueueID, bool) {
	tr := s.tors[t]
	if tr.VOQPackets() == 0 {
		return 0, false
	}
	start := s.voq.rr[t]
	for _, class := range [2]int{tor.Transit, tor.Local} {
		for k := int32(0); k < int32(s.n); k++ {
			v := (start + k) % int32(s.n)
			if int(v) == t || s.upTo(t, int(v)) != 0 {
				continue
			}
			if tr.VOQLen(int(v), class) > 0 {
				q := tr.VOQ(int(v), class)
				if class == tor.Local {
					s.voq.rr[t] = (v + 1) % int32(s.n)
				}
				return q, true
			}
		}
	}
	return 0, false
}

// voqFeedsPS reports whether the packet switch port of switch sw drains
// VOQs that may hold packets (then the port keeps its free event).
func (s *sim) voqFeedsPS(tr *tor.ToR) bool {
	return s.voq != nil && s.voq.ps && tr.ID >= 0 && tr.VOQPackets() > 0
}

// voqNight lets ToR t's packet-switch port serve VOQ v once its circuit
// is down.
func (s *sim) voqNight(t int) {
	if s.voq != nil && s.voq.ps {
		s.portSend(t, s.tors[t].PacketSwitchPort())
	}
}

// psClasses is the number of queues per packet-switch port: with
// hybrid-voq two, ACKs first.
func psClasses(cfg Config) int {
	if cfg.Routing == HybridVOQ {
		return 2
	}
	return 1
}

// psClass is the packet-switch port queue of p: with hybrid-voq ACKs
// have strict priority (class 0), data waits in class 1.
func (s *sim) psClass(p *packet.Packet) int {
	if s.voq != nil && s.voq.ps && p.Kind == packet.Data {
		return 1
	}
	return 0
}

// PrebufferConfig is reTCP's VOQ prebuffering ("Adapting TCP for
// Reconfigurable Datacenter Networks"): every VOQ holds Small bytes, and
// Big from Lead (τ_pre) before each day of its circuit until the day
// ends.
type PrebufferConfig struct {
	Lead       rotor.Time
	Small, Big rotor.Bytes
}

// validateVOQ checks hybrid-voq, prebuffering and the watched pair.
func (c *Config) validateVOQ() error {
	if w := c.WatchPair; w != nil {
		if c.LeafSpine != nil || c.Schedule == nil {
			return cfgErr("run.watch_pair", "watches a circuit ToR pair: needs topology.kind rotor")
		}
		if n := c.Leaves(); w[0] < 0 || w[1] < 0 || w[0] >= n || w[1] >= n || w[0] == w[1] {
			return cfgErr("run.watch_pair", "%d,%d: want two different ToRs in [0, %d)", w[0], w[1], n)
		}
	}
	if c.Routing == HybridVOQ && c.PacketSwitchLink == 0 {
		return cfgErr("routing.mode", "hybrid-voq needs a packet switch (set topology.packet_switch_link)")
	}
	pb := c.Prebuffer
	if pb == nil {
		return nil
	}
	switch {
	case pb.Lead < 0:
		return cfgErr("buffer.prebuffer", "τ_pre %v: must not be negative", pb.Lead)
	case c.LeafSpine != nil || c.Schedule == nil:
		return cfgErr("buffer.prebuffer", "prebuffering resizes VOQs around circuit days: needs topology.kind rotor")
	case c.Transport == NDP:
		return cfgErr("buffer.prebuffer", "prebuffering caps VOQs for windowed flows (reTCP); ndp trims what a buffer refuses instead (use transport.kind window)")
	case c.Transport == Pull:
		return cfgErr("buffer.prebuffer", "prebuffering sizes the VOQs packets are queued in; pulled traffic waits at its hosts (use transport.kind window)")
	case pb.Small < rotor.Bytes(c.MTU):
		return cfgErr("buffer.prebuffer_small", "must hold at least one packet (%d B), got %d B", c.MTU, pb.Small)
	case pb.Big < pb.Small:
		return cfgErr("buffer.prebuffer_big", "%d B: must be at least buffer.prebuffer_small (%d B)", pb.Big, pb.Small)
	case pb.Lead >= c.Schedule.CycleDuration():
		return cfgErr("buffer.prebuffer", "τ_pre %v: must be shorter than the schedule's cycle %v", pb.Lead, c.Schedule.CycleDuration())
	}
	return nil
}
