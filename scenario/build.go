package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// Setup is a Spec resolved into an emulator Config plus what went into it.
type Setup struct {
	Config   fabric.Config
	Schedule *rotor.Schedule
	// Flows is the workload (generated or read), sorted by start time.
	Flows []workload.Flow
	// Buckets are the flow-size classes of the FCT summary (run.fct_buckets).
	Buckets stats.Buckets
}

// Build resolves the Spec: it builds or reads the schedule, generates or
// reads the flows, and fills a Config. Errors are *ConfigError naming the
// key.
func (s *Spec) Build() (*Setup, error) { return s.BuildContext(context.Background()) }

// BuildContext is Build that stops when ctx is done, in any phase
// (schedule generation included), returning ctx.Err(). A combination that
// cannot deliver the flows (fabric.Config.CheckReach) is a *ConfigError on
// routing.mode.
func (s *Spec) BuildContext(ctx context.Context) (*Setup, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.resolved = map[string]string{}
	p := &specParser{s: s}
	for _, k := range Keys() { // an empty value is not a way to ask for the default
		if k.Default != "" && s.set[k.Name] && strings.TrimSpace(s.values[k.Name]) == "" {
			p.fail(k.Name, "is empty; leave it out for its default %q", k.Default)
		}
	}
	if err := Topologies.Check(s.values["topology.kind"]); err != nil {
		return nil, err
	}
	mtu := p.intIn("topology.mtu", 64, fabric.MaxMTU, "")
	hpt := p.int("topology.hosts_per_tor", 1)
	if hpt > fabric.MaxHosts { // also keeps n·hpt below from overflowing
		p.fail("topology.hosts_per_tor", "exceeds the limit of %d hosts in all", fabric.MaxHosts)
	}
	cfg := fabric.Config{
		HostsPerToR:        hpt,
		HostLink:           p.rate("topology.host_link", false),
		CircuitLink:        p.rate("topology.circuit_link", false),
		PacketSwitchLink:   p.rate("topology.packet_switch_link", true),
		HostDelay:          p.time("topology.host_delay", false),
		LinkDelay:          p.time("topology.link_delay", false),
		PacketSwitchDelay:  p.time("topology.packet_switch_delay", false),
		MTU:                int32(mtu),
		AckSize:            int32(p.intIn("transport.ack_size", 1, max(mtu, 1), "topology.mtu = ")),
		Routing:            s.values["routing.mode"],
		BulkBytes:          int64(p.posSize("routing.bulk", rotor.Bytes(mtu), false, "1B: every flow is bulk")),
		PathsK:             p.int("routing.paths_k", 1),
		Multipath:          s.values["routing.multipath"],
		RelayLimit:         p.posSize("routing.relay_limit", rotor.Bytes(mtu), true, "empty: one circuit day"),
		RelayOffer:         s.values["routing.offer"],
		RoutingGuard:       p.time("routing.guard", false),
		RoutingSource:      s.values["routing.source"],
		Transport:          s.values["transport.kind"],
		CC:                 s.values["transport.cc"],
		CCParams:           p.ccParams("transport.cc_params"),
		Prebuffer:          p.prebuffer(rotor.Bytes(mtu)),
		Window:             int64(p.posSize("transport.window", rotor.Bytes(mtu), false, "")),
		MinRTO:             p.posTime("transport.min_rto", false, ""),
		MaxRTO:             p.posTime("transport.max_rto", false, ""),
		RTOClock:           p.posTime("transport.rto_clock", false, ""),
		DupThresh:          p.dupThresh("transport.dupthresh"),
		NoSACK:             !p.bool("transport.sack"),
		Acks:               s.values["transport.acks"],
		PullDepth:          p.int("transport.pull_depth", 0),
		NDPWindow:          p.int("transport.ndp_window", 0),
		NDPHeaderQueue:     p.int("transport.ndp_header_queue", 1),
		NDPHeader:          int32(p.int("transport.ndp_header", 0)),
		NDPDark:            s.values["transport.ndp_dark"],
		NDPPullPacing:      s.values["transport.ndp_pull_pacing"],
		NDPNIC:             s.values["transport.ndp_nic"],
		NDPBulkNIC:         s.values["transport.ndp_bulk_nic"],
		NDPPulls:           s.values["transport.ndp_pulls"],
		NDPReturned:        s.values["transport.ndp_returned"],
		NDPTimeout:         s.values["transport.ndp_timeout"],
		NDPPorts:           s.values["transport.ndp_ports"],
		RecordINT:          p.bool("transport.int"),
		Slowdown:           s.values["run.slowdown"],
		ECNThreshold:       p.posSize("buffer.ecn_threshold", rotor.Bytes(mtu), true, "empty: the law's default marking"),
		REDMin:             p.posSize("buffer.red_min", rotor.Bytes(mtu), true, "empty: scaled to the port's rate"),
		REDMax:             p.posSize("buffer.red_max", rotor.Bytes(mtu), true, "empty: scaled to the port's rate"),
		REDMaxP:            p.optFloat("buffer.red_max_p", "empty: "+strconv.FormatFloat(cc.DefaultREDMaxP, 'g', -1, 64)),
		PacketSwitchBuffer: p.posSize("buffer.packet_switch", rotor.Bytes(mtu), true, "empty: 1 MB per port"),
		SimTime:            p.time("run.sim_time", false),
		Measure:            fabric.Window{From: p.time("run.warmup", false)},
		Check:              p.bool("run.check"),
		SampleInterval:     p.posTime("run.sample_interval", false, ""),
		SeriesInterval:     p.posTime("run.series_interval", false, ""),
		Seed:               p.uint("run.seed"),
	}
	s.flowSetup(p, &cfg, rotor.Bytes(mtu))
	if p.err != nil {
		return nil, p.err
	}
	if cfg.SimTime <= 0 {
		return nil, cfgErr("run.sim_time", "must be positive, got %v", cfg.SimTime)
	}
	buckets, err := s.buckets(rotor.Bytes(mtu))
	if err != nil {
		return nil, err
	}
	if s.checkTopologyKeys(p); p.err != nil {
		return nil, p.err
	}
	if s.values["topology.kind"] == fabric.TopologyLeafSpine {
		return s.buildLeafSpine(ctx, p, cfg, buckets, mtu, hpt)
	}
	// Schedule.
	var sc *rotor.Schedule
	if file := s.values["schedule.file"]; file != "" {
		if s.checkGeneratorKeys(p); p.err != nil {
			return nil, p.err
		}
		f, err := limits.Open(file, limits.MaxScheduleBytes)
		if err != nil {
			return nil, cfgErr("schedule.file", "%v", err)
		}
		sc, err = rotor.ReadJSON(f)
		f.Close()
		if err != nil {
			return nil, cfgErr("schedule.file", "%s: %v", file, err)
		}
		// The file fixes n and U: a value given for them must agree.
		for _, k := range []struct {
			key, what string
			n         int
		}{{"topology.tors", "n (ToRs)", sc.Nodes}, {"topology.uplinks", "U (circuit switches, uplinks per ToR)", sc.Switches}} {
			if s.set[k.key] {
				if v := p.int(k.key, 1); p.err == nil && v != k.n {
					p.fail(k.key, "disagrees with schedule.file %s: its %s is %d; leave %s unset or give %d", file, k.what, k.n, k.key, k.n)
				}
			}
		}
		if p.err != nil {
			return nil, p.err
		}
		// The resolved configuration (Values, echoed into summary.json)
		// shows the n and U that ran.
		s.resolved["topology.tors"], s.resolved["topology.uplinks"] = strconv.Itoa(sc.Nodes), strconv.Itoa(sc.Switches)
		if sc.Kind != "" {
			s.resolved["schedule.kind"] = sc.Kind // what the file holds, not the default generator
		}
	} else {
		sp := schedules.Params{
			Nodes:      p.int("topology.tors", 2),
			Uplinks:    p.int("topology.uplinks", 1),
			Slot:       p.posTime("schedule.slot", true, "empty: the generator's default"),
			Reconf:     p.time("schedule.reconf", true),
			SelfSlot:   p.bool("schedule.self_slot"),
			Seed:       p.uint("schedule.seed"),
			Tries:      p.int("schedule.tries", 0),
			Degree:     p.int("schedule.degree", 0),
			Buffer:     p.size("schedule.buffer", rotor.Bytes(mtu), true),
			Delay:      p.time("schedule.delay", true),
			K:          p.int("schedule.k", 0),
			L:          p.int("schedule.l", 0),
			Gamma:      p.float("schedule.gamma"),
			Randomized: p.bool("schedule.randomized"),
			Stagger:    p.bool("schedule.stagger"),
			Link:       cfg.CircuitLink,
		}
		if sp.Gamma < 0 {
			p.fail("schedule.gamma", "must not be negative")
		}
		s.checkGeneratorKeys(p)
		if sp.Nodes > fabric.MaxToRs {
			p.fail("topology.tors", "exceeds the limit of %d ToRs (the fabric keeps state per pair of ToRs)", fabric.MaxToRs)
		} else if sp.Nodes*hpt > fabric.MaxHosts { // before building a large schedule for nothing
			p.fail("topology.hosts_per_tor", "%d ToRs × %d hosts = %d hosts, more than the limit of %d", sp.Nodes, hpt, sp.Nodes*hpt, fabric.MaxHosts)
		}
		if p.err != nil {
			return nil, p.err
		}
		if spec := s.values["schedule.demand"]; spec != "" {
			var err error
			if sp.Demand, err = demand.Parse(spec, sp.Nodes); err != nil {
				return nil, cfgErr("schedule.demand", "%v", err)
			}
		}
		var err error
		sc, err = schedules.BuildContext(ctx, s.values["schedule.kind"], sp)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, scheduleError(err)
		}
	}
	if sc.Nodes > fabric.MaxToRs {
		return nil, cfgErr("schedule.file", "has %d ToRs, more than the limit of %d (the fabric keeps state per pair of ToRs)", sc.Nodes, fabric.MaxToRs)
	}
	if hosts := sc.Nodes * hpt; hosts > fabric.MaxHosts {
		return nil, cfgErr("topology.hosts_per_tor", "%d ToRs × %d hosts = %d hosts, more than the limit of %d", sc.Nodes, hpt, hosts, fabric.MaxHosts)
	}
	if problem := fabric.DayProblem(sc, cfg.CircuitLink, cfg.MTU); problem != "" {
		if file := s.values["schedule.file"]; file != "" {
			return nil, cfgErr("schedule.file", "%s: %s", file, problem)
		}
		slot := strconv.Quote(s.values["schedule.slot"])
		if s.values["schedule.slot"] == "" {
			slot = fmt.Sprintf("(empty: %s's default, %v)", s.values["schedule.kind"], sc.Slot)
		}
		return nil, cfgErr("schedule.slot", "%s: %s", slot, problem)
	}
	cfg.Schedule = sc
	if err := s.resolveModes(p, &cfg); err != nil {
		return nil, err
	}
	if err := cfg.CheckTable(); err != nil {
		return nil, err
	}
	ports := hpt + sc.Switches
	if cfg.PacketSwitchLink > 0 {
		ports++
	}
	return s.buildRest(ctx, p, cfg, buckets, sc.Nodes, hpt, ports, mtu)
}

