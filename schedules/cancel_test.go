package schedules

import (
	"context"
	"errors"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// countdown is a context whose Err turns context.Canceled after a number
// of calls: it measures cancellation in checks made, not in wall time.
type countdown struct {
	context.Context
	left int
}

func (c *countdown) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestBuildContextCanceledBeforeStart: a done context returns
// context.Canceled for every kind without generating anything.
func TestBuildContextCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, k := range Kinds() {
		s, err := BuildContext(ctx, k, Params{Nodes: 64, Uplinks: 4, Degree: 8, Seed: 1})
		if !errors.Is(err, context.Canceled) || s != nil {
			t.Errorf("%s: got %v, %v; want nil, context.Canceled", k, s, err)
		}
	}
}

// TestGeneratorsCheckContext: a context cancelled after a few checks stops
// Opera's factorisation walk and static's draws part way: the generator
// itself returns context.Canceled (the first check passes, a later one in
// the loop fails), so the long loops do look at the context.
func TestGeneratorsCheckContext(t *testing.T) {
	for _, tc := range []struct {
		kind string
		gen  func(Params) (*rotor.Schedule, error)
		p    Params
	}{
		{"opera", Opera, Params{Nodes: 256, Uplinks: 4, Seed: 1}},
		{"static", Static, Params{Nodes: 64, Uplinks: 4, Seed: 1, Tries: 8}},
	} {
		for _, left := range []int{0, 1, 2} {
			p := tc.p
			p.ctx = &countdown{Context: context.Background(), left: left}
			if s, err := tc.gen(p); !errors.Is(err, context.Canceled) || s != nil {
				t.Errorf("%s cancelled after %d checks: got %v; want context.Canceled", tc.kind, left, err)
			}
		}
		// The same parameters without cancellation succeed.
		if _, err := tc.gen(tc.p); err != nil {
			t.Errorf("%s: %v", tc.kind, err)
		}
	}
}
