package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/internal/memlimit"
	"github.com/rdcn/rdcn/predict"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// The analysis kinds read these keys; their names follow rdcn simulate's
// where the meaning is the same, the rest are named by their command.
var (
	throughputKeys = keyList{
		{"schedule.kind", "rotornet", "schedule generator (see rdcn schedule)"},
		{"topology.tors", "8", "ToRs n"},
		{"topology.uplinks", "4", "uplinks per ToR U"},
		{"topology.circuit_link", "400Gbps", "link rate c"},
		{"schedule.slot", "", "slot Δ; empty: the generator's default"},
		{"schedule.reconf", "", "reconfiguration Δr; empty: the generator's default"},
		{"schedule.self_slot", "false", "rotornet/sirius: idle self-matching"},
		{"schedule.seed", "1", "seed of randomised generators"},
		{"throughput.demand", "worst", "demand: worst, uniform, permutation, ring, chessboard, skew:A, random:SEED"},
		{"throughput.routing", "any", "as rdcn throughput --routing: any, direct, vlb, vlb-slice, vlb-slice-spray"},
		{"throughput.gap", "0.001", "certified relative gap (routing any)"},
	}
	tradeoffKeys = keyList{
		{"topology.tors", "16", "ToRs n"},
		{"topology.uplinks", "2", "uplinks per ToR U"},
		{"topology.circuit_link", "400Gbps", "link rate c"},
		{"schedule.slot", "100us", "slot Δ"},
		{"schedule.reconf", "10us", "reconfiguration Δr"},
		{"schedule.seed", "1", "seed of the Mars matchings' shuffle"},
		{"tradeoff.buffer", "", "buffer per ToR B; empty: none"},
		{"tradeoff.delay", "", "Mars's delay requirement L; empty: none"},
		{"tradeoff.degree", "", "an extra degree-d design (a multiple of U in [U, n]); empty: none"},
		{"tradeoff.exact", "true", "also compute θ with the emulated-graph engine"},
		{"tradeoff.gap", "0.001", "certified relative gap of the engine's θ"},
	}
	predictKeys = keyList{
		{"topology.tors", "8", "ToRs n"},
		{"topology.uplinks", "4", "uplinks per ToR U"},
		{"topology.circuit_link", "400Gbps", "link rate c"},
		{"schedule.slot", "10us", "slot Δ"},
		{"schedule.reconf", "100ns", "reconfiguration Δr"},
		{"predict.matrix", "ring", "true demand: ring, uniform, chessboard, skewring:A, random:S, a file"},
		{"predict.noise", "additive", "additive or multiplicative"},
		{"predict.factor", "0", "noise factor δ"},
		{"predict.algorithm", "vermilion", "vermilion, randomized or bvn"},
		{"predict.gamma", "3", "trust factor γ (vermilion, randomized)"},
		{"predict.samples", "3", "noise draws"},
		{"predict.gap", "0.01", "certified relative gap of the any-routing θ"},
		{"predict.seed", "1", "seed of the noise and the schedules"},
	}
)

// Throughput is the kind "throughput": the certified throughput θ of a
// generated schedule's emulated graph (package emulated). A point writes
// nothing beyond its metrics.
type Throughput struct{ keyList }

// Tradeoff is the kind "tradeoff": one row per design of thesis Table 7.1
// (emulated.Tradeoff); metrics are named design.measure.
type Tradeoff struct{ keyList }

// Predict is the kind "predict": one point of the thesis §9.6 prediction
// study (package predict), averaged over predict.samples noise draws.
type Predict struct{ keyList }

func init() {
	Register("throughput", Throughput{throughputKeys})
	Register("tradeoff", Tradeoff{tradeoffKeys})
	Register("predict", Predict{predictKeys})
}

// SeedKeys: the random generators' seed.
func (Throughput) SeedKeys(map[string]string) []string { return []string{"schedule.seed"} }

// SeedKeys: the Mars shuffle's seed.
func (Tradeoff) SeedKeys(map[string]string) []string { return []string{"schedule.seed"} }

// SeedKeys: the study's seed.
func (Predict) SeedKeys(map[string]string) []string { return []string{"predict.seed"} }

var nan = math.NaN()

// vals parses keys with their names in errors.
type vals struct {
	m   map[string]string
	err error
}

func (v *vals) fail(key string, err error) {
	if v.err == nil {
		v.err = errf(key, "%q: %v", v.m[key], err)
	}
}

func (v *vals) int(key string) int {
	n, err := strconv.Atoi(v.m[key])
	if err != nil {
		v.fail(key, fmt.Errorf("not an integer"))
	}
	return n
}

