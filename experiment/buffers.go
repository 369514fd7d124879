package experiment

import (
	"embed"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/sweep"
)

// The buffer papers' headline figures, as sweeps over the set-ups of
// scenario.BufferSetups (scenario/testdata/buffers, which run.sh also runs):
// the configuration's values are the sweep's base, read from the embedded
// file, so they are written once. The quick scale's replicate 1 is
// run.sh's runs (the same seeds, so the same flows and routes as
// docs/buffers.md's tables; percentiles here interpolate, run.sh's are
// nearest-rank) and its replicate 2 derives its seeds; the full scale runs
// 3 replicates (the seeds derived per replicate), longer runs and more
// values.

// runShSeeds is where the buffer experiments' quick scale takes its first
// replicate's seeds.
const runShSeeds = "replicate 1 is scenario/testdata/buffers/run.sh's run (the set-up's workload seed, run.seed 1), so its numbers are docs/buffers.md's tables; replicate 2 derives its seeds; the full scale runs 3 seeds"

// setupDir is the set-ups' directory in scenario.BufferSetups.
const setupDir = "testdata/buffers"

// setupBase returns a sweep spec's [base] table: the keys of the set-up
// file (a configuration for rdcn simulate) less those in drop (set by an
// axis), with over's keys (TOML values) set.
func setupBase(file string, drop []string, over map[string]string) string {
	return baseOf(scenario.BufferSetups, path.Join(setupDir, file), drop, over)
}

// baseOf is setupBase for the file p of fsys (a path under scenario/).
func baseOf(fsys embed.FS, file string, drop []string, over map[string]string) string {
	kv := setupKeys(fsys, file)
	for _, k := range drop {
		delete(kv, k)
	}
	for k, v := range over {
		kv[k] = v
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var s strings.Builder
	fmt.Fprintf(&s, "[base] # fabric/%s\n", file)
	for _, k := range keys {
		fmt.Fprintf(&s, "%q = %s\n", k, kv[k])
	}
	return s.String()
}

// setupKeys are the keys of the configuration file p of fsys, key → TOML
// value.
func setupKeys(fsys embed.FS, file string) map[string]string {
	b, err := fsys.ReadFile(file)
	if err != nil {
		panic("experiment: " + err.Error()) // embedded: cannot happen
	}
	var raw map[string]any
	if _, err := toml.Decode(string(b), &raw); err != nil {
		panic("experiment: " + file + ": " + err.Error())
	}
	kv := map[string]string{}
	for table, v := range raw {
		for k, x := range v.(map[string]any) {
			kv[table+"."+k] = tomlValue(x)
		}
	}
	return kv
}

// quickReplicates is the quick scale's seed axis (a compound one, after
// every other axis): replicate 1 fixes the seed keys to fixed (key, TOML
// value pairs: run.sh's run, so the tables compared point for point stay
// its numbers), replicate 2 derives its own.
func quickReplicates(fixed ...string) string {
	return variants(sweep.ReplicateAxis, variant{"1", fixed}) + "\n[[axes." + sweep.ReplicateAxis + "]]\nname = \"2\"\n"
}

// tomlValue writes a decoded TOML scalar back as TOML.
func tomlValue(x any) string {
	switch v := x.(type) {
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	panic(fmt.Sprintf("experiment: set-up value %v of type %T", x, x))
}

// variants is a compound axis: each variant's name and its keys (TOML
// values).
func variants(axis string, vs ...variant) string {
	var s strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&s, "\n[[axes.%s]]\nname = %q\n", axis, v.name)
		for i := 0; i < len(v.set); i += 2 {
			fmt.Fprintf(&s, "%q = %s\n", v.set[i], v.set[i+1])
		}
	}
	return s.String()
}

type variant struct {
	name string
	set  []string // key, value, key, value, …
}

// policy is the variant running buffer policy p with extra keys.
func policy(name, p string, set ...string) variant {
	return variant{name, append([]string{"buffer.policy", strconv.Quote(p)}, set...)}
}

// incastSpec is the sweep of an incast set-up: the quick scale runs it as
// it is, the full one for duration (sim_time the end of the run) with 3
// replicates. axes (TOML, plain axes before compound ones) are the axes
// besides the replicates, and drop the keys they set.
func incastSpec(file string, quick bool, duration, simTime string, drop []string, axes string) string {
	over := map[string]string{}
	if !quick {
		over["workload.duration"], over["run.sim_time"] = strconv.Quote(duration), strconv.Quote(simTime)
	}
	base := setupBase(file, append([]string{"workload.seed"}, drop...), over)
	if quick { // replicate 1: run.sh's run (the set-up's workload seed, and run.seed 1, rdcn simulate's default)
		ws := setupKeys(scenario.BufferSetups, path.Join(setupDir, file))["workload.seed"]
		return "kind = \"simulate\"\nseed = 1\n" + base + "[axes]\n" + axes + quickReplicates("workload.seed", ws, "run.seed", "1")
	}
	return "kind = \"simulate\"\nseed = 1\n" + base + "[axes]\nseed = [1, 2, 3]\n" + axes
}

