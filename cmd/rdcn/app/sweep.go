package app

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/sweep"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "run a grid of simulate, throughput, tradeoff or predict points on all cores or a cluster",
		UsageText: "rdcn sweep [-o DIR] [--jobs N] [--shard I/N] SPEC.toml\n" +
			"rdcn sweep --emit slurm|k8s [--shards N] [--cpus C] [-o DIR] [--image IMG --pvc CLAIM] SPEC.toml\n\n" +
			"example: rdcn sweep -o load-results load.toml && rdcn collect load-results > load.csv",
		Description: "A spec is a base configuration plus axes (docs/sweeps.md). Each point runs into\n" +
			"DIR/points/NAME, written whole or not at all; a rerun skips finished points and\n" +
			"reruns interrupted or failed ones. A point that fails is reported and the others go\n" +
			"on; the exit status is 1 if any failed. --shard I/N runs points with index ≡ I mod N\n" +
			"(0 ≤ I < N). --emit writes a Slurm job-array script or a Kubernetes Indexed Job\n" +
			"to stdout instead of running (Slurm: and creates DIR, where the tasks write).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "rdcn-sweep", Usage: "results `DIR`"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Usage: "points run at once"},
			&cli.StringFlag{Name: "shard", Usage: "run shard `I/N` only (0 ≤ I < N)"},
			&cli.StringFlag{Name: "emit", Usage: "write a cluster job instead of running: slurm or k8s"},
			&cli.IntFlag{Name: "shards", DefaultText: "the points, at most 100", Usage: "--emit: tasks"},
			&cli.IntFlag{Name: "cpus", Value: 1, Usage: "--emit: CPUs per task (its --jobs)"},
			&cli.StringFlag{Name: "image", Value: "rdcn:latest", Usage: "--emit k8s: container image with rdcn on its PATH"},
			&cli.StringFlag{Name: "pvc", Value: "rdcn-results", Usage: "--emit k8s: claim of the shared results volume"},
		},
		Action: runSweep,
	}
}

// readSweepSpec reads and parses the spec file argument.
func readSweepSpec(c *cli.Context) (*sweep.Spec, []byte, string, error) {
	args, err := positional(c)
	if err != nil {
		return nil, nil, "", err
	}
	if len(args) != 1 {
		return nil, nil, "", badInput("arguments", "want one sweep spec file (rdcn sweep [flags] SPEC.toml), got %q", args)
	}
	path := args[0]
	text, err := limits.ReadFile(path, limits.MaxTextBytes)
	if err != nil {
		return nil, nil, "", badInput("spec", "%v", err)
	}
	s, err := sweep.Parse(bytes.NewReader(text))
	if err != nil {
		return nil, nil, "", asInput("spec "+path, err)
	}
	return s, text, path, nil
}

func runSweep(c *cli.Context) error {
	s, text, path, err := readSweepSpec(c)
	if err != nil {
		return err
	}
	if e := c.String("emit"); e != "" {
		return emitSweep(c, s, text, path, e)
	}
	if c.Int("jobs") < 1 {
		return badInput("jobs", "%d: want at least 1", c.Int("jobs"))
	}
	var shard sweep.Shard
	if v := c.String("shard"); v != "" {
		if shard, err = sweep.ParseShard(v); err != nil {
			return asInput("shard", err)
		}
	}
	ctx, stop := signalContext(c.Context)
	defer stop()
	out, err := sweep.Run(ctx, s, sweep.Options{Dir: c.String("output"), Jobs: c.Int("jobs"), Shard: shard,
		SpecText: text, Log: c.App.ErrWriter, Bar: stderrIsTerminal(c)})
	if err != nil {
		return sweepError(err)
	}
	ratio := 0.0
	if out.Wall > 0 {
		ratio = out.CPU.Seconds() / out.Wall.Seconds()
	}
	fmt.Fprintf(c.App.Writer, "%d points: %d already done, %d run, %d failed; %.1f s wall, CPU/wall %.2f; results in %s\n",
		out.Points, out.Skipped, out.Ran, len(out.Failed), out.Wall.Seconds(), ratio, c.String("output"))
	if r, err := sweep.Collect(c.String("output")); err == nil {
		warnPoints(c.App.ErrWriter, "sweep", r)
	}
	if ctx.Err() != nil {
		return &interruptedError{"sweep; rerun the same command to resume"}
	}
	if n := len(out.Failed); n > 0 {
		return fmt.Errorf("%d of %d points failed (first: %v); rerun the same command to retry them", n, out.Points, out.Failed[0])
	}
	return nil
}

