package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
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
