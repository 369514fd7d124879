package app

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/experiment"
	"github.com/rdcn/rdcn/sweep"
)

func experimentCommand() *cli.Command {
	return &cli.Command{
		Name:      "experiment",
		Usage:     "the papers' figures as built-in sweeps with reports (list, run NAME)",
		UsageText: "rdcn experiment list\nrdcn experiment run [--quick] [-o DIR] [--jobs N] NAME\n\nexample: rdcn experiment run --quick tradeoff",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list the experiments (and why some are unavailable)",
				Action: func(c *cli.Context) error {
					if c.Args().Present() {
						return badInput("arguments", "unexpected %q", c.Args().First())
					}
					for _, e := range experiment.List() {
						fmt.Fprintln(c.App.Writer, experiment.Describe(e))
					}
					return nil
				},
			},
			{
				Name:      "run",
				Usage:     "run an experiment's sweep and write DIR/report.html with the published values beside ours",
				UsageText: "rdcn experiment run [--quick] [-o DIR] [--jobs N] NAME (flags before or after NAME)",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "quick", Usage: "the small scale (a minute or two on 2 cores)"},
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "results `DIR` (default NAME or NAME-quick)"},
					&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Usage: "points run at once"},
				},
				Action: runExperiment,
			},
		},
	}
}

func runExperiment(c *cli.Context) error {
	args, err := positional(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return badInput("arguments", "want one experiment name (rdcn experiment list names them)")
	}
	e, err := experiment.Lookup(args[0])
	if err != nil {
		return asInput("experiment", err)
	}
	if !e.Available {
		return badInput("experiment", "%s is not available yet: %s", e.Name, e.Reason)
	}
	if c.Int("jobs") < 1 {
		return badInput("jobs", "%d: want at least 1", c.Int("jobs"))
	}
	dir := c.String("output")
	if dir == "" {
		dir = e.Name
		if c.Bool("quick") {
			dir += "-quick"
		}
	}
	ctx, stop := signalContext(c.Context)
	defer stop()
	out, err := experiment.Run(ctx, e, experiment.Options{Quick: c.Bool("quick"), Dir: dir, Jobs: c.Int("jobs"),
		Log: c.App.ErrWriter, Bar: stderrIsTerminal(c), Version: version})
	if err != nil && ctx.Err() != nil {
		return &interruptedError{"experiment " + e.Name + "; rerun the same command to resume"}
	}
	if err != nil {
		return sweepError(err)
	}
	fmt.Fprintf(c.App.Writer, "%s: %d points (%d already done), %d failed, %.1f s wall; report %s\n", e.Name, out.Points, out.Skipped,
		len(out.Failed), out.Wall.Seconds(), filepath.Join(dir, experiment.ReportFile))
	if n := len(out.Failed); n > 0 {
		return fmt.Errorf("%d of %d points failed (first: %v)", n, out.Points, out.Failed[0])
	}
	if r, err := sweep.Collect(dir); err == nil {
		warnPoints(c.App.ErrWriter, "experiment", r)
	}
	return experiment.WritePublished(c.App.Writer, e, dir)
}
