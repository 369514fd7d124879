package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/rdcn/rdcn/predict"
	"github.com/rdcn/rdcn/rotor"
)

func predictCommand() *cli.Command {
	def := predict.Defaults()
	return &cli.Command{
		Name:  "predict",
		Usage: "throughput of Vermilion and BvN schedules built from noisy demand predictions (thesis §9.6)",
		UsageText: "rdcn predict [--matrices ring,uniform,…] [--noise additive,multiplicative] [--factors 0,1,5,10]\n" +
			"   [--gammas 1,2,3] [--algorithms vermilion,randomized,bvn] [--samples 10] [--seed 1]\n" +
			"   [--readings per-draw,pooled] [--format text|json|csv] [-o FILE] [--plot FILE.svg|FILE.png]\n\n" +
			"example: rdcn predict --matrices ring,skew:0.5 --factors 0,2,10 --gammas 2,3 --samples 5 --plot theta.png",
		Description: "Each schedule is designed from a predicted matrix (the true matrix plus noise) and judged on the\n" +
			"true matrix through the emulated graph: single-hop θ and the certified any-routing θ (lower\n" +
			"bound of a max concurrent flow with relative gap --gap). Next to them stand the consistency\n" +
			"and robustness guarantees of Theorems 24–27 and Corollary 2, as throughputs (× 1 − Δr/Δ).\n" +
			"Two readings turn a point's samples into one θ: per-draw (the mean over the samples of each\n" +
			"schedule's θ) and pooled (θ of one schedule that plays all the samples' schedules back to back).\n" +
			"The defaults are the thesis setup: 8 nodes, 4 uplinks, 400 Gbps, duty cycle 0.99.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "tors", Value: def.Nodes, Usage: "number of ToRs n"},
			&cli.IntFlag{Name: "uplinks", Value: def.Uplinks, Usage: "uplinks (circuit switches) per ToR U"},
			&cli.StringFlag{Name: "link", Value: "400Gbps", Usage: "link rate c"},
			&cli.StringFlag{Name: "slot", Value: def.Slot.String(), Usage: "slot duration Δ"},
			&cli.StringFlag{Name: "reconf", Value: def.Reconf.String(), Usage: "reconfiguration time Δr"},
			&cli.StringFlag{Name: "matrices", Value: strings.Join(def.Matrices, ","), Usage: "comma-separated demand specs or files"},
			&cli.StringFlag{Name: "noise", Value: strings.Join(def.Noises, ","), Usage: "noise kinds: additive, multiplicative"},
			&cli.StringFlag{Name: "factors", Value: predictJoin(def.Factors), Usage: "noise factors (standard deviation of the noise)"},
			&cli.StringFlag{Name: "gammas", Value: predictJoin(def.Gammas), Usage: "trust factors γ = k/ℓ"},
			&cli.StringFlag{Name: "algorithms", Value: "vermilion,randomized,bvn", Usage: "vermilion, randomized, bvn"},
			&cli.IntFlag{Name: "samples", Value: def.Samples, Usage: "noise draws per point"},
			&cli.StringFlag{Name: "readings", Value: "per-draw,pooled", Usage: "per-draw (mean of the samples' θ), pooled (θ of the samples' schedules back to back), or both"},
			&cli.Uint64Flag{Name: "seed", Value: def.Seed, Usage: "seed of the noise and the schedules"},
			&cli.Float64Flag{Name: "gap", Value: 1e-2, Usage: "certified relative gap of the any-routing θ"},
			&cli.IntFlag{Name: "workers", Value: 0, Usage: "parallel evaluations (0: all cores); output does not depend on it"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json or csv"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the table to `FILE` (default stdout)"},
			&cli.StringFlag{Name: "plot", Usage: "draw θ against noise per γ into `FILE` (.svg or .png)"},
		},
		Action: runPredict,
	}
}

