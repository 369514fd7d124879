package tor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/rdcn/rdcn/internal/registry"
	"github.com/rdcn/rdcn/rotor"
)

// Param is one parameter of a buffer policy.
type Param struct {
	Name    string
	Default float64
	// Derive, if set, computes the default from the switch (Default is
	// then unused); Doc says how.
	Derive   func(c *SwitchConfig) float64
	Positive bool // must be > 0 (else ≥ 0)
	Doc      string
}

// Env is what a policy is built for: the switch, an oracle (Credence) and
// a random source (IB's fair dropping, Credence's flips).
type Env struct {
	Switch *SwitchConfig
	Oracle Oracle
	Rand   *rand.Rand
}

// PolicySpec is one registered buffer policy.
type PolicySpec struct {
	Name   string
	Doc    string
	Params []Param
	// Lossless: the policy has lossless (PFC) classes, i.e. it builds a
	// LosslessPolicy (TestRegistryLossless checks the two agree).
	Lossless bool
	// Build makes the policy for the switch e.Switch from v, every
	// parameter's value (given, default or derived; checked against
	// Positive). It may refuse values it cannot use, with an error naming
	// the parameter.
	Build func(v map[string]float64, e Env) (BufferPolicy, error)
}

func rtt(c *SwitchConfig) float64 { return c.RTT.Seconds() * 1e6 }

func mtus(k float64) func(c *SwitchConfig) float64 {
	return func(c *SwitchConfig) float64 { return k * float64(c.MTU) }
}

var (
	pAlpha   = Param{Name: "alpha", Default: 0.5, Positive: true, Doc: "α of low-priority queues (and of all, with hi_queues = 0)"}
	pAlphaHi = Param{Name: "alpha_hi", Default: 20, Positive: true, Doc: "α of the high-priority queues (FB's α_H)"}
	pHi      = Param{Name: "hi_queues", Default: 0, Doc: "queue indices 0..hi_queues−1 are high priority"}
)

func alphas(v map[string]float64, e Env) (classAlpha, error) {
	hi := v["hi_queues"]
	if hi != math.Trunc(hi) || hi > float64(e.Switch.Queues) {
		return classAlpha{}, fmt.Errorf("hi_queues %v: must be a whole number of queues, at most %d", hi, e.Switch.Queues)
	}
	return newClassAlpha(v["alpha"], v["alpha_hi"], int(hi)), nil
}

var abmParams = []Param{pAlpha, pAlphaHi, pHi,
	{Name: "alpha_unsched", Default: 64, Positive: true, Doc: "α of first-RTT (unscheduled) packets"},
	{Name: "sat", Derive: mtus(20), Positive: true, Doc: "bytes at which a queue counts fully congested (20 MTU)"},
	{Name: "period_us", Derive: rtt, Positive: true, Doc: "n_p and μ update period, µs (one base RTT)"}}

// abmNS3Params choose ns-3's GenQueueDisc rules for ABM's state (abm
// only; ABM's doc comment).
var abmNS3Params = []Param{
	{Name: "np_at_arrivals", Doc: "1: a queue counts in n_p with the saturation its last arrival found, before joining (ns-3's GenQueueDisc records it only then, so a drained queue keeps counting); 0: as it is at the refresh"},
	{Name: "gamma_ns3", Doc: "1: a measured γ below 1/queues or above 1 is 1 (ns-3's UpdateDequeueRate); 0: clamped to [1/queues, 1], 1/(non-empty queues) for a queue that sent nothing"}}

func newABM(a classAlpha, v map[string]float64, e Env) (*ABM, error) {
	n := e.Switch.Ports * e.Switch.Queues
	m := &ABM{alpha: a, unsched: v["alpha_unsched"], sat: v["sat"], period: us(v["period_us"]),
		deq: make([]int64, n), gamma: make([]float64, n), nq: e.Switch.Queues}
	for _, p := range abmNS3Params {
		if x := v[p.Name]; x != 0 && x != 1 {
			return nil, fmt.Errorf("%s %v: must be 0 or 1", p.Name, x)
		}
	}
	m.gammaNS3 = v["gamma_ns3"] == 1
	if v["np_at_arrivals"] == 1 {
		m.arrivalSat = make([]float64, n)
	}
	for k := range m.np {
		m.np[k] = 1
	}
	for q := range m.gamma {
		m.gamma[q] = 1
	}
	return m, nil
}

