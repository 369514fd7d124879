package scenario

import (
	"bytes"
	"cmp"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// The fuzz targets below parse and resolve run configurations (TOML files
// and --set key=value overrides) without running a simulation. They check
// that bad input is an error, never a panic, that every error is a one-line
// *ConfigError naming a field, and that whatever Build accepts passes the
// emulator's own validation.

func FuzzConfig(f *testing.F) {
	for _, name := range []string{"a-opera", "a-rotornet", "b-opera", "b-rotornet", "leafspine-abm"} {
		if b, err := os.ReadFile("../fabric/testdata/perf/" + name + ".toml"); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"",
		"[topology]\ntors = 8\nuplinks = 2\n[run]\nsim_time = \"200us\"\n",
		"[topology]\ntors = 4\nhosts_per_tor = 1\nuplinks = 1\n[schedule]\nkind = \"sirius\"\n[run]\nsim_time = \"50us\"\n",
		"[routing]\nmode = \"hybrid\"\n[topology]\npacket_switch_link = \"10Gbps\"\n[run]\nsim_time = \"100us\"\n",
		"[transport]\nkind = \"pull\"\n[routing]\nmode = \"vlb\"\n",
		"[buffer]\nsize = \"1B\"\n",
		"[workload]\nload = nan\n",
		"[workload]\nload = 1e400\n",
		"[topology]\ntors = -1\n",
		"[topology]\ntors = 1.5\n",
		"[topology]\nmtu = 99999999999999999999\n",
		"[topology]\nbogus = 1\n",
		"[topology]\ntors = [1, 2]\n",
		"topology = 5\n",
		"[topology\n",
		"[run]\nsim_time = \"-1ms\"\n",
		"[schedule]\nkind = \"mars\"\ndegree = 2\n[topology]\ntors = 16\nuplinks = 2\n[run]\nsim_time = \"100us\"\n",
		"[schedule]\nkind = \"vermilion\"\ndemand = \"skewring:0.5\"\nk = 3\ngamma = 3\n[run]\nsim_time = \"100us\"\n",
		"[schedule]\nkind = \"bvn\"\ndemand = \"random:3\"\n[run]\nsim_time = \"100us\"\n",
		"[topology]\nkind = \"leafspine\"\nleaves = 3\nspines = 2\nlinks_per_pair = 2\nqueues_per_port = 2\n[run]\nsim_time = \"100us\"\n",
		"[topology]\nkind = \"leafspine\"\nuplinks = 2\n",
		"[topology]\nkind = \"leafspine\"\nfabric_link = \"0bps\"\n",
		"[schedule]\nkind = \"mars\"\nbuffer = \"2MB\"\ndelay = \"2ms\"\n[topology]\ntors = 16\n[run]\nsim_time = \"100us\"\n",
		"[schedule]\nkind = \"static\"\n[routing]\nmode = \"direct\"\n[run]\nsim_time = \"100us\"\n",
		"[run]\nsim_time = \"1ms\"\nwarmup = \"900us\"\n",
		"[run]\nwarmup = \"-1ms\"\n",
		"[topology]\nkind = \"leaf-spine\"\n",
		"[buffer]\npolicy = \"cs\"\nalpha = 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewSpec()
		if err := s.LoadTOML(bytes.NewReader(data)); err != nil {
			checkConfigError(t, err)
			return
		}
		checkSpecKeys(t, s)
		buildIfCheap(t, s)
	})
}

func FuzzSet(f *testing.F) {
	for _, s := range []string{
		"topology.tors=16", "run.sim_time=100us", " routing.mode = vlb ", "routing.mode=hybrid",
		"topology.tors=", "=", "", "novalue", "topology=1", "topology.torz=8", "a.b.c=d",
		"buffer.alpha=NaN", "buffer.alpha=-1", "workload.load=1e400", "topology.mtu=63",
		"transport.ack_size=1501", "routing.paths_k=9", "routing.multipath=yen", "routing.multipath=ecmp", "schedule.slot=1ps", "schedule.reconf=1s",
		"topology.uplinks=65", "buffer.size=18446744073709551616", "transport.window=-1pkt",
		"topology.packet_switch_link=0bps", "run.sample_interval=0s", "schedule.kind=vermilion",
		"transport.kind=pull", "workload.pattern=ring", "workload.sizes=1MB", "buffer.policy=abm",
		"workload.pattern=matrix", "workload.matrix=skew:0.5", "workload.incast_senders=2", "workload.incast_rate=1e9",
		"workload.incast_bytes=1B", "run.fct_buckets=1B,2B,3B", "run.fct_buckets=,", "run.fct_buckets=1pkt",
		"schedule.demand=ring", "schedule.demand=skew:NaN", "schedule.k=-1", "schedule.gamma=1e309",
		"schedule.l=0", "schedule.randomized=yes", "schedule.buffer=1pkt", "schedule.delay=-1s",
		"topology.kind=leafspine", "topology.kind=clos", "topology.spines=0", "topology.links_per_pair=65",
		"topology.queues_per_port=9", "topology.fabric_delay=-1us", "topology.leaves=5000",
		"buffer.policy=credence", "buffer.policy=lqd", "buffer.policy=protean", "buffer.flip=2", "buffer.flip=0.01",
		"buffer.hi_queues=1.5", "buffer.credence_model=/nonexistent", "buffer.lossless=0", "buffer.gamma=1",
		"buffer.lossless=1,7", "buffer.lossless=8", "buffer.lossless=,", "topology.incast_queue=1", "topology.incast_queue=-3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kv string) {
		s := NewSpec()
		err := s.SetArg(kv)
		if err != nil {
			checkConfigError(t, err)
			return
		}
		k, v, _ := strings.Cut(kv, "=")
		if got := s.Get(strings.TrimSpace(k)); got != strings.TrimSpace(v) {
			t.Fatalf("SetArg(%q) then Get = %q, want %q", kv, got, strings.TrimSpace(v))
		}
		checkSpecKeys(t, s)
		buildIfCheap(t, s)
	})
}

