package app

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

func tradeoffCommand() *cli.Command {
	return &cli.Command{
		Name:  "tradeoff",
		Usage: "which design and slot length give the highest certified throughput within a buffer and a delay; or the Table 7.1 tradeoff at one slot",
		UsageText: "rdcn tradeoff --tors N --uplinks U [--link C] [--buffer B] [--delay L] [--slots 1us,2us,…] [--reconf Δr]\n" +
			"   [--gap 1e-2] [--refine-all] [--seed S] [--time-limit D] [--format text|json|csv] [-o FILE]\n" +
			"rdcn tradeoff --tors N --uplinks U [--slot Δ] [--reconf Δr] [--buffer B] [--delay L] [--degrees 2,4,8,…] [--exact=false]\n" +
			"   [--gap 1e-3] [--seed S] [--format text|json|csv] [-o FILE] [--plot FILE.svg|png]\n\n" +
			"example (the design question): rdcn tradeoff --tors 64 --uplinks 8 --link 400Gbps --buffer 10MB --delay 1ms\n" +
			"example (Table 7.1): rdcn tradeoff --tors 16 --uplinks 2 --link 400Gbps --slot 100us --reconf 10us --buffer 20MB --delay 850us",
		Description: "Without --slot, --degrees, --plot and --exact it answers the design question: it sweeps the slot\n" +
			"lengths --slots (default " + slotList(emulated.DefaultSlots) + ") over every design (static, RotorNet,\n" +
			"Opera, Mars at every multiple of U between U and n), solves Theorems 18–19 for the slots at which each\n" +
			"meets --buffer (per-ToR need U·c·Γ·Δ at θ = 1/ARL; c·d·Δ for Mars) and --delay (ARD = ARL·Γ·Δ, VLB),\n" +
			"certifies each design's θ on its worst-case permutation with the engine (any routing, duty cycle\n" +
			"1 − Δr/Δ included) and recommends the feasible (design, slot) with the highest certified θ.\n" +
			"A design is refined to --gap only while it could be recommended (under the assumed Δr and, without\n" +
			"--reconf, under 1 µs and 10 µs); the others keep a certified, wider interval marked cannot win.\n" +
			"Refinement also stops once each recommendation is settled: its certified θ is at least (1 − gap) times\n" +
			"every other design's upper bound, so no design beats it by more than the gap (rows marked settled).\n" +
			"--refine-all certifies every design to the gap; where two designs lie within the gap of each other the\n" +
			"two runs may then name either one.\n" +
			"--reconf fixes Δr (slots not longer are infeasible); without it Δr = Δ/10 at every slot.\n" +
			"On a terminal each design's row is printed as its certification finishes. Ctrl-C or --time-limit\n" +
			"stops it and prints the best recommendation so far, naming the designs not certified (designs being\n" +
			"solved keep their certified, wider interval); exit status 130 (signal) or 3 (time limit).\n\n" +
			"With --slot Δ: one row per design: static (d = U), complete graph (d = n), the complete graph within --buffer,\n" +
			"Mars (d from --buffer and --delay, Theorems 18–19) and degree-d for each --degrees entry.\n" +
			"theta is the closed form 1/(2·log_d n) (Theorem 17: VLB, worst-case permutation, duty cycle\n" +
			"ignored as in the thesis); theta_exact is the emulated-graph engine's certified any-routing θ on the\n" +
			"worst-case permutation with the duty cycle 1 − Δr/Δ; delay is ARD = ARL·Γ·Δ (Theorem 15) and the\n" +
			"buffer θ·U·c·ARD per node (Theorem 16); theta_buffer_limited = min(θ, B/(U·c·ARD)).",
		Flags: append(generatorFlags(),
			&cli.IntFlag{Name: "tors", Usage: "number of ToRs n (required)"},
			&cli.IntFlag{Name: "uplinks", Usage: "uplinks (circuit switches) per ToR U (required)"},
			&cli.StringFlag{Name: "slot", Usage: "slot duration Δ: the table at this one slot (default with --degrees, --plot or --exact: 100us)"},
			&cli.StringFlag{Name: "slots", Usage: "comma-separated slot lengths the design question sweeps (default " + slotList(emulated.DefaultSlots) + ")"},
			&cli.StringFlag{Name: "reconf", Usage: "reconfiguration time Δr (default Δ/10 at every slot: duty cycle 0.9)"},
			&cli.StringFlag{Name: "degrees", Usage: "comma-separated extra degrees d (multiples of U in [U, n])"},
			&cli.BoolFlag{Name: "exact", Value: true, Usage: "also compute θ with the emulated-graph engine"},
			&cli.Float64Flag{Name: "gap", Value: 1e-3, Usage: "certified relative gap of the engine's θ (θ any is its certified lower end; the design question's default is 1e-2)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the Mars matchings' shuffle"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json or csv"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the table to `FILE` (default stdout)"},
			&cli.StringFlag{Name: "plot", Usage: "draw throughput against degree into `FILE` (.svg or .png)"},
			&cli.BoolFlag{Name: "refine-all", Usage: "design question: certify every design to --gap (by default a design's refinement stops once no recommendation, under the assumed Δr or the 1 µs and 10 µs lines, can be it, or each recommendation is settled within the gap: its row says cannot win or settled)"},
			&cli.DurationFlag{Name: "time-limit", Usage: "design question: stop certifying after `DURATION` (e.g. 90s, 10m) and print the best recommendation so far, naming the designs not certified (exit status 3; Ctrl-C prints the same and exits 130)"},
		),
		Action: runTradeoff,
	}
}

