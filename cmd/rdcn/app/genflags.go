package app

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// kindFlags choose a generated schedule: its kind, size and timing. schedule,
// throughput and bounds share them.
func kindFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "kind", Usage: "schedule kind (" + strings.Join(schedules.Kinds(), ", ") + ")"},
		&cli.IntFlag{Name: "tors", Aliases: []string{"n"}, Usage: "number of ToRs `N`", DefaultText: "required"},
		&cli.IntFlag{Name: "uplinks", Aliases: []string{"u"}, Usage: "uplinks per ToR = circuit switches `U`", DefaultText: "required"},
		&cli.StringFlag{Name: "slot", Usage: "slot duration, e.g. 100us", DefaultText: "the kind's"},
		&cli.StringFlag{Name: "reconf", Usage: "reconfiguration time at the end of each slot, e.g. 10us", DefaultText: "the kind's, 0 for static; 0 with --slot"},
		&cli.BoolFlag{Name: "self-slot", Usage: "count the idle self-matching (rotornet, sirius)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random kinds (and of random demands)"},
	}
}

// genFlag is one generator parameter shared by schedule, throughput, bounds
// and tradeoff: its flag and the schedules.Params field it sets (for
// schedules.ReadBy).
type genFlag struct {
	flag  cli.Flag
	field string
}

// maxGenInt bounds the integer generator flags (degree, k, ℓ) and γ: none
// is meaningful beyond the CLI's largest n.
const maxGenInt = maxTors

// genFlagTable is the shared generator flag set, defined once. Every value
// given explicitly is checked by parseGenFlags: zero is never "default".
func genFlagTable() []genFlag {
	return []genFlag{
		{&cli.IntFlag{Name: "degree", Usage: "mars: degree `d` of the emulated deBruijn graph, a multiple of U in [U, n]", DefaultText: "chosen from --buffer/--delay"}, "Degree"},
		{&cli.IntFlag{Name: "k", Usage: "vermilion: degree k·n of the emulated graph; bvn: cycle of ⌈k·n/U⌉ slots", DefaultText: "3"}, "K"},
		{&cli.IntFlag{Name: "l", Usage: "vermilion: oblivious edges ℓ per node pair; trust γ = k/ℓ", DefaultText: "1"}, "L"},
		{&cli.Float64Flag{Name: "gamma", Usage: "vermilion: trust factor γ = k/ℓ ≥ 1 instead of -l (alone: smallest ℓ)", DefaultText: "k/ℓ"}, "Gamma"},
		{&cli.BoolFlag{Name: "randomized", Usage: "vermilion: randomised Vermilion, trust r drawn uniformly from 1..k"}, "Randomized"},
		{&cli.IntFlag{Name: "tries", Usage: "static: keep the best spectral gap of `K` connected draws (1 to " + strconv.Itoa(schedules.StaticAttempts) + ")", DefaultText: "1"}, "Tries"},
		{&cli.BoolFlag{Name: "stagger", Usage: "rotornet: offset switch s by s·Δ/U so only one switch is dark at a time"}, "Stagger"},
		{&cli.StringFlag{Name: "buffer", Usage: "mars: buffer per ToR, e.g. 20MB (Theorem 19)"}, "Buffer"},
		{&cli.StringFlag{Name: "delay", Usage: "mars: delay requirement, e.g. 850us (Theorem 18)"}, "Delay"},
		{&cli.StringFlag{Name: "link", Value: "400Gbps", Usage: "uplink rate c (mars's buffer bound; the emulated graph's capacity)"}, "Link"},
		{&cli.StringFlag{Name: "design-demand", Usage: "vermilion, bvn: (predicted) demand `SPEC` the schedule is designed from (uniform, ring, skew:0.5, random:7, a file, …)"}, "Demand"},
	}
}

// generatorFlags lists the shared generator flags; aliases adds aliases
// to --design-demand (schedule, which evaluates no demand, also calls it
// --demand).
func generatorFlags(designDemandAliases ...string) []cli.Flag {
	var fs []cli.Flag
	for _, g := range genFlagTable() {
		if sf, ok := g.flag.(*cli.StringFlag); ok && sf.Name == "design-demand" {
			sf.Aliases = designDemandAliases
		}
		fs = append(fs, g.flag)
	}
	return fs
}

// genValues are the checked generator flags: every field but the design
// demand (which needs n) in p.
type genValues struct {
	p            schedules.Params
	designDemand string
}

// parseGenFlags reads and checks every shared generator flag that is set:
// integers from 1 to their limit, γ finite in [1, maxGenInt], sizes, times
// and rates positive. An unset flag keeps the generator's default.
func parseGenFlags(c *cli.Context) (genValues, error) {
	var g genValues
	ints := []struct {
		name string
		max  int
		dst  *int
	}{{"degree", maxGenInt, &g.p.Degree}, {"k", maxGenInt, &g.p.K}, {"l", maxGenInt, &g.p.L}, {"tries", schedules.StaticAttempts, &g.p.Tries}}
	for _, f := range ints {
		if !c.IsSet(f.name) {
			continue
		}
		v := c.Int(f.name)
		if v < 1 || v > f.max {
			return g, badInput(f.name, "%d, want 1 to %d", v, f.max)
		}
		*f.dst = v
	}
	if c.IsSet("gamma") {
		v := c.Float64("gamma")
		if math.IsNaN(v) || v < 1 || v > maxGenInt {
			return g, badInput("gamma", "%v, want a trust factor γ = k/ℓ from 1 to %d", v, maxGenInt)
		}
		g.p.Gamma = v
	}
	g.p.Randomized = c.Bool("randomized")
	g.p.Stagger = c.Bool("stagger")
	var err error
	if g.p.Buffer, err = optionalPositive(c, "buffer", parseSize); err != nil {
		return g, err
	}
	if g.p.Delay, err = optionalPositive(c, "delay", rotor.ParseTime); err != nil {
		return g, err
	}
	if g.p.Link, err = optionalPositive(c, "link", rotor.ParseRate); err != nil {
		return g, err
	}
	if c.IsSet("design-demand") {
		if g.designDemand = c.String("design-demand"); strings.TrimSpace(g.designDemand) == "" {
			return g, badInput("design-demand", "empty, want a demand SPEC")
		}
	}
	return g, nil
}

