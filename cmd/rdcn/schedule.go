package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func scheduleCommand() *cli.Command {
	return &cli.Command{
		Name:  "schedule",
		Usage: "generate a periodic circuit schedule (rotornet, sirius, opera, static, …)",
		UsageText: "rdcn schedule --kind K --tors N --uplinks U [--slot 100us --reconf 10us] [--self-slot]\n" +
			"   [--seed S] [--tries K] [--format text|json|csv] [-o FILE]\n\n" +
			"example: rdcn schedule --kind rotornet --tors 16 --uplinks 4 --self-slot --format text\n" +
			"example: rdcn schedule --kind opera --tors 128 --uplinks 4 --seed 7 -o opera.json\n" +
			"example: rdcn schedule --kind opera --tors 16 --uplinks 4 --seed 7 -o opera.csv\n" +
			"example: rdcn schedule --kind vermilion --demand skewring:0.5 --tors 16 --uplinks 4 --k 3 --gamma 3 --seed 1\n" +
			"example: rdcn schedule --kind mars --tors 16 --uplinks 2 --buffer 20MB --link 400Gbps --delay 850us",
		Description: "K is one of: " + strings.Join(schedules.Kinds(), ", ") + ". Without --slot each kind uses its\n" +
			"default timing (100us slots with 10us reconfiguration; sirius 384ns with 3.84ns); with --slot,\n" +
			"--reconf defaults to 0. --self-slot counts the idle self-matching (n matchings instead of n-1)\n" +
			"for rotornet and sirius. --seed drives opera and static; --tries K keeps the static graph with the\n" +
			"best spectral gap out of K. JSON output is rdcn.schedule/v1 (the default when -o ends in .json), the\n" +
			"format --schedule FILE reads back. CSV (the default for .csv) is an export for plotting: one row\n" +
			"per switch, slot and source ToR, switch,slot,start_ps,duration_ps,reconf_ps,src,dst, dst -1 when\n" +
			"the port is idle.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kind", Usage: "schedule kind (" + strings.Join(schedules.Kinds(), ", ") + ")"},
			&cli.IntFlag{Name: "tors", Aliases: []string{"n"}, Usage: "number of ToRs `N`"},
			&cli.IntFlag{Name: "uplinks", Aliases: []string{"u"}, Usage: "uplinks per ToR = circuit switches `U`"},
			&cli.StringFlag{Name: "slot", Usage: "slot duration, e.g. 100us (default: the kind's)"},
			&cli.StringFlag{Name: "reconf", Usage: "reconfiguration time at the end of each slot, e.g. 10us"},
			&cli.BoolFlag{Name: "self-slot", Usage: "count the idle self-matching (rotornet, sirius)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random kinds"},
			&cli.IntFlag{Name: "tries", Usage: "static: keep the best spectral gap of `K` connected draws"},
			&cli.StringFlag{Name: "demand", Usage: "vermilion, bvn: (predicted) demand `SPEC` (uniform, ring, skew:0.5, random:7, a file, …)"},
			&cli.IntFlag{Name: "k", Usage: "vermilion: degree k·n of the emulated graph (default 3); bvn: cycle of ⌈k·n/U⌉ slots"},
			&cli.IntFlag{Name: "l", Usage: "vermilion: oblivious edges ℓ per node pair (default 1); trust γ = k/ℓ"},
			&cli.Float64Flag{Name: "gamma", Usage: "vermilion: trust factor γ = k/ℓ instead of --l (alone: smallest ℓ)"},
			&cli.BoolFlag{Name: "randomized", Usage: "vermilion: randomised Vermilion, trust r drawn uniformly from 1..k"},
			&cli.IntFlag{Name: "degree", Usage: "mars: degree `d` of the emulated deBruijn graph (default: chosen from --buffer/--delay)"},
			&cli.StringFlag{Name: "buffer", Usage: "mars: buffer per ToR, e.g. 20MB (Theorem 19, needs --link)"},
			&cli.StringFlag{Name: "link", Usage: "mars: uplink rate, e.g. 400Gbps"},
			&cli.StringFlag{Name: "delay", Usage: "mars: delay requirement, e.g. 850us (Theorem 18)"},
			&cli.StringFlag{Name: "format", Usage: "text, json or csv (default: json or csv if -o ends in .json or .csv, else text)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the schedule to `FILE` (default stdout)"},
		},
		Action: runSchedule,
	}
}