func runTradeoff(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q", c.Args().First())
	}
	for _, f := range []string{"tors", "uplinks"} {
		if !c.IsSet(f) {
			return badInput(f, "is required")
		}
	}
	if !c.IsSet("slot") && !c.IsSet("degrees") && !c.IsSet("plot") && !c.IsSet("exact") {
		if err := timeLimit(c); err != nil {
			return err
		}
		return runDesignSpace(c)
	}
	if c.IsSet("time-limit") {
		return badInput("time-limit", "stops the design question; leave out --slot, --degrees, --plot and --exact (the one-slot table)")
	}
	if c.IsSet("slots") {
		return badInput("slots", "sweeps the design question; leave out --slot, --degrees, --plot and --exact (the one-slot table)")
	}
	if c.IsSet("refine-all") {
		return badInput("refine-all", "refines the design question; leave out --slot, --degrees, --plot and --exact (the one-slot table)")
	}
	cfg := emulated.TradeoffConfig{
		Nodes: c.Int("tors"), Uplinks: c.Int("uplinks"),
		Exact: c.Bool("exact"), Gap: c.Float64("gap"), Seed: c.Uint64("seed"),
	}
	var err error
	if cfg.Link, cfg.Buffer, cfg.Delay, err = tradeoffNetwork(c, cfg.Nodes, cfg.Uplinks); err != nil {
		return err
	}
	cfg.Slot = 100 * rotor.Microsecond
	if c.IsSet("slot") {
		if cfg.Slot, err = rotor.ParseTime(c.String("slot")); err != nil {
			return asInput("slot", err)
		}
	}
	cfg.Reconf = cfg.Slot / 10
	if c.IsSet("reconf") {
		if cfg.Reconf, err = rotor.ParseTime(c.String("reconf")); err != nil {
			return asInput("reconf", err)
		}
	}
	for _, f := range strings.Split(c.String("degrees"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil {
			return badInput("degrees", "%q is not an integer", f)
		}
		cfg.Degrees = append(cfg.Degrees, d)
	}
	if cfg.Gap <= 0 || cfg.Gap >= 1 {
		return badInput("gap", "%v must be in (0, 1)", cfg.Gap)
	}
	format, plotPath, plotFormat, err := tableOptions(c)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return asInput("tradeoff", err)
	}

	var rows []emulated.TradeoffRow
	err = interruptible(c, "tradeoff", func(context.Context) (err error) {
		rows, err = emulated.Tradeoff(cfg)
		return err
	})
	var intr *interruptedError
	if errors.As(err, &intr) {
		return err
	}
	if err != nil {
		var pe *mars.ParamError
		if errors.As(err, &pe) { // as rdcn schedule --kind mars says it: the flag, the value, the problem
			field := flagOf(pe.Field)
			if field == "degree" {
				field = "degrees"
			}
			return badInput(field, "%v: %s (Mars)", pe.Value, pe.Problem)
		}
		var fe *emulated.FieldError
		if errors.As(err, &fe) {
			return badInput(fe.Field, "%s", fe.Problem)
		}
		return err
	}
	outs := []outputFile{{c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return writeJSON(w, rows)
		case "csv":
			return writeTradeoffCSV(w, rows)
		}
		return writeTradeoffText(w, cfg, rows)
	}}}
	if plotPath != "" {
		outs = append(outs, outputFile{plotPath, func(w io.Writer) error {
			return emulated.PlotTradeoff(w, cfg, rows, plotFormat)
		}})
	}
	return writeOutputs(c.App.Writer, outs...)
}

// optFloat formats an engine figure that may be missing.
func optFloat(x *float64, verb string) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf(verb, *x)
}

// thetaInterval is the engine's certified any-routing interval
// "lower–upper" of a row ("-" without the engine).
func thetaInterval(r emulated.TradeoffRow) string {
	if r.ThetaExact == nil || r.ThetaExactUpper == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f–%.4f", *r.ThetaExact, *r.ThetaExactUpper)
}