// reduction is our counterpart of a paper's "x % lower than": 100·(1 −
// metric at a / the lowest metric over others), each the mean over the
// points matching it.
func reduction(metric string, a map[string]string, others ...map[string]string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) {
		x, ok := Mean(r, metric, a)
		best := math.Inf(1)
		for _, o := range others {
			y, ok := Mean(r, metric, o)
			if !ok {
				return 0, false
			}
			best = min(best, y)
		}
		if !ok || !(best > 0) {
			return 0, false
		}
		return 100 * (1 - x/best), true
	}
}

// proteanLoads are workload.load per host link for 20, 40, 60 and 80 % of
// the uplinks (4:1): the paper's 5× and 6.9× are means over its loads.
var proteanLoads = []string{"0.05", "0.1", "0.15", "0.2"}

// meanRatioOverLoads is the mean over proteanLoads of metric under policy
// a over metric under policy b at the same load: the paper's mean of
// per-load ratios.
func meanRatioOverLoads(metric, a, b string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) {
		sum := 0.0
		for _, l := range proteanLoads {
			x, ok := ratio(r, metric, map[string]string{"policy": a, "workload.load": l}, map[string]string{"policy": b, "workload.load": l})
			if !ok {
				return 0, false
			}
			sum += x
		}
		return sum / float64(len(proteanLoads)), true
	}
}

// ratioAt is metric at a over metric at b.
func ratioAt(metric string, a, b map[string]string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) { return ratio(r, metric, a, b) }
}

// percent is 100 × the mean of a metric.
func percent(metric string, where map[string]string) func(*sweep.Results) (float64, bool) {
	return func(r *sweep.Results) (float64, bool) {
		v, ok := Mean(r, metric, where)
		return 100 * v, ok
	}
}

