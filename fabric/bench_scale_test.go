package fabric_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// BenchmarkScale: RotorNet and Opera at 64, 128, 256 and 1,024 ToRs of 4
// hosts and 4 uplinks, websearch at 30 % load for 100 ms, the a-rotornet
// and a-opera settings otherwise (issue 26: cost linear in hosts). One op
// is one run; it reports the CPU time per delivered packet (cpu-ns/pkt,
// which should stay flat as the fabric grows), the same per injected
// packet (cpu-ns/injected: at 1,024 ToRs a rotor period is a quarter
// (RotorNet) or all (Opera) of the 100 ms, so many packets are still on
// their way at the end and cpu-ns/pkt counts their work against fewer
// deliveries), the host utilisation
// (against the schedule's certified θ of `rdcn throughput`, docs table in
// docs/perf-history.md), the run's live heap at its end (MB) and the
// process's peak RSS (MB; the run's own when one size runs). Opera's
// default routing.mode = paths keeps a next-hop table of epochs × n² ToR
// pairs that 1,024 ToRs exceed (refused before the run), so at 1,024 Opera
// runs with rotorlb, which needs no table; opera-rotorlb-N is that series
// from 64 ToRs on, to compare like with like. Run one size at a time with
// -benchtime 1x: -bench 'Scale/rotornet-256$'.
func BenchmarkScale(b *testing.B) {
	cases := []struct {
		name       string
		tors       int
		kind       string
		slot, mode string
	}{
		{"rotornet-64", 64, "rotornet", "100us", "rotorlb"},
		{"rotornet-128", 128, "rotornet", "100us", "rotorlb"},
		{"rotornet-256", 256, "rotornet", "100us", "rotorlb"},
		{"rotornet-1024", 1024, "rotornet", "100us", "rotorlb"},
		{"opera-64", 64, "opera", "400us", "paths"},
		{"opera-128", 128, "opera", "400us", "paths"},
		{"opera-256", 256, "opera", "400us", "paths"},
		{"opera-rotorlb-64", 64, "opera", "400us", "rotorlb"},
		{"opera-rotorlb-128", 128, "opera", "400us", "rotorlb"},
		{"opera-rotorlb-256", 256, "opera", "400us", "rotorlb"},
		{"opera-rotorlb-1024", 1024, "opera", "400us", "rotorlb"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if testing.Short() && c.tors > 256 {
				b.Skip("1,024 ToRs for 100 ms take minutes")
			}
			setup := buildSpec(b,
				"topology.tors="+itoa(c.tors), "topology.hosts_per_tor=4", "topology.uplinks=4",
				"topology.link_delay=500ns", "topology.host_delay=500ns",
				"schedule.kind="+c.kind, "schedule.slot="+c.slot, "schedule.reconf=10us", "routing.mode="+c.mode,
				"buffer.per_port=8", "buffer.policy=cs", "workload.sizes=websearch", "workload.load=0.3",
				"run.sim_time=100ms", "workload.duration=100ms", "transport.kind=pull")
			var cpu time.Duration
			var delivered, injected int64
			var util, heap float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cfg := setup.Config
				cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
				cfg.MemoryAt = []rotor.Time{cfg.SimTime}
				c0 := cpuTime()
				r, err := fabric.Run(cfg)
				cpu += cpuTime() - c0
				if err != nil {
					b.Fatal(err)
				}
				sum, err := r.Summarize(setup.Buckets, nil)
				if err != nil {
					b.Fatal(err)
				}
				delivered += sum.Packets.Delivered
				injected += sum.Packets.Injected
				util = float64(sum.HostUtilization)
				heap = float64(r.Memory[len(r.Memory)-1].LiveBytes) / 1e6
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(delivered), "cpu-ns/pkt")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(injected), "cpu-ns/injected")
			b.ReportMetric(util, "host-util")
			b.ReportMetric(heap, "live-MB")
			b.ReportMetric(peakRSS(), "peak-RSS-MB")
		})
	}
}

// peakRSS is the process's peak resident set so far, in MB (10⁶ B): the
// run's own with one size per process.
func peakRSS() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) * 1024 / 1e6 // Linux: kB
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
