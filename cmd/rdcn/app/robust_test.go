package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// robustCase is one nasty invocation: the CLI must answer with exit status
// code and exactly one stderr line that mentions field, write nothing to
// stdout's file, and never panic or hang.
type robustCase struct {
	name  string
	args  []string // after "rdcn"; {dir} is the fixture directory, {out} the output file
	code  int
	field string // the field the one-line error names (see namesField)
}

// robustFixtures writes the bad (and one good) input files the cases read.
func robustFixtures(t *testing.T, dir string) {
	t.Helper()
	var out, errb bytes.Buffer
	good := filepath.Join(dir, "good.json")
	if code := run([]string{"rdcn", "schedule", "--kind", "rotornet", "--tors", "4", "--uplinks", "1", "-o", good}, &out, &errb); code != 0 {
		t.Fatalf("fixture: exit %d: %s", code, errb.String())
	}
	g, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	schedule := func(matchings string) string {
		return `{"format":"rdcn.schedule/v1","kind":"x","nodes":4,"switches":1,"period":3,"slot_ps":100000000,"reconf_ps":10000000,` +
			`"slot_durations_ps":null,"switch_offsets_ps":null,"matchings":[` + matchings + `],"meta":{}}`
	}
	files := map[string]string{
		"trunc.json":      string(g[:len(g)/2]),
		"garbage.json":    "\x00\xff\xfe not json at all {{{",
		"empty.json":      "",
		"array.json":      "[1,2,3]",
		"nonperm.json":    schedule(`[[1,1,3,0],[2,3,0,1],[3,0,1,2]]`),
		"outrange.json":   schedule(`[[1,2,3,9],[2,3,0,1],[3,0,1,2]]`),
		"negative.json":   schedule(`[[1,2,3,-7],[2,3,0,1],[3,0,1,2]]`),
		"shortrow.json":   schedule(`[[1,2,3],[2,3,0,1],[3,0,1,2]]`),
		"shortsched.json": schedule(`[[1,2,3,0],[2,3,0,1]]`),
		"hugenodes.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"nodes":4`, `"nodes":100000000000`, 1),
		"hugeperiod.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"period":3`, `"period":9000000000000000000`, 1),
		"reconfslot.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"reconf_ps":10000000`, `"reconf_ps":200000000`, 1),
		"ring9000.json": ringSchedule(9000),
		// Cycles that overflow int64 (they used to give θ = 0 or θ = 3).
		"cycleovf.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"slot_durations_ps":null`, `"slot_durations_ps":[4611686018427387904,4611686018427387904,100000000]`, 1),
		"cyclemax.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"slot_durations_ps":null`, `"slot_durations_ps":[9223372036854775807,9223372036854775807,9223372036854775807]`, 1),
		"slotovf.json": strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"slot_ps":100000000`, `"slot_ps":9000000000000000000`, 1),
		"offsetovf.json": strings.Replace(strings.Replace(schedule(`[[1,2,3,0],[2,3,0,1],[3,0,1,2]]`),
			`"switch_offsets_ps":null`, `"switch_offsets_ps":[9223372036854775807]`, 1), `"kind":"x"`, `"kind":"y"`, 1),
		"nonsquare.txt": "0 1 2\n3 0 4\n",
		"nan.txt":       "0 NaN\n1 0\n",
		"neg.txt":       "0 -1\n1 0\n",
		"inf.txt":       "0 1e400\n1 0\n",
		"truncm.txt":    "0 1 2\n1 0 3\n2 1",
		"emptym.txt":    "",
		"words.txt":     "zero one\ntwo three\n",
		"big3.txt":      "0 1 1\n1 0 1\n1 1 0\n",
		"maxfloat.txt":  "0 1.7976931348623157e308\n1 0\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func robustCases() []robustCase {
	var cs []robustCase
	add := func(name string, code int, field string, args ...string) {
		cs = append(cs, robustCase{name, args, code, field})
	}
	// Integer flags given nonsense, shared by every command that has --tors.
	for _, cmd := range [][]string{
		{"schedule", "--kind", "rotornet", "--uplinks", "2"},
		{"demand", "--pattern", "uniform"},
		{"throughput", "--kind", "rotornet", "--uplinks", "2"},
		{"bounds", "--kind", "rotornet", "--uplinks", "2"},
		{"tradeoff", "--uplinks", "2"},
		{"predict", "--uplinks", "2", "--samples", "1"},
	} {
		for _, v := range []string{"NaN", "-1", "1e400", "", "100000000", "99999999999999999999", "0"} {
			args := append(append([]string{}, cmd...), "--tors", v, "-o", "{out}")
			add(cmd[0]+" --tors "+v, 2, "tors", args...)
		}
	}
	for _, cmd := range [][]string{
		{"schedule", "--kind", "rotornet", "--tors", "8"},
		{"throughput", "--kind", "rotornet", "--tors", "8"},
		{"bounds", "--kind", "rotornet", "--tors", "8"},
		{"tradeoff", "--tors", "8"},
		{"predict", "--samples", "1"},
	} {
		for _, v := range []string{"0", "-1", "NaN", "100000000"} {
			args := append(append([]string{}, cmd...), "--uplinks", v, "-o", "{out}")
			add(cmd[0]+" --uplinks "+v, 2, "uplinks", args...)
		}
	}
	// Times, rates and sizes.
	for _, kind := range []string{"rotornet", "sirius", "opera", "static", "mars", "bvn", "vermilion"} {
		base := []string{"schedule", "--kind", kind, "--tors", "8", "--uplinks", "2", "-o", "{out}"}
		if kind == "bvn" || kind == "vermilion" {
			base = slices.Clip(append(base, "--demand", "uniform")) // only they read one; clipped, so the cases below append to copies
		}
		if kind == "mars" {
			base = slices.Clip(append(base, "--degree", "8"))
		}
		add("schedule "+kind+" slot<reconf", 2, "reconf", append(base, "--slot", "10us", "--reconf", "20us")...)
		add("schedule "+kind+" slot NaN", 2, "slot", append(base, "--slot", "NaNus")...)
		add("schedule "+kind+" slot unit", 2, "slot", append(base, "--slot", "100parsecs")...)
		add("schedule "+kind+" slot 1e400", 2, "slot", append(base, "--slot", "1e400us")...)
		add("schedule "+kind+" slot huge", 2, "slot", append(base, "--slot", "99999999h")...)
		add("schedule "+kind+" reconf -1", 2, "reconf", append(base, "--slot", "100us", "--reconf", "-1us")...)
		// Fits int64 on its own, but not times the period (or not below
		// rotor.MaxCycle): the cycle length used to overflow silently.
		add("schedule "+kind+" slot 9000000s", 2, "slot", append(base, "--slot", "9000000s")...)
		if kind != "static" { // period 1: 2000000s is a valid static slot
			add("schedule "+kind+" slot 2000000s", 2, "slot", append(base, "--slot", "2000000s")...)
		}
	}
	add("schedule mars link unit", 2, "link", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--buffer", "20MB", "--link", "400furlongs", "--delay", "850us", "-o", "{out}")
	add("schedule mars buffer NaN", 2, "buffer", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--buffer", "NaNMB", "--link", "400Gbps", "--delay", "850us", "-o", "{out}")
	add("schedule mars buffer -1", 2, "buffer", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--buffer", "-1MB", "--link", "400Gbps", "--delay", "850us", "-o", "{out}")
	add("schedule mars delay 0", 2, "delay", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--delay", "0us", "--link", "400Gbps", "-o", "{out}")
	add("schedule mars degree huge", 2, "degree", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--degree", "100000000", "-o", "{out}")
	add("schedule mars degree -1", 2, "degree", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--degree", "-1", "-o", "{out}")
	add("schedule vermilion k huge", 2, "k", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "ring", "--k", "100000000", "-o", "{out}")
	add("schedule vermilion k -1", 2, "k", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "ring", "--k", "-1", "-o", "{out}")
	add("schedule vermilion gamma NaN", 2, "gamma", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "ring", "--gamma", "NaN", "-o", "{out}")
	add("schedule vermilion gamma -1", 2, "gamma", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "ring", "--gamma", "-1", "-o", "{out}")
	add("schedule vermilion demand nan file", 2, "design-demand", "schedule", "--kind", "vermilion", "--tors", "2", "--uplinks", "1", "--demand", "{dir}/nan.txt", "-o", "{out}")
	add("schedule vermilion demand nonsquare", 2, "design-demand", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "{dir}/nonsquare.txt", "-o", "{out}")
	add("schedule vermilion demand wrong n", 2, "design-demand", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "{dir}/big3.txt", "-o", "{out}")
	add("schedule bvn demand worst", 2, "design-demand", "schedule", "--kind", "bvn", "--tors", "8", "--uplinks", "2", "--demand", "worst", "-o", "{out}")
	add("schedule vermilion no demand", 2, "design-demand", "schedule", "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "-o", "{out}")
	// Static stops after schedules.StaticAttempts draws, so more tries
	// cannot be met.
	add("schedule static tries huge", 2, "tries", "schedule", "--kind", "static", "--tors", "8", "--uplinks", "2", "--tries", "100000000000", "-o", "{out}")
	add("schedule output dir", 2, "output", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "-o", "{dir}/adir")
	add("schedule output missing dir", 2, "output", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "-o", "{dir}/nope/x.json")
	add("schedule empty kind", 2, "kind", "schedule", "--kind", "", "--tors", "8", "--uplinks", "2", "-o", "{out}")
	add("schedule format", 2, "format", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--format", "yaml", "-o", "{out}")
	add("schedule format empty with .csv", 0, "", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "-o", "{out}.csv")

	// demand.
	for _, f := range []string{"nonsquare.txt", "nan.txt", "neg.txt", "inf.txt", "truncm.txt", "emptym.txt", "words.txt", "good.json", "adir", "missing.txt"} {
		add("demand file "+f, 2, "pattern", "demand", "--pattern", "{dir}/"+f, "-o", "{out}")
	}
	add("demand file wrong n", 2, "pattern", "demand", "--pattern", "{dir}/big3.txt", "--tors", "5", "-o", "{out}")
	add("demand skew NaN", 2, "pattern", "demand", "--pattern", "skew:NaN", "--tors", "8", "-o", "{out}")
	add("demand skew 2", 2, "pattern", "demand", "--pattern", "skew:2", "--tors", "8", "-o", "{out}")
	add("demand skew empty", 2, "pattern", "demand", "--pattern", "skew:", "--tors", "8", "-o", "{out}")
	add("demand random garbage", 2, "pattern", "demand", "--pattern", "random:x", "--tors", "8", "-o", "{out}")
	add("demand worst", 2, "pattern", "demand", "--pattern", "worst", "--tors", "8", "-o", "{out}")
	add("demand empty pattern", 2, "pattern", "demand", "--pattern", "", "--tors", "8", "-o", "{out}")
	add("demand normalize NaN", 2, "normalize", "demand", "--pattern", "ring", "--tors", "8", "--normalize", "NaN", "-o", "{out}")
	add("demand normalize -1", 2, "normalize", "demand", "--pattern", "ring", "--tors", "8", "--normalize", "-1", "-o", "{out}")
	add("demand normalize 1e400", 2, "normalize", "demand", "--pattern", "ring", "--tors", "8", "--normalize", "1e400", "-o", "{out}")
	add("demand normalize unit", 2, "normalize", "demand", "--pattern", "ring", "--tors", "8", "--normalize", "3parsecs", "-o", "{out}")
	add("demand normalize 1e400Gbps", 2, "normalize", "demand", "--pattern", "ring", "--tors", "8", "--normalize", "1e400Gbps", "-o", "{out}")
	add("demand delta NaN", 2, "delta", "demand", "--pattern", "ring", "--tors", "8", "--noise", "additive", "--delta", "NaN", "-o", "{out}")
	add("demand delta -1", 2, "delta", "demand", "--pattern", "ring", "--tors", "8", "--noise", "additive", "--delta", "-1", "-o", "{out}")
	add("demand delta 1e400", 2, "delta", "demand", "--pattern", "ring", "--tors", "8", "--noise", "additive", "--delta", "1e400", "-o", "{out}")
	add("demand delta Inf", 2, "delta", "demand", "--pattern", "ring", "--tors", "8", "--noise", "multiplicative", "--delta", "Inf", "-o", "{out}")
	add("demand noise unknown", 2, "noise", "demand", "--pattern", "ring", "--tors", "8", "--noise", "pink", "--delta", "1", "-o", "{out}")
	add("demand noise overflows entry", 2, "pattern", "demand", "--pattern", "{dir}/maxfloat.txt", "--noise", "additive", "--delta", "2", "-o", "{out}")
	add("demand noise overflows entry mult", 2, "pattern", "demand", "--pattern", "{dir}/maxfloat.txt", "--noise", "multiplicative", "--delta", "2", "-o", "{out}")
	add("demand noise sigma overflows", 2, "delta", "demand", "--pattern", "{dir}/maxfloat.txt", "--noise", "additive", "--delta", "1e300", "-o", "{out}")
	add("demand output dir", 2, "output", "demand", "--pattern", "ring", "--tors", "8", "-o", "{dir}/adir")
	add("demand format", 2, "format", "demand", "--pattern", "ring", "--tors", "8", "--format", "yaml", "-o", "{out}")
	add("demand format json", 0, "", "demand", "--pattern", "ring", "--tors", "8", "--format", "json", "-o", "{out}")

	// throughput and bounds over bad schedule files and demands.
	for _, cmd := range []string{"throughput", "bounds"} {
		for _, f := range []string{"trunc.json", "garbage.json", "empty.json", "array.json", "nonperm.json", "outrange.json",
			"negative.json", "shortrow.json", "shortsched.json", "hugenodes.json", "hugeperiod.json", "reconfslot.json", "adir", "missing.json", "nan.txt",
			"cycleovf.json", "cyclemax.json", "slotovf.json", "offsetovf.json"} {
			add(cmd+" schedule "+f, 2, "schedule", cmd, "--schedule", "{dir}/"+f, "-o", "{out}")
		}
		g := []string{cmd, "--schedule", "{dir}/good.json", "-o", "{out}"}
		for _, d := range []string{"nonsquare.txt", "nan.txt", "neg.txt", "inf.txt", "truncm.txt", "big3.txt", "emptym.txt"} {
			add(cmd+" demand "+d, 2, "demand", append(g, "--demand", "{dir}/"+d)...)
		}
		add(cmd+" demand empty", 2, "demand", append(g, "--demand", "")...)
		add(cmd+" demand skew 7", 2, "demand", append(g, "--demand", "skew:7")...)
		add(cmd+" link NaN", 2, "link", append(g, "--link", "NaNGbps")...)
		add(cmd+" link 0", 2, "link", append(g, "--link", "0Gbps")...)
		add(cmd+" link 1e400", 2, "link", append(g, "--link", "1e400Gbps")...)
		add(cmd+" link unit", 2, "link", append(g, "--link", "400knots")...)
		add(cmd+" gap NaN", 2, "gap", append(g, "--gap", "NaN")...)
		add(cmd+" gap 1e400", 2, "gap", append(g, "--gap", "1e400")...)
		add(cmd+" format", 2, "format", append(g, "--format", "yaml")...)
		add(cmd+" format csv", 0, "", append(g, "--format", "csv")...)
		add(cmd+" output dir", 2, "output", cmd, "--schedule", "{dir}/good.json", "-o", "{dir}/adir")
		add(cmd+" kind slot 9000000s", 2, "slot", cmd, "--kind", "rotornet", "--tors", "4", "--uplinks", "1", "--slot", "9000000s", "-o", "{out}")
		add(cmd+" kind slot 1600000s", 2, "slot", cmd, "--kind", "rotornet", "--tors", "4", "--uplinks", "1", "--slot", "1600000s", "-o", "{out}")
		add(cmd+" worst without schedule", 2, "schedule", cmd, "--demand", "worst", "-o", "{out}")
		add(cmd+" both schedule and kind", 2, "schedule", cmd, "--schedule", "{dir}/good.json", "--kind", "rotornet", "-o", "{out}")
		add(cmd+" kind slot<reconf", 2, "reconf", cmd, "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--slot", "10us", "--reconf", "20us", "-o", "{out}")
		add(cmd+" kind slot garbage", 2, "slot", cmd, "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--slot", "soon", "-o", "{out}")
		add(cmd+" kind needs demand", 2, "design-demand", cmd, "--kind", "vermilion", "--tors", "8", "--uplinks", "2", "-o", "{out}")
	}
	for _, cmd := range []string{"throughput", "bounds"} {
		for _, f := range [][]string{{"tors", "8"}, {"uplinks", "2"}, {"slot", "100us"}, {"reconf", "1us"}} {
			add(cmd+" --schedule with --"+f[0], 2, f[0], cmd, "--schedule", "{dir}/good.json", "--"+f[0], f[1], "-o", "{out}")
		}
		add(cmd+" --schedule beyond the ToR limit", 2, "schedule", cmd, "--schedule", "{dir}/ring9000.json", "-o", "{out}")
	}
	add("schedule rotornet --demand (alias)", 2, "design-demand", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--demand", "uniform", "-o", "{out}")
	for _, f := range [][]string{{"design-demand", "uniform"}, {"degree", "2"}, {"buffer", "20MB"}, {"link", "10Gbps"}, {"delay", "1ms"},
		{"k", "3"}, {"l", "1"}, {"gamma", "3"}, {"tries", "3"}} {
		add("schedule rotornet --"+f[0], 2, f[0], "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--"+f[0], f[1], "-o", "{out}")
	}
	add("schedule rotornet --randomized", 2, "randomized", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--randomized", "-o", "{out}")
	add("schedule opera --stagger", 2, "stagger", "schedule", "--kind", "opera", "--tors", "8", "--uplinks", "2", "--stagger", "-o", "{out}")
	add("schedule opera --self-slot", 2, "self-slot", "schedule", "--kind", "opera", "--tors", "8", "--uplinks", "2", "--self-slot", "-o", "{out}")
	// A valid cycle (4·10^18 ps) whose average route delay (≈ 7 hops on a
	// one-uplink ring) overflows: used to blame the demand.
	add("bounds ARD overflows", 2, "slot", "bounds", "--kind", "static", "--tors", "8", "--uplinks", "1", "--slot", "4000000s", "-o", "{out}")
	add("throughput routing", 2, "routing", "throughput", "--schedule", "{dir}/good.json", "--routing", "", "-o", "{out}")
	add("throughput solver", 2, "solver", "throughput", "--schedule", "{dir}/good.json", "--solver", "cplex", "-o", "{out}")

	// tradeoff.
	tr := func(extra ...string) []string {
		return append([]string{"tradeoff", "--tors", "16", "--uplinks", "2", "--exact=false", "-o", "{out}"}, extra...)
	}
	add("tradeoff slot<reconf", 2, "reconf", tr("--slot", "10us", "--reconf", "20us")...)
	add("tradeoff slot 0", 2, "slot", tr("--slot", "0us", "--reconf", "0us")...)
	add("tradeoff slot NaN", 2, "slot", tr("--slot", "NaN")...)
	add("tradeoff link 0", 2, "link", tr("--link", "0bps")...)
	add("tradeoff link unit", 2, "link", tr("--link", "9parsecs")...)
	add("tradeoff buffer NaN", 2, "buffer", tr("--buffer", "NaNMB")...)
	add("tradeoff buffer 1e400", 2, "buffer", tr("--buffer", "1e400MB")...)
	add("tradeoff delay -1", 2, "delay", tr("--delay", "-1us")...)
	add("tradeoff degrees garbage", 2, "degrees", tr("--degrees", "2,x")...)
	add("tradeoff degrees huge", 2, "degrees", tr("--degrees", "100000000")...)
	add("tradeoff degrees 0", 2, "degrees", tr("--degrees", "0")...)
	add("tradeoff degrees -4", 2, "degrees", tr("--degrees", "-4")...)
	add("tradeoff gap NaN", 2, "gap", tr("--gap", "NaN")...)
	add("tradeoff format", 2, "format", tr("--format", "xml")...)
	add("tradeoff plot ext", 2, "plot", tr("--plot", "x.pdf")...)
	add("tradeoff plot dir", 2, "plot", tr("--plot", "{dir}/adir.svg/")...)
	add("tradeoff slot 1000000s", 2, "slot", tr("--slot", "1000000s")...)
	add("tradeoff slot 1000000s exact", 2, "slot", "tradeoff", "--tors", "16", "--uplinks", "2", "--slot", "1000000s", "-o", "{out}")
	add("tradeoff slot 9000000s n = U", 2, "slot", "tradeoff", "--tors", "2", "--uplinks", "2", "--slot", "9000000s", "-o", "{out}")
	add("tradeoff buffer overflows", 2, "slot", "tradeoff", "--tors", "4", "--uplinks", "1", "--slot", "1000000s", "--link", "9000000Tbps", "--exact=false", "-o", "{out}")
	add("tradeoff output dir", 2, "output", "tradeoff", "--tors", "16", "--uplinks", "2", "--exact=false", "-o", "{dir}/adir")

	// predict.
	pr := func(extra ...string) []string {
		return append([]string{"predict", "--samples", "1", "--factors", "0", "--gammas", "2", "--matrices", "ring", "-o", "{out}"}, extra...)
	}
	add("predict samples 0", 2, "samples", pr("--samples", "0")...)
	add("predict samples huge", 2, "samples", pr("--samples", "100000000000")...)
	add("predict factors NaN", 2, "factors", pr("--factors", "NaN")...)
	add("predict factors -1", 2, "factors", pr("--factors", "-1")...)
	add("predict factors 1e400", 2, "factors", pr("--factors", "1e400")...)
	add("predict factors empty", 2, "factors", pr("--factors", "")...)
	add("predict gammas 0", 2, "gamma", pr("--gammas", "0")...)
	add("predict gammas NaN", 2, "gamma", pr("--gammas", "NaN")...)
	add("predict gammas huge", 2, "gamma", pr("--gammas", "1e300")...)
	add("predict matrices empty", 2, "matrices", pr("--matrices", "")...)
	add("predict matrices garbage", 2, "matrices", pr("--matrices", "ring,bogus")...)
	add("predict matrices nan file", 2, "matrices", pr("--matrices", "{dir}/nan.txt")...)
	add("predict matrices wrong n", 2, "matrices", pr("--matrices", "{dir}/big3.txt")...)
	add("predict matrices worst", 2, "matrices", pr("--matrices", "worst")...)
	add("predict noise unknown", 2, "noise", pr("--noise", "pink")...)
	add("predict algorithms unknown", 2, "algorithm", pr("--algorithms", "greedy")...)
	add("predict workers -1", 2, "workers", pr("--workers", "-1")...)
	add("predict gap 2", 2, "gap", pr("--gap", "2")...)
	add("predict slot<reconf", 2, "reconf", pr("--slot", "10us", "--reconf", "20us")...)
	add("predict link NaN", 2, "link", pr("--link", "NaNbps")...)
	add("predict output dir", 2, "output", "predict", "--samples", "1", "--factors", "0", "--gammas", "2", "--matrices", "ring", "-o", "{dir}/adir")

	// The CLI itself.
	add("no command prints help", 0, "", "")
	add("unknown command", 2, "command", "frobnicate")
	add("version extra", 2, "arguments", "version", "extra")
	return cs
}

// TestBadInputNeverPanics runs every command except simulate/demo over bad
// input. Each must exit with status 2, print exactly one line on stderr that
// names the field, and leave no output file behind.
func TestBadInputNeverPanics(t *testing.T) {
	dir := t.TempDir()
	robustFixtures(t, dir)
	for _, tc := range robustCases() {
		t.Run(tc.name, func(t *testing.T) {
			outDir := t.TempDir()
			out := filepath.Join(outDir, "out")
			args := []string{"rdcn"}
			for _, a := range tc.args {
				a = strings.ReplaceAll(a, "{dir}", dir)
				args = append(args, strings.ReplaceAll(a, "{out}", out))
			}
			if len(tc.args) == 1 && tc.args[0] == "" {
				args = args[:1]
			}
			before := listDir(t, dir)
			code, stdout, stderr := runGuarded(t, args, 20*time.Second)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			t.Logf("exit %d: %s", code, strings.TrimSpace(stderr))
			if tc.code == 0 {
				if stderr != "" {
					t.Errorf("stderr %q on success", stderr)
				}
				return
			}
			if !isOneErrorLine(stderr) {
				t.Errorf("stderr %q, want exactly one line starting with \"rdcn: \"", stderr)
			}
			if !namesField(stderr, tc.field) {
				t.Errorf("stderr %q does not name the field %q", stderr, tc.field)
			}
			if len(stdout) > 0 && tc.code != 0 {
				t.Errorf("stdout %q on failure, want nothing", truncate(stdout, 200))
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
				t.Errorf("left %d file(s) in the output directory", len(entries))
			}
			if after := listDir(t, dir); after != before {
				t.Errorf("fixture directory changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// isOneErrorLine reports whether stderr is exactly one line "rdcn: …"
// with a message after the prefix.
func isOneErrorLine(stderr string) bool {
	msg, ok := strings.CutPrefix(stderr, "rdcn: ")
	return ok && strings.Count(msg, "\n") == 1 && strings.HasSuffix(msg, "\n") && strings.TrimSpace(msg) != ""
}

// namesField reports whether the error line names field as its subject:
// "rdcn: FIELD: …" or "rdcn: FIELD FILE: …", possibly behind the study or
// tradeoff package's prefix, or urfave/cli's "… for flag -FIELD: …".
func namesField(stderr, field string) bool {
	f := regexp.QuoteMeta(field)
	re := regexp.MustCompile(`^rdcn: (?:(?:study|tradeoff): )?(?:` + f + `(?: \S+)?|flags: invalid (?:boolean )?value .* for (?:flag )?-` + f + `): `)
	return re.MatchString(stderr)
}

// runGuarded runs the CLI, turning a panic or a hang into a test failure.
func runGuarded(t *testing.T, args []string, limit time.Duration) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
		panicked       any
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		defer func() {
			if p := recover(); p != nil {
				done <- result{panicked: p}
			}
		}()
		c := run(args, &out, &errb)
		done <- result{code: c, stdout: out.String(), stderr: errb.String()}
	}()
	select {
	case r := <-done:
		if r.panicked != nil {
			t.Fatalf("%q panicked: %v", args, r.panicked)
		}
		return r.code, r.stdout, r.stderr
	case <-time.After(limit):
		t.Fatalf("%q did not finish within %v", args, limit)
	}
	return
}

func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s ", e.Name())
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ringSchedule is a valid one-switch ring schedule of n ToRs in JSON.
func ringSchedule(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"rdcn.schedule/v1","kind":"ring","nodes":%d,"switches":1,"period":1,"slot_ps":100000000,"reconf_ps":0,"matchings":[[[`, n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, (i+1)%n)
	}
	b.WriteString("]]]}")
	return b.String()
}
