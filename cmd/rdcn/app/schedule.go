package app

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/operasim"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func scheduleCommand() *cli.Command {
	return &cli.Command{
		Name:  "schedule",
		Usage: "generate a periodic circuit schedule (rotornet, sirius, opera, static, …)",
		UsageText: "rdcn schedule --kind K --tors N --uplinks U [--slot 100us --reconf 10us] [--self-slot] [--stagger]\n" +
			"   [--seed S] [generator flags: --degree, -k, -l, --gamma, --randomized, --tries, --buffer, --delay,\n" +
			"   --link, --design-demand] [--format text|json|csv|opera-sim [--guard 45us]] [-o FILE]\n\n" +
			"example: rdcn schedule --kind rotornet --tors 16 --uplinks 4 --self-slot --format text\n" +
			"example: rdcn schedule --kind opera --tors 128 --uplinks 4 --seed 7 -o opera.json\n" +
			"example: rdcn schedule --kind opera --tors 16 --uplinks 4 --seed 7 -o opera.csv\n" +
			"example: rdcn schedule --kind opera --tors 64 --uplinks 4 --slot 400us --reconf 10us --format opera-sim -o top.txt\n" +
			"example: rdcn schedule --kind vermilion --design-demand skewring:0.5 --tors 16 --uplinks 4 -k 3 --gamma 3 --seed 1\n" +
			"example: rdcn schedule --kind mars --tors 16 --uplinks 2 --buffer 20MB --link 400Gbps --delay 850us",
		Description: "K is one of: " + strings.Join(schedules.Kinds(), ", ") + ". Without --slot each kind uses its\n" +
			"default timing (100us slots with 10us reconfiguration; static 100us with none, as it never\n" +
			"reconfigures; sirius 384ns with 3.84ns); with --slot, --reconf defaults to 0, and --reconf alone\n" +
			"keeps the kind's slot. --self-slot counts the idle self-matching (n matchings instead of n-1) for\n" +
			"rotornet and sirius; --stagger offsets rotornet's switches by s·Δ/U. --seed drives the random kinds;\n" +
			"--tries K keeps the static graph with the best spectral gap out of K. Mars needs --degree, or\n" +
			"--buffer and/or --delay to choose it. Vermilion and bvn design from --design-demand (alias --demand).\n" +
			"The generator flags (--degree, -k, -l, --gamma, --randomized, --tries, --stagger, --buffer, --delay,\n" +
			"--link, --design-demand) are the same in schedule, throughput, bounds and tradeoff; a flag the kind\n" +
			"does not read is refused, and every value given is checked (0 is not a default).\n" +
			"JSON output is rdcn.schedule/v1 (the default when -o ends in .json), the\n" +
			"format --schedule FILE reads back. CSV (the default for .csv) is an export for plotting: one row\n" +
			"per switch, slot and source ToR, switch,slot,start_ps,duration_ps,reconf_ps,src,dst, dst -1 when\n" +
			"the port is idle. opera-sim is the topology file (-topfile) of opera-sim's htsim_ndp_dynexpTopology:\n" +
			"the slices of the cycle with the shortest path of every ToR pair in each, as routing.mode=paths\n" +
			"picks them; it needs Opera's timing (equal slots, switches staggered by Δ/U, Δ divisible by U) and\n" +
			"hosts per ToR = U. --guard is opera-sim's δ: before each night new packets avoid the rotor about\n" +
			"to go dark. docs/simulate.md, \"opera-sim\", has how to run it.",
		Flags: append(append(kindFlags(), generatorFlags("demand")...),
			&cli.StringFlag{Name: "format", Usage: "text, json, csv or opera-sim (default: json or csv if -o ends in .json or .csv, else text)"},
			&cli.BoolFlag{Name: "force", Usage: "opera-sim format: write a topology file larger than " + limits.Bytes(maxOperaSimBytes) + " (estimated)"},
			&cli.StringFlag{Name: "guard", Usage: "opera-sim format: δ, the last part of each superslice's day whose new packets avoid the rotor about to go dark", DefaultText: "half of the day of a superslice, (Δ/U − r)/2"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the schedule to `FILE` (default stdout)"},
		),
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
	g, err := parseGenFlags(c)
	if err != nil {
		return err
	}
	if err := readByKind(c, kind, false); err != nil {
		return err
	}
	out := c.String("output")
	format := c.String("format")
	guard := rotor.Time(-1) // operasim.DefaultGuard
	if format == "opera-sim" {
		if c.IsSet("guard") {
			if guard, err = rotor.ParseTime(c.String("guard")); err != nil {
				return asInput("guard", err)
			}
			if guard < 0 {
				return badInput("guard", "%s must not be negative", c.String("guard"))
			}
		}
	} else if c.IsSet("guard") {
		return badInput("guard", "is read only with --format opera-sim")
	} else if format, err = outputFormat(c); err != nil {
		return badInput("format", "%q: want text, json, csv or opera-sim", c.String("format"))
	}
	p, err := scheduleParams(c, kind, g)
	if err != nil {
		return err
	}
	if format == "opera-sim" {
		// Before building: the kinds opera-sim plays (Opera, rotornet
		// --stagger) connect every pair directly once a cycle, so a cycle
		// has at least n−1 superslices.
		if err := checkOperaSimSize(p.Nodes, p.Nodes-1, c.Bool("force")); err != nil {
			return err
		}
	} else if c.IsSet("force") {
		return badInput("force", "is read only with --format opera-sim")
	}
	sched, err := buildSchedule(kind, p, g.designDemand)
	if err != nil {
		return err
	}
	var top *operasim.Topology
	if format == "opera-sim" {
		if guard < 0 {
			guard = operasim.DefaultGuard(sched)
		}
		if err := checkOperaSimSize(sched.Nodes, sched.Period*sched.Switches, c.Bool("force")); err != nil {
			return err
		}
		if top, err = operasim.FromSchedule(sched, guard); err != nil {
			return asInput("format", err)
		}
	}
	return writeOutput(c.App.Writer, out, func(w io.Writer) error {
		switch format {
		case "opera-sim":
			return operasim.Write(w, top)
		case "json":
			return rotor.WriteJSON(w, sched)
		case "csv":
			return rotor.WriteCSV(w, sched)
		}
		return writeScheduleText(w, sched)
	})
}

// An opera-sim topology lists a path for every ordered ToR pair in every
// slice (3 per superslice, Period·U superslices): n(n−1)·3·Period·U path
// lines. Measured at 128 ToRs and 4 uplinks (rdcn schedule --kind opera
// --tors 128 --uplinks 4 --format opera-sim): 6.24 M lines, 98.9 MB
// written, 749 MB peak RSS, 22 s.
const (
	operaSimBytesPerPath  = 16
	operaSimMemoryPerPath = 120
	// maxOperaSimBytes caps the file written without --force (about
	// 160 ToRs of Opera with 4 uplinks; the Opera paper's 108 ToRs write
	// about 60 MB).
	maxOperaSimBytes = 256 << 20
)

// checkOperaSimSize refuses, unless force, an opera-sim export of n ToRs
// and the given superslices per cycle whose estimated file exceeds
// maxOperaSimBytes or whose estimated memory exceeds what is available,
// before it is built.
func checkOperaSimSize(n, superslices int, force bool) error {
	if force {
		return nil
	}
	paths := float64(n) * float64(n-1) * 3 * float64(superslices)
	size := paths * operaSimBytesPerPath
	if size > maxOperaSimBytes {
		return badInput("format", "opera-sim: the topology file would take about %s (%.3g path lines: one per ToR pair and slice), more than %s; use fewer ToRs or --force",
			gigabytes(int64(size)), paths, limits.Bytes(maxOperaSimBytes))
	}
	if mem := paths * operaSimMemoryPerPath; mem < math.MaxInt64 {
		return checkMemory("the opera-sim export", int64(mem))
	}
	return nil
}

// slotText is the slot length a schedule plays: Slot, or for per-slot
// durations (BvN) their length when they differ by at most 1 ps
// (a cycle split evenly, up to rounding), else their range.
func slotText(s *rotor.Schedule) string {
	if s.SlotDurations == nil {
		return s.Slot.String()
	}
	lo, hi := slices.Min(s.SlotDurations), slices.Max(s.SlotDurations)
	if hi-lo <= 1 {
		return lo.String()
	}
	return lo.String() + " to " + hi.String()
}

// writeScheduleText prints a header and one line per switch and slot:
// "s0 t3  0→5 1→6 …" (idle ports omitted; an all-idle slot says "idle").
func writeScheduleText(w io.Writer, s *rotor.Schedule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# kind %s, %d nodes, %d switches, period %d, slot %s, reconf %v, duty cycle %.6g\n",
		s.Kind, s.Nodes, s.Switches, s.Period, slotText(s), s.Reconf, s.DutyCycle())
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
