package app

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratorFlagsRefuseBadValues: every flag of the shared generator set
// refuses zero, a negative, NaN and an out-of-range value in each of the
// four commands that take it, with exit status 2 and one stderr line naming
// the flag. Zero is never taken as "default".
func TestGeneratorFlagsRefuseBadValues(t *testing.T) {
	// kind is a kind that reads the flag, so the refusal is about the value.
	flags := []struct {
		name, kind string
		values     []string // zero, negative, NaN, out of range
	}{
		{"degree", "mars", []string{"0", "-1", "NaN", "100000"}},
		{"k", "vermilion", []string{"0", "-1", "NaN", "100000"}},
		{"l", "vermilion", []string{"0", "-2", "NaN", "100000"}},
		{"gamma", "vermilion", []string{"0", "-1", "NaN", "0.5", "1e9", "Inf"}},
		{"tries", "static", []string{"0", "-1", "NaN", "65"}},
		{"buffer", "mars", []string{"0MB", "-1MB", "NaNMB", "1e30MB", "0"}},
		{"delay", "mars", []string{"0us", "-1us", "NaNus", "1e30s", "0"}},
		{"link", "mars", []string{"0Gbps", "-1Gbps", "NaNGbps", "1e30Tbps", ""}},
		{"design-demand", "vermilion", []string{"0", "-1", "NaN", "skew:2", ""}},
		{"randomized", "vermilion", []string{"-1", "NaN"}}, // booleans: 0 is false, a valid value
		{"stagger", "rotornet", []string{"-1", "NaN"}},
	}
	commands := []struct {
		name string
		args func(kind string) []string
	}{
		{"schedule", func(k string) []string { return []string{"schedule", "--kind", k, "--tors", "16", "--uplinks", "2"} }},
		{"throughput", func(k string) []string { return []string{"throughput", "--kind", k, "--tors", "16", "--uplinks", "2"} }},
		{"bounds", func(k string) []string { return []string{"bounds", "--kind", k, "--tors", "16", "--uplinks", "2"} }},
		{"tradeoff", func(string) []string { return []string{"tradeoff", "--tors", "16", "--uplinks", "2", "--exact=false"} }},
	}
	for _, cmd := range commands {
		for _, f := range flags {
			for _, v := range f.values {
				args := append([]string{"rdcn"}, cmd.args(f.kind)...)
				args = append(args, "--"+f.name+"="+v)
				var out, errb bytes.Buffer
				code := run(args, &out, &errb)
				msg := errb.String()
				if code != 2 || strings.Count(msg, "\n") != 1 || !namesField(msg, f.name) || out.Len() != 0 {
					t.Errorf("%s --%s=%q: exit %d, stderr %q, stdout %d bytes; want 2 and one line naming %s",
						cmd.name, f.name, v, code, msg, out.Len(), f.name)
				}
			}
		}
	}
}

