package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/schedules"
)

// smallFabric is a small run without its workload (smallWorkload), which a
// replay from workload.flows_file must leave out.
var smallFabric = []string{
	"--set", "topology.tors=8", "--set", "topology.hosts_per_tor=2", "--set", "topology.uplinks=2",
	"--set", "routing.mode=vlb", "--set", "run.sim_time=2ms", "--set", "run.check=true",
	"--set", "buffer.per_port=50",
}

var smallWorkload = []string{
	"--set", "workload.load=0.3",
	"--set", "workload.incast_senders=3", "--set", "workload.incast_bytes=10KB", "--set", "workload.incast_rate=500",
}

var smallRun = append(append([]string{}, smallFabric...), smallWorkload...)

// TestSimulateDeterministic: the same inputs give byte-identical
// summary.json and flows.csv, and the flow file written can be fed back in
// (workload.flows_file) to reproduce the run, incast queries included.
func TestSimulateDeterministic(t *testing.T) {
	dir := t.TempDir()
	var outs [][]byte
	for i, run1 := range [][]string{smallRun, smallRun, append(append([]string{}, smallFabric...),
		"--set", "workload.flows_file="+filepath.Join(dir, "run0", "workload.flows"))} {
		out := filepath.Join(dir, "run"+string(rune('0'+i)))
		var stdout, stderr bytes.Buffer
		args := append([]string{"rdcn", "simulate", "-q", "-o", out}, run1...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr.String())
		}
		sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		flows, err := os.ReadFile(filepath.Join(out, "flows.csv"))
		if err != nil {
			t.Fatal(err)
		}
		var s fabric.Summary
		if err := json.Unmarshal(sum, &s); err != nil || !s.Complete || s.Flows.Started == 0 || s.Queries == nil || s.Queries.Started == 0 {
			t.Fatalf("run %d: summary %v complete=%v flows=%d queries=%+v", i, err, s.Complete, s.Flows.Started, s.Queries)
		}
		for _, f := range []string{"perf.json", "timeseries.csv", "buffer_cdf.csv"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("run %d: %v", i, err)
			}
		}
		outs = append(outs, sum, flows)
	}
	if !bytes.Equal(outs[0], outs[2]) || !bytes.Equal(outs[1], outs[3]) {
		t.Errorf("two runs with the same inputs differ:\n%s", cmp.Diff(string(outs[0]), string(outs[2])))
	}
	if !bytes.Equal(outs[1], outs[5]) {
		t.Errorf("replaying workload.flows gives different flows.csv")
	}
}

// TestSimulateConsoleDeterministic: the console report on standard output
// is byte-identical for the same inputs; the wall time goes to stderr as
// one line.
func TestSimulateConsoleDeterministic(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var stdouts []string
	for i := 0; i < 2; i++ {
		var stdout, stderr bytes.Buffer
		args := append([]string{"rdcn", "simulate", "-o", out}, smallRun...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr.String())
		}
		// The wall time, then possibly the warning on unfinished flows.
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if e := lines[0]; !strings.HasPrefix(e, "rdcn simulate: ") || !strings.HasSuffix(e, " events/s (perf.json)") ||
			len(lines) > 2 || len(lines) == 2 && !strings.Contains(lines[1], "measured flows") {
			t.Errorf("run %d: stderr %q, want one line with the wall time", i, stderr.String())
		}
		if o := stdout.String(); !strings.Contains(o, "events ") || strings.Contains(o, "wall") || strings.Contains(o, "/s") {
			t.Fatalf("run %d: want the report without timings on stdout: %q", i, o)
		}
		stdouts = append(stdouts, stdout.String())
	}
	if stdouts[0] != stdouts[1] {
		t.Errorf("two runs with the same inputs print different reports:\n%s", cmp.Diff(stdouts[0], stdouts[1]))
	}
}

