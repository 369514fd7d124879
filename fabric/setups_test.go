package fabric_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// The engine tests of this file (and of designed_test.go, settle_test.go
// and the benchmarks) build their setups from configuration keys with
// package scenario, which imports fabric: they live in the external test
// package, and export_test.go gives them what they inspect inside the
// engine.

// specWith returns a Spec with the key=value overrides applied.
func specWith(tb testing.TB, keys ...string) *scenario.Spec {
	tb.Helper()
	s, err := scenario.With(keys...)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// buildSpec resolves a Spec with the given key=value settings on top of
// the defaults.
func buildSpec(tb testing.TB, keys ...string) *scenario.Setup {
	tb.Helper()
	setup, err := specWith(tb, keys...).Build()
	if err != nil {
		tb.Fatal(err)
	}
	return setup
}

// setupFromTOML builds the configuration file path with keys set.
func setupFromTOML(tb testing.TB, path string, keys ...string) *scenario.Setup {
	tb.Helper()
	sp, err := scenario.Load(path, keys...)
	if err != nil {
		tb.Fatal(err)
	}
	setup, err := sp.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return setup
}

// configFromTOML is setupFromTOML's configuration with its own flows.
func configFromTOML(tb testing.TB, path string, keys ...string) fabric.Config {
	tb.Helper()
	setup := setupFromTOML(tb, path, keys...)
	cfg := setup.Config
	cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
	return cfg
}

// simFromTOML is configFromTOML's run as a simulation.
func simFromTOML(tb testing.TB, path string, keys ...string) *fabric.Sim {
	tb.Helper()
	sim, err := fabric.NewSim(configFromTOML(tb, path, keys...))
	if err != nil {
		tb.Fatal(err)
	}
	return sim
}

// policyRuns are small runs in which every kind of switch holds queues: a
// leaf-spine under incast (leaves and spines), RotorNet with RotorLB (rotor
// ToRs: VOQs, circuit day and night) and a hybrid (its packet switch).
var policyRuns = map[string][]string{
	"leafspine": {"topology.kind=leafspine", "topology.leaves=2", "topology.spines=2", "topology.links_per_pair=1",
		"topology.hosts_per_tor=4", "topology.queues_per_port=2", "buffer.size=60KB", "workload.incast_senders=4",
		"workload.incast_bytes=20KB", "workload.incast_rate=2000", "workload.load=0.3", "run.sim_time=3ms"},
	"rotornet": {"topology.tors=8", "topology.hosts_per_tor=2", "schedule.kind=rotornet", "routing.mode=rotorlb",
		"transport.kind=window", "buffer.per_port=4", "workload.load=0.5", "workload.incast_senders=4",
		"workload.incast_bytes=30KB", "workload.incast_rate=2000", "run.sim_time=3ms"},
	"hybrid": {"topology.tors=8", "topology.hosts_per_tor=2", "topology.packet_switch_link=10Gbps",
		"buffer.per_port=4", "buffer.packet_switch=20KB", "workload.load=0.5", "workload.incast_senders=4",
		"workload.incast_bytes=30KB", "workload.incast_rate=2000", "run.sim_time=3ms"},
}

// TestEveryPolicyEverySwitch runs every registered buffer policy in every
// kind of switch with run.check on, which fails the run if a switch's
// counters disagree with a recount of its queues, if the switches' drops
// (refused arrivals and pushed-out packets) are not all the run's drops,
// or if bytes are not conserved. The push-out policies must really push
// out packets somewhere, and every run must drop something (the buffers
// are small on purpose) and deliver data.
func TestEveryPolicyEverySwitch(t *testing.T) {
	for _, name := range tor.PolicyNames() {
		for topo, keys := range policyRuns {
			t.Run(name+"/"+topo, func(t *testing.T) {
				sp := specWith(t, append(keys, "buffer.policy="+name, "run.check=true")...)
				setup, err := sp.Build()
				if name == "protean" && topo == "hybrid" { // the packet switch's ports have one queue
					if ce, ok := err.(*fabric.ConfigError); !ok || ce.Field != "buffer.short_queue" {
						t.Errorf("protean with a one-queue packet switch: error %v, want one about buffer.short_queue", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				cfg := setup.Config
				s, err := fabric.NewSim(cfg)
				if err != nil {
					t.Fatal(err)
				}
				r, err := s.Run()
				if err != nil {
					t.Fatal(err)
				}
				var pushed int64
				for _, tr := range s.Switches() {
					pushed += tr.Switch().PushedOut
					if tr.Switch().Policy().Name() != name {
						t.Fatalf("switch %d runs %s", tr.ID, tr.Switch().Policy().Name())
					}
				}
				if r.DeliveredData == 0 || r.DroppedPackets == 0 {
					t.Errorf("delivered %d B, dropped %d packets; want both", r.DeliveredData, r.DroppedPackets)
				}
				if name == "lqd" && pushed == 0 {
					t.Errorf("lqd pushed out nothing (%d drops)", r.DroppedPackets)
				}
				if name != "lqd" && pushed != 0 {
					t.Errorf("%s is drop-tail but pushed out %d packets", name, pushed)
				}
			})
		}
	}
}

// TestCredenceDefaultModel regenerates the model built into rdcn with the
// documented command's configuration and seed, byte for byte.
func TestCredenceDefaultModel(t *testing.T) {
	setup := setupFromTOML(t, "testdata/credence/train.toml")
	m, q, err := fabric.TrainCredence(setup.Config, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), fabric.CredenceDefault) {
		t.Errorf("the documented training run gives a different model than the built-in one (%d vs %d bytes)", b.Len(), len(fabric.CredenceDefault))
	}
	if q.TP+q.FN == 0 || q.Recall() < 0.5 {
		t.Errorf("training scenario: %d LQD drops, recall %.3f; want drops and a useful model", q.TP+q.FN, q.Recall())
	}
}

// TestCancelStopsPromptly: a cancelled run stops within a few thousand
// events however rarely progress is reported, and what it has is
// consistent (run.check verifies conservation at the stop).
func TestCancelStopsPromptly(t *testing.T) {
	setup := buildSpec(t, "run.sim_time=20ms", "run.check=true", "workload.load=0.5")
	cfg := setup.Config
	cfg.Flows = &fabric.SliceSource{Flows: setup.Flows} // a source is drained by its run
	full, err := fabric.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
	cfg.Context, cfg.ProgressEvery = ctx, 1<<40
	r, err := fabric.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Events > 2*4096 || full.Events < 10*4096 {
		t.Errorf("cancelled run: complete %v after %d events (a full run takes %d); want it stopped within 8192", r.Complete, r.Events, full.Events)
	}
}

// TestNDPOperaMode: schedule.kind=opera routing.mode=paths
// transport.kind=ndp is opera-sim's Opera: flows of at least routing.bulk
// are host-buffered and pulled over RotorLB, the rest run NDP. On the (a)
// Opera setting with routing.bulk = 1 MB, a 2 MB flow is pulled and a
// 30 kB flow is not; both complete with run.check on.
func TestNDPOperaMode(t *testing.T) {
	setup := setupFromTOML(t, "testdata/perf/a-opera.toml", "transport.kind=ndp", "routing.bulk=1MB", "run.check=true", "run.sim_time=20ms")
	cfg := setup.Config
	flows := []workload.Flow{{ID: 0, Src: 0, Dst: 100, Bytes: 2_000_000}, {ID: 1, Src: 1, Dst: 200, Bytes: 30_000}}
	cfg.Flows = &fabric.SliceSource{Flows: flows}
	s, err := fabric.NewSim(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if pulling, ndp, relay := s.Modes(); !pulling || !ndp || relay {
		t.Fatalf("pulling %v, ndp %v, relay %v: want bulk pulled over RotorLB, the rest NDP", pulling, ndp, relay)
	}
	for i, want := range []bool{true, false} {
		if got := s.Pulled(flows[i]); got != want {
			t.Errorf("flow of %d B pulled = %v, want %v", flows[i].Bytes, got, want)
		}
	}
	r, err := fabric.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Flows {
		if !f.Done {
			t.Errorf("flow %d (%d B) did not complete", f.ID, f.Bytes)
		}
	}
}

// TestKSPTableCache: a cache far smaller than the key space serves the
// same paths as one large enough to keep every entry (evicted entries are
// recomputed identically), so path references stay valid.
// benchKSP returns the k-shortest-path table of the (b) performance
// schedule: Opera, 108 ToRs, U = 6, 600 µs slots.
// benchOpera is the Opera schedule of a performance setting: n ToRs, u
// uplinks, slot µs per switch.
// BenchmarkYen: one op is the k = 4 shortest paths of one ToR pair of a
// 108-ToR Opera slice (pairs and epochs cycled), with our Yen and with
// gonum's YenKShortestPaths on the same graph.
// BenchmarkKSPTable: "build" makes the slice graphs of every epoch (what
// the run does up front; the (a) and (b) performance schedules); "hop" is one cached look-up of the next hop
// (what a packet does at every ToR in an unchanged epoch).
// TestKSPFollowAcrossEpochs: a source route is followed into a later epoch
// while its next circuit is still up there, and given up (the packet is
// routed again) where it is down. Switch A keeps its matching; switch B's
// circuits (0→3, 4→2, …) are up in slot 0 only.
// TestPathsK1Unchanged: with paths_k = 1 (the default) the paths mode
// still routes hop by hop on the shortest-path table: the flows.csv of a
// small Opera run is byte-identical to the one rdcn simulate wrote for the
// same configuration before k-shortest paths existed (with the query
// column, added later, appended: 0 for every flow), but for the ideal
// FCT and the slowdown, whose short-last-packet error was fixed later.
func TestPathsK1Unchanged(t *testing.T) {
	setup := setupFromTOML(t, "testdata/ksp/k1-opera.toml")
	r, err := fabric.Run(setup.Config)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	h, rows := r.FlowsCSV()
	if err := stats.WriteCSV(&got, h, rows); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/ksp/k1-opera.flows.csv")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(withoutIdeal(string(want)), withoutIdeal(got.String())); diff != "" {
		t.Errorf("flows.csv (-before +now):\n%s", diff)
	}
}

// withoutIdeal is a flows.csv's lines with the ideal_us and slowdown
// columns (the 8th and 9th) blanked.
func withoutIdeal(csv string) []string {
	lines := strings.Split(csv, "\n")
	for i, l := range lines {
		if f := strings.Split(l, ","); len(f) > 8 {
			f[7], f[8] = "", ""
			lines[i] = strings.Join(f, ",")
		}
	}
	return lines
}
