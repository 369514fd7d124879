package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write one self-contained HTML report of a sweep or of one simulate run",
		UsageText: "rdcn report [-o FILE] DIR [DIR …]\n\nexample: rdcn report -o load.html load-results",
		Description: "DIR is a sweep's results directory (several: its shards) or an rdcn simulate\n" +
			"output directory. The HTML has inline SVG plots and no scripts, fonts or remote\n" +
			"resources. Default output: DIR/report.html.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (default DIR/report.html)"},
		},
		Action: func(c *cli.Context) error {
			args, err := positional(c)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return badInput("arguments", "want a results or simulate output directory")
			}
			dir := args[0]
			out := c.String("output")
			if out == "" {
				out = filepath.Join(dir, reportFile)
			}
			info := report.Info{Version: version}
			if _, err := os.Stat(filepath.Join(dir, sweep.ManifestFile)); errors.Is(err, fs.ErrNotExist) {
				if len(args) > 1 {
					return badInput("arguments", "one simulate output directory at a time")
				}
				if err := report.Run(io.Discard, dir, info); err != nil { // check before writing
					var de *report.DamagedError
					if errors.As(err, &de) { // a damaged output: a runtime failure (1)
						return fmt.Errorf("report: %v", err)
					}
					return badInput("report", "%v", err)
				}
				if err := writeOutput(c.App.Writer, out, func(w io.Writer) error { return report.Run(w, dir, info) }); err != nil {
					return err
				}
				if sum, err := report.ReadSummary(dir); err == nil {
					if warn := completionWarning(sum); warn != "" {
						fmt.Fprintln(c.App.ErrWriter, "rdcn report: "+warn)
					}
				}
				return nil
			}
			r, err := collectArgs(c)
			if err != nil {
				return err
			}
			if err := writeOutput(c.App.Writer, out, func(w io.Writer) error { return report.Sweep(w, r, info) }); err != nil {
				return err
			}
			warnPoints(c.App.ErrWriter, "report", r)
			return collectProblems(c, r)
		},
	}
}
