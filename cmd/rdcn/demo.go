package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/urfave/cli/v2"
)

// demoRun is one row of the demo: a schedule kind with its routing.
type demoRun struct {
	name string
	sets []string
}

func demoRuns() []demoRun {
	// Each kind on its designed routing and transport (fabric.DesignedFor).
	runs := []demoRun{
		{"rotornet", []string{"schedule.kind=rotornet"}},
		{"opera", []string{"schedule.kind=opera"}},
		{"static", []string{"schedule.kind=static", "schedule.tries=4"}},
	}
	for _, k := range schedules.Kinds() {
		if k == "mars" { // Mars d = 8 (deBruijn)
			runs = append(runs, demoRun{"mars", []string{"schedule.kind=mars", "schedule.degree=8"}})
		}
	}
	return runs
}

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:      "demo",
		Usage:     "design, analyse and emulate RotorNet, Opera, a static expander and Mars on one websearch workload",
		UsageText: "rdcn demo [--sim-time 50ms] [--load 0.3] [--seed 1]\n\nexample: rdcn demo --load 0.4",
		Description: "Runs rdcn simulate on 32 ToRs × 4 hosts with 4 uplinks at 10 Gbps, the same\n" +
			"websearch flows for every fabric, and prints FCT percentiles for short (<100 KB)\n" +
			"and long (≥1 MB) flows, utilisation and drops. Next to them stand the schedule's period\n" +
			"and the certified throughput θ of its emulated graph (rdcn throughput, gap 1e-3) for\n" +
			"uniform all-to-all demand (the largest load the fabric can carry with ideal routing)\n" +
			"and for its worst-case permutation. Each fabric runs its designed routing and transport\n" +
			"(rdcn simulate's defaults): RotorNet RotorLB with host buffering (pull), Opera shortest\n" +
			"paths over the circuits up now with bulk flows pulled over RotorLB, the static expander\n" +
			"and Mars (deBruijn d = 8) earliest-arrival temporal paths.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sim-time", Value: "50ms", Usage: "simulated time per fabric"},
			&cli.Float64Flag{Name: "load", Value: 0.3, Usage: "offered load per host"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "workload and schedule seed"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return badInput("arguments", "unexpected %q", c.Args().First())
			}
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
			fmt.Fprintf(w, "%-9s %6s %7s %7s %-8s %-9s %10s %10s %10s %10s %7s %7s %8s %9s %9s\n", "fabric", "period", "θ_unif", "θ_worst",
				"routing", "transport", "short_p50", "short_p99", "long_p50", "long_p99", "host_u", "circ_u", "drops", "done", "delivered")
			for _, run := range demoRuns() {
				spec, err := loadSpec("", append(append([]string{}, common...), run.sets...))
				if err != nil {
					return err
				}
				out, err := simulate(ctx, spec, io.Discard)
				if err != nil {
					return fmt.Errorf("%s: %w", run.name, err)
				}
				sched := out.setup.Config.Schedule
				unif, worst, err := demoTheta(sched)
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
				m := s.Measured
				fmt.Fprintf(w, "%-9s %6d %7.4f %7.4f %-8s %-9s %10s %10s %10s %10s %7s %7s %8d %9s %9s\n", run.name, sched.Period, unif, worst,
					spec.Get("routing.mode"), spec.Get("transport.kind"),
					fmtNum(short.FCTus.P50), fmtNum(short.FCTus.P99), fmtNum(long.FCTus.P50), fmtNum(long.FCTus.P99),
					fmtNum(s.HostUtilization), fmtNum(s.CircuitUtilization), s.Packets.Dropped,
					fmt.Sprintf("%d/%d", m.Completed, m.Started), fmtNum(m.DeliveredFraction))
				if !s.Complete {
					return &interruptedError{"during the " + run.name + " run"}
				}
			}
			fmt.Fprintln(w, "period in slots; θ certified lower bounds (uniform, worst-case permutation; hose model, duty cycle included)")
			fmt.Fprintln(w, "FCT percentiles in µs over the completed measured flows (done: completed/started, arrivals for 80 % of the time);")
			fmt.Fprintln(w, "short < 100 KB ≤ medium < 1 MB ≤ long; utilisation and delivered (of the measured flows' bytes) as fractions")
			return nil
		},
	}
}

// demoTheta is the certified throughput of the schedule's emulated graph
// for uniform demand and for its worst-case permutation.
func demoTheta(s *rotor.Schedule) (uniform, worst float64, err error) {
	g, err := emulated.FromSchedule(s, rotor.Gbps)
	if err != nil {
		return 0, 0, err
	}
	u, err := emulated.Throughput(g, demand.Uniform(s.Nodes), nil)
	if err != nil {
		return 0, 0, err
	}
	wd, err := emulated.WorstCaseDemand(g)
	if err != nil {
		return 0, 0, err
	}
	w, err := emulated.Throughput(g, wd, nil)
	if err != nil {
		return 0, 0, err
	}
	return u.Theta, w.Theta, nil
}
