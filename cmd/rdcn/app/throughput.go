package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// analysisFlags select a schedule (a file, or a generator with the shared
// generator flags) and the link rate.
func analysisFlags() []cli.Flag {
	fs := []cli.Flag{&cli.StringFlag{Name: "schedule", Usage: "read the schedule from `FILE` (rdcn.schedule/v1 JSON)"}}
	fs = append(fs, kindFlags()...)
	fs = append(fs, generatorFlags()...)
	return append(fs,
		&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json or csv"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (default stdout)"},
	)
}

// loadGraph reads or generates the schedule and builds its emulated graph.
// A demand-aware kind without --design-demand is designed from the
// evaluated --demand (a perfect prediction).
func loadGraph(c *cli.Context) (*emulated.Graph, error) {
	g, err := parseGenFlags(c)
	if err != nil {
		return nil, err
	}
	link := g.p.Link
	var s *rotor.Schedule
	switch file, kind := c.String("schedule"), c.String("kind"); {
	case file != "" && kind != "":
		return nil, badInput("schedule", "give either --schedule FILE or --kind, not both")
	case file != "":
		for _, flag := range []string{"tors", "uplinks", "self-slot", "slot", "reconf"} {
			if c.IsSet(flag) {
				return nil, badInput(flag, "the schedule comes from --schedule %s; leave --%s out", file, flag)
			}
		}
		if err := refuseUnread(c, func(flag, _ string) bool { return flag == "link" },
			func(flag, _ string) string {
				return "the schedule comes from --schedule " + file + "; leave --" + flag + " out"
			}); err != nil {
			return nil, err
		}
		f, err := limits.Open(file, limits.MaxScheduleBytes)
		if err != nil {
			return nil, badInput("schedule", "%v", err)
		}
		defer f.Close()
		if s, err = rotor.ReadJSON(f); err != nil {
			return nil, asInput("schedule "+file, err)
		}
		if s.Nodes > maxTors {
			return nil, badInput("schedule", "%s has %d ToRs, more than the CLI's limit of %d (dense n×n matrices)", file, s.Nodes, maxTors)
		}
	case kind != "":
		if err := readByKind(c, kind, true); err != nil {
			return nil, err
		}
		p, err := scheduleParams(c, kind, g)
		if err != nil {
			return nil, err
		}
		design := g.designDemand
		if kinds, _ := schedules.ReadBy("Demand"); design == "" && slices.Contains(kinds, kind) {
			switch design = c.String("demand"); design {
			case "worst":
				return nil, badInput("design-demand", "missing: %s designs from a predicted demand, and --demand worst depends on the schedule; give --design-demand SPEC", kind)
			case "random":
				design = "random:" + strconv.FormatUint(c.Uint64("seed"), 10)
			}
		}
		if s, err = buildSchedule(kind, p, design); err != nil {
			return nil, err
		}
	default:
		return nil, badInput("schedule", "missing; give --schedule FILE or --kind K --tors N --uplinks U")
	}
	eg, err := emulated.FromSchedule(s, link)
	if err != nil {
		return nil, asInput("schedule", err)
	}
	return eg, nil
}

// loadDemand parses a demand spec; "worst" is the schedule's worst case.
func loadDemand(g *emulated.Graph, spec string, seed uint64) (demand.Matrix, error) {
	if spec == "worst" {
		d, err := emulated.WorstCaseDemand(g)
		return d, asInput("demand", err)
	}
	if spec == "random" {
		spec = "random:" + strconv.FormatUint(seed, 10)
	}
	d, err := demand.Parse(spec, g.N)
	if err != nil {
		return nil, asInput("demand", err)
	}
	return d, nil
}