// TestGeneratorFlagsSameEverywhere: the four commands define the shared
// generator flags identically (name, aliases, kind of value), and --kind
// has no one-letter alias that could collide with -k.
func TestGeneratorFlagsSameEverywhere(t *testing.T) {
	want := map[string]string{}
	for _, f := range generatorFlags() {
		want[f.Names()[0]] = strings.Join(f.Names(), ",")
	}
	for _, c := range commands() {
		switch c.Name {
		case "schedule", "throughput", "bounds", "tradeoff":
		default:
			continue
		}
		got := map[string]bool{}
		for _, f := range c.Flags {
			names := f.Names()
			if _, ok := want[names[0]]; ok {
				got[names[0]] = true
				if names[0] != "design-demand" && strings.Join(names, ",") != want[names[0]] {
					t.Errorf("%s: --%s has names %v, want %s", c.Name, names[0], names, want[names[0]])
				}
			}
			if names[0] == "kind" && len(names) > 1 {
				t.Errorf("%s: --kind has aliases %v", c.Name, names[1:])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: has %d of the %d shared generator flags", c.Name, len(got), len(want))
		}
	}
}

// runJSON runs the CLI with --format json and decodes the output into v.
func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append(append([]string{"rdcn"}, args...), "--format", "json"), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// TestMarsFromAnalysisCommands: Mars takes --degree in throughput and
// bounds, and without degree, buffer or delay it is refused rather than
// silently being the complete graph.
func TestMarsFromAnalysisCommands(t *testing.T) {
	var b struct {
		Degree int
		Theta  float64
	}
	runJSON(t, &b, "bounds", "--kind", "mars", "--tors", "32", "--uplinks", "4", "--degree", "8", "--demand", "permutation")
	// Theorem 17: VLB on a degree-d graph reaches 1/(2·log_d n) = 0.3 for
	// d = 8, n = 32; times the duty cycle 0.9.
	if b.Degree != 8 || b.Theta < 0.9*0.3-1e-9 {
		t.Errorf("mars d = 8: degree %d, θ %v; want degree 8 and θ ≥ 0.27", b.Degree, b.Theta)
	}
	var out, errb bytes.Buffer
	code := run([]string{"rdcn", "throughput", "--kind", "mars", "--tors", "32", "--uplinks", "4", "--demand", "permutation"}, &out, &errb)
	if msg := errb.String(); code != 2 || !namesField(msg, "degree") || !strings.Contains(msg, "buffer") || !strings.Contains(msg, "delay") {
		t.Errorf("mars without degree: exit %d, stderr %q", code, msg)
	}
}

// TestVermilionDesignDemand: throughput designs Vermilion from --demand
// when --design-demand is absent (a perfect prediction, so Vermilion's
// guarantee θ ≥ 1 − 1/k = 2/3 for k = 3 holds, times the duty cycle 0.9),
// and an all-zero prediction is refused.
func TestVermilionDesignDemand(t *testing.T) {
	var a, b struct{ Theta float64 }
	runJSON(t, &a, "throughput", "--kind", "vermilion", "--tors", "16", "--uplinks", "4", "--demand", "ring")
	runJSON(t, &b, "throughput", "--kind", "vermilion", "--tors", "16", "--uplinks", "4", "--demand", "ring", "--design-demand", "ring")
	if a != b || a.Theta < 0.9*2.0/3 {
		t.Errorf("θ %v without --design-demand, %v with it; want equal and ≥ 0.6", a.Theta, b.Theta)
	}
	zero := filepath.Join(t.TempDir(), "zero.txt")
	if err := os.WriteFile(zero, []byte("0 0 0\n0 0 0\n0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"rdcn", "schedule", "--kind", "vermilion", "--tors", "3", "--uplinks", "1", "--design-demand", zero}, &out, &errb)
	if code != 2 || !namesField(errb.String(), "design-demand") || out.Len() != 0 {
		t.Errorf("all-zero design demand: exit %d, stderr %q", code, errb.String())
	}
}

// TestStaticNoNight: a static topology pays no reconfiguration unless
// --reconf asks: its default θ equals θ at --reconf 0 and θ at 10 µs
// scaled by 1/duty cycle = 1/0.9 (capacity scales with the duty cycle),
// 0.4147 for n = 32, U = 4 and uniform demand.
func TestStaticNoNight(t *testing.T) {
	base := []string{"throughput", "--kind", "static", "--tors", "32", "--uplinks", "4", "--demand", "uniform"}
	var def, zero, night struct{ Theta, Lower, Upper float64 }
	runJSON(t, &def, base...)
	runJSON(t, &zero, append(base, "--reconf", "0")...)
	runJSON(t, &night, append(base, "--reconf", "10us")...)
	if def != zero {
		t.Errorf("default %+v, --reconf 0 %+v", def, zero)
	}
	if def.Lower > night.Upper/0.9+1e-9 || def.Upper < night.Lower/0.9-1e-9 {
		t.Errorf("default [%v, %v] misses the 10 µs interval / 0.9 = [%v, %v]", def.Lower, def.Upper, night.Lower/0.9, night.Upper/0.9)
	}
	if math.Abs(def.Theta-0.4147) > 5e-4 {
		t.Errorf("θ %v, want 0.4147", def.Theta)
	}
}

// TestReconfZeroIsZero: --reconf 0 without --slot is no reconfiguration
// with the kind's slot, not the kind's default reconfiguration.
func TestReconfZeroIsZero(t *testing.T) {
	var s struct {
		SlotPs   int64 `json:"slot_ps"`
		ReconfPs int64 `json:"reconf_ps"`
	}
	runJSON(t, &s, "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--reconf", "0")
	if s.SlotPs != 100e6 || s.ReconfPs != 0 {
		t.Errorf("slot %d ps, reconf %d ps; want 100 µs and 0", s.SlotPs, s.ReconfPs)
	}
	runJSON(t, &s, "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2")
	if s.SlotPs != 100e6 || s.ReconfPs != 10e6 {
		t.Errorf("default: slot %d ps, reconf %d ps; want 100 µs and 10 µs", s.SlotPs, s.ReconfPs)
	}
}

// TestSimulateStaticNoNight: simulate inherits the registry's timing, so a
// static fabric runs with no reconfiguration night by default.
func TestSimulateStaticNoNight(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"rdcn", "simulate", "--set", "schedule.kind=static", "--set", "run.sim_time=100us", "-o", filepath.Join(t.TempDir(), "run")}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	_, rest, _ := strings.Cut(out.String(), "\n") // after the scale line
	if first, _, _ := strings.Cut(rest, "\n"); !strings.HasSuffix(first, "(reconf 0s), duty cycle 1") {
		t.Errorf("schedule line %q, want no reconfiguration", first)
	}
}
