package fabric

import (
	"math/rand/v2"
	"slices"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// ECN marking of the switches. buffer.ecn_threshold sets DCTCP's step K
// on every queue. Without it, a law that reads ECE as congestion gets
// its Spec.Marking per port, from the port's rate and the laws' round
// trip (Config.lawRTT: the base RTT, plus a cycle on a rotor where
// packets wait for their pair's circuit): DCTCP's K = cc.DCTCPThreshold, or RED (DCQCN) with thresholds
// buffer.red_min and buffer.red_max (default: the queue the port drains
// in cc.REDMinTime and cc.REDMaxTime) and buffer.red_max_p. A packet is
// marked by the queue it finds, itself not counted (tor.ECN.Marks).

// redKeys name RED's parameters.
const (
	redMinKey  = "buffer.red_min"
	redMaxKey  = "buffer.red_max"
	redMaxPKey = "buffer.red_max_p"
)

// PortMarking is the ECN marking of the ports of one rate.
type PortMarking struct {
	Rate rotor.Rate
	tor.ECN
}

// portMarking is the marking of a port of a given rate, nil if the
// switches do not mark.
func (c *Config) portMarking() func(rotor.Rate) tor.ECN {
	if k := int64(c.ECNThreshold); k > 0 {
		return func(rotor.Rate) tor.ECN { return tor.ECN{K: k} }
	}
	spec, ok := cc.Lookup(c.CC)
	if !ok || spec.ECE != cc.ECECongestion {
		return nil
	}
	if spec.Marking == cc.MarkRED {
		lo, hi, p := int64(c.REDMin), int64(c.REDMax), c.REDMaxP
		if p == 0 {
			p = cc.DefaultREDMaxP
		}
		return func(r rotor.Rate) tor.ECN {
			e := tor.ECN{MinTh: lo, MaxTh: hi, MaxP: p}
			if lo == 0 {
				e.MinTh, e.MaxTh = int64(r.BytesIn(cc.REDMinTime)), int64(r.BytesIn(cc.REDMaxTime))
			}
			return e
		}
	}
	rtt, mtu := c.lawRTT(), int64(c.MTU) // the feedback loop's round trip: a cycle more where packets wait for circuits
	return func(r rotor.Rate) tor.ECN { return tor.ECN{K: cc.DCTCPThreshold(r, rtt, mtu)} }
}

// validateMarking checks the RED keys: read only when the law's default
// marking is RED and buffer.ecn_threshold is unset; both thresholds or
// neither; max_p in (0, 1].
func (c *Config) validateMarking() error {
	if c.REDMin == 0 && c.REDMax == 0 && c.REDMaxP == 0 {
		return nil
	}
	key := redMinKey
	switch {
	case c.REDMax != 0 && c.REDMin == 0:
		key = redMaxKey
	case c.REDMin == 0:
		key = redMaxPKey
	}
	spec, ok := cc.Lookup(c.CC)
	switch {
	case !ok || spec.ECE != cc.ECECongestion || spec.Marking != cc.MarkRED:
		return cfgErr(key, "RED marking is for a law that assumes it (dcqcn), not transport.cc %s", c.CC)
	case c.ECNThreshold > 0:
		return cfgErr(key, "buffer.ecn_threshold sets step marking: leave the RED keys unset, or unset buffer.ecn_threshold")
	case (c.REDMin == 0) != (c.REDMax == 0):
		return cfgErr(key, "set both buffer.red_min and buffer.red_max, or neither (defaults scaled to each port's rate)")
	case c.REDMax < c.REDMin:
		return cfgErr(redMaxKey, "%d B: must be at least buffer.red_min %d B", c.REDMax, c.REDMin)
	case c.REDMaxP < 0 || c.REDMaxP > 1:
		return cfgErr(redMaxPKey, "%v: must be in (0, 1]", c.REDMaxP)
	}
	return nil
}

// markSwitch gives switch sw's configuration the run's marking, with a
// random source of its own for RED.
func (s *sim) markSwitch(sw int, c *tor.Config) {
	c.ECNThreshold, c.ECNPorts = 0, s.cfg.portMarking()
	if c.ECNPorts != nil {
		c.ECNRand = rand.New(rand.NewPCG(s.cfg.Seed, 0xec<<32|uint64(sw)))
	}
}

// markings lists the marking of every port rate of the run's switches, by
// rate (Result.ECN); nil if they do not mark.
func (s *sim) markings() []PortMarking {
	mark := s.cfg.portMarking()
	if mark == nil {
		return nil
	}
	var rates []rotor.Rate
	for _, tr := range s.switches() {
		rates = append(rates, tr.Switch().Config().Rates...)
	}
	slices.Sort(rates)
	var out []PortMarking
	for _, r := range slices.Compact(rates) {
		out = append(out, PortMarking{Rate: r, ECN: mark(r)})
	}
	return out
}
