package app

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// demoHostsPerTor, demoLinkRate, … are the demo's fixed settings; the
// command's help states each of them.
const (
	demoHostsPerTor = 4
	demoLink        = "10Gbps"
	demoDelay       = "500ns"
	demoPortBuffer  = 20 // packets per port
	demoWindow      = "40pkt"
	demoStaticTries = 4
)

// demoRun is one row of the demo: a schedule kind with its routing.
type demoRun struct {
	name string
	sets []string
}

// demoMarsDegree is Mars's degree in the demo: 2·U (8 for U = 4), rounded
// down to a multiple of U that is at most n.
func demoMarsDegree(n, u int) int { return min(2*u, n/u*u) }

// demoRuns runs each kind on its designed routing and transport
// (fabric.DesignedFor, rdcn simulate's defaults).
func demoRuns(n, u int) []demoRun {
	window := "transport.window=" + demoWindow
	return []demoRun{
		// RotorNet pulls every flow: it reads no window (transport.window
		// there would be refused); Opera's short flows are windowed; Mars
		// runs NDP.
		{"rotornet", []string{"schedule.kind=rotornet"}},
		{"opera", []string{"schedule.kind=opera", window}},
		{"static", []string{"schedule.kind=static", "schedule.tries=" + strconv.Itoa(demoStaticTries), window}},
		{"mars", []string{"schedule.kind=mars", "schedule.degree=" + strconv.Itoa(demoMarsDegree(n, u))}},
	}
}

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "design, analyse and emulate RotorNet, Opera, a static expander and Mars on one websearch workload",
		UsageText: "rdcn demo [--tors 32] [--uplinks 4] [--load 0.3] [--sim-time 50ms] [--seed 1] [-o FILE] [--plot FILE.svg|png]\n\n" +
			"example: rdcn demo --load 0.4\n" +
			"example: rdcn demo --tors 16 --uplinks 4 --sim-time 20ms -o demo.txt --plot demo.svg",
		Description: "Runs rdcn simulate on every fabric with the same websearch flows and prints, per fabric, the\n" +
			"schedule's period, the certified throughput θ of its emulated graph (rdcn throughput, any routing,\n" +
			"gap 1e-3) for uniform all-to-all demand and for its worst-case permutation, and from the\n" +
			"emulation the FCT percentiles of short (<100 KB) and long (≥1 MB) flows, host and circuit\n" +
			"utilisation and drops. --plot draws the FCT percentiles per fabric (log scale).\n\n" +
			"Settings (every one the demo uses; all else is rdcn simulate's default, see rdcn simulate --keys):\n" +
			"  topology   --tors ToRs (32) × 4 hosts, --uplinks U (4) circuit uplinks per ToR; host and\n" +
			"             circuit links 10 Gbps, 500 ns propagation delay on each; 20-packet buffer per port\n" +
			"  workload   websearch flow sizes, Poisson arrivals at --load (0.3) of the host link, all-to-all,\n" +
			"             --sim-time (50ms) simulated per fabric, seed --seed (1) for flows and schedules\n" +
			"  schedules  each kind's default timing: 100 µs slots with 10 µs reconfiguration, the static\n" +
			"             expander 100 µs with no reconfiguration\n" +
			"  routing    each fabric's designed routing and transport (rdcn simulate's defaults):\n" +
			"  rotornet   RotorLB routing, transport pull (bulk data waits at the hosts, ToRs pull it)\n" +
			"  opera      shortest paths over the circuits up now (routing paths), bulk flows pulled over RotorLB\n" +
			"  static     U random derangements, best spectral gap of 4 draws (tries = 4), earliest-arrival\n" +
			"             temporal paths, window transport\n" +
			"  mars       deBruijn degree d = 2·U (8 for U = 4; at most n), vlb-slice (a Valiant first hop over any\n" +
			"             circuit up now, then the slice's shortest paths, sprayed), NDP transport\n" +
			"  arrivals   flows start during the first 80 % of --sim-time, then the fabric drains\n" +
			"  transport  window = 40 packets for the windowed flows (opera's short flows, static)",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "tors", Aliases: []string{"n"}, Value: 32, Usage: "number of ToRs `N`"},
			&cli.IntFlag{Name: "uplinks", Aliases: []string{"u"}, Value: 4, Usage: "circuit uplinks per ToR `U`"},
			&cli.Float64Flag{Name: "load", Value: 0.3, Usage: "offered load per host, in (0, 1]"},
			&cli.StringFlag{Name: "sim-time", Value: "50ms", Usage: "simulated time per fabric"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "workload and schedule seed"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the table to `FILE` (default stdout)"},
			&cli.StringFlag{Name: "plot", Usage: "draw the FCT percentiles per fabric into `FILE` (.svg or .png)"},
		},
		Action: runDemo,
	}
}

// demoRow is one fabric's line of the demo table.
type demoRow struct {
	name, routing, transport string
	period                   int
	uniform, worst           float64
	short, long              fabric.BucketStats
	hostU, circU             fabric.Num
	drops                    int64
	measured                 fabric.Measured
}

