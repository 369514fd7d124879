package fabric

import (
	"math/rand/v2"
	"strings"

	"github.com/rdcn/rdcn/tor"
)

// Every switch of a fabric (rotor ToRs, the hybrid's packet switch,
// leaves and spines) holds its queues in a tor.Switch that runs the
// configured buffer policy; this file builds them.

// NamedPolicy is Config.NewPolicy for the registered policy name (package
// tor's registry) with the parameters set (the others take the policy's
// defaults) and, for credence, its oracle (CredenceModel). Each switch
// gets its own policy and its own random source, drawn from seed and the
// switch's number, so runs are deterministic.
func NamedPolicy(name string, set map[string]float64, oracle tor.Oracle, seed uint64) func(int) tor.PolicyMaker {
	return func(sw int) tor.PolicyMaker {
		return tor.Named(name, set, oracle, rand.New(rand.NewPCG(seed, 0xb0ff<<32|uint64(sw))))
	}
}

// newSwitch builds switch id (number sw among the fabric's switches:
// ToRs or leaves, then the packet switch or the spines) from c, adding
// what every switch shares: the packet size, the base RTT
// (Config.baseRTT: ABM's update period, Credence's feature window, IB's
// reference queue) and the first RTT's bytes at host rate (ABM's
// unscheduled packets), the buffer policy, ECN marking (marking.go) and
// INT.
func (s *sim) newSwitch(id, sw int, c tor.Config) (*tor.ToR, error) {
	c.MTU = s.cfg.MTU
	c.RTT = s.cfg.baseRTT()
	c.Unsched = int64(s.cfg.HostLink.BytesIn(c.RTT))
	if s.cfg.NewPolicy != nil {
		c.Policy = s.cfg.NewPolicy(sw)
	}
	s.markSwitch(sw, &c)
	c.RecordINT, c.Ints = s.cfg.RecordINT, s.ints
	if s.cfg.Transport == NDP {
		c.HeaderQueue = s.cfg.NDPHeaderQueue
		if s.cfg.NDPPorts == NDPPortsOperaSim && c.Uplinks > 0 { // a rotor ToR: opera-sim's CompositeQueue per port
			c.PortData = int64(s.cfg.NDPPortData)
			c.HeaderWeight = NDPHeaderWeight
		}
	}
	tr, err := tor.New(id, c, &s.pool)
	if err != nil {
		if c.Lossless != 0 && strings.HasPrefix(err.Error(), "lossless:") {
			return nil, cfgErr(losslessKey, "%v", err)
		}
		return nil, cfgErr("buffer.policy", "%v", err)
	}
	return tr, nil
}

// credenceModelKey names the model file of Credence's oracle;
// losslessKey the lossless (PFC) classes.
const (
	credenceModelKey = "buffer.credence_model"
	losslessKey      = "buffer.lossless"
)

// bufferPolicyEntries is package tor's policy registry as a fabric
// registry: a policy's parameter p is the key buffer.p, with the policy's
// own default (tor's registry is the one table of policies, parameters and
// defaults).
func bufferPolicyEntries() []Entry {
	var out []Entry
	for _, p := range tor.Policies() {
		e := Entry{Name: p.Name, Doc: p.Doc}
		for _, prm := range p.Params {
			e.Reads = append(e.Reads, "buffer."+prm.Name)
		}
		if p.Name == "credence" {
			e.Reads = append(e.Reads, credenceModelKey)
		}
		if p.Lossless {
			e.Reads = append(e.Reads, losslessKey)
		}
		out = append(out, e)
	}
	return out
}

// circuitToR tells ToR t's buffer policy that a circuit toward v went up
// or down (the VOQs toward v have day while one is up).
func (s *sim) circuitToR(t int, v int32, up bool) {
	tr := s.tors[t]
	if _, ok := tr.Switch().Policy().(tor.CircuitAware); ok {
		s.settle(t) // the policy sees the buffer
	}
	tr.SetCircuit(s.q.Now(), int(v), up)
}

// switches lists every switch: ToRs or leaves, the packet switch, spines.
func (s *sim) switches() []*tor.ToR {
	out := append([]*tor.ToR(nil), s.tors...)
	if s.ps != nil {
		out = append(out, s.ps)
	}
	if s.ls != nil {
		out = append(out, s.ls.spines...)
	}
	return out
}

// checkSwitches verifies (run.check) that every switch's buffer counters
// equal a recount of its queues from the packets themselves, and that the
// drops the switches counted (arrivals refused and packets pushed out)
// plus the hop-limit and prebuffer-capacity drops are all the packets the
// run dropped.
func (s *sim) checkSwitches() {
	drops := s.m.hopLimitDrops + s.m.prebufferDrops + s.ndp.queueDrops
	for _, tr := range s.switches() {
		if got := tr.QueuedBytes(); got != tr.Used()+tr.HeaderBytes()+tr.PrivateBytes() {
			s.fail("switch %d: its queues hold %d B, its counters say %d B, %d B of headers and %d B of private data", tr.ID, got, tr.Used(), tr.HeaderBytes(), tr.PrivateBytes())
			return
		}
		drops += tr.Drops
	}
	if drops != s.m.droppedPkts+s.ndp.trimmed { // a trim is a refused arrival whose header goes on
		s.fail("conservation: the switches refused %d packets (with hop-limit and prebuffer drops), the run counted %d drops and %d trims", drops, s.m.droppedPkts, s.ndp.trimmed)
	}
}

// switchDrop drops packet idx, refused or pushed out by a switch.
func (s *sim) switchDrop(idx int32) {
	if s.cfg.switchDrop != nil {
		s.cfg.switchDrop(idx)
	}
	if s.pfc != nil {
		s.pfcDropped(idx)
	}
	s.drop(idx)
}
