package fabric_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/scenario"
)

// benchSpec is the performance setting of docs/simulate.md: websearch at
// 20 % load, 10 Gbps, 500 ns propagation, 8 packets of buffer per port.
func benchSpec(b *testing.B, tors, hosts, uplinks int, kind, slot, routing, transport, simTime string) *scenario.Setup {
	b.Helper()
	return buildSpec(b,
		"topology.tors="+itoa(tors), "topology.hosts_per_tor="+itoa(hosts), "topology.uplinks="+itoa(uplinks),
		"topology.link_delay=500ns", "topology.host_delay=500ns",
		"schedule.kind="+kind, "schedule.slot="+slot, "routing.mode="+routing,
		// The TOML files in testdata/perf keep the generators' 10 µs
		// reconfiguration; an explicit slot alone would make it 0.
		"schedule.reconf=10us",
		"buffer.per_port=8", "buffer.policy=cs", "workload.sizes=websearch", "workload.load=0.2",
		// Flows arrive for the whole run, as in testdata/perf.
		"run.sim_time="+simTime, "workload.duration="+simTime, "transport.kind="+transport)
}

func itoa(n int) string { return strconv.Itoa(n) }

// BenchmarkFabric runs the performance settings; one op is one whole run.
// It reports events/s and simulated milliseconds per CPU second. The 100 ms
// runs take seconds each: run with -benchtime 1x.
func BenchmarkFabric(b *testing.B) {
	cases := []struct {
		name                 string
		tors, hosts, uplinks int
		kind, slot, routing  string
		transport, simTime   string
	}{
		{"a-rotornet-rotorlb-pull-10ms", 64, 4, 4, "rotornet", "100us", "rotorlb", "pull", "10ms"},
		{"a-opera-paths-pull-10ms", 64, 4, 4, "opera", "400us", "paths", "pull", "10ms"},
		{"a-rotornet-rotorlb-window-10ms", 64, 4, 4, "rotornet", "100us", "rotorlb", "window", "10ms"},
		{"a-opera-paths-window-10ms", 64, 4, 4, "opera", "400us", "paths", "window", "10ms"},
		{"a-rotornet-rotorlb-pull-100ms", 64, 4, 4, "rotornet", "100us", "rotorlb", "pull", "100ms"},
		{"a-rotornet-rotorlb-pull-200ms", 64, 4, 4, "rotornet", "100us", "rotorlb", "pull", "200ms"},
		{"a-opera-paths-pull-100ms", 64, 4, 4, "opera", "400us", "paths", "pull", "100ms"},
		{"b-rotornet-rotorlb-pull-100ms", 108, 6, 6, "rotornet", "100us", "rotorlb", "pull", "100ms"},
		{"b-opera-paths-pull-100ms", 108, 6, 6, "opera", "600us", "paths", "pull", "100ms"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			setup := benchSpec(b, c.tors, c.hosts, c.uplinks, c.kind, c.slot, c.routing, c.transport, c.simTime)
			benchRuns(b, setup)
		})
	}
}

// benchRuns runs setup b.N times and reports events/s, events per run
// and simulated milliseconds per second.
func benchRuns(b *testing.B, setup *scenario.Setup) {
	b.ReportAllocs()
	b.ResetTimer()
	var events uint64
	simMS := float64(setup.Config.SimTime) / float64(rotor.Millisecond)
	for i := 0; i < b.N; i++ {
		cfg := setup.Config
		cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
		r, err := fabric.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	b.ReportMetric(simMS*float64(b.N)/b.Elapsed().Seconds(), "sim-ms/s")
}

// BenchmarkEarliestTable builds the earliest-arrival next-hop tables of
// the performance schedules.
func BenchmarkEarliestTable(b *testing.B) {
	for _, c := range []struct {
		name                 string
		tors, hosts, uplinks int
		kind, slot           string
	}{
		{"a-rotornet", 64, 4, 4, "rotornet", "100us"},
		{"a-opera", 64, 4, 4, "opera", "400us"},
		{"b-opera", 108, 6, 6, "opera", "600us"},
	} {
		b.Run(c.name, func(b *testing.B) {
			setup := benchSpec(b, c.tors, c.hosts, c.uplinks, c.kind, c.slot, "direct", "window", "1ms")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if routing.NewEarliestTable(context.Background(), setup.Schedule) == nil {
					b.Fatal("table too large")
				}
			}
		})
	}
}

// BenchmarkPerfConfig runs the configuration files of testdata/perf as
// `rdcn simulate --config` does (opera-ndp is a-opera.toml with
// transport.kind = ndp; a-opera-operasim is the documented opera-sim NDP
// comparison); one op is one whole 100 ms run. Run with -benchtime 1x.
func BenchmarkPerfConfig(b *testing.B) {
	for _, c := range []struct {
		name, file string
		keys       []string
	}{
		{"a-opera-ndp", "a-opera.toml", []string{"transport.kind=ndp"}},
		{"a-opera-ndp-20ms", "a-opera.toml", []string{"transport.kind=ndp", "run.sim_time=20ms"}},
		{"a-opera-operasim", "a-opera-operasim.toml", nil},
		{"a-opera-operasim-30ms", "a-opera-operasim.toml", []string{"run.sim_time=30ms"}},
		{"a-opera", "a-opera.toml", nil},
		{"a-rotornet", "a-rotornet.toml", nil},
		{"b-rotornet", "b-rotornet.toml", nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchRuns(b, setupFromTOML(b, "testdata/perf/"+c.file, c.keys...))
		})
	}
}