// buildRest completes Build for either topology: the buffer of a switch
// with ports ports, its policy, and the workload among tors racks of hpt
// hosts.
func (s *Spec) buildRest(ctx context.Context, p *specParser, cfg fabric.Config, buckets stats.Buckets, tors, hpt, ports, mtu int) (*Setup, error) {
	cfg.WatchPair = p.pair("run.watch_pair", tors)
	cfg.Buffer = p.posSize("buffer.size", rotor.Bytes(mtu), true, "empty: buffer.per_port × ports")
	if cfg.Buffer == 0 {
		cfg.Buffer = rotor.Bytes(p.int("buffer.per_port", 1)*ports) * rotor.Bytes(mtu)
	}
	if cfg.NDPPorts == fabric.NDPPortsOperaSim { // each port's private data queue (opera-sim's -q)
		cfg.NDPPortData = rotor.Bytes(p.int("buffer.per_port", 1)) * rotor.Bytes(mtu)
	}
	if p.err != nil {
		return nil, p.err
	}
	pol, err := s.bufferPolicy(&cfg, ports, mtu)
	if err != nil {
		return nil, err
	}
	cfg.NewPolicy = pol
	flows, err := s.workloadFlows(p, &cfg, tors, hpt, mtu)
	if err != nil {
		return nil, err
	}
	cfg.Flows = &fabric.SliceSource{Flows: flows}
	if err := s.checkIncastSetup(flows); err != nil {
		return nil, err
	}
	if err := cfg.Resolve(); err != nil {
		return nil, err
	}
	if cfg.LeafSpine == nil {
		if err := cfg.CheckReach(ctx, flows); err != nil {
			return nil, err
		}
	}
	if err := s.checkFlowKeys(&cfg, flows); err != nil {
		return nil, err
	}
	return &Setup{Config: cfg, Schedule: cfg.Schedule, Flows: flows, Buckets: buckets}, nil
}

