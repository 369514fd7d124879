package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/schedules"
)

// composeRun is one combination of the registries' choices.
type composeRun struct {
	topology, kind, routing, transport, law, policy string
}

// keys are the run's settings: a tiny fabric (8 ToRs of 2 hosts, 4
// uplinks; Mars of degree 4), 1 ms simulated, 20 kB flows at 40 % load; a packet switch for
// the hybrid modes and a 100 Gbps circuit link for sirius (its 384 ns
// slots carry no 10 Gbps packet); dcqcn and dctcp get an ECN threshold
// (they are refused without one).
func (c composeRun) keys() []string {
	k := []string{"topology.kind=" + c.topology, "topology.hosts_per_tor=2", "routing.mode=" + c.routing,
		"transport.kind=" + c.transport, "transport.cc=" + c.law, "buffer.policy=" + c.policy,
		"workload.sizes=20KB", "workload.load=0.4", "run.sim_time=1ms"}
	if c.law == "dcqcn" || c.law == "dctcp" {
		k = append(k, "buffer.ecn_threshold=30KB") // they react to ECN marks only
	}
	if c.topology == fabric.TopologyLeafSpine {
		return append(k, "topology.leaves=4")
	}
	k = append(k, "topology.tors=8", "topology.uplinks=4", "schedule.kind="+c.kind)
	switch {
	case c.routing == fabric.Hybrid || c.routing == fabric.HybridVOQ:
		k = append(k, "topology.packet_switch_link=10Gbps")
	case c.kind == "sirius":
		k = append(k, "topology.circuit_link=100Gbps")
	}
	switch c.kind {
	case "vermilion", "bvn":
		k = append(k, "schedule.demand=uniform")
	case "mars":
		k = append(k, "schedule.degree=4")
	}
	return k
}

// TestEveryKeyReadOrRefused walks the registries' product: every (schedule
// kind, routing, transport) of the rotor topology and every (routing,
// transport) of the leaf-spine, with the laws and policies taken in turn
// (so each appears), plus every pair transport × law and transport ×
// policy on both topologies (rotornet with its designed routing, and
// opera with paths, whose short flows are windowed under pull). A
// combination is either refused before the run with one line naming a
// key (a *fabric.ConfigError), or it runs and reads what it set:
// transport.cc other than the default drove at least one flow
// (Result.Reads.LawFlows), buffer.policy other than the default decided
// at least one admission (Result.Reads.PolicyDecisions, pulled packets'
// included).
//
// What it cannot see: a law or policy asked but whose answers change
// nothing on this workload (lqd on traffic that is all pulled decides as
// cs: pulled packets are never pushed out); routing.mode and
// transport.kind are not counted (every run that carries a packet routes
// it and sends it by its transport).
func TestEveryKeyReadOrRefused(t *testing.T) {
	laws, policies := fabric.CongestionControls().Names(), fabric.BufferPolicies().Names()
	var runs []composeRun
	i := 0
	next := func() (string, string) {
		i++
		return laws[i%len(laws)], policies[i%len(policies)]
	}
	for _, topo := range Topologies.Names() {
		kinds := schedules.Kinds()
		if topo == fabric.TopologyLeafSpine {
			kinds = []string{""}
		}
		for _, kind := range kinds {
			for _, rt := range fabric.Routers().Names() {
				for _, tp := range fabric.Transports().Names() {
					law, pol := next()
					runs = append(runs, composeRun{topo, kind, rt, tp, law, pol})
				}
			}
		}
	}
	bases := []composeRun{{topology: fabric.TopologyRotor, kind: "rotornet", routing: fabric.RotorLB},
		{topology: fabric.TopologyRotor, kind: "opera", routing: fabric.Paths},
		{topology: fabric.TopologyLeafSpine, routing: fabric.ECMP}}
	for _, b := range bases {
		for _, tp := range fabric.Transports().Names() {
			for _, law := range laws {
				b.transport, b.law, b.policy = tp, law, fabric.DefaultBufferPolicy
				runs = append(runs, b)
			}
			for _, pol := range policies {
				b.transport, b.law, b.policy = tp, fabric.DefaultCC, pol
				runs = append(runs, b)
			}
		}
	}
	ran, refused := map[string]int{}, 0
	for _, c := range runs {
		keys := c.keys()
		if c.law == fabric.DefaultCC {
			keys = without(keys, "transport.cc=")
		}
		if c.policy == fabric.DefaultBufferPolicy {
			keys = without(keys, "buffer.policy=")
		}
		sp, err := With(keys...)
		if err != nil {
			t.Fatalf("%v: %v", keys, err)
		}
		setup, err := sp.Build()
		var ce *fabric.ConfigError
		switch {
		case errors.As(err, &ce):
			if strings.Contains(err.Error(), "\n") || ce.Field == "" {
				t.Errorf("%+v: refusal is not one line naming a key: %q", c, err)
			}
			refused++
			continue
		case err != nil:
			t.Errorf("%+v: %v", c, err)
			continue
		}
		r, err := fabric.Run(setup.Config)
		if err != nil {
			t.Errorf("%+v: run: %v", c, err)
			continue
		}
		if len(setup.Flows) == 0 {
			t.Errorf("%+v: no flows", c)
			continue
		}
		for _, v := range []string{c.topology, c.kind, c.routing, c.transport, c.law, c.policy} {
			ran[v]++
		}
		if c.law != fabric.DefaultCC && r.Reads.LawFlows == 0 {
			t.Errorf("%+v: transport.cc=%s set, no flow ran it (%d flows, %d pulled)", c, c.law, len(setup.Flows), r.Reads.PulledFlows)
		}
		if c.policy != fabric.DefaultBufferPolicy && r.Reads.PolicyDecisions == 0 {
			t.Errorf("%+v: buffer.policy=%s set, no switch asked it", c, c.policy)
		}
	}
	// Every value of every axis ran at least once.
	axes := [][]string{Topologies.Names(), schedules.Kinds(), fabric.Routers().Names(), fabric.Transports().Names(), laws, policies}
	for _, axis := range axes {
		for _, v := range axis {
			if ran[v] == 0 {
				t.Errorf("%s never ran unrefused", v)
			}
		}
	}
	t.Logf("%d combinations: %d ran, %d refused", len(runs), len(runs)-refused, refused)
}

// without drops the setting starting with prefix.
func without(keys []string, prefix string) []string {
	out := keys[:0:0]
	for _, k := range keys {
		if !strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	return out
}
