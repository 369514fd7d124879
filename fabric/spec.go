package fabric

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// Key documents one run-configuration key.
type Key struct {
	Name, Default, Doc string
}

// Keys lists every key a run configuration (TOML file or key=value
// override) accepts, with its default.
var Keys = slices.Concat([]Key{
	{"topology.kind", "rotor", "topology: " + Topologies.choices() + " (see the registry table)"},
	{"topology.tors", "8", "number of ToRs n (with `schedule.file`: the file's node count; a value given must agree with it)"},
	{"topology.hosts_per_tor", "4", "hosts per ToR"},
	{"topology.uplinks", "4", "uplinks per ToR = rotor circuit switches U (with `schedule.file`: the file's; a value given must agree with it)"},
	{"topology.host_link", "10Gbps", "host↔ToR link rate"},
	{"topology.circuit_link", "10Gbps", "ToR uplink rate through a rotor switch"},
	{"topology.host_delay", "500ns", "host↔ToR propagation delay"},
	{"topology.link_delay", "500ns", "ToR↔ToR propagation delay through a circuit"},
	{"topology.packet_switch_link", "", "ToR↔electrical packet switch rate; empty: no packet switch"},
	{"topology.packet_switch_delay", "500ns", "ToR↔packet switch propagation delay (each way)"},
	{"topology.mtu", "1500", "data packet size in bytes, 64 to 65536"},
	{"schedule.kind", "rotornet", "schedule generator (rotornet, sirius, opera, static, … see rdcn schedule)"},
	{"schedule.file", "", "read the schedule from an rdcn.schedule/v1 JSON file instead (then `schedule.kind`, `schedule.slot`, `schedule.reconf`, `schedule.seed` and the generator parameters must stay at their defaults)"},
	{"schedule.slot", "", "slot duration Δ; empty: the generator's default (0 is an error); a day Δ − Δr must be long enough for one `topology.mtu` packet on `topology.circuit_link`"},
	{"schedule.reconf", "", "reconfiguration time Δr; empty: the generator's default if `schedule.slot` is empty too (static: 0, a static graph has no night), else 0 (instantaneous), as in `rdcn schedule`"},
	{"schedule.seed", "1", "seed of randomised generators (opera, static, mars, vermilion)"},
	{"schedule.self_slot", "false", "rotornet/sirius: add the idle self-matching"},
	{"schedule.tries", "0", "static: candidates drawn, best spectral gap kept"},
	{"schedule.degree", "0", "mars: emulated-graph degree d; 0: chosen from `schedule.buffer` and `schedule.delay` (neither: the largest multiple of U up to n)"},
	{"schedule.buffer", "", "mars with degree 0: buffer per ToR the degree is chosen for (Theorem 19, with `topology.circuit_link`), e.g. `20MB`; empty: no limit"},
	{"schedule.delay", "", "mars with degree 0: delay the degree is chosen for (Theorem 18), e.g. `850us`; empty: no limit"},
	{"schedule.demand", "", "vermilion, bvn: the (predicted) demand matrix they design from — a file (`rdcn demand`'s format) or `uniform`, `permutation`, `ring`, `chessboard`, `skew:ALPHA`, `skewring:ALPHA`, `random:SEED` (the same specs as `rdcn schedule --demand`)"},
	{"schedule.k", "0", "vermilion: emulated-graph degree k·n (0: 3); bvn: a cycle of ⌈k·n/U⌉ slots (0: the generator's default)"},
	{"schedule.l", "0", "vermilion: oblivious edges ℓ per node pair, trust γ = k/ℓ (0: from `schedule.gamma`, else 1)"},
	{"schedule.gamma", "0", "vermilion: trust factor γ = k/ℓ instead of `schedule.l` (0: unset)"},
	{"schedule.randomized", "false", "vermilion: randomised Vermilion (trust drawn uniformly from 1..k)"},
	{"schedule.stagger", "false", "rotornet: offset switch s by s·Δ/U (as Opera does), so only one switch reconfigures at a time"},
	{"buffer.size", "", "shared buffer per ToR (e.g. 4MB); empty: buffer.per_port × ports"},
	{"buffer.per_port", "20", "packets per port (hosts + uplinks [+ packet switch]) when buffer.size is empty"},
	{"buffer.policy", "dt", "buffer sharing policy: " + BufferPolicies.choices() + " (see the registry table)"},
}, bufferParamKeys(), []Key{
	{"buffer.ecn_threshold", "", "mark ECN when a queue exceeds this (e.g. 30KB); empty: off"},
	{"buffer.prebuffer", "", "reTCP's VOQ prebuffering τ_pre (e.g. 1800us; rotor only): every VOQ holds `buffer.prebuffer_small`, and `buffer.prebuffer_big` from τ_pre before each day of its circuit until the day ends; empty: off"},
	{"buffer.prebuffer_small", "16pkt", "with buffer.prebuffer: a VOQ's capacity outside its prebuffer window"},
	{"buffer.prebuffer_big", "50pkt", "with buffer.prebuffer: a VOQ's capacity from τ_pre before its day until the day ends"},
	{"buffer.packet_switch", "", "packet switch shared buffer; empty: 1 MB per port"},
	{"routing.mode", "", Routers.choices() + "; empty: hybrid with a packet switch (topology.packet_switch_link), else the schedule's designed mode (rotornet, sirius: rotorlb; opera: paths; others: rotorlb if every ToR pair gets a direct circuit in the cycle, else earliest)"},
	{"routing.paths_k", "1", "paths, vlb-paths: spread flows over up to k paths by a flow hash (see routing.multipath), k ≤ 8; 1: one shortest path"},
	{"routing.multipath", "ksp", "paths, vlb-paths with paths_k > 1: ksp (k shortest loopless paths per epoch, unequal cost, source-routed; Opera) or ecmp (equal-cost shortest-path next hops)"},
	{"routing.bulk", "15MB", "paths: flows of at least this size are bulk and use direct + RotorLB"},
	{"routing.relay_limit", "", "rotorlb, paths (bulk flows): bytes an intermediate's circuit day to a destination carries; it accepts relayed bytes up to this minus its own backlog there and what it already relays there; empty: one circuit day"},
	{"routing.offer", "all", "rotorlb, paths (bulk flows) with pull: a ToR offers all its backlog for relaying (`all`, RotorLB) or only its backlog to a destination beyond `routing.relay_limit` (`excess`)"},
	{"transport.kind", "", Transports.choices() + "; empty: the schedule's designed transport (pull where the designed mode is rotorlb or paths, else window; window if routing.mode is one pull does not serve or no day fits a pulled packet)"},
	{"transport.pull_depth", "0", "pull, ndp (bulk flows with paths): packets a ToR stages per next hop; 0: enough to cover the pull round trip, plus 2"},
	{"transport.ndp_window", "0", "ndp: packets of a flow's first window, sent at line rate before any pull; 0: one bandwidth-delay product (host link × base RTT, rounded up)"},
	{"transport.cc", "fixed", "window, pull: congestion control of the windowed flows (with pull, the flows that are not pulled): " + CongestionControls.choices() + "; checked before the run"},
	{"transport.cc_params", "", ccParamsDoc()},
	{"transport.window", "20pkt", "window, pull: fixed window (bytes, or pkt)"},
	{"transport.dupthresh", "0", "window, pull: a segment with this many segments SACKed above it is lost and resent at once (RFC 6675), and the law hears a loss; 0: losses only by timeout (rotor fabrics reorder)"},
	{"transport.min_rto", "1ms", "window, pull, ndp: minimum retransmission timeout (ndp: nothing heard for this long re-sends what is unacknowledged)"},
	{"transport.acks", "fabric", "window, pull: fabric (ACKs are packets routed like data) or ideal (out of band, base delay)"},
	{"transport.ack_size", "64", "window, pull, ndp: ACK size in bytes, at most `topology.mtu` (ndp: also its NACKs, PULLs and trimmed headers)"},
	{"transport.int", "false", "stamp INT hop records on dequeue"},
	{"workload.sizes", "websearch", "flow sizes: websearch, datamining, hadoop, a CDF file, or a constant like 1MB"},
	{"workload.load", "0.2", "offered load per host as a fraction of topology.host_link"},
	{"workload.pattern", "all-to-all", "all-to-all, permutation (a random derangement of the ToRs, seeded), shift (ToR i → i+T/2), ring, or matrix (destination ToRs weighted by workload.matrix)"},
	{"workload.matrix", "", "pattern matrix: a demand matrix file (rdcn demand's format) or uniform, permutation, ring, chessboard, skew:ALPHA, skewring:ALPHA, random:SEED; hose-normalised, so the busiest ToR offers workload.load"},
	{"workload.incast_senders", "0", "incast fan-in: responders per query, on other ToRs; 0: no incast"},
	{"workload.incast_bytes", "", "incast: bytes each responder sends (e.g. 50KB)"},
	{"workload.incast_rate", "0", "incast: queries per second per host (Poisson), on top of the background load; `workload.load` may then be 0"},
	{"workload.flows_file", "", "read flows (src dst bytes start_ns) from this file instead of generating them (then the other `workload.*` keys must stay at their defaults)"},
	{"workload.seed", "1", "workload seed"},
	{"workload.duration", "", "flows start in [0, duration), then the fabric drains until run.sim_time; empty: 80 % of run.sim_time"},
	{"workload.intra_rack", "false", "all-to-all may pick destinations in the sender's rack"},
	{"run.sim_time", "10ms", "simulated time"},
	{"run.warmup", "0", "flows that start before this run but are not measured (summary.json's FCTs, loads and flow counts cover flows starting in [run.warmup, workload.duration))"},
	{"run.check", "false", "verify invariants during the run (conservation, circuits, buffer sizes)"},
	{"run.watch_pair", "", "rotor: a ToR pair src,dst (e.g. 0,1) whose delivered and circuit throughput and VOQ bytes are kept as time series (pair_series.csv, and pair.png with --plot); empty: none"},
	{"run.sample_interval", "100us", "mean time between buffer occupancy samples (Poisson times, so they see time averages)"},
	{"run.series_interval", "1ms", "time-series bin width"},
	{"run.seed", "1", "seed of routing choices"},
	{"run.fct_buckets", "100KB,1MB", "flow-size edges of the FCT buckets in `summary.json` and the console table, comma-separated sizes; the default keeps the names short, medium, long, other edges name their buckets (`<10KB`, `10KB-1MB`, `>=1MB`)"},
})