// workloadFlows generates or reads the flows among tors racks of hpt hosts.
func (s *Spec) workloadFlows(p *specParser, cfg *fabric.Config, tors, hpt, mtu int) ([]workload.Flow, error) {
	hosts := tors * hpt
	var flows []workload.Flow
	if file := s.values["workload.flows_file"]; file != "" {
		for _, k := range workloadGeneratorKeys {
			if s.values[k] != defaultOf(k) {
				return nil, cfgErr(k, "%q: is a workload generator parameter, unused with workload.flows_file", s.values[k])
			}
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, cfgErr("workload.flows_file", "%v", err)
		}
		flows, err = readFlowsUntil(f, cfg.SimTime)
		f.Close()
		if err != nil {
			return nil, cfgErr("workload.flows_file", "%s: %v", file, err)
		}
		if err := workload.CheckFlows(flows, hosts); err != nil {
			return nil, cfgErr("workload.flows_file", "%s: %v", file, err)
		}
	} else {
		sizes, err := workload.Sizes(s.values["workload.sizes"])
		if err != nil {
			var fe *workload.FieldError
			if errors.As(err, &fe) { // already "workload.sizes: …": don't repeat the key
				return nil, cfgErr(fe.Field, "%s", fe.Problem)
			}
			return nil, cfgErr("workload.sizes", "%v", err)
		}
		dur := p.posTime("workload.duration", true, "empty: 80 % of run.sim_time")
		if dur == 0 {
			dur = cfg.SimTime / 5 * 4
		}
		cfg.Measure.To = dur
		wc := workload.Config{Hosts: hosts, HostsPerTor: hpt, HostRate: cfg.HostLink,
			Load: p.float("workload.load"), Sizes: sizes, Pattern: s.values["workload.pattern"],
			AllowIntraRack: p.bool("workload.intra_rack"), Duration: dur}
		seed := p.uint("workload.seed")
		if p.err != nil {
			return nil, p.err
		}
		if wc.Matrix, err = s.workloadMatrix(tors); err != nil {
			return nil, err
		}
		if wc.Incast, err = s.incast(p, rotor.Bytes(mtu)); err != nil {
			return nil, err
		}
		if err = wc.Validate(); err == nil {
			err = checkFlowCount(&wc)
		}
		if err == nil {
			flows, err = workload.Generate(wc, rand.New(rand.NewPCG(seed, 0)))
		}
		var fe *workload.FieldError
		var ce *fabric.ConfigError
		switch {
		case errors.As(err, &fe):
			return nil, cfgErr(fe.Field, "%s", fe.Problem) // it names the key already
		case errors.As(err, &ce):
			return nil, err
		case err != nil:
			return nil, cfgErr("workload", "%v", err)
		}
	}
	return flows, nil
}