func runSchedule(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q; give the kind with --kind", c.Args().First())
	}
	kind := c.String("kind")
	if kind == "" {
		return badInput("kind", "missing; want one of %s", strings.Join(schedules.Kinds(), ", "))
	}
	for _, f := range [][2]string{{"self-slot", "SelfSlot"}, {"tries", "Tries"}, {"degree", "Degree"}, {"buffer", "Buffer"},
		{"link", "Link"}, {"delay", "Delay"}, {"demand", "Demand"}, {"k", "K"}, {"l", "L"}, {"gamma", "Gamma"}, {"randomized", "Randomized"}} {
		flag := f[0]
		if kinds, some := schedules.ReadBy(f[1]); some && c.IsSet(flag) && !slices.Contains(kinds, kind) {
			return badInput(flag, "is read only by %s, not by --kind %s", strings.Join(kinds, " and "), kind)
		}
	}
	out := c.String("output")
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	p := schedules.Params{
		Nodes:      c.Int("tors"),
		Uplinks:    c.Int("uplinks"),
		SelfSlot:   c.Bool("self-slot"),
		Seed:       c.Uint64("seed"),
		Tries:      c.Int("tries"),
		K:          c.Int("k"),
		L:          c.Int("l"),
		Gamma:      c.Float64("gamma"),
		Randomized: c.Bool("randomized"),
	}
	if err := checkTors(p.Nodes, false); err != nil {
		return err
	}
	if err := checkUplinks(p.Uplinks); err != nil {
		return err
	}
	if spec := c.String("demand"); spec != "" {
		if p.Demand, err = demand.Parse(spec, p.Nodes); err != nil {
			return asInput("demand", err)
		}
	}
	if s := c.String("slot"); s != "" {
		if p.Slot, err = rotor.ParseTime(s); err != nil {
			return asInput("slot", err)
		}
		if p.Slot <= 0 {
			return badInput("slot", "%s must be positive", s)
		}
	}
	if s := c.String("reconf"); s != "" {
		if p.Reconf, err = rotor.ParseTime(s); err != nil {
			return asInput("reconf", err)
		}
	}
	p.Degree = c.Int("degree")
	if p.Buffer, err = optionalPositive(c, "buffer", parseSize); err != nil {
		return err
	}
	if p.Link, err = optionalPositive(c, "link", rotor.ParseRate); err != nil {
		return err
	}
	if p.Delay, err = optionalPositive(c, "delay", rotor.ParseTime); err != nil {
		return err
	}
	sched, err := schedules.Build(kind, p)
	if err != nil {
		var pe *schedules.ParamError
		if errors.As(err, &pe) && pe.Field == "kind" {
			return badInput("kind", "%v: %s", pe.Value, pe.Problem)
		}
		if errors.As(err, &pe) {
			return badInput(flagOf(pe.Field), "%v: %s (kind %s)", pe.Value, pe.Problem, pe.Kind)
		}
		return err
	}
	return writeOutput(c.App.Writer, out, func(w io.Writer) error {
		switch format {
		case "json":
			return rotor.WriteJSON(w, sched)
		case "csv":
			return rotor.WriteCSV(w, sched)
		}
		return writeScheduleText(w, sched)
	})
}

// flagOf maps a schedules.Params field to the flag that sets it.
func flagOf(field string) string {
	if field == "nodes" {
		return "tors"
	}
	return field
}

// writeScheduleText prints a header and one line per switch and slot:
// "s0 t3  0→5 1→6 …" (idle ports omitted; an all-idle slot says "idle").
func writeScheduleText(w io.Writer, s *rotor.Schedule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# kind %s, %d nodes, %d switches, period %d, slot %v, reconf %v, duty cycle %.6g\n",
		s.Kind, s.Nodes, s.Switches, s.Period, s.Slot, s.Reconf, s.DutyCycle())
	if s.SwitchOffsets != nil {
		b.WriteString("# switch offsets:")
		for sw, o := range s.SwitchOffsets {
			fmt.Fprintf(&b, " s%d=%v", sw, o)
		}
		b.WriteByte('\n')
	}
	keys := make([]string, 0, len(s.Meta))
	for k := range s.Meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "# %s: %v\n", k, s.Meta[k])
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for sw, slots := range s.Matchings {
		for t, m := range slots {
			b.Reset()
			fmt.Fprintf(&b, "s%d t%d ", sw, t)
			idle := true
			for u, v := range m {
				if v != rotor.Idle {
					fmt.Fprintf(&b, " %d→%d", u, v)
					idle = false
				}
			}
			if idle {
				b.WriteString(" idle")
			}
			b.WriteByte('\n')
			if _, err := io.WriteString(w, b.String()); err != nil {
				return err
			}
		}
	}
	return nil
}