// TestSimulateScheduleReplay: schedule.json in the output directory is
// the schedule that ran; fed back as schedule.file (with workload.flows as
// the flow file) it reproduces the run, here a seeded Opera.
func TestSimulateScheduleReplay(t *testing.T) {
	dir := t.TempDir()
	first, again := filepath.Join(dir, "first"), filepath.Join(dir, "again")
	opera := append(append([]string{}, smallRun...), "--set", "schedule.kind=opera", "--set", "schedule.seed=5", "--set", "topology.uplinks=4")
	// The replay gives neither generator nor workload keys (an error
	// beside the files); topology.uplinks=4 agrees with the file.
	replay := append(append([]string{}, smallFabric...), "--set", "topology.uplinks=4",
		"--set", "schedule.file="+filepath.Join(first, "schedule.json"),
		"--set", "workload.flows_file="+filepath.Join(first, "workload.flows"))
	for i, args := range [][]string{opera, replay} {
		out := []string{first, again}[i]
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"rdcn", "simulate", "-q", "-o", out}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr.String())
		}
	}
	f, err := os.Open(filepath.Join(first, "schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := rotor.ReadJSON(f)
	f.Close()
	if err != nil || sc.Kind != "opera" || sc.Nodes != 8 || sc.Switches != 4 || fmt.Sprint(sc.Meta["seed"]) != "5" {
		t.Fatalf("schedule.json: %v, kind %q, %d nodes, %d switches, meta %v", err, sc.Kind, sc.Nodes, sc.Switches, sc.Meta)
	}
	for _, name := range []string{"flows.csv", "timeseries.csv", "buffer_cdf.csv"} {
		a, _ := os.ReadFile(filepath.Join(first, name))
		b, _ := os.ReadFile(filepath.Join(again, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs when the run is replayed from its schedule.json and workload.flows", name)
		}
	}
}

func TestSimulateBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string // the key named in the one-line error
	}{
		{[]string{"--set", "topology.bogus=1"}, "topology.bogus"},
		{[]string{"--set", "nokey"}, "set"},
		{[]string{"--set", "buffer.alpha=NaN"}, "buffer.alpha"},
		{[]string{"--set", "routing.mode=teleport"}, "routing.mode"},
		{[]string{"--set", "run.sim_time=forever"}, "run.sim_time"},
		{[]string{"--set", "topology.host_link=-5G"}, "topology.host_link"},
		{[]string{"--set", "workload.load=1.5"}, "workload.load"},
		{[]string{"--set", "schedule.kind=nope"}, "schedule"},
		{[]string{"--set", "buffer.policy=lifo"}, "buffer.policy"},
		{[]string{"--set", "buffer.alpha=0"}, "buffer.alpha"},
		{[]string{"--set", "buffer.alpha=-0.5"}, "buffer.alpha"},
		{[]string{"--set", "buffer.policy=abm", "--set", "buffer.alpha_unsched=0"}, "buffer.alpha_unsched"},
		{[]string{"--set", "buffer.policy=cs", "--set", "buffer.alpha=1"}, "buffer.alpha"},
		{[]string{"--set", "buffer.policy=lqd", "--set", "buffer.flip=0.1"}, "buffer.flip"},
		{[]string{"--set", "buffer.policy=credence", "--set", "buffer.flip=2"}, "buffer.flip"},
		{[]string{"--set", "buffer.policy=credence", "--set", "buffer.credence_model=/does/not/exist"}, "buffer.credence_model"},
		{[]string{"--set", "buffer.credence_model=/does/not/exist"}, "buffer.credence_model"},
		{[]string{"--set", "buffer.policy=cs", "--set", "buffer.lossless=0"}, "buffer.lossless"},
		{[]string{"--set", "buffer.policy=lqd", "--set", "buffer.lossless=0"}, "buffer.lossless"},
		{[]string{"--set", "buffer.policy=reverie", "--set", "buffer.lossless=0"}, "buffer.lossless"},
		{[]string{"--set", "workload.flows_file=/does/not/exist"}, "workload.flows_file"},
		{[]string{"--config", "/does/not/exist.toml"}, "config"},
		{[]string{"--set", "run.sample_interval=1ps"}, "run.sample_interval"},
		{[]string{"--set", "run.series_interval=1ps"}, "run.series_interval"},
		{[]string{"--set", "workload.pattern=matrix"}, "workload.matrix"},
		{[]string{"--set", "workload.matrix=skew:0.5"}, "workload.matrix"},
		{[]string{"--set", "workload.pattern=matrix", "--set", "workload.matrix=skew:2"}, "workload.matrix"},
		{[]string{"--set", "workload.pattern=matrix", "--set", "workload.matrix=/does/not/exist"}, "workload.matrix"},
		{[]string{"--set", "workload.incast_rate=5"}, "workload.incast_senders"},
		{[]string{"--set", "workload.incast_senders=2"}, "workload.incast_bytes"},
		{[]string{"--set", "workload.incast_senders=2", "--set", "workload.incast_bytes=1KB"}, "workload.incast_rate"},
		{[]string{"--set", "workload.incast_senders=2", "--set", "workload.incast_bytes=1KB", "--set", "workload.incast_rate=NaN"}, "workload.incast_rate"},
		{[]string{"--set", "workload.incast_senders=200", "--set", "workload.incast_bytes=1KB", "--set", "workload.incast_rate=1"}, "workload.incast_senders"},
		{[]string{"--set", "workload.incast_senders=-1"}, "workload.incast_senders"},
		{[]string{"--set", "run.fct_buckets="}, "run.fct_buckets"},
		{[]string{"--set", "run.fct_buckets=1MB,100KB"}, "run.fct_buckets"},
		{[]string{"--set", "run.fct_buckets=0,1MB"}, "run.fct_buckets"},
		{[]string{"--set", "run.fct_buckets=100KB,x"}, "run.fct_buckets"},
		{[]string{"--set", "workload.sizes=1B", "--set", "workload.load=1"}, "flows expected"},
		{[]string{"--set", "topology.tors=100000"}, "topology.tors"},
		{[]string{"--set", "topology.hosts_per_tor=2000000"}, "topology.hosts_per_tor"},
		{[]string{"--set", "topology.tors=8192", "--set", "topology.hosts_per_tor=200"}, "topology.hosts_per_tor"},
		{[]string{"--set", "workload.incast_senders=2", "--set", "workload.incast_bytes=1KB", "--set", "workload.incast_rate=1e9"}, "flows expected"},
		{[]string{"--set", "schedule.kind=vermilion"}, "schedule.demand"},
		{[]string{"--set", "schedule.kind=bvn"}, "schedule.demand"},
		{[]string{"--set", "schedule.kind=bvn", "--set", "schedule.demand=random:7", "--set", "schedule.k=1"}, "schedule.k"}, // cycle too short
		{[]string{"--set", "schedule.demand=ring"}, "schedule.demand"},                                                       // rotornet reads no demand
		{[]string{"--set", "schedule.kind=vermilion", "--set", "schedule.demand=skew:7"}, "schedule.demand"},
		{[]string{"--set", "schedule.kind=vermilion", "--set", "schedule.demand=ring", "--set", "schedule.gamma=NaN"}, "schedule.gamma"},
		{[]string{"--set", "schedule.kind=vermilion", "--set", "schedule.demand=ring", "--set", "schedule.gamma=-2"}, "schedule.gamma"},
		{[]string{"--set", "schedule.kind=vermilion", "--set", "schedule.demand=ring", "--set", "schedule.k=3", "--set", "schedule.l=2", "--set", "schedule.gamma=3"}, "schedule."},
		{[]string{"--set", "schedule.kind=vermilion", "--set", "schedule.demand=ring", "--set", "schedule.k=x"}, "schedule.k"},
		{[]string{"--set", "schedule.kind=mars", "--set", "schedule.buffer=-1MB"}, "schedule.buffer"},
		{[]string{"--set", "schedule.kind=mars", "--set", "schedule.delay=1ps"}, "schedule.delay"},
		{[]string{"--set", "schedule.delay=1ms"}, "schedule.delay"}, // rotornet
		{[]string{"--set", "schedule.kind=opera", "--set", "schedule.degree=4"}, "schedule.degree"},
		{[]string{"--set", "schedule.file=/does/not/exist", "--set", "schedule.k=2"}, "schedule.k"},
		// Checked up front, before the run (was exit 1 when a flow started).
		{[]string{"--set", "transport.cc=bogus"}, `config: transport.cc: unknown congestion control "bogus"`},
		{[]string{"--set", "transport.cc=powertcp", "--set", "transport.cc_params=gamma=1.5"}, `config: transport.cc_params: powertcp: gamma = "1.5": must be in (0, 1]`},
		{[]string{"--set", "transport.cc=powertcp", "--set", "transport.cc_params=g=0.5"}, `config: transport.cc_params: powertcp: unknown parameter "g"`},
		{[]string{"--set", "transport.cc=powertcp", "--set", "transport.cc_params=gamma"}, `config: transport.cc_params:`},
		{[]string{"--set", "transport.cc=fixed", "--set", "transport.cc_params=gamma=1"}, `config: transport.cc_params: "gamma=1": is read only with transport.cc`},
		{[]string{"--set", "transport.cc=hpcc", "--set", "routing.mode=earliest"}, `config: transport.cc: hpcc reads INT records`},
		{[]string{"--set", "transport.cc=dctcp", "--set", "buffer.red_max_p=0.1"}, `config: buffer.red_max_p: RED marking is for a law that assumes it (dcqcn), not transport.cc dctcp`},
		{[]string{"--set", "transport.cc=dcqcn", "--set", "buffer.red_max=10KB"}, `config: buffer.red_max: set both buffer.red_min and buffer.red_max`},
		{[]string{"--set", "transport.kind=window", "--set", "buffer.prebuffer=-1us"}, `config: buffer.prebuffer:`},
		{[]string{"--set", "topology.kind=leafspine", "--set", "buffer.prebuffer=600us"}, `config: buffer.prebuffer: prebuffering resizes VOQs`},
		{[]string{"--set", "buffer.prebuffer_big=10pkt"}, `config: buffer.prebuffer_big: "10pkt": is read only with buffer.prebuffer set`},
		{[]string{"--set", "run.watch_pair=1,1"}, `config: run.watch_pair:`},
		{[]string{"--set", "transport.kind=linerate", "--set", "transport.cc=none"}, `config: transport.cc: "none": is read only with transport.kind window or pull`},
		// Range-checked before the 32-bit fields (wrapped to 1500, 0, negative).
		{[]string{"--set", "topology.mtu=4294968796"}, `config: topology.mtu: "4294968796": must be at most 65536`},
		{[]string{"--set", "topology.mtu=4294967296"}, `config: topology.mtu: "4294967296"`},
		{[]string{"--set", "topology.mtu=2147483648"}, `config: topology.mtu: "2147483648"`},
		{[]string{"--set", "transport.ack_size=4294967296"}, `config: transport.ack_size: "4294967296": must be at most topology.mtu = 1500`},
		// An explicit zero is not the default.
		{[]string{"--set", "transport.window=0"}, `config: transport.window: "0": must be positive`},
		{[]string{"--set", "transport.min_rto=0"}, `config: transport.min_rto: "0": must be positive`},
		{[]string{"--set", "run.sample_interval=0"}, `config: run.sample_interval: "0": must be positive`},
		{[]string{"--set", "run.series_interval=0"}, `config: run.series_interval: "0": must be positive`},
		{[]string{"--set", "schedule.slot=0"}, `config: schedule.slot: "0": must be positive`},
		{[]string{"--set", "routing.mode=paths", "--set", "routing.bulk=0"}, `config: routing.bulk: "0": must be positive`},
		{[]string{"--set", "routing.mode=rotorlb", "--set", "routing.relay_limit=0"}, `config: routing.relay_limit: "0": must be positive`},
		{[]string{"--set", "buffer.size=0"}, `config: buffer.size: "0": must be positive`},
		{[]string{"--set", "buffer.packet_switch=0"}, `config: buffer.packet_switch: "0": must be positive`},
		{[]string{"--set", "buffer.ecn_threshold=0"}, `config: buffer.ecn_threshold: "0": must be positive`},
		{[]string{"--set", "workload.duration=0"}, `config: workload.duration: "0": must be positive`},
		// Keys the routing mode or transport kind does not read.
		{[]string{"--set", "routing.mode=direct", "--set", "routing.paths_k=4"}, `config: routing.paths_k: "4": is read only with routing.mode paths or vlb-paths, not direct`},
		{[]string{"--set", "routing.mode=direct", "--set", "routing.relay_limit=10KB"}, `config: routing.relay_limit: "10KB": is read only with routing.mode rotorlb or paths, not direct`},
		{[]string{"--set", "routing.mode=paths", "--set", "routing.multipath=ecmp"}, `config: routing.multipath: "ecmp": is read only with routing.paths_k > 1`},
		{[]string{"--set", "transport.kind=window", "--set", "transport.pull_depth=2"}, `config: transport.pull_depth: "2": is read only with transport.kind pull or ndp, not window`},
		{[]string{"--set", "transport.kind=ndp", "--set", "transport.cc=dctcp"}, `config: transport.cc: "dctcp": is read only with transport.kind window or pull, not ndp`},
		{[]string{"--set", "transport.kind=ndp", "--set", "transport.ndp_window=-1"}, `config: transport.ndp_window: "-1": must be at least 0`},
		// No packet fits in a day (ran for minutes).
		{[]string{"--set", "schedule.slot=1ps"}, `config: schedule.slot: "1ps": no packet fits in a day`},
		{[]string{"--set", "schedule.kind=sirius"}, `config: schedule.slot: (empty: sirius's default, 384ns): no packet fits in a day`},
		// Flow sizes beyond workload.MaxFlowBytes (1 TB): a constant 1 PB
		// used to allocate the windowed receiver's bitmap for the whole flow.
		{[]string{"--set", "workload.sizes=1000TB"}, "workload.sizes"},
		{[]string{"--set", "workload.sizes=9223372036854775807"}, "workload.sizes"},
		{[]string{"--set", "workload.incast_senders=2", "--set", "workload.incast_bytes=2TB", "--set", "workload.incast_rate=1"}, "workload.incast_bytes"},
		{[]string{"--set", "schedule.slot=9000000s"}, "schedule.slot"},
		{[]string{"--set", "schedule.slot=3000000s"}, "schedule.slot"}, // × period 2 > rotor.MaxCycle
	}
	dir := t.TempDir()
	// A schedule file (4 ToRs, 1 switch, 100 µs slots), one with 1 ps
	// slots, and a flows file: settings beside them that they override.
	sched, tiny, flows := simFiles(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "schedule.file=" + sched, "--set", "schedule.slot=10us", "--set", "schedule.reconf=1us", "--set", "schedule.kind=opera", "--set", "topology.uplinks=3"}, `config: schedule.kind: "opera": is a generator parameter, unused with schedule.file`},
		{[]string{"--set", "schedule.file=" + sched, "--set", "schedule.slot=10us"}, `config: schedule.slot: "10us": is a generator parameter, unused with schedule.file`},
		{[]string{"--set", "schedule.file=" + sched, "--set", "schedule.reconf=1us"}, `config: schedule.reconf: "1us": is a generator parameter`},
		{[]string{"--set", "schedule.file=" + sched, "--set", "schedule.seed=6"}, `config: schedule.seed: "6": is a generator parameter`},
		{[]string{"--set", "schedule.file=" + sched, "--set", "topology.uplinks=3"}, `config: topology.uplinks: "3": disagrees with schedule.file ` + sched + `: its U (circuit switches, uplinks per ToR) is 1`},
		{[]string{"--set", "schedule.file=" + sched, "--set", "topology.tors=8"}, `config: topology.tors: "8": disagrees with schedule.file ` + sched + `: its n (ToRs) is 4`},
		{[]string{"--set", "schedule.file=" + tiny}, `config: schedule.file: ` + tiny + `: no packet fits in a day`},
		{[]string{"--set", "workload.flows_file=" + flows, "--set", "workload.load=0.5"}, `config: workload.load: "0.5": is a workload generator parameter, unused with workload.flows_file`},
		{[]string{"--set", "workload.flows_file=" + flows, "--set", "workload.sizes=1MB"}, `config: workload.sizes: "1MB": is a workload generator parameter`},
	} {
		cases = append(cases, struct {
			args []string
			want string
		}{c.args, c.want})
	}
	// Bad input files: each is written, then given to its key.
	for _, f := range []struct{ key, name, text string }{
		// Matrix files that are not 8×8 demand matrices (8 ToRs by default).
		{"workload.matrix", "ragged.txt", "0 1\n1 0 1\n"},
		{"workload.matrix", "small.txt", "0 1\n1 0\n"},
		{"workload.matrix", "nan.txt", strings.Repeat("0 1 1 1 1 1 1 NaN\n", 8)},
		{"workload.matrix", "negative.txt", strings.Repeat("0 1 1 1 1 1 1 -1\n", 8)},
		{"workload.matrix", "zero.txt", strings.Repeat("0 0 0 0 0 0 0 0\n", 8)},
		{"workload.matrix", "empty.txt", ""},
		// Flow files whose sizes or starts overflow: MaxInt64 bytes panicked
		// in makeslice, 1 PB ran out of memory, and a start that rounds past
		// maxNanos overflowed to a negative FCT.
		{"workload.flows_file", "maxbytes.flows", "0 3 9223372036854775807 0\n"},
		{"workload.flows_file", "pb.flows", "0 3 1000000000000000 0\n"},
		{"workload.flows_file", "start.flows", "0 3 1000 9223372036854775.0\n"},
		// Model files of Credence's oracle: not a model, cut short.
		{"buffer.credence_model", "garbage.model", "\x00\xff not a model\n"},
		{"buffer.credence_model", "trunc.model", "rdcn-forest 1\ntree\nsplit queue 0.5 1 2\nleaf 0\n"},
	} {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"--set", f.key + "=" + path}
		if f.key == "workload.matrix" {
			args = append([]string{"--set", "workload.pattern=matrix"}, args...)
		}
		if f.key == "buffer.credence_model" {
			args = append([]string{"--set", "buffer.policy=credence"}, args...)
		}
		cases = append(cases, struct {
			args []string
			want string
		}{args, f.key})
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		outDir := t.TempDir()
		code := run(append([]string{"rdcn", "simulate", "-o", filepath.Join(outDir, "x")}, c.args...), &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", c.args, code, msg, c.want)
		}
		if left, _ := os.ReadDir(outDir); len(left) != 0 {
			t.Errorf("%v: left %v behind", c.args, left)
		}
	}
}