// buckets parses run.fct_buckets, a comma-separated list of increasing
// sizes; the default edges keep the names short, medium and long.
func (s *Spec) buckets(mtu rotor.Bytes) (stats.Buckets, error) {
	var b stats.Buckets
	for _, f := range strings.Split(s.values["run.fct_buckets"], ",") {
		f = strings.TrimSpace(f)
		size, err := parseSize(f, mtu)
		if err != nil {
			return b, cfgErr("run.fct_buckets", "%q: %v (want sizes like 100KB,1MB)", f, err)
		}
		b.Edges = append(b.Edges, int64(size))
	}
	if err := b.Validate(); err != nil {
		return b, cfgErr("run.fct_buckets", "%v", err)
	}
	if d := stats.DefaultBuckets(); slices.Equal(b.Edges, d.Edges) {
		b = d
	}
	return b, nil
}

// generatorKeys are the schedule keys only some generators read, with the
// schedules.Params field each sets (schedules.ReadBy names the kinds that
// read it); a value other than the default for another kind (or with
// schedule.file) is an error rather than silently unused.
var generatorKeys = []struct{ key, field string }{
	{"schedule.self_slot", "SelfSlot"},
	{"schedule.tries", "Tries"},
	{"schedule.degree", "Degree"},
	{"schedule.buffer", "Buffer"},
	{"schedule.delay", "Delay"},
	{"schedule.demand", "Demand"},
	{"schedule.k", "K"},
	{"schedule.l", "L"},
	{"schedule.gamma", "Gamma"},
	{"schedule.randomized", "Randomized"},
	{"schedule.stagger", "Stagger"},
}