// size reads a ToR or uplink count: lo to limits.MaxTors, the limit of
// rdcn's commands (dense n×n matrices and schedules), checked before a
// point allocates anything.
func (v *vals) size(key string, lo int) int {
	n := v.int(key)
	if v.err == nil && (n < lo || n > limits.MaxTors) {
		v.fail(key, fmt.Errorf("want %d to %d (the limit of rdcn's commands: dense n×n matrices)", lo, limits.MaxTors))
	}
	return n
}

// availableMemory is the memory a point may still allocate (a test
// replaces it).
var availableMemory = memlimit.Available

// checkMemory refuses a point whose estimated memory exceeds what the
// process may still allocate, as rdcn predict does.
func checkMemory(estimate int64) error {
	limit, ok := availableMemory()
	if !ok || estimate <= limit.Bytes {
		return nil
	}
	return errf("memory", "the point needs about %.1f GB (estimated from its sizes), more than the %.1f GB available (%s)",
		float64(estimate)/1e9, float64(limit.Bytes)/1e9, limit.Source)
}

func (v *vals) float(key string) float64 {
	x, err := strconv.ParseFloat(v.m[key], 64)
	if err != nil {
		v.fail(key, fmt.Errorf("not a number"))
	}
	return x
}

func (v *vals) uint(key string) uint64 {
	x, err := strconv.ParseUint(v.m[key], 10, 64)
	if err != nil {
		v.fail(key, fmt.Errorf("not a non-negative integer"))
	}
	return x
}

func (v *vals) bool(key string) bool {
	b, err := strconv.ParseBool(v.m[key])
	if err != nil {
		v.fail(key, fmt.Errorf("not true or false"))
	}
	return b
}

func (v *vals) time(key string) rotor.Time {
	if v.m[key] == "" {
		return 0
	}
	t, err := rotor.ParseTime(v.m[key])
	if err != nil {
		v.fail(key, err)
	}
	return t
}

func (v *vals) rate(key string) rotor.Rate {
	r, err := rotor.ParseRate(v.m[key])
	if err != nil {
		v.fail(key, err)
	} else if r <= 0 {
		v.fail(key, fmt.Errorf("must be positive"))
	}
	return r
}

func (v *vals) bytes(key string) rotor.Bytes {
	if v.m[key] == "" {
		return 0
	}
	b, err := rotor.ParseSize(v.m[key], rotor.DefaultMTU)
	if err != nil {
		v.fail(key, err)
	}
	return b
}

// params reads and checks a point's configuration before anything is
// built (sizes against limits.MaxTors).
func (k Throughput) params(config [][2]string) (v *vals, p schedules.Params, link rotor.Rate, rt emulated.Routing, gap float64, err error) {
	v = &vals{m: k.resolve(config)}
	p = schedules.Params{Nodes: v.size("topology.tors", 2), Uplinks: v.size("topology.uplinks", 1),
		Slot: v.time("schedule.slot"), Reconf: v.time("schedule.reconf"),
		SelfSlot: v.bool("schedule.self_slot"), Seed: v.uint("schedule.seed")}
	link, gap = v.rate("topology.circuit_link"), v.float("throughput.gap")
	name := v.m["throughput.routing"]
	rt, ok := emulated.LookupRouting(name)
	if !ok {
		var names []string
		for _, r := range emulated.Routings() {
			names = append(names, r.Name)
		}
		v.fail("throughput.routing", fmt.Errorf("want one of %s", strings.Join(names, ", ")))
	}
	return v, p, link, rt, gap, v.err
}

// Check reads and checks a point's configuration without running it.
func (k Throughput) Check(config [][2]string) error {
	_, _, _, _, _, err := k.params(config)
	return err
}

// Run computes θ.
func (k Throughput) Run(_ context.Context, config [][2]string, _ string) ([]Metric, error) {
	v, p, link, rt, gap, err := k.params(config)
	if err != nil {
		return nil, err
	}
	s, err := schedules.Build(v.m["schedule.kind"], p)
	if err != nil {
		return nil, scheduleError(err)
	}
	g, err := emulated.FromSchedule(s, link)
	if err != nil {
		return nil, err
	}
	var d demand.Matrix
	if spec := v.m["throughput.demand"]; spec == "worst" {
		d, err = emulated.WorstCaseDemand(g)
	} else {
		d, err = demand.Parse(spec, g.N)
	}
	if err != nil {
		return nil, errf("throughput.demand", "%v", err)
	}
	r, err := rt.Solve(g, d, &emulated.Options{Gap: gap})
	if err != nil {
		return nil, err
	}
	return []Metric{{"theta", r.Theta}, {"theta_upper", r.Upper}, {"route_length", r.ARL()},
		{"per_node_gbps", r.Theta * g.NodeCapacity * float64(g.Rate) / 1e9}}, nil
}

// scheduleError names the key behind a generator's parameter error.
func scheduleError(err error) error {
	var pe *schedules.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	key := map[string]string{"kind": "schedule.kind", "nodes": "topology.tors", "uplinks": "topology.uplinks", "link": "topology.circuit_link"}[pe.Field]
	if key == "" {
		key = "schedule." + strings.ReplaceAll(pe.Field, "-", "_")
	}
	return errf(key, "%v: %s (schedule.kind = %s)", pe.Value, pe.Problem, pe.Kind)
}