func throughputCommand() *cli.Command {
	flags := append(analysisFlags(),
		&cli.StringFlag{Name: "demand", Aliases: []string{"d"}, Value: "worst", Usage: "demand `SPEC`: uniform, permutation, ring, chessboard, skew:A, random:SEED, worst, or a matrix file"},
		&cli.StringFlag{Name: "routing", Value: "any", Usage: routingUsage()},
		&cli.Float64Flag{Name: "gap", Value: emulated.DefaultGap, Usage: "target certified relative gap (routing " + strings.Join(routingNames(true), ", ") + ")"},
		&cli.StringFlag{Name: "solver", Value: "fptas", Usage: "fptas (rdcn's certified combinatorial solver: a feasible flow and a dual bound, see docs/throughput.md) or glpk (exact LP via glpsol)"},
		&cli.BoolFlag{Name: "timing", Usage: "print the solver's wall time on stderr"},
		&cli.DurationFlag{Name: "time-limit", Usage: "stop the solver after `DURATION` (e.g. 90s, 10m) and print its best certified interval, marked stopped (exit status 3; Ctrl-C prints the same and exits 130)"},
	)
	return &cli.Command{
		Name:  "throughput",
		Usage: "certified throughput θ(D) of a schedule's emulated graph",
		UsageText: "rdcn throughput (--schedule FILE | --kind K --tors N --uplinks U [--slot --reconf --self-slot --seed]\n" +
			"   [generator flags: --degree, -k, -l, --gamma, --randomized, --tries, --stagger, --buffer, --delay,\n" +
			"   --design-demand])\n" +
			"   --demand SPEC [--routing " + strings.Join(routingNames(false), "|") + "] [--gap 1e-3] [--solver fptas|glpk] [--link 400Gbps]\n" +
			"   [--format text|json|csv] [-o FILE] [--timing] [--time-limit 10m]\n\n" +
			"example: rdcn throughput --kind rotornet --tors 16 --uplinks 4 --self-slot --demand permutation\n" +
			"example: rdcn throughput --kind mars --tors 32 --uplinks 4 --degree 8 --demand permutation\n" +
			"example: rdcn throughput --kind vermilion --tors 16 --uplinks 4 --demand ring -k 3\n" +
			"example: rdcn throughput --schedule opera.json --demand random:3 --format csv -o theta.csv",
		Description: "θ is the largest factor such that θ·D is routable, with D hose-normalised (busiest node = U·c).\n" +
			"Routings any and vlb-slice report a certified interval [lower, upper] (feasible flow and dual lengths);\n" +
			"theta is the lower end. vlb-slice solves the same problem over the paths \"first hop to any neighbour,\n" +
			"then a shortest hop-count path\" (the simulator's routing.mode = vlb-slice on the emulated graph) with the best\n" +
			"split; vlb-slice-spray is the same paths split as the router sprays (exact, like direct and vlb). JSON carries theta, lower, upper, gap, routing, solver, demand, nodes, iterations,\n" +
			"per_node_bps and arl (omitted when there is no flow, e.g. vlb); CSV has a header of the same\n" +
			"names and one row (arl empty when omitted). The output is byte-identical for identical inputs.\n" +
			"--timing prints the solver's wall time on stderr. On a terminal, stderr shows the certified interval\n" +
			"as it tightens. Ctrl-C (or SIGTERM) or --time-limit stops the solver: it prints the best certified\n" +
			"interval so far with stopped = interrupt or time-limit and exits with status 130 (signal) or 3\n" +
			"(time limit). The generator flags\n" +
			"are those of rdcn schedule; vermilion and bvn are designed from --design-demand, or, without it,\n" +
			"from --demand itself (a perfect prediction).",
		Flags:  flags,
		Action: runThroughput,
	}
}

// routingNames are the values of throughput's --routing
// (emulated.Routings); with certified, only those solved to --gap.
func routingNames(certified bool) []string {
	var names []string
	for _, r := range emulated.Routings() {
		if r.Certified || !certified {
			names = append(names, r.Name)
		}
	}
	return names
}