// checkGeneratorKeys fails on a generator key set for a kind that does
// not read it, or set beside schedule.file (then no generator runs).
func (s *Spec) checkGeneratorKeys(p *specParser) {
	kind, file := s.values["schedule.kind"], s.values["schedule.file"]
	if file != "" {
		for _, k := range []string{"schedule.kind", "schedule.slot", "schedule.reconf", "schedule.seed"} {
			if s.values[k] != defaultOf(k) {
				p.fail(k, "is a generator parameter, unused with schedule.file (the file sets the schedule and its timing)")
			}
		}
	}
	for _, g := range generatorKeys {
		kinds, _ := schedules.ReadBy(g.field)
		switch {
		case s.values[g.key] == defaultOf(g.key):
		case file != "":
			p.fail(g.key, "is a generator parameter, unused with schedule.file")
		case !slices.Contains(kinds, kind):
			p.fail(g.key, "is read only by %s, not by schedule.kind = %s", strings.Join(kinds, " and "), kind)
		}
	}
}

// resolveModes fills an empty routing.mode and transport.kind with the
// schedule's designed ones (Config.DesignModes; the resolved values are
// what Values echoes) and then checks the mode-dependent keys.
func (s *Spec) resolveModes(p *specParser, cfg *fabric.Config) error {
	cfg.Routing, cfg.Transport = s.values["routing.mode"], s.values["transport.kind"]
	cfg.DesignModes()
	if s.values["routing.mode"] == "" {
		s.resolved["routing.mode"] = cfg.Routing
	}
	if s.values["transport.kind"] == "" {
		s.resolved["transport.kind"] = cfg.Transport
	}
	s.checkModeKeys(p, cfg.PathsK)
	return p.err
}