// stderrIsTerminal: progress as a bar on a terminal, as lines elsewhere.
func stderrIsTerminal(c *cli.Context) bool {
	f, ok := c.App.ErrWriter.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// sweepError marks a sweep's field errors as bad input (status 2).
func sweepError(err error) error {
	var se *sweep.Error
	if errors.As(err, &se) {
		return badInput(se.Field, "%s", se.Problem)
	}
	return err
}

func emitSweep(c *cli.Context, s *sweep.Spec, text []byte, path, target string) error {
	if c.IsSet("shard") {
		return badInput("shard", "--emit writes every shard's task; leave --shard out")
	}
	shards := c.Int("shards")
	if !c.IsSet("shards") {
		shards = min(s.Size(), 100)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	absSpec, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	absDir, err := filepath.Abs(c.String("output"))
	if err != nil {
		return err
	}
	j := sweep.ClusterJob{Rdcn: self, SpecPath: absSpec, SpecText: text, Dir: absDir, Shards: shards,
		CPUs: c.Int("cpus"), Name: "rdcn-sweep-" + s.Hash()[:10], Image: c.String("image"), PVC: c.String("pvc")}
	if err := j.Check(s.Size()); err != nil {
		return asInput("emit", err)
	}
	switch target {
	case "slurm":
		if err := j.CheckSlurm(); err != nil {
			return sweepError(err)
		}
		// The tasks' log files go into the results directory: it must exist.
		if err := sweep.Prepare(s, absDir, text); err != nil {
			return asInput("output", err)
		}
		return sweep.WriteSlurm(c.App.Writer, j)
	case "k8s", "kubernetes":
		return sweep.WriteKubernetes(c.App.Writer, j)
	}
	return badInput("emit", "%q: want slurm or k8s", target)
}

func collectCommand() *cli.Command {
	return &cli.Command{
		Name:      "collect",
		Usage:     "merge the points of a sweep's results directories (shards) into one tidy CSV",
		UsageText: "rdcn collect DIR [DIR …] [-o FILE]\n\nexample: rdcn collect results > results.csv",
		Description: "One row per point and metric: point, one column per axis, metric, value; points in\n" +
			"sweep order. A damaged point directory is skipped and named on stderr, and missing\n" +
			"points are counted; either makes the exit status 1.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (default stdout)"},
		},
		Action: func(c *cli.Context) error {
			r, err := collectArgs(c)
			if err != nil {
				return err
			}
			if err := writeOutput(c.App.Writer, c.String("output"), r.WriteCSV); err != nil {
				return err
			}
			return collectProblems(c, r)
		},
	}
}

func collectArgs(c *cli.Context) (*sweep.Results, error) {
	args, err := positional(c)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, badInput("arguments", "want at least one results directory")
	}
	r, err := sweep.Collect(args...)
	if err != nil {
		return nil, asInput("collect", err)
	}
	return r, nil
}

// collectProblems fails (status 1, after the output is written) when a
// point directory was damaged, naming each, or points are missing.
func collectProblems(c *cli.Context, r *sweep.Results) error {
	if len(r.Corrupt) > 0 {
		msgs := make([]string, len(r.Corrupt))
		for i, e := range r.Corrupt {
			msgs[i] = e.Error()
		}
		return fmt.Errorf("skipped %d damaged point directories: %s", len(r.Corrupt), strings.Join(msgs, "; "))
	}
	if len(r.Missing) > 0 {
		return fmt.Errorf("%d of %d points missing (first: %s); run the sweep (or its shards) to finish them", len(r.Missing), len(r.Manifest.Points), r.Missing[0])
	}
	return nil
}