// simFiles writes into dir a RotorNet schedule file of 4 ToRs and 1 switch
// (100 µs slots, 10 µs nights), the same with 1 ps slots, and a flows file.
func simFiles(t *testing.T, dir string) (sched, tiny, flows string) {
	t.Helper()
	sc, err := schedules.Build("rotornet", schedules.Params{Nodes: 4, Uplinks: 1})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string) string {
		var b bytes.Buffer
		if err := rotor.WriteJSON(&b, sc); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sched = write("sched.json")
	sc.Slot, sc.Reconf = rotor.Picosecond, 0
	tiny = write("tiny.json")
	flows = filepath.Join(dir, "f.flows")
	if err := os.WriteFile(flows, []byte("0 5 1000 0\n5 10 3000 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return sched, tiny, flows
}

// TestSimulateGoodInput: settings next to the bad ones of
// TestSimulateBadInput that must still run: a key at its default where it
// is not read, values that agree with a schedule file, small slots whose
// day carries a packet, large MTUs.
func TestSimulateGoodInput(t *testing.T) {
	dir := t.TempDir()
	sched, _, flows := simFiles(t, dir)
	for i, args := range [][]string{
		{"--set", "transport.kind=pull", "--set", "transport.cc=none", "--set", "schedule.kind=opera", "--set", "routing.mode=paths"},
		{"--set", "transport.kind=linerate", "--set", "transport.cc=fixed"},
		{"--set", "topology.mtu=9000", "--set", "transport.ack_size=9000", "--set", "transport.kind=window"},
		{"--set", "topology.mtu=65536"},
		{"--set", "transport.kind=window", "--set", "transport.window=1pkt", "--set", "transport.min_rto=100us", "--set", "run.sample_interval=10us", "--set", "run.series_interval=100us"},
		{"--set", "schedule.slot=2us", "--set", "schedule.reconf=0"},
		{"--set", "schedule.slot=10us", "--set", "schedule.reconf=8.8us"},
		{"--set", "schedule.kind=sirius", "--set", "topology.circuit_link=100Gbps"},
		{"--set", "routing.mode=rotorlb", "--set", "routing.relay_limit=10KB"},
		{"--set", "routing.mode=paths", "--set", "schedule.kind=opera", "--set", "routing.paths_k=2", "--set", "routing.multipath=ecmp", "--set", "routing.bulk=1B"},
		{"--set", "schedule.file=" + sched, "--set", "schedule.kind=rotornet", "--set", "topology.tors=4", "--set", "topology.uplinks=1"},
		{"--set", "schedule.file=" + sched, "--set", "workload.flows_file=" + flows, "--set", "workload.load=0.2"},
	} {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(dir, fmt.Sprint("out", i))
		if code := run(append([]string{"rdcn", "simulate", "-q", "-o", out, "--set", "run.sim_time=1ms"}, args...), &stdout, &stderr); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr.String())
		}
	}
}