// optionalPositive parses a size, time or rate flag: given explicitly it must be
// positive (an empty value included); unset it is the flag's default value
// or 0.
func optionalPositive[T ~int64](c *cli.Context, name string, parse func(string) (T, error)) (T, error) {
	s := c.String(name)
	if !c.IsSet(name) && s == "" {
		return 0, nil
	}
	v, err := parse(s)
	if err != nil {
		return 0, asInput(name, err)
	}
	if v <= 0 {
		return 0, badInput(name, "%q must be positive", s)
	}
	return v, nil
}

// refuseUnread refuses a set generator flag that the command would ignore:
// reads(flag, field) says whether it is read; why explains who reads it.
func refuseUnread(c *cli.Context, reads func(flag, field string) bool, why func(flag, field string) string) error {
	for _, g := range genFlagTable() {
		name := g.flag.Names()[0]
		if c.IsSet(name) && !reads(name, g.field) {
			return badInput(name, "%s", why(name, g.field))
		}
	}
	return nil
}

// readByKind refuses the generator flags that kind does not read (link
// always passes when linkAlways, as throughput and bounds use it for the
// capacity of every kind).
func readByKind(c *cli.Context, kind string, linkAlways bool) error {
	if kinds, _ := schedules.ReadBy("SelfSlot"); c.IsSet("self-slot") && !slices.Contains(kinds, kind) {
		return badInput("self-slot", "is read only by %s, not by --kind %s", strings.Join(kinds, " and "), kind)
	}
	return refuseUnread(c, func(flag, field string) bool {
		if flag == "link" && linkAlways {
			return true
		}
		kinds, some := schedules.ReadBy(field)
		return !some || slices.Contains(kinds, kind)
	}, func(_, field string) string {
		kinds, _ := schedules.ReadBy(field)
		return "is read only by " + strings.Join(kinds, " and ") + ", not by --kind " + kind
	})
}

// scheduleParams reads the kind flags and the checked generator values
// into schedules.Params for kind. The design demand is parsed once n is
// known: designSpec, when the kind reads one.
func scheduleParams(c *cli.Context, kind string, g genValues) (schedules.Params, error) {
	p := g.p
	p.Nodes, p.Uplinks = c.Int("tors"), c.Int("uplinks")
	p.SelfSlot, p.Seed = c.Bool("self-slot"), c.Uint64("seed")
	if err := checkTors(p.Nodes, false); err != nil {
		return p, err
	}
	if err := checkUplinks(p.Uplinks); err != nil {
		return p, err
	}
	var err error
	if c.IsSet("slot") {
		if p.Slot, err = rotor.ParseTime(c.String("slot")); err != nil {
			return p, asInput("slot", err)
		}
		if p.Slot <= 0 {
			return p, badInput("slot", "%s must be positive", c.String("slot"))
		}
	}
	if c.IsSet("reconf") {
		if p.Reconf, err = rotor.ParseTime(c.String("reconf")); err != nil {
			return p, asInput("reconf", err)
		}
		if p.Reconf < 0 {
			return p, badInput("reconf", "%s must not be negative", c.String("reconf"))
		}
		if p.Slot == 0 { // an explicit reconf (0 included) with the kind's slot
			p.Slot, _, _ = schedules.DefaultTiming(kind)
		}
	}
	return p, nil
}

// buildSchedule builds kind from p, designing a demand-aware kind from the
// demand designSpec ("" for none), and names the flag behind a parameter
// error.
func buildSchedule(kind string, p schedules.Params, designSpec string) (*rotor.Schedule, error) {
	if kinds, _ := schedules.ReadBy("Demand"); designSpec != "" && slices.Contains(kinds, kind) {
		d, err := demand.Parse(designSpec, p.Nodes)
		if err != nil {
			return nil, asInput("design-demand", err)
		}
		p.Demand = d
	}
	s, err := schedules.Build(kind, p)
	var pe *schedules.ParamError
	switch {
	case errors.As(err, &pe) && pe.Field == "kind":
		return nil, badInput("kind", "%v: %s", pe.Value, pe.Problem)
	case errors.As(err, &pe):
		return nil, badInput(flagOf(pe.Field), "%v: %s (kind %s)", pe.Value, pe.Problem, pe.Kind)
	}
	return s, err
}

// flagOf maps a schedules.Params field to the flag that sets it.
func flagOf(field string) string {
	switch field {
	case "nodes":
		return "tors"
	case "demand":
		return "design-demand"
	}
	return field
}
