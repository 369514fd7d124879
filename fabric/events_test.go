package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdcn/rdcn/rotor"
)

// TestSkippedFreeEventsChangeNothing: a link schedules its "free" event
// only when something waits for it (or arrives while it serialises). Runs
// that schedule every such event (eagerFree) must give the same results
// with more events: des orders same-time "free" events by (kind, target),
// not by when they were scheduled.
func TestSkippedFreeEventsChangeNothing(t *testing.T) {
	flows := testFlows(t, "websearch", 0.4, 2*rotor.Millisecond, 3)
	for _, c := range []struct{ routing, transport string }{
		{RotorLB, Windowed}, {RotorLB, Pull}, {Paths, Windowed}, {Direct, LineRate}, {ECMP, Windowed}, {Hybrid, Windowed},
	} {
		t.Run(c.routing+"/"+c.transport, func(t *testing.T) {
			run := func(eager bool) *Result {
				cfg := loadedConfig(t, c.routing, flows)
				if c.routing == Hybrid {
					cfg.PacketSwitchLink, cfg.PacketSwitchDelay = cfg.HostLink, cfg.LinkDelay
				}
				if c.routing == ECMP { // the same hosts on a leaf-spine, 4:1 oversubscribed
					cfg.Schedule, cfg.LeafSpine = nil, &LeafSpine{Leaves: cfg.Schedule.Nodes, Spines: 2,
						LinksPerPair: 1, FabricLink: cfg.HostLink * rotor.Rate(cfg.HostsPerToR) / 8, FabricDelay: cfg.LinkDelay, Classes: 2}
				}
				cfg.eagerFree = eager
				cfg.Transport = c.transport
				cfg.SimTime = 5 * rotor.Millisecond
				r, err := Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			lazy, eager := run(false), run(true)
			if lazy.Events >= eager.Events {
				t.Errorf("skipping saved no events: %d vs %d", lazy.Events, eager.Events)
			}
			if diff := cmp.Diff(eager, lazy, cmpopts.IgnoreFields(Result{}, "Events", "Memory"), cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("results differ (-eager +lazy):\n%s", diff)
			}
			t.Logf("%d events instead of %d", lazy.Events, eager.Events)
		})
	}
}