func writeTradeoffText(w io.Writer, cfg emulated.TradeoffConfig, rows []emulated.TradeoffRow) error {
	fmt.Fprintf(w, "n = %d ToRs, U = %d uplinks of %v, Δ = %v, Δr = %v", cfg.Nodes, cfg.Uplinks, cfg.Link, cfg.Slot, cfg.Reconf)
	if cfg.Buffer > 0 {
		fmt.Fprintf(w, ", B = %v per ToR", cfg.Buffer)
	}
	if cfg.Delay > 0 {
		fmt.Fprintf(w, ", L = %v", cfg.Delay)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "design\td\tΓ\tθ (Thm 17)\tθ any (certified)\tθ VLB\tθ buffer-limited\tdelay (ARD)\tbuffer/ToR\tbuffer total\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\t%s\t%s\t%.4f\t%s\t%s\t%s\t\n", r.Design, r.Degree, r.PeriodSlots, r.Theta,
			thetaInterval(r), optFloat(r.ThetaVLB, "%.4f"), r.ThetaBufferLimited,
			shortTime(r.Delay), shortBytes(r.BufferPerNode), shortBytes(r.BufferTotal))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// VLB is one routing, so θ any ≥ θ VLB; a VLB value inside θ any's
	// interval is no contradiction but the gap: say so.
	for _, r := range rows {
		if r.ThetaExact != nil && r.ThetaVLB != nil && *r.ThetaExact < *r.ThetaVLB {
			if _, err := fmt.Fprintf(w, "%s: θ VLB %.4f lies inside θ any's certified interval (gap %g); any routing carries at least what VLB carries, so θ any is in [%.4f, %.4f]\n",
				r.Design, *r.ThetaVLB, cfg.Gap, *r.ThetaVLB, *r.ThetaExactUpper); err != nil {
				return err
			}
		}
	}
	// Say which rows break a limit: the table lists them regardless.
	for _, r := range rows {
		var over []string
		if cfg.Delay > 0 && r.Delay > cfg.Delay {
			over = append(over, fmt.Sprintf("its delay %s exceeds L = %v", shortTime(r.Delay), cfg.Delay))
		}
		if cfg.Buffer > 0 && r.BufferPerNode > cfg.Buffer {
			over = append(over, fmt.Sprintf("its buffer %s per ToR exceeds B = %v", shortBytes(r.BufferPerNode), cfg.Buffer))
		}
		if len(over) > 0 {
			if _, err := fmt.Fprintf(w, "%s: %s\n", r.Design, strings.Join(over, "; ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// shortTime prints a delay with four significant digits in µs or ms.
func shortTime(t rotor.Time) string {
	switch {
	case t == 0:
		return "0"
	case t < rotor.Millisecond:
		return strconv.FormatFloat(float64(t)/float64(rotor.Microsecond), 'g', 4, 64) + "µs"
	}
	return strconv.FormatFloat(float64(t)/float64(rotor.Millisecond), 'g', 4, 64) + "ms"
}

// shortBytes prints a size with four significant digits in SI units.
func shortBytes(b rotor.Bytes) string {
	x := float64(b)
	for _, u := range []string{"B", "kB", "MB", "GB", "TB"} {
		if x < 1000 || u == "TB" {
			return strconv.FormatFloat(x, 'g', 4, 64) + u
		}
		x /= 1000
	}
	return ""
}

func writeTradeoffCSV(w io.Writer, rows []emulated.TradeoffRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"design", "degree", "period_slots", "route_length", "theta", "theta_exact", "theta_exact_upper",
		"theta_vlb", "theta_buffer_limited", "delay_ps", "buffer_bytes_per_node", "buffer_bytes_total"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return g(*x)
	}
	for _, r := range rows {
		cw.Write([]string{r.Design, strconv.Itoa(r.Degree), strconv.Itoa(r.PeriodSlots), g(r.RouteLength), g(r.Theta),
			opt(r.ThetaExact), opt(r.ThetaExactUpper), opt(r.ThetaVLB), g(r.ThetaBufferLimited),
			strconv.FormatInt(int64(r.Delay), 10), strconv.FormatInt(int64(r.BufferPerNode), 10), strconv.FormatInt(int64(r.BufferTotal), 10)})
	}
	cw.Flush()
	return cw.Error()
}

// tradeoffNetwork checks n and U and reads what tradeoff takes of the
// shared generator flags: the link, buffer and delay (its designs, and the
// design question's, are its own; --degrees lists extra Mars degrees).
func tradeoffNetwork(c *cli.Context, n, u int) (rotor.Rate, rotor.Bytes, rotor.Time, error) {
	if err := checkTors(n, false); err != nil {
		return 0, 0, 0, err
	}
	if err := checkUplinks(u); err != nil {
		return 0, 0, 0, err
	}
	g, err := parseGenFlags(c)
	if err != nil {
		return 0, 0, 0, err
	}
	if err := refuseUnread(c, func(flag, _ string) bool { return flag == "link" || flag == "buffer" || flag == "delay" },
		func(flag, _ string) string {
			return "tradeoff compares fixed designs (use --degrees for more Mars degrees); --" + flag + " is for rdcn schedule, throughput and bounds"
		}); err != nil {
		return 0, 0, 0, err
	}
	return g.p.Link, g.p.Buffer, g.p.Delay, nil
}
