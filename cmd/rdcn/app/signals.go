package app

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"
)

// signalBox records the signal that stopped a command, for the exit
// status: 128 + its number (130 for SIGINT, 143 for SIGTERM).
type signalBox struct{ sig atomic.Int32 }

type signalBoxKey struct{}

// withSignalBox is ctx carrying a box for the signal that stops the run.
func withSignalBox(ctx context.Context) (context.Context, *signalBox) {
	box := &signalBox{}
	return context.WithValue(ctx, signalBoxKey{}, box), box
}

// exitStatus is 128 + the recorded signal, or 130 (an interruption by a
// cancelled context, as a signal does) when none was recorded.
func (b *signalBox) exitStatus() int {
	if s := b.sig.Load(); s > 0 {
		return 128 + int(s)
	}
	return exitInterrupted
}

// signalContext is parent, cancelled on SIGINT or SIGTERM; the signal is
// recorded in parent's box (withSignalBox) for the exit status. stop
// releases the handler.
func signalContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			if box, ok := parent.Value(signalBoxKey{}).(*signalBox); ok {
				if n, ok := s.(syscall.Signal); ok {
					box.sig.CompareAndSwap(0, int32(n))
				}
			}
			cancel()
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// interruptible runs compute under Ctrl-C and SIGTERM for a command whose
// computation cannot save a partial result (tradeoff's one-slot table, predict, credence
// train, buffer-lab --fig14): on a signal it returns an interruptedError
// at once (exit 128 + the signal, one line "rdcn: interrupted what;
// nothing written") while compute is abandoned; a command writes its
// outputs only after compute returned, so nothing is half-written. compute
// gets the signal's context to stop early where it can.
func interruptible(c *cli.Context, what string, compute func(ctx context.Context) error) error {
	ctx, stop := signalContext(c.Context)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- compute(ctx) }()
	select {
	case err := <-done:
		if ctx.Err() != nil && c.Context.Err() == nil {
			return &interruptedError{what + "; nothing written"}
		}
		return err
	case <-ctx.Done():
		return &interruptedError{what + "; nothing written"}
	}
}
