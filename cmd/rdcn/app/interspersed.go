package app

import (
	"flag"
	"io"
	"slices"

	"github.com/urfave/cli/v2"
)

// positional returns c's positional arguments and applies the command's
// flags that stand after them (rdcn experiment run tradeoff --quick):
// urfave/cli stops reading flags at the first positional argument.
func positional(c *cli.Context) ([]string, error) {
	args := c.Args().Slice()
	if len(args) <= 1 {
		return args, nil
	}
	fs := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(fs); err != nil {
			return nil, err
		}
	}
	var pos []string
	for rest := args; len(rest) > 0; {
		if err := fs.Parse(rest); err != nil {
			return nil, badInput("arguments", "%v", err)
		}
		if rest = fs.Args(); len(rest) > 0 {
			pos, rest = append(pos, rest[0]), rest[1:]
		}
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, name := range namesOf(c.Command.Flags, f.Name) { // an alias sets the flag under all its names
			if e := c.Set(name, f.Value.String()); e != nil && err == nil {
				err = badInput(f.Name, "%v", e)
			}
		}
	})
	return pos, err
}

// namesOf is every name of the flag among flags that has name.
func namesOf(flags []cli.Flag, name string) []string {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f.Names()
		}
	}
	return []string{name}
}