var sonicParams = []Param{{Name: "alpha_in_lossless", Default: 1, Positive: true, Doc: "ingress α of lossless classes"},
	{Name: "alpha_in_lossy", Default: 10000, Positive: true, Doc: "ingress α of lossy classes (10000: bypass)"},
	{Name: "alpha_out_lossless", Default: 10000, Positive: true, Doc: "egress α of lossless classes (10000: bypass)"},
	{Name: "alpha_out_lossy", Default: 1, Positive: true, Doc: "egress α of lossy classes"},
	{Name: "lossy_pool", Default: 0.8, Positive: true, Doc: "egress lossy pool, a fraction of the ingress pool"}}

func newSonic(v map[string]float64, e Env) (Sonic, error) {
	c := e.Switch
	if v["lossy_pool"] > 1 {
		return Sonic{}, fmt.Errorf("lossy_pool %v: must be at most 1", v["lossy_pool"])
	}
	shared := float64(c.Buffer - c.HeadroomPool)
	return Sonic{inLossless: v["alpha_in_lossless"], inLossy: v["alpha_in_lossy"],
		outLossless: v["alpha_out_lossless"], outLossy: v["alpha_out_lossy"],
		lossyPool: v["lossy_pool"] * shared, losslessPool: float64(c.Buffer)}, nil
}

func us(v float64) rotor.Time { return rotor.Time(math.Round(v * float64(rotor.Microsecond))) }

var policies = registry.New("tor", "buffer policy", func(p PolicySpec) string { return p.Name }, builtinPolicies...)

