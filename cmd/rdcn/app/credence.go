package app

import (
	"context"
	"fmt"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/tor"
	"github.com/urfave/cli/v2"
)

func credenceCommand() *cli.Command {
	return &cli.Command{
		Name:  "credence",
		Usage: "train the random-forest oracle of the Credence buffer policy",
		UsageText: "rdcn credence train --config run.toml [--set key=value …] [--seed S] -o MODEL\n\n" +
			"example: rdcn credence train --config fabric/testdata/credence/train.toml -o credence.model",
		Subcommands: []*cli.Command{{
			Name:  "train",
			Usage: "record LQD's decisions in a simulated run and train Credence's model on them",
			UsageText: "rdcn credence train --config run.toml [--set key=value …] [--seed S] -o MODEL\n\n" +
				"example: rdcn credence train --config fabric/testdata/credence/train.toml -o credence.model",
			Description: "Runs the configured simulation with every switch under LQD (whatever buffer.policy\n" +
				"says), records Credence's four features of every packet arrival at a switch (queue\n" +
				"length, shared occupancy and their moving averages over one base RTT) with LQD's\n" +
				"verdict (dropped on arrival or pushed out later), trains a random forest of 4 trees\n" +
				"of depth 4 on them and writes the model file, which buffer.credence_model reads.\n" +
				"Same configuration and seed, same file, byte for byte. The model built into rdcn\n" +
				"is this command on fabric/testdata/credence/train.toml (docs/buffers.md).",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "TOML run configuration"},
				&cli.StringSliceFlag{Name: "set", Usage: "override a key: --set section.key=value (repeatable)"},
				&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the forest's bootstrap samples and feature choices"},
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "model file to write"},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return badInput("arguments", "unexpected %q", c.Args().First())
				}
				if c.String("config") == "" {
					return badInput("config", "missing: give the run whose LQD drops the forest learns from, e.g. --config fabric/testdata/credence/train.toml")
				}
				if err := checkOutputPath("output", c.String("output")); err != nil {
					return err
				}
				spec, err := loadSpec(c.String("config"), c.StringSlice("set"))
				if err != nil {
					return err
				}
				setup, err := spec.Build()
				if err != nil {
					return asInput("config", err)
				}
				var m *tor.Forest
				var q tor.Quality
				err = interruptible(c, "credence train", func(ctx context.Context) (err error) {
					cfg := setup.Config
					cfg.Context = ctx
					m, q, err = fabric.TrainCredence(cfg, c.Uint64("seed"))
					return err
				})
				if err != nil {
					return err
				}
				if err := writeOutputs(c.App.Writer, outputFile{c.String("output"), m.Write}); err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "%d arrivals, %d dropped by LQD; training accuracy %.4f, precision %.4f, recall %.4f; wrote %s\n",
					q.TP+q.TN+q.FP+q.FN, q.TP+q.FN, q.Accuracy(), q.Precision(), q.Recall(), c.String("output"))
				return nil
			},
		}},
	}
}
