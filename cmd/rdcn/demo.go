package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/schedules"
	"github.com/urfave/cli/v2"
)

// demoRun is one row of the demo: a schedule kind with its routing.
type demoRun struct {
	name string
	sets []string
}

func demoRuns() []demoRun {
	runs := []demoRun{
		// RotorNet as designed: bulk data waits at the hosts, ToRs pull it (RotorLB).
		{"rotornet", []string{"schedule.kind=rotornet", "routing.mode=rotorlb", "transport.kind=pull"}},
		{"opera", []string{"schedule.kind=opera", "routing.mode=paths"}},
		{"static", []string{"schedule.kind=static", "routing.mode=paths", "schedule.tries=4"}},
	}
	for _, k := range schedules.Kinds() {
		if k == "mars" { // Mars: multi-hop over the emulated graph, waiting for circuits
			runs = append(runs, demoRun{"mars", []string{"schedule.kind=mars", "routing.mode=earliest"}})
		}
	}
	return runs
}

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:      "demo",
		Usage:     "compare RotorNet, Opera and a static expander (and Mars) under the same websearch workload",
		UsageText: "rdcn demo [--sim-time 50ms] [--load 0.3] [--seed 1]\n\nexample: rdcn demo --load 0.4",
		Description: "Runs rdcn simulate on 32 ToRs × 4 hosts with 4 uplinks at 10 Gbps, the same\n" +
			"websearch flows for every fabric, and prints FCT percentiles for short (<100 KB)\n" +
			"and long (≥1 MB) flows, utilisation and drops. RotorNet uses RotorLB, Opera and the\n" +
			"static expander shortest paths over the circuits up now, Mars earliest-arrival\n" +
			"temporal paths. RotorNet's bulk data waits at the hosts (transport pull).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sim-time", Value: "50ms", Usage: "simulated time per fabric"},
			&cli.Float64Flag{Name: "load", Value: 0.3, Usage: "offered load per host"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "workload and schedule seed"},
		},
		Action: func(c *cli.Context) error {
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
			defer stop()
			common := []string{
				"topology.tors=32", "topology.hosts_per_tor=4", "topology.uplinks=4",
				"topology.host_link=10Gbps", "topology.circuit_link=10Gbps",
				"topology.link_delay=500ns", "topology.host_delay=500ns",
				"buffer.per_port=20", "workload.sizes=websearch",
				"workload.load=" + strconv.FormatFloat(c.Float64("load"), 'g', -1, 64),
				"workload.seed=" + strconv.FormatUint(c.Uint64("seed"), 10),
				"schedule.seed=" + strconv.FormatUint(c.Uint64("seed"), 10),
				"run.sim_time=" + c.String("sim-time"),
				"transport.window=40pkt",
			}
			w := c.App.Writer
			fmt.Fprintf(w, "n = 32 ToRs × 4 hosts, 4 uplinks, 10 Gbps links, websearch at %g %% load, %s simulated per fabric, seed %d\n",
				100*c.Float64("load"), c.String("sim-time"), c.Uint64("seed"))
			fmt.Fprintf(w, "%-9s %-8s %-9s %10s %10s %10s %10s %7s %7s %8s\n", "fabric", "routing", "transport",
				"short_p50", "short_p99", "long_p50", "long_p99", "host_u", "circ_u", "drops")
			for _, run := range demoRuns() {
				spec, err := loadSpec("", append(append([]string{}, common...), run.sets...))
				if err != nil {
					return err
				}
				out, err := simulate(ctx, spec, io.Discard)
				if err != nil {
					return fmt.Errorf("%s: %w", run.name, err)
				}
				s := out.summary
				var short, long fabric.BucketStats
				for _, b := range s.FCT {
					switch b.Bucket {
					case "short":
						short = b
					case "long":
						long = b
					}
				}
				fmt.Fprintf(w, "%-9s %-8s %-9s %10s %10s %10s %10s %7s %7s %8d\n", run.name, spec.Get("routing.mode"), spec.Get("transport.kind"),
					fmtNum(short.FCTus.P50), fmtNum(short.FCTus.P99), fmtNum(long.FCTus.P50), fmtNum(long.FCTus.P99),
					fmtNum(s.HostUtilization), fmtNum(s.CircuitUtilization), s.Packets.Dropped)
				if !s.Complete {
					fmt.Fprintln(w, "interrupted")
					return nil
				}
			}
			fmt.Fprintln(w, "FCT percentiles in µs; short < 100 KB ≤ medium < 1 MB ≤ long; utilisation as fractions")
			return nil
		},
	}
}