// builtinPolicies are rdcn's own, in table order.
var builtinPolicies = []PolicySpec{
	{Name: "cs", Doc: "Complete Sharing: admit whatever fits the buffer",
		Build: func(map[string]float64, Env) (BufferPolicy, error) { return CompleteSharingPolicy{}, nil }},
	{Name: "cp", Doc: "Complete Partitioning: each queue owns B/(ports·queues)",
		Build: func(_ map[string]float64, e Env) (BufferPolicy, error) {
			return &StaticPartition{share: e.Switch.Buffer / int64(e.Switch.Ports*e.Switch.Queues)}, nil
		}},
	{Name: "dt", Lossless: true, Doc: "Dynamic Thresholds (Choudhury–Hahne): q ≤ α·(B − Q)",
		Params: []Param{pAlpha, pAlphaHi, pHi},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			return &DT{alpha: a}, err
		}},
	{Name: "edt", Doc: "Enhanced DT: ports in a microburst are uncontrolled, up to B/n'",
		Params: []Param{{Name: "alpha", Default: 1, Positive: true, Doc: "DT α of controlled ports"},
			{Name: "c1", Default: 3, Positive: true, Doc: "consecutive dequeues that end a burst"},
			{Name: "c2", Default: 8, Positive: true, Doc: "packets of growth that start a burst"},
			{Name: "tm1_us", Default: 2100, Positive: true, Doc: "longest uncontrolled period, µs"},
			{Name: "tm2_us", Default: 10000, Doc: "cool-down before a port may be uncontrolled again, µs"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			return &EDT{alpha: v["alpha"], c1: int64(v["c1"]), c2: int64(v["c2"]), tm1: us(v["tm1_us"]),
				tm2: us(v["tm2_us"]), ports: make([]edtPort, e.Switch.Ports)}, nil
		}},
	{Name: "fab", Doc: "Flow-Aware Buffer: DT with α_high for a flow's first bytes",
		Params: []Param{pAlpha, pAlphaHi, pHi,
			{Name: "alpha_short", Default: 1024, Positive: true, Doc: "α while the flow is short"},
			{Name: "window_us", Default: 5000, Positive: true, Doc: "a flow idle this long starts afresh, µs"},
			{Name: "threshold", Derive: mtus(15), Positive: true, Doc: "bytes a flow counts as short (15 MTU)"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			return &FAB{alpha: a, high: v["alpha_short"], window: us(v["window_us"]), threshold: int64(v["threshold"])}, err
		}},
	{Name: "ib", Doc: "Cisco Intelligent Buffer: DT plus Approximate Fair Dropping per queue",
		Params: []Param{pAlpha, pAlphaHi, pHi,
			{Name: "window_us", Default: 50, Positive: true, Doc: "AFD control period, µs"},
			{Name: "qref", Derive: func(c *SwitchConfig) float64 { return float64(c.Rates[0].BytesIn(c.RTT)) }, Positive: true, Doc: "AFD reference queue, bytes (one BDP of port 0)"},
			{Name: "min_queue", Default: 150 * 1024, Doc: "AFD drops only above this queue, bytes"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			if e.Rand == nil {
				return nil, fmt.Errorf("ib: needs a random source")
			}
			n := e.Switch.Ports * e.Switch.Queues
			ib := &IB{alpha: a, window: us(v["window_us"]), qref: v["qref"], minQueue: int64(v["min_queue"]),
				a1: 1.8, a2: 1.7, rng: e.Rand, mCur: make([]float64, n), mPrev: make([]float64, n),
				mFair: make([]float64, n), qOld: make([]float64, n)}
			for i := range ib.mFair {
				ib.mFair[i] = 4e6
			}
			return ib, err
		}},
	{Name: "fb", Doc: "Flexible Buffer: α_c·(1/N_p)·γ·(B − Q), N_p non-empty queues of the priority",
		Params: []Param{pAlpha, pAlphaHi, pHi},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			return &FB{alpha: a, rr: e.Switch.Sched == RoundRobin}, err
		}},
	{Name: "fba", Doc: "FB approximated on DT: per-queue α set every period",
		Params: []Param{pAlpha, pAlphaHi, pHi,
			{Name: "period_us", Default: 1e6, Positive: true, Doc: "controller period, µs (the FB paper's 1 s)"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			f := &FBA{fb: FB{alpha: a, rr: e.Switch.Sched == RoundRobin}, period: us(v["period_us"]),
				alpha: make([]float64, e.Switch.Ports*e.Switch.Queues)}
			for q := range f.alpha {
				f.alpha[q] = a[q%e.Switch.Queues]
			}
			return f, err
		}},
	{Name: "abm", Doc: "Active Buffer Management: α_p·(1/n_p)·(μ/b)·(B − Q), n_p and μ every RTT",
		Params: slices.Concat(abmParams, abmNS3Params),
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			if err != nil {
				return nil, err
			}
			return newABM(a, v, e)
		}},
	{Name: "lqd", Doc: "Longest Queue Drop: push out the longest queue's tail",
		Build: func(_ map[string]float64, e Env) (BufferPolicy, error) {
			return &LQD{longest: longest{newMaxHeap(e.Switch.Ports * e.Switch.Queues)}}, nil
		}},
	{Name: "followlqd", Doc: "FollowLQD: drop-tail on the thresholds of a virtual LQD",
		Params: []Param{{Name: "reset_empty", Default: 1, Doc: "1: an emptied queue resets its threshold (packet switches); 0: paper's rule"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			return &FollowLQD{newVirtualLQD(v, e)}, nil
		}},
	{Name: "credence", Doc: "Credence: FollowLQD with a safeguard and a drop oracle",
		Params: []Param{{Name: "reset_empty", Default: 1, Doc: "1: an emptied queue resets its threshold (packet switches); 0: paper's rule"},
			{Name: "safeguard", Default: 1, Doc: "1: admit while the longest queue is below B/N; 0: off"},
			{Name: "flip", Default: 0, Doc: "probability of inverting each oracle answer"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			if e.Oracle == nil {
				return nil, fmt.Errorf("credence: needs an oracle (buffer.credence_model)")
			}
			o := e.Oracle
			if p := v["flip"]; p > 0 {
				if p > 1 {
					return nil, fmt.Errorf("flip %v: must be a probability", p)
				}
				if e.Rand == nil {
					return nil, fmt.Errorf("flip: needs a random source")
				}
				o = &Flipped{Inner: o, P: p, Rand: e.Rand}
			}
			n := e.Switch.Ports * e.Switch.Queues
			c := &Credence{virtualLQD: newVirtualLQD(v, e), oracle: o,
				feats: newFeatureTracker(n, e.Switch.RTT)}
			if v["safeguard"] != 0 {
				c.guard = e.Switch.Buffer / int64(e.Switch.Ports)
			}
			return c, nil
		}},
	{Name: "reverie", Lossless: true, Doc: "Reverie: one pool for lossless (PFC) and lossy, low-pass-filtered queue lengths",
		Params: []Param{{Name: "alpha", Default: 1, Positive: true, Doc: "α of low-priority queues (and of all, with hi_queues = 0)"},
			{Name: "alpha_hi", Default: 1, Positive: true, Doc: "α of the high-priority queues"}, pHi,
			{Name: "gamma", Default: 0.999, Positive: true, Doc: "low-pass filter weight on the old value, per departure"},
			{Name: "sat", Derive: mtus(20), Positive: true, Doc: "bytes at which a queue counts fully congested (20 MTU)"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			a, err := alphas(v, e)
			if v["gamma"] >= 1 {
				return nil, fmt.Errorf("gamma %v: must be below 1", v["gamma"])
			}
			n := e.Switch.Ports * e.Switch.Queues
			return &Reverie{alpha: a, gamma: v["gamma"], sat: v["sat"], qhat: make([]float64, n), ihat: make([]float64, n)}, err
		}},
	{Name: "sonic", Lossless: true, Doc: "SONiC MMU: DT on ingress and egress counters, separate pools, PFC headroom",
		Params: sonicParams,
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			m, err := newSonic(v, e)
			return &m, err
		}},
	{Name: "sonic-abm", Lossless: true, Doc: "ABM in the SONiC MMU (Reverie's baseline): ABM's thresholds on ingress (lossless) and egress (lossy) counters",
		Params: append(slices.Clone(sonicParams), abmParams[3:]...),
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			m, err := newSonic(v, e)
			a := newClassAlpha(1, 1, 0) // unused: Sonic's α apply
			n := e.Switch.Ports * e.Switch.Queues
			abm, _ := newABM(a, v, e) // sonic-abm has none of abmNS3Params: no error
			sa := &SonicABM{Sonic: m, ABM: abm, inDeq: make([]int64, n), inGamma: make([]float64, n)}
			for k := range sa.inNP {
				sa.inNP[k] = 1
			}
			for iq := range sa.inGamma {
				sa.inGamma[iq] = 1
			}
			return sa, err
		}},
	{Name: "tdt", Doc: "Traffic-aware DT: per-port normal/absorption/evacuation machine",
		Params: []Param{{Name: "alpha", Default: 1, Positive: true, Doc: "DT α in the normal state"},
			{Name: "nec", Derive: func(c *SwitchConfig) float64 { return pk(c, 1/float64(c.Ports)) }, Positive: true, Doc: "net-enqueue packets that start absorption (B/n)"},
			{Name: "oc1", Derive: func(c *SwitchConfig) float64 { return pk(c, 1/float64(c.Ports)) }, Positive: true, Doc: "dequeues that reset NEC (B/n: bursts above 2× line rate)"},
			{Name: "dc", Derive: func(c *SwitchConfig) float64 { return pk(c, 0.5) }, Positive: true, Doc: "drops that start evacuation (B/2)"},
			{Name: "dec", Default: 3, Positive: true, Doc: "consecutive dequeues that end a state"},
			{Name: "oc2", Derive: func(c *SwitchConfig) float64 { return pk(c, 2) }, Positive: true, Doc: "dequeues that end absorption (2B)"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			c := e.Switch
			return &TDT{alpha: v["alpha"], necTh: int64(v["nec"]), oc1Th: int64(v["oc1"]), dcTh: int64(v["dc"]),
				decTh: int64(v["dec"]), oc2Th: int64(v["oc2"]), lb: c.Buffer / int64(2*c.Ports),
				ports: make([]tdtPort, c.Ports)}, nil
		}},
	{Name: "protean", Doc: "Protean: CS for short, DT for long, gradient-scaled DT for incast queues",
		Params: []Param{{Name: "short_queue", Default: 0, Doc: "queue index of short-flow packets"},
			{Name: "long_queue", Default: 1, Doc: "queue index of long-flow packets"},
			{Name: "alpha_long", Default: 0.5, Positive: true, Doc: "DT α of long flows"},
			{Name: "alpha_incast", Default: 1, Positive: true, Doc: "DT α of incast queues"},
			{Name: "beta", Default: 0.25, Positive: true, Doc: "gradient EWMA weight"},
			{Name: "buildup", Default: 2, Positive: true, Doc: "gradient (in port rates) above which the threshold scales"}},
		Build: func(v map[string]float64, e Env) (BufferPolicy, error) {
			c := e.Switch
			sq, lq := v["short_queue"], v["long_queue"]
			if sq != math.Trunc(sq) || sq >= float64(c.Queues) || lq != math.Trunc(lq) || lq >= float64(c.Queues) {
				return nil, fmt.Errorf("short_queue %v, long_queue %v: must be queue indices below %d", sq, lq, c.Queues)
			}
			if v["beta"] > 1 {
				return nil, fmt.Errorf("beta %v: must be at most 1", v["beta"])
			}
			n := c.Ports * c.Queues
			return &Protean{shortQ: int(sq), longQ: int(lq), alphaLong: v["alpha_long"], alphaIncast: v["alpha_incast"],
				beta: v["beta"], buildup: v["buildup"], thr: make([]float64, c.Ports), thrSet: make([]bool, c.Ports),
				qPrev: make([]int64, n), tPrev: make([]rotor.Time, n), g: make([]float64, n), seen: make([]bool, n)}, nil
		}},
}

// Register adds a buffer policy; call it from an init function. A name
// already taken, a missing Build, or a call after the registry has been
// read (a run has started) panics with the name.
func Register(p PolicySpec) {
	if p.Build == nil {
		panic("tor: buffer policy " + p.Name + " registered without Build")
	}
	policies.Add(p)
}

// pk is a fraction of the buffer in packets (at least 1).
func pk(c *SwitchConfig, frac float64) float64 {
	return max(1, math.Round(frac*float64(c.Buffer)/float64(c.MTU)))
}

func newVirtualLQD(v map[string]float64, e Env) virtualLQD {
	return virtualLQD{t: newMaxHeap(e.Switch.Ports * e.Switch.Queues), reset: v["reset_empty"] != 0}
}

// Policies lists the registered buffer policies.
func Policies() []PolicySpec { return slices.Clone(policies.All()) }

// PolicyNames lists their names.
func PolicyNames() []string { return policies.Names() }

// LookupPolicy finds a registered policy.
func LookupPolicy(name string) (PolicySpec, error) {
	if p, ok := policies.Lookup(name); ok {
		return p, nil
	}
	return PolicySpec{}, fmt.Errorf("policy %q: unknown (want one of %s)", name, strings.Join(PolicyNames(), ", "))
}

// Values resolves set against the policy's parameters: defaults filled in,
// and an error naming the key for an unknown parameter, a non-finite value
// or one out of range.
func (p PolicySpec) Values(set map[string]float64, c *SwitchConfig) (map[string]float64, error) {
	v := make(map[string]float64, len(p.Params))
	for _, prm := range p.Params {
		if prm.Derive != nil {
			v[prm.Name] = prm.Derive(c)
		} else {
			v[prm.Name] = prm.Default
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(p.Params, func(prm Param) bool { return prm.Name == k }) {
			return nil, fmt.Errorf("%s: policy %s takes no such parameter (takes: %s)", k, p.Name, p.paramList())
		}
		v[k] = set[k]
	}
	for _, prm := range p.Params { // given or default: all must hold
		x := v[prm.Name]
		why := ""
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			why = "must be finite"
		case prm.Positive && x <= 0:
			why = "must be positive"
		case x < 0:
			why = "must not be negative"
		default:
			continue
		}
		if _, given := set[prm.Name]; !given {
			why += " (its default: " + prm.Doc + ")"
		}
		return nil, fmt.Errorf("%s %v: %s", prm.Name, x, why)
	}
	return v, nil
}

func (p PolicySpec) paramList() string {
	if len(p.Params) == 0 {
		return "none"
	}
	n := make([]string, len(p.Params))
	for i, prm := range p.Params {
		n[i] = prm.Name
	}
	return strings.Join(n, ", ")
}

// NewBufferPolicy builds the policy called name for the switch e.Switch,
// with the parameters set (others take their defaults).
func NewBufferPolicy(name string, set map[string]float64, e Env) (BufferPolicy, error) {
	p, err := LookupPolicy(name)
	if err != nil {
		return nil, err
	}
	if e.Switch == nil {
		return nil, fmt.Errorf("policy %s: no switch configuration", name)
	}
	if err := e.Switch.Validate(); err != nil {
		return nil, err
	}
	v, err := p.Values(set, e.Switch)
	if err != nil {
		return nil, err
	}
	return p.Build(v, e)
}