// checkConfigError checks that err is a *ConfigError with a field and a
// one-line message.
func checkConfigError(t *testing.T, err error) {
	t.Helper()
	var ce *fabric.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
	}
	if ce.Field == "" {
		t.Fatalf("error %q names no field", err)
	}
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Fatalf("error %q spans lines", err)
	}
}

// checkSpecKeys checks that a Spec holds exactly the documented keys.
func checkSpecKeys(t *testing.T, s *Spec) {
	t.Helper()
	vals := s.Values()
	if len(vals) != len(Keys()) {
		t.Fatalf("Values has %d keys, Keys %d", len(vals), len(Keys()))
	}
	for i, kv := range vals {
		if kv[0] != Keys()[i].Name {
			t.Fatalf("Values[%d] is %q, want %q", i, kv[0], Keys()[i].Name)
		}
	}
	if len(s.values) != len(Keys()) {
		t.Fatalf("spec holds %d keys, want %d (an unknown key slipped in)", len(s.values), len(Keys()))
	}
}

// buildIfCheap resolves the spec unless it would read files or generate a
// large schedule or workload (a fuzzer can write "/dev/zero" or tors=1e9:
// bounding those is the CLI's job, not what this target tests). Accepted
// configurations must pass Config.Resolve; rejected ones give a *ConfigError.
func buildIfCheap(t *testing.T, s *Spec) {
	t.Helper()
	if !cheapSpec(s) {
		return
	}
	setup, err := s.Build()
	if err != nil {
		checkConfigError(t, err)
		return
	}
	if err := setup.Config.Resolve(); err != nil {
		t.Fatalf("Build accepted a config that does not validate: %v", err)
	}
	if setup.Config.LeafSpine == nil {
		if err := setup.Schedule.Validate(); err != nil {
			t.Fatalf("Build accepted an invalid schedule: %v", err)
		}
	} else if setup.Schedule != nil {
		t.Fatal("Build gave a leaf-spine a schedule")
	}
	hosts := setup.Config.Leaves() * setup.Config.HostsPerToR
	if err := workload.CheckFlows(setup.Flows, hosts); err != nil {
		t.Fatalf("Build produced bad flows: %v", err)
	}
	if !slices.IsSortedFunc(setup.Flows, func(a, b workload.Flow) int { return cmp.Compare(a.Start, b.Start) }) {
		t.Fatal("Build produced flows out of start order")
	}
}

// cheapSpec reports whether Build stays small: no files, few nodes, hosts
// and uplinks, a built-in size distribution, and little simulated time at a
// modest load. A value that does not parse is cheap (Build rejects it before
// generating anything).
func cheapSpec(s *Spec) bool {
	if s.Get("schedule.file") != "" || s.Get("workload.flows_file") != "" {
		return false
	}
	if !slices.Contains(workload.SizeNames(), strings.ToLower(strings.TrimSpace(s.Get("workload.sizes")))) {
		return false
	}
	intAtMost := func(key string, hi int) bool {
		v, err := strconv.Atoi(s.Get(key))
		return err != nil || v <= hi
	}
	timeAtMost := func(key string, hi rotor.Time) bool {
		v, err := rotor.ParseTime(s.Get(key))
		return err != nil || v <= hi
	}
	load, err := strconv.ParseFloat(s.Get("workload.load"), 64)
	if err == nil && load > 1 {
		return false
	}
	link, err := rotor.ParseRate(s.Get("topology.host_link"))
	if err == nil && link > 10*rotor.Gbps {
		return false
	}
	return intAtMost("topology.tors", 16) && intAtMost("topology.uplinks", 8) &&
		intAtMost("topology.leaves", 16) && intAtMost("topology.spines", 8) && intAtMost("topology.links_per_pair", 4) &&
		intAtMost("topology.hosts_per_tor", 4) && intAtMost("schedule.tries", 4) &&
		intAtMost("schedule.degree", 16) &&
		timeAtMost("run.sim_time", 10*rotor.Millisecond) && timeAtMost("workload.duration", 10*rotor.Millisecond)
}