func init() {
	const abmSource = "ABM: Active Buffer Management in Datacenters (thesis ch. 4): incast 99th-percentile slowdown, every server requesting 30 % of the buffer, DT, FAB, CS, IB and ABM"
	Register(&Experiment{
		Name:  "abm",
		Title: "ABM vs DT, FAB, CS, IB: incast p99 slowdown against load",
		Source: abmSource + ". The set-up of the ABM authors' ns-3 scripts (2 leaves × 32 servers at 10 Gbps, 4:1, 3.93 MB per switch; scenario/testdata/buffers/abm-incast.toml); " +
			"the load is per host link, so the paper's 20/40/60/80 % of the leaf uplinks are 0.05/0.1/0.15/0.2. Transport: Cubic, the paper's (windowed, 10 ms minimum RTO), flows started as the scripts start them (background: a handshake and 55 segments; incast: the whole response at once); slowdowns by ns-3's definition (run.slowdown = ns3)",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Spec: func(sc Scale) string {
			return incastSpec("abm-incast.toml", sc.Quick, "1s", "1.2s", []string{"workload.load", "buffer.policy"},
				`"workload.load" = `+pick(sc.Quick, "[0.05, 0.1, 0.2]", "[0.05, 0.1, 0.15, 0.2]")+`
"buffer.policy" = ["dt", "fab", "cs", "ib", "abm"]
`)
		},
		Plot: report.Info{Metrics: []string{"incast_slowdown_p99", "incast_fct_p99_us", "slowdown_p99.short", "fct_p99_us.long",
			"incast_unfinished", "drop_rate"}},
		Published: abmPublished(),
	})
	Register(&Experiment{
		Name:  "credence",
		Title: "Credence vs DT, ABM, LQD, and with flipped predictions: incast p95 FCT",
		Source: "Credence: Augmenting Datacenter Switch Buffer Sharing with ML Predictions (NSDI 2024): incast bursts of 50 % of the buffer, websearch at 40 % of the uplinks, 95th-percentile incast FCT; policy p0.005, p0.01, … is Credence with each prediction flipped with probability p. " +
			"The leaf-spine of Credence's training scenario (2 leaves × 8 hosts at 10 Gbps, 4:1, 526 KB per switch; scenario/testdata/buffers/credence-incast.toml), the built-in model. Transport: DCTCP with switches marking above 10 packets, the paper's (windowed, 10 ms minimum RTO), flows started as the authors' ns-3 scripts start them (background: a handshake and 22 segments; incast: the whole response at once)",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Spec: func(sc Scale) string {
			vs := []variant{policy("dt", "dt"), policy("abm", "abm"), policy("lqd", "lqd"), policy("credence", "credence")}
			for _, p := range pick(sc.Quick, []string{"0.005", "0.01", "0.1"}, []string{"0.001", "0.005", "0.01", "0.05", "0.1"}) {
				vs = append(vs, policy("p"+p, "credence", "buffer.flip", p)) // short: the report's x labels
			}
			return incastSpec("credence-incast.toml", sc.Quick, "500ms", "560ms", []string{"buffer.policy"}, variants("policy", vs...))
		},
		Plot: report.Info{Metrics: []string{"incast_fct_p95_us", "incast_fct_p99_us", "fct_p99_us.short", "fct_p99_us.long", "drop_rate"}},
		Published: []report.Published{
			{What: "Credence's incast p95 FCT below DT's (%)", Source: "Credence paper, incast at 40 % load", Value: 95.5,
				Ours: reduction("incast_fct_p95_us", at("policy", "credence"), at("policy", "dt")), Tol: paperCut},
			{What: "Credence's incast p95 FCT below ABM's (%)", Source: "Credence paper, incast at 40 % load", Value: 95.5,
				Ours: reduction("incast_fct_p95_us", at("policy", "credence"), at("policy", "abm")), Tol: paperCut},
			{What: "incast p95 FCT, Credence / LQD", Source: "Credence paper (close to LQD)", Value: 1,
				Ours: ratioAt("incast_fct_p95_us", at("policy", "credence"), at("policy", "lqd")), Tol: closeTo},
			{What: "incast p95 FCT, Credence with p = 0.005 / LQD", Source: "Credence paper, Fig. 10 (close to LQD up to p = 0.005)", Value: 1,
				Ours: ratioAt("incast_fct_p95_us", at("policy", "p0.005"), at("policy", "lqd")), Tol: closeTo},
			{What: "incast p95 FCT, Credence with p = 0.01 / LQD", Source: "Credence paper, Fig. 10 (diverges from LQD)", Value: math.NaN(),
				Ours: ratioAt("incast_fct_p95_us", at("policy", "p0.01"), at("policy", "lqd")),
				Tol:  report.Claim(1, +1, "“diverges from LQD”, worse: a ratio above 1, no number quoted")},
			{What: "incast p95 FCT, Credence with p = 0.1 / LQD", Source: "Credence paper, Fig. 10 (much worse than LQD)", Value: math.NaN(),
				Ours: ratioAt("incast_fct_p95_us", at("policy", "p0.1"), at("policy", "lqd")),
				Tol:  report.Claim(1, +1, "“much worse than LQD”: a ratio above 1, no number quoted")},
		},
	})
	Register(&Experiment{
		Name:  "protean",
		Title: "Protean vs DT and CS: tail incast FCT",
		Source: "Protean: Adaptive Management of Shared-Memory in Datacenter Switches: tail incast FCT, incast of 75 % of the buffer beside websearch. " +
			"Websearch at 20, 40, 60 and 80 % of the uplinks (workload.load 0.05 to 0.2 per host link); each published ratio is compared with the mean of our per-load ratios. A leaf-spine of 4 leaves × 16 servers at 10 Gbps, 4:1, 2 MB per switch, 3 queues per port (scenario/testdata/buffers/protean-incast.toml); all data is in Protean's incast queue (the fabric has no short/long/incast classifier). Transport: Cubic, the paper's TCP rows (windowed, 10 ms minimum RTO; initial window 10 segments, ns-3's default: the paper's scripts are not public)",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Spec: func(sc Scale) string {
			return incastSpec("protean-incast.toml", sc.Quick, "1s", "1.06s", []string{"buffer.policy", "workload.load"},
				"\"workload.load\" = ["+strings.Join(proteanLoads, ", ")+"]\n"+
					variants("policy", policy("dt", "dt"), policy("cs", "cs"), policy("protean", "protean")))
		},
		Plot: report.Info{X: []string{"workload.load"}, Metrics: []string{"incast_fct_p999_us", "incast_fct_p99_us", "fct_p99_us.short", "drop_rate"}},
		Published: []report.Published{
			{What: "incast p99.9 FCT, DT / Protean, mean over 20, 40, 60 and 80 % load", Source: "Protean paper (TCP): 5× better than DT, a mean over the loads of its Fig. 5", Value: 5,
				Ours: meanRatioOverLoads("incast_fct_p999_us", "dt", "protean"), Tol: proteanTol},
			{What: "incast p99.9 FCT, CS / Protean, mean over 20, 40, 60 and 80 % load", Source: "Protean paper (TCP): 6.9× better than CS, a mean over the loads of its Fig. 5", Value: 6.9,
				Ours: meanRatioOverLoads("incast_fct_p999_us", "cs", "protean"), Tol: proteanTol},
		},
	})
	Register(&Experiment{
		Name:  "tdt",
		Title: "DT vs EDT vs TDT: lossless bursts under UDP",
		Source: "Traffic-Aware Buffer Management in Shared Memory Switches (IEEE/ACM ToN 2022): the homogeneous UDP test with two overwhelmed ports, the fraction of bursts absorbed without loss. " +
			"One switch of 16 ports at 1 Gbps, 1 MB shared, α = 1; the trace scenario/testdata/buffers/tdt/tdt.flows (8 ports with Poisson background and 8 Gbps on/off bursts, 2 ports with a persistent 2 Gbps; scenario/testdata/buffers/tdt-udp.toml). " +
			"The full scale adds α = 0.5, 2 and 4 (the trace is the same: it is deterministic)",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Inputs:         map[string]func() ([]byte, error){"tdt.flows": setupFile("tdt/tdt.flows")},
		Spec: func(sc Scale) string {
			q := sc.Quick
			over := map[string]string{"workload.flows_file": strconv.Quote(path.Join(sc.Inputs, "tdt.flows"))}
			vs := []variant{policy("dt", "dt"), policy("edt", "edt"), policy("tdt", "tdt")}
			if !q {
				for _, a := range []string{"0.5", "2", "4"} {
					for _, p := range []string{"dt", "edt", "tdt"} {
						vs = append(vs, policy(p+"-a"+a, p, "buffer.alpha", a))
					}
				}
			}
			return `kind = "simulate"
seed = 1
` + setupBase("tdt-udp.toml", []string{"buffer.policy"}, over) + `[axes]
` + pick(q, "", "seed = [1, 2, 3]\n") + variants("policy", vs...) + pick(q, quickReplicates("run.seed", "1"), "") // run.sh's run.seed (the send jitter's)
		},
		Plot: report.Info{Metrics: []string{"query_lossless_fraction", "incast_fct_p99_us", "drop_rate", "buffer_p99_bytes"}},
		Published: []report.Published{
			{What: "DT: lossless bursts (%)", Source: "TDT paper, homogeneous UDP, 2 overwhelmed ports", Value: 5.5, Ours: percent("query_lossless_fraction", at("policy", "dt")), Tol: tdtTol},
			{What: "EDT: lossless bursts (%)", Source: "TDT paper, homogeneous UDP, 2 overwhelmed ports", Value: 57.8, Ours: percent("query_lossless_fraction", at("policy", "edt")), Tol: tdtTol},
			{What: "TDT: lossless bursts (%)", Source: "TDT paper, homogeneous UDP, 2 overwhelmed ports", Value: 92.7, Ours: percent("query_lossless_fraction", at("policy", "tdt")), Tol: tdtTol},
		},
	})
	Register(&Experiment{
		Name:  "reverie",
		Title: "Reverie vs SONiC's DT, ABM in SONiC and one-pool DT: PFC pauses against load",
		Source: "Reverie: Low Pass Filter-Based Switch Buffer Sharing for Datacenters with RDMA and TCP Traffic (NSDI 2024): PFC pause frames with lossless RDMA incast (2 MB queries) beside lossy websearch, against DT and ABM in the SONiC MMU (sonic, sonic-abm) and the one-pool dt. " +
			"4 leaves × 16 servers, 4 spines, 25 Gbps, 2.56 MB per switch (scenario/testdata/buffers/reverie-pfc.toml); the load is per host link, so the paper's 20/40/80 % of the leaf uplinks are 0.05/0.1/0.2. Transport: DCQCN for both classes (the paper's lossy class runs Cubic), ECN step at 100 KB",
		Available:      true,
		QuickFixedSeed: runShSeeds,
		Spec: func(sc Scale) string {
			return incastSpec("reverie-pfc.toml", sc.Quick, "200ms", "300ms", []string{"workload.load", "buffer.policy"},
				`"workload.load" = [0.05, 0.1, 0.2]
"buffer.policy" = ["reverie", "sonic", "sonic-abm", "dt"]
`)
		},
		Plot:      report.Info{Metrics: []string{"pfc_pauses", "pfc_paused_us", "incast_fct_p99_us", "fct_p99_us.short", "drop_rate"}},
		Published: reveriePublished(),
	})
}

