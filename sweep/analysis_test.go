package sweep_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/sweep"
)

// A throughput point's routing is any of rdcn throughput's routings, and a
// typo is refused by Check, before any point runs.
func TestThroughputRoutingsAsRdcnThroughput(t *testing.T) {
	kind, err := sweep.LookupKind("throughput")
	if err != nil {
		t.Fatal(err)
	}
	check := kind.(interface{ Check([][2]string) error })
	config := func(routing string) [][2]string {
		return [][2]string{{"schedule.kind", "opera"}, {"topology.tors", "8"}, {"topology.uplinks", "4"},
			{"throughput.demand", "uniform"}, {"throughput.routing", routing}}
	}
	err = check.Check(config("vlb-slcie"))
	if err == nil || !strings.Contains(err.Error(), "throughput.routing") || !strings.Contains(err.Error(), "vlb-slice") {
		t.Fatalf("typo'd routing: got %v, want a refusal naming throughput.routing and the routings", err)
	}
	s, err := schedules.Build("opera", schedules.Params{Nodes: 8, Uplinks: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := emulated.FromSchedule(s, 400*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	d, err := demand.Parse("uniform", g.N)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range emulated.Routings() {
		if err := check.Check(config(r.Name)); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		metrics, err := kind.Run(context.Background(), config(r.Name), t.TempDir())
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		want, err := r.Solve(g, d, &emulated.Options{Gap: 0.001})
		if err != nil {
			t.Fatal(err)
		}
		if metrics[0].Name != "theta" || metrics[0].Value != want.Theta {
			t.Errorf("%s: sweep θ %v, emulated %v", r.Name, metrics[0], want.Theta)
		}
	}
}