func TestSimulateTOML(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "run.toml")
	toml := "[topology]\ntors = 6\nhosts_per_tor = 1\nuplinks = 1\n[run]\nsim_time = \"1ms\"\ncheck = true\n[routing]\nmode = \"direct\"\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(dir, "out")
	if code := run([]string{"rdcn", "simulate", "--config", cfg, "--set", "routing.mode=vlb", "-o", out, "--plot"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s fabric.Summary
	b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range s.Config {
		got[kv[0]] = kv[1]
	}
	want := map[string]string{"topology.tors": "6", "routing.mode": "vlb", "run.sim_time": "1ms"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (file, then --set)", k, got[k], v)
		}
	}
	for _, f := range []string{"fct_cdf.png", "utilization.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the key table of docs/simulate.md from scenario.Keys()")

// keyTable is the markdown table of scenario.Keys(): the one source of every
// key's default and meaning, which --keys prints too.
func keyTable() string {
	var b strings.Builder
	b.WriteString("| key | default | meaning |\n|---|---|---|\n")
	for _, k := range scenario.Keys() {
		def := "(empty)"
		if k.Default != "" {
			def = "`" + k.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.Name, def, k.Doc)
	}
	b.WriteString("\nThe choices of the keys that select a component (the registries of\npackage fabric, also listed by `rdcn simulate --keys`):\n\n| key | choice | what it is | keys only it reads (default) |\n|---|---|---|---|\n")
	for _, r := range scenario.Registries() {
		for _, e := range r.Entries {
			var reads []string
			for _, k := range scenario.Params(e) {
				def := "(empty)"
				if k.Default != "" {
					def = "`" + k.Default + "`"
				}
				reads = append(reads, "`"+k.Name+"` = "+def)
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", r.Key, e.Name, e.Doc, strings.Join(reads, ", "))
		}
	}
	b.WriteString(transportTable())
	return b.String()
}

// transportTable is which keys each transport reads, for which flows, on
// which topology (fabric.FlowKeys, fabric.TransportFlows), and what each
// topology does with it: runs it, or refuses it with the line Build
// gives (a default run with topology.kind and transport.kind set).
func transportTable() string {
	var b strings.Builder
	b.WriteString("\nWhat each transport reads (`transport.cc` and the other keys of its flows are refused where no flow of the run reads them; `TestEveryKeyReadOrRefused` runs every combination):\n\n")
	b.WriteString("| `transport.kind` | topologies | `transport.cc` drives | `buffer.policy` decides for | keys read for pulled flows | keys read for the other flows |\n|---|---|---|---|---|---|\n")
	code := func(keys []string) string {
		if len(keys) == 0 {
			return "none"
		}
		return "`" + strings.Join(keys, "`, `") + "`"
	}
	for _, kind := range fabric.Transports().Names() {
		var topos []string
		for _, topo := range scenario.Topologies.Names() {
			keys := []string{"topology.kind=" + topo, "transport.kind=" + kind, "run.sim_time=1ms"}
			sp, err := scenario.With(keys...)
			if err == nil {
				_, err = sp.Build()
			}
			if err != nil {
				topos = append(topos, fmt.Sprintf("%s: refused (`%v`)", topo, err))
			} else {
				topos = append(topos, topo)
			}
		}
		law, policy := fabric.TransportFlows(kind)
		pulled, other := fabric.FlowKeys(kind)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", kind, strings.Join(topos, "; "), law, policy, code(pulled), code(other))
	}
	return b.String()
}

// TestSimulateDocs checks that the key table of docs/simulate.md is
// scenario.Keys(), key for key (go test -run TestSimulateDocs -update-docs
// rewrites it).
func TestSimulateDocs(t *testing.T) {
	const path, begin, end = "../../../docs/simulate.md", "<!-- keys: generated from scenario.Keys -->\n", "<!-- /keys -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Skip("docs/simulate.md not found:", err)
	}
	before, rest, ok1 := strings.Cut(string(doc), begin)
	table, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q section", path, begin, end)
	}
	if want := keyTable(); table != want {
		if *updateDocs {
			if err := os.WriteFile(path, []byte(before+begin+want+end+after), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the key table of %s is not scenario.Keys() (run go test ./cmd/rdcn/app -run TestSimulateDocs -update-docs):\n%s",
			path, cmp.Diff(strings.Split(table, "\n"), strings.Split(want, "\n")))
	}
}

func TestDemo(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rdcn", "demo", "--sim-time", "2ms"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"rotornet", "opera", "static"} {
		if !strings.Contains(stdout.String(), "\n"+name+" ") {
			t.Errorf("demo table has no %s row:\n%s", name, stdout.String())
		}
	}
}

