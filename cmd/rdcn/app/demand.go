package app

import (
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

func demandCommand() *cli.Command {
	return &cli.Command{
		Name:  "demand",
		Usage: "generate, normalise and perturb a demand matrix",
		UsageText: "rdcn demand --pattern P [--tors N] [--seed S] [--normalize CAP] [--noise additive|multiplicative --delta X]\n" +
			"   [--format text|json|csv] [-o FILE]\n\n" +
			"example: rdcn demand --pattern skew:0.2 --tors 16 --normalize 100Gbps -o skew.txt\n" +
			"example: rdcn demand --pattern ring --tors 8 --noise additive --delta 5 --seed 3 --format csv\n" +
			"example: rdcn demand --pattern chessboard --tors 4 -o chessboard.json",
		Description: "P is uniform, permutation, ring, chessboard, skew:ALPHA (α of the way from all-to-all to a\n" +
			"permutation, thesis §8.3), skewring:ALPHA (ring to permutation, §9.6), random:SEED, or a matrix\n" +
			"file (then --tors may be 0). Noise is applied first, then --normalize divides by the busiest\n" +
			"row or column sum and multiplies by CAP (a number or a rate such as 1.6Tbps, in bit/s), so the\n" +
			"busiest node is saturated. --delta is the thesis noise factor: 10 means a standard deviation\n" +
			"equal to the largest demand (additive) or to each entry (multiplicative). The noise draws from\n" +
			"--seed, so the same flags give the same bytes. Text and CSV are the matrix file format that\n" +
			"--pattern FILE reads back; JSON (rdcn.demand/v1: format, tors, matrix as an array of rows, the\n" +
			"same shortest round-trip numbers) is an export.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pattern", Aliases: []string{"p"}, Usage: "demand pattern or matrix file (" + strings.Join(demand.Patterns, ", ") + ")"},
			&cli.IntFlag{Name: "tors", Aliases: []string{"n"}, Usage: "number of ToRs n (0: take it from the file)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the noise, and of --pattern random without :SEED"},
			&cli.StringFlag{Name: "normalize", Usage: "hose-normalise to node capacity `CAP` (e.g. 1, 1.6Tbps)"},
			&cli.StringFlag{Name: "noise", Usage: "add prediction noise: additive or multiplicative"},
			&cli.Float64Flag{Name: "delta", Usage: "noise factor δ ≥ 0 (thesis §9.6 scale, 0..10)"},
			&cli.StringFlag{Name: "format", Usage: "text, json or csv (default: json or csv if -o ends in .json or .csv, else text)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the matrix to `FILE` (default stdout)"},
		},
		Action: runDemand,
	}
}

func runDemand(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q; give the pattern with --pattern", c.Args().First())
	}
	pattern := c.String("pattern")
	if pattern == "" {
		return badInput("pattern", "missing; want one of %s or a matrix file", strings.Join(demand.Patterns, ", "))
	}
	if pattern == "random" {
		pattern = "random:" + strconv.FormatUint(c.Uint64("seed"), 10)
	}
	n := c.Int("tors")
	if err := checkTors(n, true); err != nil {
		return err
	}
	out := c.String("output")
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	var capacity float64
	if s := c.String("normalize"); s != "" {
		var err error
		if capacity, err = parseCapacity(s); err != nil {
			return asInput("normalize", err)
		}
	}
	var kind demand.NoiseKind
	if s := c.String("noise"); s != "" {
		var err error
		if kind, err = demand.ParseNoiseKind(s); err != nil {
			return asInput("noise", err)
		}
		if !c.IsSet("delta") {
			return badInput("delta", "missing: --noise %s needs --delta", s)
		}
	} else if c.IsSet("delta") {
		return badInput("delta", "given without --noise")
	}

	m, err := demand.Parse(pattern, n)
	if errors.Is(err, demand.ErrNeedsSchedule) {
		return badInput("pattern", "%q depends on a topology; use rdcn throughput --demand worst with a schedule", pattern)
	}
	if err != nil && n == 0 && isPatternName(pattern) {
		return badInput("tors", "missing: pattern %q needs --tors N", pattern)
	}
	if err != nil {
		return asInput("pattern", err)
	}
	if err := demand.Validate(m); err != nil {
		return asInput("pattern", err)
	}
	if kind != "" {
		// Stream 1 of the seed: stream 0 draws random:SEED matrices, so the
		// noise of "random" with the same seed is not the matrix's own stream.
		rng := rand.New(rand.NewPCG(c.Uint64("seed"), 1))
		if m, err = demand.AddNoise(m, kind, c.Float64("delta"), rng); err != nil {
			var ee *demand.EntryError // an entry too close to the largest float64
			if errors.As(err, &ee) {
				return asInput("pattern", err)
			}
			return asInput("delta", err)
		}
	}
	if capacity > 0 {
		if m, err = demand.HoseNormalize(m, capacity); err != nil {
			return asInput("normalize", err)
		}
	}
	return writeOutput(c.App.Writer, out, func(w io.Writer) error {
		switch format {
		case "json":
			return demand.WriteJSON(w, m)
		case "csv":
			return demand.WriteCSV(w, m)
		}
		return demand.Write(w, m)
	})
}

// parseCapacity reads a node capacity: a plain positive number or a rate
// such as "1.6Tbps" (in bit/s).
func parseCapacity(s string) (float64, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, badInput("normalize", "%q must be a positive finite number", s)
		}
		return v, nil
	}
	r, err := rotor.ParseRate(s)
	if err != nil {
		return 0, badInput("normalize", "%q is neither a number nor a rate (%v)", s, err)
	}
	if r <= 0 {
		return 0, badInput("normalize", "%q must be positive", s)
	}
	return float64(r), nil
}

// isPatternName reports whether spec names a built-in pattern (not a file).
func isPatternName(spec string) bool {
	name, _, _ := strings.Cut(spec, ":")
	return slices.ContainsFunc(demand.Patterns, func(p string) bool {
		q, _, _ := strings.Cut(p, ":")
		return q == name
	})
}
