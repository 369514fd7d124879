package scenario

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// bufferPolicy reads buffer.policy and its parameter keys and returns
// Config.NewPolicy. The policy is built once for a switch like the
// fabric's (ports ports, cfg's buffer) so that a bad parameter is
// refused here, naming its key.
func (s *Spec) bufferPolicy(cfg *fabric.Config, ports, mtu int) (func(int) tor.PolicyMaker, error) {
	name := s.values["buffer.policy"]
	if s.values["transport.ndp_ports"] == fabric.NDPPortsOperaSim { // NDP's data never enters the shared buffer, which holds pulled packets only
		if s.set["buffer.policy"] && name != operaSimPolicy {
			return nil, cfgErr("buffer.policy", "%s with transport.ndp_ports = %s: opera-sim's ports share no buffer (each has a private data queue of buffer.per_port packets); leave buffer.policy unset or %s", name, fabric.NDPPortsOperaSim, operaSimPolicy)
		}
		name = operaSimPolicy
		s.resolved["buffer.policy"] = name
	}
	if err := fabric.BufferPolicies().Check(name); err != nil {
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
	if v := s.values[keyLossless]; v != "" {
		m, err := parseLossless(v)
		if err != nil {
			return nil, err
		}
		if !spec.Lossless {
			return nil, cfgErr(keyLossless, "%q: policy %s has no lossless classes (PFC needs reverie, sonic, sonic-abm or dt)", v, name)
		}
		cfg.Lossless = m
	}
	var oracle tor.Oracle
	if name == "credence" {
		m, err := fabric.CredenceModel(s.values[keyCredenceModel])
		if err != nil {
			return nil, cfgErr(keyCredenceModel, "%v", err)
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
	return fabric.NamedPolicy(name, set, oracle, cfg.Seed), nil
}

// operaSimPolicy is the buffer policy under transport.ndp_ports =
// operasim: the shared buffer holds only the pulled bulk flows' packets
// (opera-sim queues them apart from NDP's, without a policy), so it
// admits whatever fits.
const operaSimPolicy = "cs"

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

// parseLossless reads buffer.lossless: class numbers separated by commas.
func parseLossless(v string) (uint8, error) {
	var m uint8
	for _, f := range strings.Split(v, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 0 || k >= tor.MaxQueues {
			return 0, cfgErr(keyLossless, "%q: want class numbers 0…%d separated by commas", v, tor.MaxQueues-1)
		}
		m |= 1 << k
	}
	return m, nil
}
