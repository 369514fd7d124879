package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// specFiles writes a 4-ToR, 1-switch RotorNet schedule (100 µs slots,
// 10 µs nights), one with 1 ps slots, and a two-flow workload into dir.
func specFiles(t *testing.T) (good, tiny, flows string) {
	t.Helper()
	dir := t.TempDir()
	sc, err := schedules.Build("rotornet", schedules.Params{Nodes: 4, Uplinks: 1})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, sc *rotor.Schedule) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := rotor.WriteJSON(f, sc); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good = write("good.json", sc)
	sc.Slot, sc.Reconf = 1, 0
	tiny = write("tiny.json", sc)
	flows = filepath.Join(dir, "f.flows")
	if err := os.WriteFile(flows, []byte("0 5 1000 0\n5 10 3000 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return good, tiny, flows
}

// TestSpecBadInput: each setting is a *ConfigError naming exactly the key
// at fault, with the value given; TestSpecGoodInput holds the neighbouring
// settings that are fine.
func TestSpecBadInput(t *testing.T) {
	good, tiny, flows := specFiles(t)
	cases := []struct {
		keys  []string
		field string
		want  string // in the problem
	}{
		// Congestion control: checked before the run, not when a flow starts.
		{[]string{"transport.cc=bogus"}, "transport.cc", `"bogus"`},
		{[]string{"transport.kind=pull", "transport.cc=bogus"}, "transport.cc", `"bogus"`},
		{[]string{"transport.kind=linerate", "transport.cc=none"}, "transport.cc", "not linerate"},
		{[]string{"transport.cc=powertcp"}, "transport.cc", "every one of the"},                           // the default RotorNet run pulls every flow
		{[]string{"transport.kind=ndp", "transport.pull_depth=3"}, "transport.pull_depth", "none of the"}, // ndp pulls only with paths
		// 32-bit fields: range-checked before narrowing.
		{[]string{"topology.mtu=4294968796"}, "topology.mtu", `"4294968796": must be at most 65536`},
		{[]string{"topology.mtu=4294967296"}, "topology.mtu", `"4294967296"`},
		{[]string{"topology.mtu=2147483648"}, "topology.mtu", `"2147483648"`},
		{[]string{"topology.mtu=65537"}, "topology.mtu", `"65537"`},
		{[]string{"transport.ack_size=4294967296"}, "transport.ack_size", `"4294967296": must be at most topology.mtu = 1500`},
		{[]string{"transport.ack_size=1501"}, "transport.ack_size", `"1501"`},
		{[]string{"topology.mtu=9000", "transport.ack_size=9001"}, "transport.ack_size", "9000"},
		// An explicit zero is not "the default".
		{[]string{"transport.window=0"}, "transport.window", `"0": must be positive`},
		{[]string{"transport.window=0pkt"}, "transport.window", "must be positive"},
		{[]string{"transport.min_rto=0"}, "transport.min_rto", "must be positive"},
		{[]string{"run.sample_interval=0"}, "run.sample_interval", "must be positive"},
		{[]string{"run.series_interval=0s"}, "run.series_interval", "must be positive"},
		{[]string{"schedule.slot=0"}, "schedule.slot", "must be positive"},
		{[]string{"routing.mode=paths", "routing.bulk=0"}, "routing.bulk", "must be positive"},
		{[]string{"routing.mode=rotorlb", "routing.relay_limit=0B"}, "routing.relay_limit", "must be positive"},
		{[]string{"buffer.size=0"}, "buffer.size", "must be positive"},
		{[]string{"buffer.packet_switch=0"}, "buffer.packet_switch", "must be positive"},
		{[]string{"buffer.ecn_threshold=0"}, "buffer.ecn_threshold", "must be positive"},
		{[]string{"workload.duration=0"}, "workload.duration", "must be positive"},
		// Settings beside schedule.file.
		{[]string{"schedule.file=" + good, "schedule.slot=10us"}, "schedule.slot", `"10us": is a generator parameter, unused with schedule.file`},
		{[]string{"schedule.file=" + good, "schedule.reconf=1us"}, "schedule.reconf", "unused with schedule.file"},
		{[]string{"schedule.file=" + good, "schedule.reconf=0"}, "schedule.reconf", "unused with schedule.file"},
		{[]string{"schedule.file=" + good, "schedule.seed=2"}, "schedule.seed", "unused with schedule.file"},
		{[]string{"schedule.file=" + good, "schedule.kind=opera"}, "schedule.kind", "unused with schedule.file"},
		{[]string{"schedule.file=" + good, "topology.uplinks=3"}, "topology.uplinks", `"3": disagrees with schedule.file`},
		{[]string{"schedule.file=" + good, "topology.tors=8"}, "topology.tors", "is 4"}, // 8 is the default, but given
		{[]string{"schedule.file=" + good, "topology.tors=x"}, "topology.tors", "not an integer"},
		// Keys the chosen mode or kind does not read.
		{[]string{"workload.flows_file=" + flows, "workload.load=0.5"}, "workload.load", `"0.5": is a workload generator parameter`},
		{[]string{"workload.flows_file=" + flows, "workload.sizes=1MB"}, "workload.sizes", "workload.flows_file"},
		{[]string{"workload.flows_file=" + flows, "workload.pattern=ring"}, "workload.pattern", "workload.flows_file"},
		{[]string{"workload.flows_file=" + flows, "workload.seed=2"}, "workload.seed", "workload.flows_file"},
		{[]string{"workload.flows_file=" + flows, "workload.duration=1ms"}, "workload.duration", "workload.flows_file"},
		{[]string{"routing.mode=direct", "routing.paths_k=4"}, "routing.paths_k", `"4": is read only with routing.mode paths or vlb-paths, not direct`},
		{[]string{"routing.mode=rotorlb", "routing.paths_k=2"}, "routing.paths_k", "not rotorlb"},
		{[]string{"routing.mode=direct", "routing.relay_limit=10KB"}, "routing.relay_limit", "not direct"},
		{[]string{"routing.mode=vlb", "routing.relay_limit=10KB"}, "routing.relay_limit", "not vlb"},
		{[]string{"routing.mode=rotorlb", "routing.bulk=1MB"}, "routing.bulk", "not rotorlb"},
		{[]string{"routing.mode=paths", "routing.multipath=ecmp"}, "routing.multipath", "paths_k > 1"},
		{[]string{"routing.mode=direct", "routing.multipath=ecmp"}, "routing.multipath", "not direct"},
		{[]string{"routing.mode=rotorlb", "routing.guard=45us"}, "routing.guard", "read only with routing.mode paths or vlb-paths, not rotorlb"},
		{[]string{"routing.mode=rotorlb", "transport.kind=window", "routing.offer=excess"}, "routing.offer", "not window"},
		{[]string{"transport.kind=window", "transport.pull_depth=3"}, "transport.pull_depth", "not window"},
		{[]string{"transport.cc=none", "transport.window=30pkt"}, "transport.window", "read only with transport.cc fixed, not none"},
		{[]string{"transport.kind=linerate", "transport.window=4pkt"}, "transport.window", "not linerate"},
		{[]string{"transport.kind=linerate", "transport.acks=ideal"}, "transport.acks", "not linerate"},
		{[]string{"routing.mode=teleport", "routing.paths_k=4"}, "routing.mode", "teleport"},
		{[]string{"transport.kind=tcp", "transport.pull_depth=4"}, "transport.kind", "tcp"},
		// No packet fits in any day.
		{[]string{"schedule.slot=1ps"}, "schedule.slot", `"1ps": no packet fits in a day`},
		{[]string{"schedule.slot=1us", "schedule.reconf=0"}, "schedule.slot", "takes 1.2us"},
		{[]string{"schedule.kind=sirius"}, "schedule.slot", "sirius's default"},
		{[]string{"topology.circuit_link=1Mbps"}, "schedule.slot", "topology.circuit_link"},
		{[]string{"schedule.file=" + tiny}, "schedule.file", "no packet fits in a day"},
	}
	for _, c := range cases {
		s := NewSpec()
		for _, kv := range c.keys {
			if err := s.SetArg(kv); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field || !strings.Contains(ce.Problem, c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v; want a one-line error on %s containing %q", c.keys, err, c.field, c.want)
		}
	}
}

func TestSpecGoodInput(t *testing.T) {
	good, _, flows := specFiles(t)
	for _, keys := range [][]string{
		{"transport.kind=window", "transport.cc=none"},
		{"transport.kind=pull", "transport.cc=none", "schedule.kind=opera", "routing.mode=paths"}, // pull's flows that are not pulled (below routing.bulk) read it
		{"transport.kind=linerate", "transport.cc=fixed", "transport.window=20pkt"},               // defaults are never errors
		{"topology.mtu=65536", "buffer.per_port=2"},
		{"topology.mtu=9000", "transport.ack_size=9000", "transport.kind=window"},
		{"transport.kind=window", "transport.window=1pkt", "transport.min_rto=1us", "run.sample_interval=1us", "run.series_interval=10us"},
		{"schedule.slot=2us"},                            // reconf 0
		{"schedule.slot=20us", "schedule.reconf=18.8us"}, // a 1.2 µs day: one packet
		{"schedule.kind=sirius", "topology.circuit_link=100Gbps"},
		{"schedule.kind=sirius", "topology.mtu=400"},
		{"schedule.slot=50us", "schedule.reconf=0"},
		{"routing.mode=paths", "routing.bulk=1B", "schedule.kind=opera"},
		{"routing.mode=rotorlb", "routing.relay_limit=10KB", "buffer.size=1MB", "buffer.ecn_threshold=30KB"},
		{"routing.mode=paths", "routing.relay_limit=10KB", "routing.paths_k=2", "routing.multipath=ecmp", "schedule.kind=opera"},
		{"routing.mode=vlb-paths", "routing.paths_k=2", "schedule.kind=static"},
		{"routing.mode=rotorlb", "routing.offer=excess", "transport.kind=pull", "transport.pull_depth=3"},
		{"topology.packet_switch_link=10Gbps", "buffer.packet_switch=2MB", "workload.duration=1ms"},
		{"schedule.file=" + good},
		{"schedule.file=" + good, "topology.tors=4", "topology.uplinks=1", "schedule.kind=rotornet"},
		{"workload.flows_file=" + flows, "workload.load=0.2", "workload.sizes=websearch"},
		{"schedule.file=" + good, "workload.flows_file=" + flows, "topology.hosts_per_tor=3"},
	} {
		s := NewSpec()
		for _, kv := range append([]string{"run.sim_time=2ms"}, keys...) {
			if err := s.SetArg(kv); err != nil {
				t.Fatal(err)
			}
		}
		setup, err := s.Build()
		if err != nil {
			t.Errorf("%v: %v", keys, err)
			continue
		}
		if _, err := fabric.Run(setup.Config); err != nil {
			t.Errorf("%v: run: %v", keys, err)
		}
	}
}

// TestGeneratorKeysKnownToSchedules: every generator key names a
// schedules.Params field that only some kinds read.
func TestGeneratorKeysKnownToSchedules(t *testing.T) {
	for _, g := range generatorKeys {
		if kinds, some := schedules.ReadBy(g.field); !some || len(kinds) == 0 {
			t.Errorf("%s: schedules.ReadBy(%q) knows no kinds", g.key, g.field)
		}
	}
}

// TestSpecValuesShowTheFile: with schedule.file, the resolved configuration
// echoed into summary.json shows the file's n and U, not the defaults.
func TestSpecValuesShowTheFile(t *testing.T) {
	good, _, _ := specFiles(t) // rotornet, 4 ToRs, 1 switch; the defaults are 8 and 4
	spec := NewSpec()
	if err := spec.Set("schedule.file", good); err != nil {
		t.Fatal(err)
	}
	if _, err := spec.Build(); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range spec.Values() {
		got[kv[0]] = kv[1]
	}
	if got["topology.tors"] != "4" || got["topology.uplinks"] != "1" {
		t.Errorf("resolved topology.tors = %q, topology.uplinks = %q; the file has 4 and 1", got["topology.tors"], got["topology.uplinks"])
	}
	// An Opera file with schedule.kind left at (or set to) its default
	// rotornet: the resolved kind is the file's.
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 8, Uplinks: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "opera.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rotor.WriteJSON(f, sc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	spec = NewSpec()
	for _, kv := range []string{"schedule.file=" + path, "schedule.kind=rotornet"} {
		if err := spec.SetArg(kv); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := spec.Build(); err != nil {
		t.Fatal(err)
	}
	for _, kv := range spec.Values() {
		if kv[0] == "schedule.kind" && kv[1] != "opera" {
			t.Errorf("resolved schedule.kind = %q with an Opera schedule.file", kv[1])
		}
	}
}

// TestSpecEmptyIsNotDefault: a key with a default, set to nothing, is an
// error naming it (it used to run on the default silently); keys whose
// empty value means something (a generator's slot, no packet switch)
// accept it.
func TestSpecEmptyIsNotDefault(t *testing.T) {
	for _, k := range Keys() {
		spec := NewSpec()
		if err := spec.Set(k.Name, ""); err != nil {
			t.Fatal(err)
		}
		_, err := spec.Build()
		var ce *fabric.ConfigError
		switch {
		case k.Default == "" && err != nil:
			t.Errorf("%s = \"\" (its default): %v", k.Name, err)
		case k.Default != "" && (!errors.As(err, &ce) || ce.Field != k.Name):
			t.Errorf("%s = \"\": got %v, want an error naming %s", k.Name, err, k.Name)
		}
	}
}

// TestSpecStagger: schedule.stagger offsets RotorNet's switch s by s·Δ/U
// (100 µs / 4 = 25 µs apart), so at most one switch is in its night at
// any time; the run checks its invariants with it.
func TestSpecStagger(t *testing.T) {
	setup := buildSpec(t, "schedule.stagger=true", "run.sim_time=2ms", "run.check=true")
	sc := setup.Schedule
	for sw, o := range sc.SwitchOffsets {
		if want := rotor.Time(sw) * sc.Slot / rotor.Time(sc.Switches); o != want {
			t.Errorf("switch %d offset %v, want %v", sw, o, want)
		}
	}
	if len(sc.SwitchOffsets) != sc.Switches {
		t.Fatalf("%d offsets for %d switches", len(sc.SwitchOffsets), sc.Switches)
	}
	for at := rotor.Time(0); at < 2*sc.CycleDuration(); at += rotor.Microsecond / 2 {
		dark := 0
		for sw := 0; sw < sc.Switches; sw++ {
			if !sc.CircuitUp(sw, at) {
				dark++
			}
		}
		if dark > 1 {
			t.Fatalf("at %v: %d switches reconfiguring", at, dark)
		}
	}
	if _, err := fabric.Run(setup.Config); err != nil {
		t.Fatal(err)
	}
}

// TestLoad: a file with overrides on top resolves like the file edited;
// a missing file, a bad file and a bad override are errors.
func TestLoad(t *testing.T) {
	sp, err := Load("../fabric/testdata/perf/a-rotornet.toml", "topology.tors=16")
	if err != nil {
		t.Fatal(err)
	}
	if got := sp.Get("topology.tors"); got != "16" {
		t.Errorf("topology.tors = %q after the override, want 16", got)
	}
	if got := sp.Get("schedule.kind"); got != "rotornet" {
		t.Errorf("schedule.kind = %q, want the file's rotornet", got)
	}
	if _, err := Load("no/such/file.toml"); err == nil {
		t.Error("a missing file loaded")
	}
	if _, err := Load("../fabric/testdata/perf/a-rotornet.toml", "topology.torz=16"); err == nil || !strings.Contains(err.Error(), "topology.torz") {
		t.Errorf("a typo'd override: error %v, want one naming topology.torz", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[topology]\ntors = \"x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a truncated file: error %v, want one naming the file", err)
	}
}
