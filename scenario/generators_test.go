package scenario

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// TestSpecScheduleGenerators builds the demand-aware and delay/buffer
// designed schedules from simulate's keys and checks each against
// schedules.Build called directly with the parameters the keys stand for
// (the rdcn schedule path), then runs it for a millisecond with the
// invariants checked.
func TestSpecScheduleGenerators(t *testing.T) {
	const n, u = 16, 4
	skew, err := demand.Parse("skewring:0.5", n)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind string
		keys []string
		want schedules.Params
	}{
		{"vermilion", []string{"schedule.demand=skewring:0.5", "schedule.k=3", "schedule.gamma=3", "schedule.seed=2"},
			schedules.Params{Demand: skew, K: 3, Gamma: 3, Seed: 2}},
		{"vermilion", []string{"schedule.demand=skewring:0.5", "schedule.k=2", "schedule.l=1", "schedule.randomized=true"},
			schedules.Params{Demand: skew, K: 2, L: 1, Randomized: true, Seed: 1}},
		{"bvn", []string{"schedule.demand=skewring:0.5", "schedule.k=4"},
			schedules.Params{Demand: skew, K: 4, Seed: 1}},
		{"mars", []string{"schedule.buffer=2MB", "schedule.delay=2ms"},
			schedules.Params{Buffer: 2 * rotor.MB, Delay: 2 * rotor.Millisecond, Seed: 1}},
	}
	for _, c := range cases {
		setup := buildSpec(t, append([]string{"schedule.kind=" + c.kind, "topology.tors=16", "topology.uplinks=4",
			"topology.hosts_per_tor=2", "run.sim_time=3ms", "run.check=true", "routing.mode=paths",
			"workload.sizes=20KB", "workload.load=0.3"}, c.keys...)...)
		p := c.want
		p.Nodes, p.Uplinks, p.Link = n, u, 10*rotor.Gbps
		want, err := schedules.Build(c.kind, p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, setup.Schedule); diff != "" {
			t.Errorf("%s %v: schedule differs from schedules.Build (-want +got):\n%s", c.kind, c.keys, diff)
		}
		r, err := fabric.Run(setup.Config)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.keys, err)
		}
		if r.DeliveredPackets == 0 {
			t.Errorf("%s %v: nothing delivered", c.kind, c.keys)
		}
	}
}