// Spec holds a run configuration as key → value strings.
type Spec struct {
	values map[string]string
	set    map[string]bool // keys given by Set (a TOML file or an override), default or not
	// resolved holds what the last Build made of keys left to it (the
	// designed routing and transport, a schedule file's n, U and kind):
	// Values shows them, and a later Build starts again from values.
	resolved map[string]string
}

// val is key's value as the current Build resolved it.
func (s *Spec) val(key string) string {
	if v, ok := s.resolved[key]; ok {
		return v
	}
	return s.values[key]
}

// NewSpec returns a Spec with every key at its default.
func NewSpec() *Spec {
	s := &Spec{values: make(map[string]string, len(Keys)), set: make(map[string]bool)}
	for _, k := range Keys {
		s.values[k.Name] = k.Default
	}
	return s
}

// Get returns the value of key, as the last Build resolved it (a
// designed routing.mode for an empty one, a schedule file's n and U).
func (s *Spec) Get(key string) string { return s.val(key) }

// Set overrides one key; an unknown key is an error naming it, quoted
// (an empty key or one holding control characters stays visible and the
// error on one line).
func (s *Spec) Set(key, value string) error {
	if _, ok := s.values[key]; !ok {
		return &ConfigError{Field: strconv.Quote(key), Problem: "unknown key" + suggest(key)}
	}
	s.values[key] = value
	s.set[key] = true
	return nil
}