// checkModeKeys fails on a key set (to a value other than its default)
// that the choice of a registry's key does not read (Registry: each entry
// lists the keys only it reads): rather an error than silently unused. A
// key may be read under two registries (routing.offer: pulled RotorLB
// relaying; transport.window: the windowed transport with fixed
// congestion control); routing.multipath is read only with paths_k > 1.
func (s *Spec) checkModeKeys(p *specParser, pathsK int) {
	for _, r := range Registries() {
		sel := s.val(r.Key)
		if _, ok := r.Lookup(sel); !ok {
			continue // an unknown choice is Config validation's error, not this key's
		}
		seen := map[string]bool{}
		for _, e := range r.Entries {
			for _, k := range e.Reads {
				if seen[k] || s.values[k] == defaultOf(k) {
					continue
				}
				seen[k] = true
				if by := r.Readers(k); !slices.Contains(by, sel) {
					p.fail(k, "is read only with %s %s, not %s", r.Key, strings.Join(by, " or "), sel)
				}
			}
		}
	}
	if s.values["routing.multipath"] != defaultOf("routing.multipath") && pathsK <= 1 {
		p.fail("routing.multipath", "is read only with routing.paths_k > 1, not %d", pathsK)
	}
}

// checkFlowKeys fails on a key of transport.kind that only some of its
// flows read (fabric.FlowKeys) when the run has none of those flows: with
// pull on rotorlb or direct every flow between racks is pulled, so the
// windowed flows' keys (transport.cc, transport.window, …) would change
// nothing; with ndp away from paths no flow is pulled.
func (s *Spec) checkFlowKeys(cfg *fabric.Config, flows []workload.Flow) error {
	pulled := 0
	for _, f := range flows {
		if cfg.Pulled(f) {
			pulled++
		}
	}
	pulledKeys, unpulledKeys := fabric.FlowKeys(cfg.Transport)
	where := fmt.Sprintf("transport.kind=%s and routing.mode=%s", cfg.Transport, cfg.Routing)
	for _, k := range unpulledKeys {
		if s.values[k] == defaultOf(k) || pulled < len(flows) || len(flows) == 0 {
			continue
		}
		fix := "set transport.kind=window"
		if cfg.Transport == fabric.Pull && cfg.Routing != fabric.Paths {
			fix += " (or routing.mode=paths, whose flows below routing.bulk are windowed)"
		}
		return cfgErr(k, "applies to the flows that are not pulled; with %s every one of the %d flows is pulled by its ToR: %s", where, len(flows), fix)
	}
	for _, k := range pulledKeys {
		if s.values[k] == defaultOf(k) || pulled > 0 || len(flows) == 0 {
			continue
		}
		fix := "set transport.kind=pull"
		if cfg.Transport == fabric.NDP {
			fix = "with ndp only routing.mode=paths pulls (its flows of at least routing.bulk)"
		}
		return cfgErr(k, "applies to pulled flows; with %s none of the %d flows is pulled: %s", where, len(flows), fix)
	}
	return nil
}

// workloadGeneratorKeys are the workload keys the generator reads; with
// workload.flows_file a value other than the default is an error.
var workloadGeneratorKeys = []string{
	"workload.sizes", "workload.load", "workload.pattern", "workload.matrix",
	"workload.incast_senders", "workload.incast_bytes", "workload.incast_rate",
	"workload.seed", "workload.duration", "workload.intra_rack",
}