// TestSimulateCheckFlag: --check turns on run.check (echoed in summary.json).
func TestSimulateCheckFlag(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "simulate", "--check", "--set", "run.check=false", "--set", "run.sim_time=1ms", "-q", "-o", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct{ Config [][2]string }
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sum.Config, [2]string{"run.check", "true"}) {
		t.Errorf("summary.json's config does not hold run.check = true: %v", sum.Config)
	}
}

// TestSimulateBuckets: run.fct_buckets given on the command line (its
// comma is not a --set separator) names the buckets of summary.json by
// their edges, and each bucket counts the completed flows of flows.csv in
// its size range.
func TestSimulateBuckets(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "simulate", "--set", "run.fct_buckets=10KB,1MB", "--set", "run.sim_time=5ms", "-o", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		FCT []struct {
			Bucket string `json:"bucket"`
			FCTus  struct {
				Count int `json:"count"`
			} `json:"fct_us"`
		} `json:"fct"`
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	var names []string
	for _, b := range sum.FCT {
		names = append(names, b.Bucket)
		got[b.Bucket] = b.FCTus.Count
	}
	if diff := cmp.Diff([]string{"<10KB", "10KB-1MB", ">=1MB", "all"}, names); diff != "" {
		t.Fatalf("bucket names (-want +got):\n%s", diff)
	}
	f, err := os.Open(filepath.Join(out, "flows.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"<10KB": 0, "10KB-1MB": 0, ">=1MB": 0, "all": 0}
	for _, row := range rows[1:] { // id,src,dst,bytes,start_us,done,…
		if row[5] != "true" {
			continue
		}
		size, _ := strconv.ParseInt(row[3], 10, 64)
		switch {
		case size < 10_000:
			want["<10KB"]++
		case size < 1_000_000:
			want["10KB-1MB"]++
		default:
			want[">=1MB"]++
		}
		want["all"]++
	}
	if want["all"] == 0 {
		t.Fatal("no flow completed")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flows per bucket, flows.csv (-) vs summary.json (+):\n%s", diff)
	}
}

// TestSimulateOutputDir: an output directory the results could not go to
// is refused before the run (exit 2, one line, nothing written), and a
// plot with no completed flow is still drawn.
func TestSimulateOutputDir(t *testing.T) {
	tiny := []string{"--set", "topology.tors=4", "--set", "topology.uplinks=1", "--set", "topology.hosts_per_tor=2", "--set", "run.sim_time=1ms", "-q"}
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	taken := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(taken, "summary.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out, want string
		extra     []string
	}{
		{file, `output: "` + file + `" exists and is not a directory`, nil},
		{"", "output: empty directory name", nil},
		{taken, "summary.json\" is a directory", nil},
		{filepath.Join(dir, "new"), `arguments: unexpected "extra"`, []string{"extra"}},
	} {
		var stdout, stderr bytes.Buffer
		args := append(append(append([]string{"rdcn", "simulate", "-o", c.out}, tiny...), "--plot"), c.extra...)
		code := run(args, &stdout, &stderr)
		if msg := stderr.String(); code != 2 || !isOneErrorLine(msg) || !strings.Contains(msg, c.want) {
			t.Errorf("-o %q %v: exit %d, stderr %q; want exit 2 and one line with %q", c.out, c.extra, code, msg, c.want)
		}
	}
	if names, _ := os.ReadDir(taken); len(names) != 1 {
		t.Errorf("%s holds %d entries after the refused run, want only summary.json", taken, len(names))
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("a refused run created its output directory: %v", err)
	}
	// A run refused for its configuration leaves no parent directories.
	var so, se bytes.Buffer
	if code := run(append(append([]string{"rdcn", "simulate", "-o", filepath.Join(dir, "a", "b", "c")}, tiny...), "--set", "topology.tors=1"), &so, &se); code != 2 {
		t.Errorf("tors=1: exit %d, want 2", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("a refused run created the parents of its output directory: %v", err)
	}
	out := filepath.Join(dir, "empty-plot")
	var stdout, stderr bytes.Buffer
	if code := run(append(append([]string{"rdcn", "simulate", "-o", out}, tiny...), "--plot"), &stdout, &stderr); code != 0 {
		t.Fatalf("--plot with no completed flow: exit %d: %s", code, stderr.String())
	}
	var s fabric.Summary
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil || json.Unmarshal(b, &s) != nil || s.Flows.Completed != 0 {
		t.Fatalf("want a run with no completed flow (summary: %v, completed %d)", err, s.Flows.Completed)
	}
	if fi, err := os.Stat(filepath.Join(out, "fct_cdf.png")); err != nil || fi.Size() == 0 {
		t.Errorf("fct_cdf.png: %v", err)
	}
}

// TestPlotNotLeftBehind: when a table cannot be written, its plot is not
// written either, and every command refuses stray arguments.
func TestPlotNotLeftBehind(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "p.svg")
	for _, args := range [][]string{
		{"rdcn", "tradeoff", "--tors", "4", "--uplinks", "1", "--exact=false", "--plot", plot, "-o", filepath.Join(dir, "nodir", "x.txt")},
		{"rdcn", "predict", "--tors", "8", "--samples", "1", "--factors", "0", "--gammas", "2", "--plot", plot, "-o", filepath.Join(dir, "nodir", "x.txt")},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || !isOneErrorLine(stderr.String()) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args[1], code, stderr.String())
		}
		if _, err := os.Stat(plot); !os.IsNotExist(err) {
			t.Errorf("%v: the plot was written although the table failed", args[1])
			os.Remove(plot)
		}
	}
	for _, args := range [][]string{
		{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "pos"},
		{"rdcn", "predict", "--tors", "8", "--samples", "1", "pos"},
		{"rdcn", "demo", "pos"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || !isOneErrorLine(stderr.String()) || !strings.Contains(stderr.String(), `arguments: unexpected "pos"`) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming the stray argument", args, code, stderr.String())
		}
	}
}