// SetArg applies a "key=value" override.
func (s *Spec) SetArg(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return &ConfigError{Field: "set", Problem: fmt.Sprintf("%q is not key=value", kv)}
	}
	return s.Set(strings.TrimSpace(k), strings.TrimSpace(v))
}

func suggest(key string) string {
	sec, _, _ := strings.Cut(key, ".")
	var same []string
	for _, k := range Keys {
		if strings.HasPrefix(k.Name, sec+".") {
			same = append(same, k.Name)
		}
	}
	if len(same) == 0 {
		return " (sections: topology, schedule, buffer, routing, transport, workload, run)"
	}
	return " (" + sec + " has " + strings.Join(same, ", ") + ")"
}

// LoadTOML reads a TOML file of [section] tables of scalar keys.
func (s *Spec) LoadTOML(r io.Reader) error {
	var raw map[string]any
	if _, err := toml.NewDecoder(r).Decode(&raw); err != nil {
		return &ConfigError{Field: "config", Problem: strings.ReplaceAll(err.Error(), "\n", " ")}
	}
	secs := make([]string, 0, len(raw))
	for k := range raw {
		secs = append(secs, k)
	}
	sort.Strings(secs)
	for _, sec := range secs {
		tab, ok := raw[sec].(map[string]any)
		if !ok {
			return &ConfigError{Field: sec, Problem: "must be a [table]"}
		}
		names := make([]string, 0, len(tab))
		for k := range tab {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			key := sec + "." + k
			var v string
			switch x := tab[k].(type) {
			case string:
				v = x
			case int64:
				v = strconv.FormatInt(x, 10)
			case float64:
				v = strconv.FormatFloat(x, 'g', -1, 64)
			case bool:
				v = strconv.FormatBool(x)
			default:
				return &ConfigError{Field: key, Problem: fmt.Sprintf("must be a string, number or boolean, got %T", x)}
			}
			if err := s.Set(key, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Values returns the resolved configuration, sorted by key (for echoing
// into results).
func (s *Spec) Values() [][2]string {
	out := make([][2]string, 0, len(Keys))
	for _, k := range Keys {
		out = append(out, [2]string{k.Name, s.val(k.Name)})
	}
	return out
}

type specParser struct {
	s   *Spec
	err error
}

func (p *specParser) fail(key, format string, args ...any) {
	if p.err == nil {
		p.err = &ConfigError{Field: key, Problem: fmt.Sprintf("%q: ", p.s.values[key]) + fmt.Sprintf(format, args...)}
	}
}

func (p *specParser) int(key string, lo int) int {
	v, err := strconv.Atoi(p.s.values[key])
	if err != nil {
		p.fail(key, "not an integer")
		return 0
	}
	if v < lo {
		p.fail(key, "must be at least %d", lo)
	}
	return v
}

// intIn parses an integer in [lo, hi]; the range is checked before the
// value is narrowed (a 32-bit field must not wrap around).
func (p *specParser) intIn(key string, lo, hi int, hiName string) int {
	v := p.int(key, lo)
	if v > hi {
		p.fail(key, "must be at most %s%d", hiName, hi)
	}
	return v
}

// positive fails on an explicit zero of a key whose zero the Config
// reads as "use the default" (or that makes no sense): only a key left
// at its default (or empty) takes the default. unset says what leaving
// it empty does.
func (p *specParser) positive(key string, zero bool, unset string) {
	if zero && p.s.values[key] != "" {
		if unset != "" {
			unset = " (" + unset + ")"
		}
		p.fail(key, "must be positive%s", unset)
	}
}

func (p *specParser) posTime(key string, optional bool, unset string) rotor.Time {
	t := p.time(key, optional)
	p.positive(key, t == 0, unset)
	return t
}

func (p *specParser) posSize(key string, mtu rotor.Bytes, optional bool, unset string) rotor.Bytes {
	b := p.size(key, mtu, optional)
	p.positive(key, b == 0, unset)
	return b
}

func (p *specParser) float(key string) float64 {
	v, err := strconv.ParseFloat(p.s.values[key], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.fail(key, "not a finite number")
	}
	return v
}

func (p *specParser) bool(key string) bool {
	v, err := strconv.ParseBool(p.s.values[key])
	if err != nil {
		p.fail(key, "not true or false")
	}
	return v
}

// prebuffer reads buffer.prebuffer and its capacities; nil when unset.
// A negative τ_pre is kept for validate to refuse.
func (p *specParser) prebuffer(mtu rotor.Bytes) *PrebufferConfig {
	if strings.TrimSpace(p.s.values["buffer.prebuffer"]) == "" {
		for _, k := range []string{"buffer.prebuffer_small", "buffer.prebuffer_big"} {
			if p.s.values[k] != defaultOf(k) {
				p.fail(k, "is read only with buffer.prebuffer set")
			}
		}
		return nil
	}
	lead, err := rotor.ParseTime(p.s.values["buffer.prebuffer"])
	if err != nil {
		p.fail("buffer.prebuffer", "%v", err)
	}
	return &PrebufferConfig{Lead: lead, Small: p.posSize("buffer.prebuffer_small", mtu, false, ""), Big: p.posSize("buffer.prebuffer_big", mtu, false, "")}
}

// pair reads "src,dst": two distinct ToRs below tors; nil when empty.
func (p *specParser) pair(key string, tors int) *[2]int {
	v := strings.TrimSpace(p.s.values[key])
	if v == "" {
		return nil
	}
	a, b, ok := strings.Cut(v, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 || x >= tors || y >= tors || x == y {
		p.fail(key, "want two different ToRs src,dst in [0, %d)", tors)
		return nil
	}
	return &[2]int{x, y}
}

// ccParams reads a law's parameter list (cc.ParseParams).
func (p *specParser) ccParams(key string) map[string]string {
	m, err := cc.ParseParams(p.s.values[key])
	if err != nil {
		p.fail(key, "%v", err)
	}
	return m
}

func (p *specParser) uint(key string) uint64 {
	v, err := strconv.ParseUint(p.s.values[key], 10, 64)
	if err != nil {
		p.fail(key, "not a non-negative integer")
	}
	return v
}

func (p *specParser) time(key string, optional bool) rotor.Time {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	t, err := rotor.ParseTime(v)
	if err != nil {
		p.fail(key, "%v", err)
	} else if t < 0 {
		p.fail(key, "must not be negative")
	}
	return t
}

func (p *specParser) rate(key string, optional bool) rotor.Rate {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	r, err := rotor.ParseRate(v)
	if err != nil {
		p.fail(key, "%v", err)
	} else if r <= 0 {
		p.fail(key, "must be positive")
	}
	return r
}

func (p *specParser) size(key string, mtu rotor.Bytes, optional bool) rotor.Bytes {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	b, err := parseSize(v, mtu)
	if err != nil {
		p.fail(key, "%v", err)
	}
	return b
}

// parseSize reads a non-negative size: a plain number of bytes or a
// number with a unit (rotor.ParseSize; pkt is mtu bytes).
func parseSize(v string, mtu rotor.Bytes) (rotor.Bytes, error) {
	b, err := rotor.ParseSize(v, mtu)
	if n, ierr := strconv.ParseInt(v, 10, 64); ierr == nil {
		b, err = rotor.Bytes(n), nil
	}
	if err == nil && b < 0 {
		err = errors.New("must not be negative")
	}
	return b, err
}

// Setup is a Spec resolved into an emulator Config plus what went into it.
type Setup struct {
	Config   Config
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
// cannot deliver the flows (checkReach) is a *ConfigError on routing.mode.
func (s *Spec) BuildContext(ctx context.Context) (*Setup, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.resolved = map[string]string{}
	p := &specParser{s: s}
	for _, k := range Keys { // an empty value is not a way to ask for the default
		if k.Default != "" && s.set[k.Name] && strings.TrimSpace(s.values[k.Name]) == "" {
			p.fail(k.Name, "is empty; leave it out for its default %q", k.Default)
		}
	}
	if err := Topologies.check(s.values["topology.kind"]); err != nil {
		return nil, err
	}
	mtu := p.intIn("topology.mtu", 64, maxMTU, "")
	hpt := p.int("topology.hosts_per_tor", 1)
	if hpt > maxHosts { // also keeps n·hpt below from overflowing
		p.fail("topology.hosts_per_tor", "exceeds the limit of %d hosts in all", maxHosts)
	}
	cfg := Config{
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
		Transport:          s.values["transport.kind"],
		CC:                 s.values["transport.cc"],
		CCParams:           p.ccParams("transport.cc_params"),
		Prebuffer:          p.prebuffer(rotor.Bytes(mtu)),
		Window:             int64(p.posSize("transport.window", rotor.Bytes(mtu), false, "")),
		MinRTO:             p.posTime("transport.min_rto", false, ""),
		DupThresh:          p.int("transport.dupthresh", 0),
		Acks:               s.values["transport.acks"],
		PullDepth:          p.int("transport.pull_depth", 0),
		NDPWindow:          p.int("transport.ndp_window", 0),
		RecordINT:          p.bool("transport.int"),
		ECNThreshold:       p.posSize("buffer.ecn_threshold", rotor.Bytes(mtu), true, "empty: off"),
		PacketSwitchBuffer: p.posSize("buffer.packet_switch", rotor.Bytes(mtu), true, "empty: 1 MB per port"),
		SimTime:            p.time("run.sim_time", false),
		Measure:            Window{From: p.time("run.warmup", false)},
		Check:              p.bool("run.check"),
		SampleInterval:     p.posTime("run.sample_interval", false, ""),
		SeriesInterval:     p.posTime("run.series_interval", false, ""),
		Seed:               p.uint("run.seed"),
	}
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
	if s.values["topology.kind"] == TopologyLeafSpine {
		return s.buildLeafSpine(ctx, p, cfg, buckets, mtu, hpt)
	}
	// Schedule.
	var sc *rotor.Schedule
	if file := s.values["schedule.file"]; file != "" {
		if s.checkGeneratorKeys(p); p.err != nil {
			return nil, p.err
		}
		f, err := os.Open(file)
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
		if sp.Nodes > maxToRs {
			p.fail("topology.tors", "exceeds the limit of %d ToRs (the fabric keeps state per pair of ToRs)", maxToRs)
		} else if sp.Nodes*hpt > maxHosts { // before building a large schedule for nothing
			p.fail("topology.hosts_per_tor", "%d ToRs × %d hosts = %d hosts, more than the limit of %d", sp.Nodes, hpt, sp.Nodes*hpt, maxHosts)
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
	if sc.Nodes > maxToRs {
		return nil, cfgErr("schedule.file", "has %d ToRs, more than the limit of %d (the fabric keeps state per pair of ToRs)", sc.Nodes, maxToRs)
	}
	if hosts := sc.Nodes * hpt; hosts > maxHosts {
		return nil, cfgErr("topology.hosts_per_tor", "%d ToRs × %d hosts = %d hosts, more than the limit of %d", sc.Nodes, hpt, hosts, maxHosts)
	}
	if problem := dayProblem(sc, cfg.CircuitLink, cfg.MTU); problem != "" {
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
	if err := s.resolveModes(p, &cfg, sc); err != nil {
		return nil, err
	}
	if err := tableProblem(&cfg); err != nil {
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
func (s *Spec) buildRest(ctx context.Context, p *specParser, cfg Config, buckets stats.Buckets, tors, hpt, ports, mtu int) (*Setup, error) {
	cfg.WatchPair = p.pair("run.watch_pair", tors)
	cfg.Buffer = p.posSize("buffer.size", rotor.Bytes(mtu), true, "empty: buffer.per_port × ports")
	if cfg.Buffer == 0 {
		cfg.Buffer = rotor.Bytes(p.int("buffer.per_port", 1)*ports) * rotor.Bytes(mtu)
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
	cfg.Flows = &SliceSource{Flows: flows}
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.LeafSpine == nil {
		if err := checkReach(ctx, &cfg, flows); err != nil {
			return nil, err
		}
	}
	return &Setup{Config: cfg, Schedule: cfg.Schedule, Flows: flows, Buckets: buckets}, nil
}

// workloadFlows generates or reads the flows among tors racks of hpt hosts.
func (s *Spec) workloadFlows(p *specParser, cfg *Config, tors, hpt, mtu int) ([]workload.Flow, error) {
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
		flows, err = workload.ReadFlows(f)
		f.Close()
		if err != nil {
			return nil, cfgErr("workload.flows_file", "%s: %v", file, err)
		}
		if err := workload.CheckFlows(flows, hosts); err != nil {
			return nil, cfgErr("workload.flows_file", "%s: %v", file, err)
		}
		sort.SliceStable(flows, func(i, j int) bool { return flows[i].Start < flows[j].Start })
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
		var ce *ConfigError
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
// schedule's designed ones (DesignedFor; the resolved values are what
// Values echoes) and then checks the mode-dependent keys.
func (s *Spec) resolveModes(p *specParser, cfg *Config, sc *rotor.Schedule) error {
	d := defaultsFor(sc, cfg.PacketSwitchLink > 0)
	cfg.Routing, cfg.Transport = s.values["routing.mode"], s.values["transport.kind"]
	if cfg.Routing == "" {
		cfg.Routing = d.Routing
		s.resolved["routing.mode"] = cfg.Routing
	}
	if cfg.Transport == "" {
		cfg.Transport = defaultTransport(d, cfg)
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
			continue // an unknown choice is validate's error, not this key's
		}
		seen := map[string]bool{}
		for _, e := range r.Entries {
			for _, k := range e.Reads {
				if seen[k] || s.values[k] == defaultOf(k) {
					continue
				}
				seen[k] = true
				if by := r.readers(k); !slices.Contains(by, sel) {
					p.fail(k, "is read only with %s %s, not %s", r.Key, strings.Join(by, " or "), sel)
				}
			}
		}
	}
	if s.values["routing.multipath"] != defaultOf("routing.multipath") && pathsK <= 1 {
		p.fail("routing.multipath", "is read only with routing.paths_k > 1, not %d", pathsK)
	}
}

// workloadGeneratorKeys are the workload keys the generator reads; with
// workload.flows_file a value other than the default is an error.
var workloadGeneratorKeys = []string{
	"workload.sizes", "workload.load", "workload.pattern", "workload.matrix",
	"workload.incast_senders", "workload.incast_bytes", "workload.incast_rate",
	"workload.seed", "workload.duration", "workload.intra_rack",
}

func defaultOf(key string) string {
	for _, k := range Keys {
		if k.Name == key {
			return k.Default
		}
	}
	return ""
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

// maxToRs and maxHosts cap the fabric so that its state fits in memory
// and a too-large value fails with one line instead of the runtime's
// out-of-memory crash: the fabric keeps per-ToR-pair state (VOQs, and
// with pull the waiting lists, stores and counters: 80–150 B per pair,
// ~10 GB at 8192 ToRs) and per-host state.
const (
	maxToRs  = 8192
	maxHosts = 1 << 20
)

// maxMTU bounds topology.mtu at 64 KiB (IP's largest packet is 65535
// bytes): the value is checked as given, before it becomes the fabric's
// 32-bit packet size, so that 4294968796 fails instead of wrapping to 1500.
const maxMTU = 65536

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