// scheduleError names the key behind a generator's parameter error.
func scheduleError(err error) error {
	var pe *schedules.ParamError
	field, problem := "", err.Error()
	if errors.As(err, &pe) {
		field, problem = pe.Field, fmt.Sprintf("%v: %s (schedule.kind = %s)", pe.Value, pe.Problem, pe.Kind)
	}
	switch field {
	case "":
		return cfgErr("schedule", "%s", problem)
	case "kind":
		return cfgErr("schedule.kind", "%s", problem)
	case "nodes":
		return cfgErr("topology.tors", "%s", problem)
	case "uplinks":
		return cfgErr("topology.uplinks", "%s", problem)
	case "link":
		return cfgErr("topology.circuit_link", "%s", problem)
	case "cycle": // bvn's cycle is ⌈k·n/U⌉ slots
		return cfgErr("schedule.k", "the cycle %s", problem)
	}
	return cfgErr("schedule."+strings.ReplaceAll(field, "-", "_"), "%s", problem)
}

// workloadMatrix is the demand matrix of pattern "matrix" for n ToRs: a
// file or one of demand's generators (workload.matrix). It is an error to
// give one for another pattern, or none for "matrix".
func (s *Spec) workloadMatrix(n int) (demand.Matrix, error) {
	spec, pattern := s.values["workload.matrix"], s.values["workload.pattern"]
	switch {
	case spec == "" && pattern != "matrix":
		return nil, nil
	case pattern != "matrix":
		return nil, cfgErr("workload.matrix", "is used only with workload.pattern = matrix, not %q", pattern)
	case spec == "":
		return nil, cfgErr("workload.matrix", "pattern matrix needs a demand matrix: a file, or one of %s", strings.Join(demand.Patterns, ", "))
	}
	m, err := demand.Parse(spec, n)
	if err != nil {
		return nil, cfgErr("workload.matrix", "%v", err)
	}
	return m, nil
}

// incast is the incast workload of the workload.incast_* keys, or nil when
// workload.incast_senders is 0 (then the other two must be unset).
func (s *Spec) incast(p *specParser, mtu rotor.Bytes) (*workload.Incast, error) {
	senders := p.int("workload.incast_senders", 0)
	if p.err != nil {
		return nil, p.err
	}
	if senders == 0 {
		if s.values["workload.incast_bytes"] != "" || s.values["workload.incast_rate"] != "0" {
			return nil, cfgErr("workload.incast_senders", "is 0 (no incast), but workload.incast_bytes or workload.incast_rate is set")
		}
		return nil, nil
	}
	in := &workload.Incast{Senders: senders, Bytes: int64(p.size("workload.incast_bytes", mtu, false)),
		Rate: p.float("workload.incast_rate")}
	return in, p.err
}

// maxFlows caps the flows a generated workload may hold: each costs a few
// hundred bytes in the run and in its results, so tens of millions would
// exhaust memory rather than fail cleanly. A flows file is capped by its
// size instead.
const maxFlows = 5_000_000

// checkFlowCount rejects a workload whose expected number of flows (hosts ×
// duration × (arrival rate + incast queries × senders)) exceeds maxFlows.
func checkFlowCount(wc *workload.Config) error {
	perHost := wc.ArrivalRate()
	if in := wc.Incast; in != nil {
		perHost += in.Rate * float64(in.Senders)
	}
	expect := float64(wc.Hosts) * float64(wc.Duration) / float64(rotor.Second) * perHost
	if expect > maxFlows {
		return cfgErr("workload", "about %.3g flows expected (%d hosts × %v × %.4g flows/s each), more than the limit of %d: lower workload.load or the incast rate, raise the flow sizes, or shorten workload.duration",
			expect, wc.Hosts, rotor.Time(wc.Duration), perHost, maxFlows)
	}
	return nil
}

// readFlowsUntil reads a flow file, sorted by start, up to its first flow
// that starts after end: the run never starts that one nor any after it,
// so a long file feeding a short run is not held whole (issue 25, defect 17).
func readFlowsUntil(r io.Reader, end rotor.Time) ([]workload.Flow, error) {
	fr := workload.NewFlowReader(r)
	var flows []workload.Flow
	for {
		f, ok := fr.Next()
		if !ok || f.Start > end {
			break
		}
		flows = append(flows, f)
	}
	return flows, fr.Err()
}