// TestSimulateInterrupted: a run whose context is done before it starts
// (as after Ctrl-C during schedule building) exits with status 130, one
// line, and writes nothing.
func TestSimulateInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "o")
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "simulate", "--set", "schedule.kind=opera", "--set", "topology.tors=64", "-o", out}
	if code := runContext(ctx, args, &stdout, &stderr); code != exitInterrupted || !isOneErrorLine(stderr.String()) ||
		!strings.Contains(stderr.String(), "interrupted while building") {
		t.Errorf("exit %d, stderr %q; want %d and one line", code, stderr.String(), exitInterrupted)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists after an interrupted build", out)
	}
}

// TestSimulateRerunReplaces: the output directory holds exactly the last
// run's files (a rerun without --plot leaves no plots behind), and a
// directory holding other files is refused before the run.
func TestSimulateRerunReplaces(t *testing.T) {
	tiny := []string{"--set", "topology.tors=4", "--set", "topology.uplinks=1", "--set", "topology.hosts_per_tor=2", "--set", "run.sim_time=1ms", "-q"}
	out := filepath.Join(t.TempDir(), "o")
	for _, plot := range []bool{true, false} {
		args := append([]string{"rdcn", "simulate", "-o", out}, tiny...)
		if plot {
			args = append(args, "--plot")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		_, err := os.Stat(filepath.Join(out, "fct_cdf.png"))
		if plot == os.IsNotExist(err) {
			t.Errorf("plot %v: fct_cdf.png present = %v", plot, err == nil)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"rdcn", "simulate", "-o", out}, tiny...), &stdout, &stderr)
	if !isOneErrorLine(stderr.String()) || code != 2 || !strings.Contains(stderr.String(), `"notes.txt"`) {
		t.Errorf("dir with notes.txt: exit %d, stderr %q; want 2 and one line naming it", code, stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("notes.txt: %q, %v", b, err)
	}
}

// TestSimulateWarnsUnfinished: when fewer than 95 % of the measured flows
// complete, stderr says so in one line, and the summary counts them.
func TestSimulateWarnsUnfinished(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o")
	// 1 MB flows at 50 % load arriving for 1.6 ms of a 2 ms run: few finish.
	args := []string{"rdcn", "simulate", "-o", out, "-q", "--set", "topology.tors=8", "--set", "run.sim_time=2ms",
		"--set", "workload.sizes=1MB", "--set", "workload.load=0.5"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s fabric.Summary
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatal(err)
	}
	m := s.Measured
	if m.Started == 0 || m.Unfinished != m.Started-m.Completed || float64(m.Completed) >= 0.95*float64(m.Started) {
		t.Fatalf("measured %+v: want some flows and fewer than 95 %% complete", m)
	}
	warn := fmt.Sprintf("only %d of %d measured flows", m.Completed, m.Started)
	if n := strings.Count(stderr.String(), warn); n != 1 {
		t.Errorf("stderr %q: want one line with %q", stderr.String(), warn)
	}
}

// TestSimulateWarnsWithCause: the stderr line on unfinished flows names
// the diagnosis summary.json carries (a 30 MB flow cannot finish in 5 ms
// even alone: stopped by run.sim_time, advice to lengthen it), and a run
// whose law is refused exits 2 naming transport.cc.
func TestSimulateWarnsWithCause(t *testing.T) {
	dir := t.TempDir()
	flows := filepath.Join(dir, "one.flows")
	if err := os.WriteFile(flows, []byte("0 4 30000000 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "simulate", "-q", "--set", "workload.flows_file=" + flows, "--set", "run.sim_time=5ms", "-o", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cause: sim_time") || !strings.Contains(stderr.String(), "would finish only by 24.0039ms: lengthen run.sim_time") {
		t.Errorf("warning without the diagnosis: %q", stderr.String())
	}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Unfinished *struct{ Cause string } `json:"unfinished_diagnosis"`
	}
	if err := json.Unmarshal(raw, &sum); err != nil || sum.Unfinished == nil || sum.Unfinished.Cause != "sim_time" {
		t.Errorf("summary.json's diagnosis: %+v (%v)", sum.Unfinished, err)
	}
	stderr.Reset()
	args = []string{"rdcn", "simulate", "-q", "--set", "transport.cc=powertcp", "--set", "run.sim_time=1ms", "-o", filepath.Join(dir, "refused")}
	if code := run(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "transport.cc: applies to the flows that are not pulled") {
		t.Errorf("transport.cc on an all-pulled run: exit %d, %q", code, stderr.String())
	}
}

// TestSimulateConsoleLabels: the first line states the run's scale; a
// leaf-spine run prints no circuit lines (it has no circuits); the qct
// row's values sit under the header's columns (count under done, the
// unfinished queries under unfinished, the QCT percentiles under the FCT
// percentiles, no slowdown).
func TestSimulateConsoleLabels(t *testing.T) {
	incast := []string{"--set", "workload.incast_senders=3", "--set", "workload.incast_bytes=10KB", "--set", "workload.incast_rate=2000",
		"--set", "run.sim_time=2ms", "--set", "workload.load=0.1"}
	for _, tc := range []struct {
		topology []string
		scale    string
		circuits bool
	}{
		{[]string{"--set", "topology.kind=leafspine", "--set", "topology.leaves=2"}, "scale: leaf-spine of 2 leaves × 4 hosts (8 hosts at 10Gbps), 2 spines", false},
		{[]string{"--set", "topology.tors=4", "--set", "topology.uplinks=3"}, "scale: 4 ToRs × 4 hosts (16 hosts at 10Gbps), 3 uplinks of 10Gbps", true},
	} {
		out := filepath.Join(t.TempDir(), "o")
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"rdcn", "simulate", "-o", out}, tc.topology...), incast...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.topology, code, stderr.String())
		}
		lines := strings.Split(stdout.String(), "\n")
		if !strings.HasPrefix(lines[0], tc.scale) || !strings.Contains(lines[0], "flows at load 0.1 plus incast") || !strings.HasSuffix(lines[0], "starting in the first 1.6ms of 2ms simulated") {
			t.Errorf("%v: first line %q, want the scale %q…", tc.topology, lines[0], tc.scale)
		}
		if got := strings.Contains(stdout.String(), "circuit"); got != tc.circuits {
			t.Errorf("%v: prints circuit lines: %v, want %v:\n%s", tc.topology, got, tc.circuits, stdout.String())
		}
		var s fabric.Summary
		b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
		if err := json.Unmarshal(b, &s); err != nil || s.Queries == nil || s.Queries.Started == 0 {
			t.Fatalf("%v: no queries in summary.json (%v)", tc.topology, err)
		}
		var header, qct []string
		for _, l := range lines {
			if strings.HasPrefix(l, "bucket ") {
				header = strings.Fields(l)
			}
			if strings.HasPrefix(l, "qct ") {
				row, _, _ := strings.Cut(l, "(")
				qct = strings.Fields(row)
			}
		}
		want := []string{"qct", strconv.Itoa(s.Queries.QCTus.Count), strconv.Itoa(s.Queries.Started - s.Queries.Completed),
			fmtNum(s.Queries.QCTus.P50), fmtNum(s.Queries.QCTus.P99), fmtNum(s.Queries.QCTus.P999), "-", "-"}
		if len(header) != len(want) || !slices.Equal(qct, want) {
			t.Errorf("%v: qct row %q under header %q, want %q", tc.topology, qct, header, want)
		}
	}
}
