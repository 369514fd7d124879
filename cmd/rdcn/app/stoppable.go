package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
)

// errTimeLimit is the cause of a context stopped by --time-limit.
var errTimeLimit = errors.New("time limit")

// solveStoppable runs a certified solver (a Certified emulated.Routing's
// Solve) under Ctrl-C/SIGTERM and --time-limit, showing the certified
// interval on stderr when it is a terminal. A stopped solve returns its
// best certificate and why it stopped: "interrupt" (a signal) or
// "time-limit"; "" when it finished.
func solveStoppable(c *cli.Context, solve func(*emulated.Graph, demand.Matrix, *emulated.Options) (*emulated.Result, error), g *emulated.Graph, d demand.Matrix, gap float64) (*emulated.Result, string, error) {
	ctx, stop := limitedContext(c)
	defer stop()
	opt := &emulated.Options{Gap: gap, Context: ctx}
	if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(-1, progressbar.OptionSetWriter(f), progressbar.OptionSpinnerType(14),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetDescription("solving"))
		defer bar.Finish()
		opt.Progress = func(p emulated.Progress) {
			bar.Describe(fmt.Sprintf("iteration %d: θ in [%.6f, %.6f], gap %.2e (target %.0e)", p.Iteration, p.Lower, p.Upper, p.Gap, gap))
			_ = bar.Add(1)
		}
	}
	r, err := solve(g, d, opt)
	if err != nil || !r.Interrupted {
		return r, "", err
	}
	if context.Cause(ctx) == errTimeLimit {
		return r, "time-limit", nil
	}
	return r, "interrupt", nil
}

// timeLimit checks --time-limit: positive when given.
func timeLimit(c *cli.Context) error {
	if c.IsSet("time-limit") && c.Duration("time-limit") <= 0 {
		return badInput("time-limit", "%v must be positive", c.Duration("time-limit"))
	}
	return nil
}

// limitedContext is signalContext of c's context, with --time-limit's
// deadline (cause errTimeLimit) when the flag is set; stop releases both.
func limitedContext(c *cli.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, stopSignals := signalContext(c.Context)
	if !c.IsSet("time-limit") {
		return ctx, stopSignals
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.Duration("time-limit"), errTimeLimit)
	return ctx, func() { cancel(); stopSignals() }
}