// The buffer papers' tolerances, each used by the rows below that name it.
var (
	// paperCut: a buffer paper's "x % lower than", one number per load
	// read off its figure of one run, no spread given.
	paperCut = report.Reduction(10, "one per-cent reduction per load, from a figure of one run with no spread: ± 10 points; direction: a reduction above 0")
	// closeTo: "close to" with no number.
	closeTo = report.Ratio(0.1, "“close to LQD”, no number quoted: taken as within 10 %; a ratio of 1 has no direction")
	// proteanTol: Protean's ratios of tail FCT.
	proteanTol = report.Ratio(0.25, "a ratio of p99.9 FCTs averaged over the paper's loads, no spread given: ± 25 %; direction: above 1, Protean ahead")
	// tdtTol: the TDT paper's share of lossless bursts.
	tdtTol = report.Tolerance{Abs: 5, NoDirection: true, Why: "a share of one fixed trace's bursts (192 here: one burst is 0.5 points): ± 5 points; an absolute share has no direction"}
)

// reveriePublished: Reverie's reduction of the pause frames against the
// paper's DT (SONiC's, sonic) and ABM (in SONiC, sonic-abm), over the
// three loads and at 20 %; and against the one-pool dt, which the paper
// does not run. Over the loads ours is the reduction of the mean pauses
// (the paper's average of per-load reductions is undefined where a
// baseline sends none).
func reveriePublished() []report.Published {
	pol := func(p, load string) map[string]string {
		m := map[string]string{"buffer.policy": p}
		if load != "" {
			m["workload.load"] = load
		}
		return m
	}
	row := func(base, name, load, at string, value float64, src string) report.Published {
		tol := paperCut
		if math.IsNaN(value) {
			tol = report.NotQuoted("the Reverie paper does not run a one-pool DT: context for the rows above")
		}
		return report.Published{What: "Reverie's PFC pauses below " + name + "'s (%), " + at, Source: src, Value: value,
			Ours: reduction("pfc_pauses", pol("reverie", load), pol(base, load)), Tol: tol}
	}
	const avg, low = "Reverie paper, average over 20/40/80 % load", "Reverie paper, 20 % load"
	return []report.Published{
		row("sonic", "DT (sonic)", "", "20/40/80 % load", 60, avg),
		row("sonic-abm", "ABM (sonic-abm)", "", "20/40/80 % load", 71.2, avg),
		row("sonic", "DT (sonic)", "0.05", "20 % load", 58.9, low),
		row("sonic-abm", "ABM (sonic-abm)", "0.05", "20 % load", 87.9, low),
		row("dt", "one-pool DT", "", "20/40/80 % load", math.NaN(), "not in the Reverie paper (one shared pool, DT on every queue)"),
	}
}