func runDemo(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q", c.Args().First())
	}
	n, u, load := c.Int("tors"), c.Int("uplinks"), c.Float64("load")
	if err := checkTors(n, false); err != nil {
		return err
	}
	if err := checkUplinks(u); err != nil {
		return err
	}
	if u >= n {
		return badInput("uplinks", "%d, want fewer than the %d ToRs (the static expander has U distinct neighbours)", u, n)
	}
	if u < 2 {
		return badInput("uplinks", "%d, want at least 2 (Opera keeps U−1 rotors up)", u)
	}
	if !(load > 0 && load <= 1) {
		return badInput("load", "%v, want a fraction in (0, 1]", load)
	}
	plotPath := c.String("plot")
	plotFormat, err := plotOption(plotPath)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	common := []string{
		"topology.tors=" + strconv.Itoa(n), "topology.hosts_per_tor=" + strconv.Itoa(demoHostsPerTor),
		"topology.uplinks=" + strconv.Itoa(u),
		"topology.host_link=" + demoLink, "topology.circuit_link=" + demoLink,
		"topology.link_delay=" + demoDelay, "topology.host_delay=" + demoDelay,
		"buffer.per_port=" + strconv.Itoa(demoPortBuffer), "workload.sizes=websearch",
		"workload.load=" + strconv.FormatFloat(load, 'g', -1, 64),
		"workload.seed=" + strconv.FormatUint(c.Uint64("seed"), 10),
		"schedule.seed=" + strconv.FormatUint(c.Uint64("seed"), 10),
		"run.sim_time=" + c.String("sim-time"),
	}
	header := fmt.Sprintf("n = %d ToRs × %d hosts, %d uplinks, 10 Gbps links, websearch at %g %% load, %s simulated per fabric, seed %d",
		n, demoHostsPerTor, u, 100*load, c.String("sim-time"), c.Uint64("seed"))
	var rows []demoRow
	interrupted := false
	for i, run := range demoRuns(n, u) {
		fmt.Fprintf(c.App.ErrWriter, "rdcn demo: %s (%d of 4)\n", run.name, i+1)
		spec, err := loadSpec("", append(append([]string{}, common...), run.sets...))
		if err != nil {
			return err
		}
		out, err := simulate(ctx, spec, io.Discard, false)
		if err != nil {
			return fmt.Errorf("%s: %w", run.name, err)
		}
		sched := out.setup.Config.Schedule
		unif, worst, err := demoTheta(sched)
		if err != nil {
			return fmt.Errorf("%s: %w", run.name, err)
		}
		s := out.summary
		if warn := completionWarning(s); warn != "" {
			fmt.Fprintf(c.App.ErrWriter, "rdcn demo: %s: %s\n", run.name, warn)
		}
		r := demoRow{name: run.name, routing: spec.Get("routing.mode"), transport: spec.Get("transport.kind"),
			period: sched.Period, uniform: unif, worst: worst,
			hostU: s.HostUtilization, circU: s.CircuitUtilization, drops: s.Packets.Dropped, measured: s.Measured}
		for _, b := range s.FCT {
			switch b.Bucket {
			case "short":
				r.short = b
			case "long":
				r.long = b
			}
		}
		rows = append(rows, r)
		if !s.Complete {
			interrupted = true
			break
		}
	}
	outs := []outputFile{{c.String("output"), func(w io.Writer) error { return writeDemoText(w, header, rows, interrupted) }}}
	if plotPath != "" {
		outs = append(outs, outputFile{plotPath, func(w io.Writer) error { return plotDemo(w, header, rows, plotFormat) }})
	}
	if err := writeOutputs(c.App.Writer, outs...); err != nil {
		return err
	}
	if interrupted {
		return &interruptedError{"during the " + rows[len(rows)-1].name + " run"}
	}
	return nil
}

func writeDemoText(w io.Writer, header string, rows []demoRow, interrupted bool) error {
	var b strings.Builder
	fmt.Fprintln(&b, header)
	fmt.Fprintf(&b, "%-9s %6s %7s %7s %-8s %-9s %10s %10s %10s %10s %7s %7s %8s %9s %9s\n", "fabric", "period", "θ_unif", "θ_worst",
		"routing", "transport", "short_p50", "short_p99", "long_p50", "long_p99", "host_u", "circ_u", "drops", "done", "delivered")
	for _, r := range rows {
		m := r.measured
		fmt.Fprintf(&b, "%-9s %6d %7.4f %7.4f %-8s %-9s %10s %10s %10s %10s %7s %7s %8d %9s %9s\n", r.name, r.period, r.uniform, r.worst,
			r.routing, r.transport, fmtNum(r.short.FCTus.P50), fmtNum(r.short.FCTus.P99), fmtNum(r.long.FCTus.P50),
			fmtNum(r.long.FCTus.P99), fmtNum(r.hostU), fmtNum(r.circU), r.drops,
			fmt.Sprintf("%d/%d", m.Completed, m.Started), fmtNum(m.DeliveredFraction))
	}
	if interrupted {
		fmt.Fprintln(&b, "interrupted")
	} else {
		fmt.Fprintln(&b, "period in slots; θ certified lower bounds (uniform, worst-case permutation; hose model, duty cycle included)")
		fmt.Fprintln(&b, "FCT percentiles in µs over the completed measured flows (done: completed/started, arrivals for 80 % of the time);")
		fmt.Fprintln(&b, "short < 100 KB ≤ medium < 1 MB ≤ long; utilisation and delivered (of the measured flows' bytes) as fractions")
	}
	_, err := io.WriteString(w, b.String())
	return err
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
