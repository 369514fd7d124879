package fabric

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/rotor"
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
// unscheduled packets), the buffer policy, ECN and INT.
func (s *sim) newSwitch(id, sw int, c tor.Config) (*tor.ToR, error) {
	c.MTU = s.cfg.MTU
	c.RTT = s.cfg.baseRTT()
	c.Unsched = int64(s.cfg.HostLink.BytesIn(c.RTT))
	if s.cfg.NewPolicy != nil {
		c.Policy = s.cfg.NewPolicy(sw)
	}
	c.ECNThreshold, c.RecordINT, c.Ints = s.cfg.ECNThreshold, s.cfg.RecordINT, s.ints
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

// bufferParamKeys are the keys of the policies' parameters, in registry
// order. Their default is empty: each policy's own, which the doc lists.
func bufferParamKeys() []Key {
	var out []Key
	seen := map[string]int{}
	for _, p := range tor.Policies() {
		for _, prm := range p.Params {
			name := "buffer." + prm.Name
			i, ok := seen[name]
			if !ok {
				i = len(out)
				seen[name] = i
				out = append(out, Key{Name: name, Doc: prm.Doc + "; empty: the policy's default ("})
			} else {
				out[i].Doc += ", "
			}
			def := strconv.FormatFloat(prm.Default, 'f', -1, 64)
			if prm.Derive != nil {
				def = "derived"
			}
			out[i].Doc += p.Name + " " + def
		}
	}
	for i := range out {
		out[i].Doc += ")"
	}
	return append(out,
		Key{credenceModelKey, "", "credence: the oracle's random-forest model file (`rdcn credence train`); empty: the model built into rdcn"},
		Key{losslessKey, "", "lossless (PFC) classes of the leaf-spine's queues, e.g. 1 or 0,1 (queue 0 carries ACKs, the last queue data), for the policies with lossless classes (reverie, sonic, sonic-abm, dt): pause frames stop the upstream port's class instead of dropping; empty: none"})
}

// bufferPolicy reads buffer.policy and its parameter keys and returns
// Config.NewPolicy. The policy is built once for a switch like the
// fabric's (ports ports, cfg's buffer) so that a bad parameter is
// refused here, naming its key.
func (s *Spec) bufferPolicy(cfg *Config, ports, mtu int) (func(int) tor.PolicyMaker, error) {
	name := s.values["buffer.policy"]
	if err := BufferPolicies.check(name); err != nil {
		return nil, err
	}
	spec, err := tor.LookupPolicy(name)
	if err != nil {
		return nil, cfgErr("buffer.policy", "%v", err)
	}
	set := map[string]float64{}
	for _, prm := range spec.Params {
		key := "buffer." + prm.Name
		v := s.values[key]
		if v == "" {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, cfgErr(key, "%q: not a finite number", v)
		}
		set[prm.Name] = x
	}
	if v := s.values[losslessKey]; v != "" {
		m, err := parseLossless(v)
		if err != nil {
			return nil, err
		}
		if !spec.Lossless {
			return nil, cfgErr(losslessKey, "%q: policy %s has no lossless classes (PFC needs reverie, sonic, sonic-abm or dt)", v, name)
		}
		cfg.Lossless = m
	}
	var oracle tor.Oracle
	if name == "credence" {
		m, err := CredenceModel(s.values[credenceModelKey])
		if err != nil {
			return nil, cfgErr(credenceModelKey, "%v", err)
		}
		oracle = m
	}
	// The switches' shapes: a rotor ToR's ports have 2 queues (its VOQs'
	// classes), the packet switch's 1, a leaf-spine's queues_per_port.
	shapes := []struct {
		what           string
		queues, buffer int
	}{{"ToR", 2, int(cfg.Buffer)}}
	if ls := cfg.LeafSpine; ls != nil {
		shapes[0].queues = max(ls.Classes, 1)
	} else if cfg.PacketSwitchLink > 0 {
		shapes = append(shapes, struct {
			what           string
			queues, buffer int
		}{"packet switch", 1, int(cfg.PacketSwitchBuffer)})
	}
	for _, sh := range shapes {
		sc := tor.SwitchConfig{Ports: ports, Queues: sh.queues, Buffer: int64(sh.buffer), MTU: int32(mtu),
			Rates: []rotor.Rate{max(cfg.HostLink, 1)}, RTT: 10 * rotor.Microsecond}
		if sc.Buffer <= 0 { // the packet switch's default: 1 MB per port
			sc.Buffer = 1_000_000
		}
		sc.MTU = min(sc.MTU, int32(sc.Buffer))
		if _, err := tor.NewBufferPolicy(name, set, tor.Env{Switch: &sc, Oracle: oracle, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
			return nil, cfgErr(paramKey(spec, err), "%v (in a %s with %d queues per port)", err, sh.what, sh.queues)
		}
	}
	return NamedPolicy(name, set, oracle, cfg.Seed), nil
}

// paramKey is the key an error of policy p's parameters is about: tor's
// errors start with the parameter's name.
func paramKey(p tor.PolicySpec, err error) string {
	first, _, _ := strings.Cut(err.Error(), " ")
	first = strings.TrimSuffix(first, ":")
	for _, prm := range p.Params {
		if prm.Name == first {
			return "buffer." + prm.Name
		}
	}
	return "buffer.policy"
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
	drops := s.m.hopLimitDrops + s.m.prebufferDrops
	for _, tr := range s.switches() {
		if got := tr.QueuedBytes(); got != tr.Used() {
			s.fail("switch %d: its queues hold %d B, its counters say %d B", tr.ID, got, tr.Used())
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