// abmPublished: ABM's reduction of the incast p99 slowdown against DT and
// against the best of the four others, at the paper's 20, 40 and 80 %.
func abmPublished() []report.Published {
	var ps []report.Published
	for _, l := range []struct {
		pct, load string
		value     float64
	}{{"20", "0.05", 12.6}, {"40", "0.1", 90.1}, {"80", "0.2", 94}} {
		pol := func(p string) map[string]string {
			return map[string]string{"workload.load": l.load, "buffer.policy": p}
		}
		src := "ABM paper, incast at " + l.pct + " % load (−" + strconv.FormatFloat(l.value, 'g', -1, 64) + " % vs DT, FAB, CS, IB)"
		ps = append(ps,
			report.Published{What: "ABM's incast p99 slowdown below DT's (%), " + l.pct + " % load", Source: src, Value: l.value,
				Ours: reduction("incast_slowdown_p99", pol("abm"), pol("dt")), Tol: paperCut},
			report.Published{What: "ABM's incast p99 slowdown below the best of DT, FAB, CS, IB (%), " + l.pct + " % load", Source: src, Value: l.value,
				Ours: reduction("incast_slowdown_p99", pol("abm"), pol("dt"), pol("fab"), pol("cs"), pol("ib")), Tol: paperCut})
	}
	return ps
}

// at is the points where axis has value v.
func at(axis, v string) map[string]string { return map[string]string{axis: v} }

// setupFile reads a file of scenario.BufferSetups.
func setupFile(name string) func() ([]byte, error) {
	return func() ([]byte, error) { return scenario.BufferSetups.ReadFile(path.Join(setupDir, name)) }
}
