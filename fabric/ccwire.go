package fabric

import (
	"slices"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// Congestion control of the windowed flows: the law named by transport.cc
// (cc's registry is the one table of laws and their parameters), resolved
// once before the run, and what the fabric must provide for it: INT
// records on data packets (INT laws), ECN marks (laws reading ECE as
// congestion: marking.go), or ECE set from the circuit map by the
// ToR that delivers the ACK (reTCP).

// ccEnv is what the laws of this fabric know about their hosts.
func (c *Config) ccEnv() cc.Env {
	rtt := c.lawRTT()
	return cc.Env{MSS: int64(c.MSS), HostRate: c.HostLink, BaseRTT: rtt, CircuitWait: rtt - c.baseRTT(), Window: c.Window}
}

// incastEnv is what the laws of the incast responses know: ccEnv with
// their MSS.
func (c *Config) incastEnv() cc.Env {
	e := c.ccEnv()
	e.MSS = int64(c.IncastMSS)
	return e
}

// lawRTT is the laws' τ (cc.Env.BaseRTT): the base RTT, plus one cycle
// of the schedule where every packet waits for the circuit of a ToR pair
// (routing direct, vlb or rotorlb on a rotor without a packet switch).
// There an idle round trip waits on average about a cycle: the data for
// its circuit, the ACK for the reverse one (docs/cc.md, "Window laws on
// a pure rotor"); a law whose window is capped at b·τ with τ the base RTT
// alone can fill a few per cent of its host link.
func (c *Config) lawRTT() rotor.Time {
	rtt := c.baseRTT()
	if c.Schedule != nil && c.PacketSwitchLink == 0 {
		switch c.Routing {
		case Direct, VLB, RotorLB:
			rtt += c.Schedule.CycleDuration()
		}
	}
	return rtt
}

// validateCC checks transport.cc, its parameters and what the law needs
// from the fabric. A hook (NewController) replaces the law: its
// parameters are not checked, but the fabric still provides what the
// named law reads (INT, the circuit ECE).
func (c *Config) validateCC() error {
	spec, ok := cc.Lookup(c.CC)
	if !ok {
		return CongestionControls().Check(c.CC)
	}
	if c.NewController != nil {
		return nil
	}
	for _, env := range []cc.Env{c.ccEnv(), c.incastEnv()} {
		if spec.Check != nil {
			if err := spec.Check(env); err != nil {
				return cfgErr("transport.window", "%s: %v", spec.Name, err)
			}
		}
		if _, err := spec.Resolve(env, c.CCParams); err != nil {
			return cfgErr("transport.cc_params", "%v", err)
		}
	}
	if spec.INT {
		if h := intHops(*c); h > cc.MaxHops {
			return cfgErr("transport.cc", "%s reads INT records, but routing.mode %s takes paths of up to %d hops, more than the %d records a packet carries", spec.Name, c.Routing, h, cc.MaxHops)
		}
	}
	switch spec.ECE {
	case cc.ECECircuit:
		if c.LeafSpine != nil {
			return cfgErr("transport.cc", "%s reads circuit state from ECE: needs circuits (topology.kind rotor)", spec.Name)
		}
		if c.Acks == AcksIdeal {
			return cfgErr("transport.acks", "%s reads the ECE the sender's ToR sets on the ACK: needs ACKs through the fabric (fabric), not ideal", spec.Name)
		}
	}
	return nil
}

// ccState is the resolved law and transport of a run.
type ccState struct {
	spec       cc.Spec
	env        cc.Env
	values     cc.Values
	circuitECE bool // the ToR delivering an ACK sets ECE from its circuit map
	// transport makes the ends of the flows the ToRs do not pull, pulled
	// those of the pulled (host-buffered) flows; flow is what every
	// flow's ends are told (Size, Start and Law are per flow).
	transport, pulled cc.TransportSpec
	flow              cc.Flow
	classMSS          bool // transport reads transport.mss: segments of its flow's class (segmentOf)
}

// initCC resolves the law and the transport before the run (validate has
// checked them).
func (s *sim) initCC() error {
	s.cc.env = s.cfg.ccEnv()
	s.cc.transport = flowTransport(s.cfg.Transport)
	s.cc.classMSS = slices.Contains(s.cc.transport.Params, "transport.mss")
	s.cc.pulled, _ = cc.LookupTransport(cc.TransportPull)
	s.cc.flow = cc.Flow{MSS: s.cfg.MTU, AckSize: s.cfg.AckSize, Line: s.cfg.HostLink,
		MinRTO: s.cfg.MinRTO, MaxRTO: s.cfg.MaxRTO, RTOClock: s.cfg.RTOClock,
		DupThresh: max(s.cfg.DupThresh, 0), SACK: !s.cfg.NoSACK,
		DelAck: s.cfg.DelayedAck, DelAckTimeout: s.cfg.DelayedAckTimeout} // NDP's Window: initNDP
	spec, _ := cc.Lookup(s.cfg.CC)
	s.cc.spec = spec
	s.cc.circuitECE = spec.ECE == cc.ECECircuit && s.sched != nil
	if s.cfg.NewController != nil {
		return nil
	}
	v, err := spec.Resolve(s.cc.env, s.cfg.CCParams)
	if err != nil {
		return cfgErr("transport.cc_params", "%v", err)
	}
	s.cc.values = v
	return nil
}

// needsINT reports whether cfg's law reads INT records.
func (c *Config) needsINT() bool {
	spec, ok := cc.Lookup(c.CC)
	return ok && spec.INT
}

// newLaw makes the law of windowed flow f.
func (s *sim) newLaw(f workload.Flow) (cc.Law, error) {
	if s.cfg.NewController != nil {
		env := s.cc.env
		env.MSS = int64(s.segmentOf(f))
		return s.cfg.NewController(f, env)
	}
	env := s.cc.env
	env.PathRTT, env.MSS = s.pathRTT(f), int64(s.segmentOf(f))
	return s.cc.spec.New(env, s.lawValues(f)), nil
}

// pathRTT is the base RTT of flow f's own path (cc.Env.PathRTT): the two
// host links of a flow within a rack, else the laws' τ of paths between
// racks (Config.lawRTT: the base RTT, plus a cycle where every packet
// waits for its pair's circuit).
func (s *sim) pathRTT(f workload.Flow) rotor.Time {
	if s.torOf(int32(f.Src)) == s.torOf(int32(f.Dst)) {
		c := &s.cfg
		return 2 * (c.HostLink.TransmitTime(rotor.Bytes(c.MTU)) + c.HostLink.TransmitTime(rotor.Bytes(c.AckSize)) + 2*c.HostDelay)
	}
	return s.cfg.lawRTT()
}

// circuitECE sets or clears ACK p's ECE at ToR t, which delivers it to
// the data's sender: set iff a circuit from t to the data's destination
// ToR (the ACK's source ToR) is up now (reTCP's ECE map).
func (s *sim) circuitECE(t int, p *packet.Packet) {
	if s.upTo(t, int(s.torOf(p.SrcHost))) != 0 {
		p.Set(packet.ECE)
	} else {
		p.Flags &^= packet.ECE
	}
}

// ccRegistry is CongestionControls, built from cc's registry.
func ccRegistry() Registry {
	r := Registry{Key: "transport.cc", What: "congestion control"}
	for _, s := range cc.Laws() {
		e := Entry{Name: s.Name, Doc: s.Doc}
		if s.Name == "fixed" {
			e.Reads = []string{"transport.window"}
		} else if len(s.Params) > 0 {
			e.Reads = []string{"transport.cc_params"}
		}
		if s.Has(cc.InitWindowKey) {
			e.Reads = append(e.Reads, "transport.init_window", "transport.incast_init_window")
		}
		r.Entries = append(r.Entries, e)
	}
	return r
}
