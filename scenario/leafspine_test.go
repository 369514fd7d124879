package scenario

import (
	"errors"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// TestLeafSpineSpec: the leafspine keys build the fabric they name, and
// keys of one topology kind set for the other are errors naming them.
func TestLeafSpineSpec(t *testing.T) {
	setup := buildSpec(t, "topology.kind=leafspine", "topology.leaves=3", "topology.spines=2",
		"topology.links_per_pair=2", "topology.hosts_per_tor=4", "topology.fabric_link=40Gbps",
		"topology.fabric_delay=2us", "topology.queues_per_port=2", "topology.port_scheduling=rr", "run.sim_time=1ms", "buffer.per_port=10")
	want := fabric.LeafSpine{Leaves: 3, Spines: 2, LinksPerPair: 2, FabricLink: 40 * rotor.Gbps, FabricDelay: 2 * rotor.Microsecond, Classes: 2, RoundRobin: true}
	if ls := setup.Config.LeafSpine; ls == nil || *ls != want {
		t.Fatalf("LeafSpine = %+v, want %+v", ls, want)
	}
	if setup.Schedule != nil || setup.Config.Routing != fabric.ECMP {
		t.Errorf("schedule %v, routing %q; want none and %q", setup.Schedule, setup.Config.Routing, fabric.ECMP)
	}
	if got, want := setup.Config.Buffer, rotor.Bytes(10*(4+2*2)*1500); got != want {
		t.Errorf("buffer %d, want per_port × (hosts + spines·links) × MTU = %d", got, want)
	}
	r, err := fabric.Run(setup.Config)
	if err != nil {
		t.Fatal(err)
	}
	if r.FlowsComplete == 0 {
		t.Error("no flow completed")
	}
	for _, c := range []struct {
		keys  []string
		field string
	}{
		{[]string{"topology.kind=leafspine", "topology.uplinks=2"}, "topology.uplinks"},
		{[]string{"topology.kind=leafspine", "schedule.kind=opera"}, "schedule.kind"},
		{[]string{"topology.kind=leafspine", "routing.mode=vlb"}, "routing.mode"},
		{[]string{"topology.kind=leafspine", "transport.kind=pull"}, "transport.kind"},
		{[]string{"topology.kind=leafspine", "topology.spines=0"}, "topology.spines"},
		{[]string{"topology.kind=leafspine", "topology.links_per_pair=1000"}, "topology.links_per_pair"},
		{[]string{"topology.spines=4"}, "topology.spines"}, // rotor kind
		{[]string{"topology.kind=clos"}, "topology.kind"},
		{[]string{"topology.kind=leafspine", "topology.port_scheduling=fifo"}, "topology.port_scheduling"},
		{[]string{"topology.port_scheduling=rr"}, "topology.port_scheduling"}, // rotor kind
	} {
		s := NewSpec()
		for _, kv := range append(c.keys, "run.sim_time=1ms") {
			if err := s.SetArg(kv); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%v: error %v, want one naming %s", c.keys, err, c.field)
		}
	}
}