func runPredict(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q", c.Args().First())
	}
	s := predict.Defaults()
	s.Nodes, s.Uplinks, s.Samples, s.Seed = c.Int("tors"), c.Int("uplinks"), c.Int("samples"), c.Uint64("seed")
	s.Gap, s.Workers = c.Float64("gap"), c.Int("workers")
	if err := checkTors(s.Nodes, false); err != nil {
		return err
	}
	if err := checkUplinks(s.Uplinks); err != nil {
		return err
	}
	if s.Workers < 0 {
		return badInput("workers", "%d must not be negative (0: all cores)", s.Workers)
	}
	var err error
	if s.Link, err = rotor.ParseRate(c.String("link")); err != nil {
		return asInput("link", err)
	}
	if s.Slot, err = rotor.ParseTime(c.String("slot")); err != nil {
		return asInput("slot", err)
	}
	if s.Reconf, err = rotor.ParseTime(c.String("reconf")); err != nil {
		return asInput("reconf", err)
	}
	s.Matrices = predictList(c.String("matrices"))
	s.Noises = predictList(c.String("noise"))
	if s.Factors, err = predictFloats("factors", c.String("factors")); err != nil {
		return err
	}
	if s.Gammas, err = predictFloats("gammas", c.String("gammas")); err != nil {
		return err
	}
	s.Algorithms = nil
	for _, a := range predictList(c.String("algorithms")) {
		s.Algorithms = append(s.Algorithms, predict.Algorithm(a))
	}
	s.Readings = nil
	for _, r := range predictList(c.String("readings")) {
		s.Readings = append(s.Readings, predict.Reading(r))
	}
	if len(s.Readings) == 0 {
		return badInput("readings", "none given, want per-draw, pooled or both")
	}
	format, plotPath, plotFormat, err := tableOptions(c)
	if err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return asInput("study", err)
	}
	if err := checkMemory("predict", s.MemoryEstimate()); err != nil {
		return err
	}

	var progress func(done, total int)
	if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		var bar *progressbar.ProgressBar
		progress = func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f),
					progressbar.OptionSetDescription("predict"), progressbar.OptionShowCount(),
					progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done)
		}
	}
	var rows []predict.Row
	err = interruptible(c, "predict", func(ctx context.Context) (err error) {
		rows, err = predict.Run(ctx, s, progress)
		if err != nil && ctx.Err() == nil {
			return asInput("study", err)
		}
		return err
	})
	if err != nil {
		return err
	}

	outs := []outputFile{{c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return predict.WriteJSON(w, s, rows)
		case "csv":
			return predict.WriteCSV(w, rows)
		}
		return writePredictText(w, rows)
	}}}
	if plotPath != "" {
		outs = append(outs, outputFile{plotPath, func(w io.Writer) error {
			return predict.Plot(w, rows, plotFormat)
		}})
	}
	return writeOutputs(c.App.Writer, outs...)
}

func writePredictText(w io.Writer, rows []predict.Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "matrix\tnoise\tfactor\talgorithm\tγ\tsingle-hop θ\tper-draw θ (min)\tpooled θ\tconsistency\trobustness\t")
	for _, r := range rows {
		g, cons, rob, perDraw, pooled := "-", "-", "-", "-", "-"
		if r.Algorithm != predict.BvN {
			g = strconv.FormatFloat(r.Gamma, 'g', -1, 64)
			cons, rob = fmt.Sprintf("%.4f", *r.Consistency), fmt.Sprintf("%.4f", *r.Robustness)
		}
		if r.Any != nil {
			perDraw = fmt.Sprintf("%.4f (%.4f)", r.Any.Mean, r.Any.Min)
		}
		if r.Pooled != nil {
			pooled = fmt.Sprintf("%.4f", r.Pooled.Lower)
		}
		fmt.Fprintf(tw, "%s\t%s\t%g\t%s\t%s\t%.4f\t%s\t%s\t%s\t%s\t\n", r.Matrix, r.Noise, r.Factor, r.Algorithm, g,
			r.SingleHop.Mean, perDraw, pooled, cons, rob)
	}
	return tw.Flush()
}

func predictList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func predictFloats(field, s string) ([]float64, error) {
	var out []float64
	for _, f := range predictList(s) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, badInput(field, "%q is not a number", f)
		}
		out = append(out, x)
	}
	return out, nil
}

func predictJoin(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