// config reads and checks a point's configuration before anything is
// built.
func (k Tradeoff) config(config [][2]string) (emulated.TradeoffConfig, error) {
	v := &vals{m: k.resolve(config)}
	c := emulated.TradeoffConfig{Nodes: v.size("topology.tors", 2), Uplinks: v.size("topology.uplinks", 1),
		Link: v.rate("topology.circuit_link"), Slot: v.time("schedule.slot"), Reconf: v.time("schedule.reconf"),
		Buffer: v.bytes("tradeoff.buffer"), Delay: v.time("tradeoff.delay"), Exact: v.bool("tradeoff.exact"),
		Gap: v.float("tradeoff.gap"), Seed: v.uint("schedule.seed")}
	if d := v.m["tradeoff.degree"]; d != "" {
		c.Degrees = []int{v.size("tradeoff.degree", 1)}
	}
	return c, v.err
}

// Check reads and checks a point's configuration without running it.
func (k Tradeoff) Check(config [][2]string) error {
	_, err := k.config(config)
	return err
}

// Run tabulates the designs.
func (k Tradeoff) Run(_ context.Context, config [][2]string, dir string) ([]Metric, error) {
	c, err := k.config(config)
	if err != nil {
		return nil, err
	}
	rows, err := emulated.Tradeoff(c)
	if err != nil {
		return nil, err
	}
	if err := writeJSONFile(dir, "tradeoff.json", rows); err != nil {
		return nil, err
	}
	var m []Metric
	opt := func(x *float64) float64 {
		if x == nil {
			return nan
		}
		return *x
	}
	for _, r := range rows {
		name := r.Design
		if name != emulated.DesignStatic && name != emulated.DesignComplete && name != emulated.DesignCompleteBuffer && name != emulated.DesignMars {
			name = "degree" // the tradeoff.degree row
		}
		m = append(m, Metric{name + ".degree", float64(r.Degree)}, Metric{name + ".theta", r.Theta},
			Metric{name + ".theta_exact", opt(r.ThetaExact)}, Metric{name + ".theta_vlb", opt(r.ThetaVLB)},
			Metric{name + ".theta_buffer_limited", r.ThetaBufferLimited},
			Metric{name + ".delay_us", float64(r.Delay) / float64(rotor.Microsecond)},
			Metric{name + ".buffer_per_tor_mb", float64(r.BufferPerNode) / 1e6})
	}
	return m, nil
}

// study reads and checks a point's configuration before anything is
// built.
func (k Predict) study(config [][2]string) (predict.Study, error) {
	v := &vals{m: k.resolve(config)}
	s := predict.Study{Nodes: v.size("topology.tors", 2), Uplinks: v.size("topology.uplinks", 1),
		Link: v.rate("topology.circuit_link"), Slot: v.time("schedule.slot"), Reconf: v.time("schedule.reconf"),
		Matrices: []string{v.m["predict.matrix"]}, Noises: []string{v.m["predict.noise"]},
		Factors: []float64{v.float("predict.factor")}, Algorithms: []predict.Algorithm{predict.Algorithm(v.m["predict.algorithm"])},
		Samples: v.int("predict.samples"), Gap: v.float("predict.gap"), Seed: v.uint("predict.seed"), Workers: 1,
		Readings: []predict.Reading{predict.PerDraw, predict.Pooled}}
	if s.Algorithms[0] != predict.BvN {
		s.Gammas = []float64{v.float("predict.gamma")}
	}
	if v.err != nil {
		return s, v.err
	}
	return s, s.Validate()
}

// Check reads and checks a point's configuration without running it.
func (k Predict) Check(config [][2]string) error {
	_, err := k.study(config)
	return err
}

// Run evaluates one study point.
func (k Predict) Run(ctx context.Context, config [][2]string, _ string) ([]Metric, error) {
	s, err := k.study(config)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(s.MemoryEstimate()); err != nil {
		return nil, err
	}
	rows, err := predict.Run(ctx, s, nil)
	if err != nil {
		return nil, err
	}
	if len(rows) != 1 {
		return nil, fmt.Errorf("predict: %d rows for one point", len(rows))
	}
	r := rows[0]
	opt := func(x *float64) float64 {
		if x == nil {
			return nan
		}
		return *x
	}
	return []Metric{{"any_routing_mean", r.Any.Mean}, {"any_routing_min", r.Any.Min}, {"any_routing_pooled", r.Pooled.Lower},
		{"single_hop_mean", r.SingleHop.Mean}, {"consistency_bound", opt(r.Consistency)}, {"robustness_bound", opt(r.Robustness)}}, nil
}