// routingUsage is --routing's usage: each routing with its doc.
func routingUsage() string {
	var items []string
	for _, r := range emulated.Routings() {
		items = append(items, r.Name+" ("+r.Doc+")")
	}
	return orList(items)
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

type throughputJSON struct {
	Theta      float64 `json:"theta"`
	Lower      float64 `json:"lower"`
	Upper      float64 `json:"upper"`
	Gap        float64 `json:"gap"`
	Routing    string  `json:"routing"`
	Solver     string  `json:"solver"`
	Demand     string  `json:"demand"`
	Nodes      int     `json:"nodes"`
	Iterations int     `json:"iterations"`
	PerNodeBps float64 `json:"per_node_bps"`
	ARL        float64 `json:"arl,omitempty"`
	// Stopped is "interrupt" or "time-limit" when the solver was stopped
	// before the target gap (the interval is valid, only wider).
	Stopped string `json:"stopped,omitempty"`
}

func runThroughput(c *cli.Context) error {
	format, gap, err := analysisOptions(c)
	if err != nil {
		return err
	}
	routing, solver := c.String("routing"), c.String("solver")
	rt, ok := emulated.LookupRouting(routing)
	if !ok {
		return badInput("routing", "%q: want %s", routing, orList(routingNames(false)))
	}
	if solver != "fptas" && solver != "glpk" {
		return badInput("solver", "%q: want fptas or glpk", solver)
	}
	if solver == "glpk" && routing != "any" {
		return badInput("solver", "glpk solves routing any only, got routing %s", routing)
	}
	if err := timeLimit(c); err != nil {
		return err
	}
	g, err := loadGraph(c)
	if err != nil {
		return err
	}
	d, err := loadDemand(g, c.String("demand"), c.Uint64("seed"))
	if err != nil {
		return err
	}
	start := time.Now()
	var r *emulated.Result
	var stopped string // why a solve stopped early ("" when it did not)
	switch {
	case solver == "glpk": // routing any, checked above
		r, err = emulated.ThroughputGLPK(context.Background(), g, d, nil)
		if errors.Is(err, emulated.ErrNoGLPK) {
			return badInput("solver", "glpk: %v", err)
		}
	case rt.Certified:
		r, stopped, err = solveStoppable(c, rt.Solve, g, d, gap)
	default:
		r, err = rt.Solve(g, d, nil)
	}
	if err != nil {
		return asInput("demand", err)
	}
	if c.Bool("timing") { // wall time: stderr only, results stay byte-identical
		fmt.Fprintf(c.App.ErrWriter, "rdcn throughput: solver %s, %.3f s wall\n", r.Solver, time.Since(start).Seconds())
	}
	out := throughputJSON{Theta: r.Theta, Lower: r.Lower, Upper: r.Upper, Gap: r.Gap,
		Routing: r.Routing, Solver: r.Solver, Demand: c.String("demand"), Nodes: g.N,
		Iterations: r.Iterations,
		PerNodeBps: r.Theta * g.NodeCapacity * float64(g.Rate), ARL: r.ARL()}
	out.Stopped = stopped
	err = writeOutput(c.App.Writer, c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return writeJSON(w, out)
		case "csv":
			return writeRecordCSV(w, out)
		}
		// θ is the certified lower end: printed rounded down, the interval outward.
		_, err := fmt.Fprintf(w, "theta %s  %s  gap %.2e\nrouting %s, solver %s, demand %s, %d nodes, %d iterations\n"+
			"per-node throughput %.2f Gbps of %.2f Gbps (U·c)\n",
			formatDirected(out.Theta, 6, false), formatInterval(out.Lower, out.Upper, 6), out.Gap, out.Routing, out.Solver, out.Demand, out.Nodes,
			out.Iterations, out.PerNodeBps/1e9, g.NodeCapacity*float64(g.Rate)/1e9)
		if err == nil && out.Stopped != "" {
			_, err = fmt.Fprintf(w, "stopped (%s) before the target gap %.2e: the interval is certified, only wider\n", out.Stopped, gap)
		}
		return err
	})
	if err == nil && out.Stopped != "" {
		msg := fmt.Sprintf("after %d iterations at gap %.2e (target %.2e); printed the best certified interval", out.Iterations, out.Gap, gap)
		if out.Stopped == "interrupt" { // a signal: 130, as every command
			return &interruptedError{"throughput " + msg}
		}
		return &stoppedError{fmt.Sprintf("throughput: stopped (%s) %s", out.Stopped, msg)}
	}
	return err
}

// analysisOptions checks what throughput and bounds share: no positional
// arguments, --format text|json|csv and --gap in (0, 1).
func analysisOptions(c *cli.Context) (format string, gap float64, err error) {
	if c.Args().Present() {
		return "", 0, badInput("arguments", "unexpected %q", c.Args().First())
	}
	format = c.String("format")
	if err := checkFormat(format); err != nil {
		return "", 0, err
	}
	gap = c.Float64("gap")
	if !(gap > 0 && gap < 1) {
		return "", 0, badInput("gap", "%v must be in (0, 1)", gap)
	}
	return format, gap, nil
}
