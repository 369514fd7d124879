package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// version is set by the build (-ldflags
// "-X github.com/rdcn/rdcn/cmd/rdcn/app.version=…").
var version = "dev"

// Main runs the rdcn command line with args (os.Args: the program name
// first) on the process's standard output and error, and returns the exit
// status (see the package doc). Components registered before it is called
// (tor.Register, cc.Register, routing.Register, schedules.Register,
// workload.RegisterSizes, workload.RegisterPattern, experiment.Register)
// appear in every command: --keys, --help, key validation, sweeps, their
// Slurm and Kubernetes scripts, reports and experiments.
func Main(args []string) int {
	return run(args, os.Stdout, os.Stderr)
}

// run executes the CLI and returns the exit status: 0 success, 1 runtime
// failure, 2 bad input, 3 stopped by a time limit, 128 + the signal when
// interrupted (130 Ctrl-C, 143 SIGTERM).
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run under ctx: a done ctx stops a command as a signal does.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	app := newApp(out, stderr)
	ctx, signals := withSignalBox(ctx)
	err := app.RunContext(ctx, args)
	if err == nil && out.err != nil { // a command that printed without checking
		err = fmt.Errorf("stdout: %w", out.err)
	}
	if err == nil {
		return 0
	}
	var intr *interruptedError
	if errors.As(err, &intr) {
		fmt.Fprintln(stderr, "rdcn: "+intr.Error())
		return signals.exitStatus()
	}
	var bad *inputError
	if errors.As(err, &bad) || isUsageError(err) {
		msg := err.Error()
		if topic, ok := strings.CutPrefix(msg, "No help topic for "); ok {
			msg = "command: unknown command " + topic + " (see rdcn --help)"
		}
		fmt.Fprintln(stderr, "rdcn: "+oneLine(msg))
		return 2
	}
	var stopped *stoppedError
	if errors.As(err, &stopped) {
		fmt.Fprintln(stderr, "rdcn: "+oneLine(err.Error()))
		return exitStopped
	}
	fmt.Fprintln(stderr, "rdcn: "+oneLine(err.Error()))
	return 1
}

// checkedWriter remembers the first failed write to stdout, so that every
// command exits 1 when its standard output could not be written (a full
// disk, /dev/full, a closed pipe), even where it prints without checking.
// After a failure every write fails with the same error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// isUsageError recognises urfave/cli's own usage errors that bypass
// OnUsageError (missing required flags, unknown commands).
func isUsageError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "Required flag") || strings.HasPrefix(msg, "No help topic")
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:                 "rdcn",
		Usage:                "design, analyse and emulate reconfigurable datacenter network schedules",
		Version:              version,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: false,
		HideHelpCommand:      true,
		// --set values may hold commas (run.fct_buckets=100KB,1MB, file
		// names): a repeated flag is one value each time, never split.
		DisableSliceFlagSeparator: true,
		Commands:                  commands(),
		ExitErrHandler:            func(*cli.Context, error) {}, // run() prints errors and picks the status
	}
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return badInput("flags", "%s", withSuggestion(err.Error(), app.Flags))
	}
	setUsageErrors(app.Commands)
	return app
}

// setUsageErrors makes a bad flag of every command, nested subcommands
// included, bad input: one line, status 2, no usage printed.
func setUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
				return badInput("flags", "%s", withSuggestion(err.Error(), c.Flags))
			}
		}
		setUsageErrors(c.Subcommands)
	}
}

// commands lists every subcommand in the order a user walks them (design,
// analyse, emulate); each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		demoCommand(),
		scheduleCommand(), // design
		demandCommand(),
		throughputCommand(), // analyse
		boundsCommand(),
		tradeoffCommand(),
		predictCommand(),
		simulateCommand(), // emulate
		bufferLabCommand(),
		sweepCommand(), collectCommand(), reportCommand(), experimentCommand(),
		credenceCommand(),
		versionCommand(),
	}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the rdcn version",
		UsageText: "rdcn version\n\nexample: rdcn version",
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return badInput("arguments", "unexpected %q", c.Args().First())
			}
			_, err := fmt.Fprintln(c.App.Writer, "rdcn "+version)
			return err
		},
	}
}
