package scenario

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// TestKeysDefaultsAreConfigDefaults: a Spec built with every key at its
// default gives the Config that Config's own defaults give when each
// optional field is left zero (the rest kept), field by field, and the
// same buffer policy; so Keys' defaults and fabric's Default* constants
// cannot drift apart. Each optional field is also zeroed alone, so a key
// whose default no longer matches its field is named.
func TestKeysDefaultsAreConfigDefaults(t *testing.T) {
	cli := buildSpec(t, "run.sim_time=1ms").Config
	zero := map[string]func(*fabric.Config){
		"topology.mtu":         func(c *fabric.Config) { c.MTU = 0 },
		"transport.ack_size":   func(c *fabric.Config) { c.AckSize = 0 },
		"transport.cc":         func(c *fabric.Config) { c.CC = "" },
		"transport.window":     func(c *fabric.Config) { c.Window = 0 },
		"buffer.policy":        func(c *fabric.Config) { c.NewPolicy = nil },
		"transport.min_rto":    func(c *fabric.Config) { c.MinRTO = 0 },
		"routing.offer":        func(c *fabric.Config) { c.RelayOffer = "" },
		"transport.acks":       func(c *fabric.Config) { c.Acks = "" },
		"routing.paths_k":      func(c *fabric.Config) { c.PathsK = 0 },
		"routing.multipath":    func(c *fabric.Config) { c.Multipath = "" },
		"routing.bulk":         func(c *fabric.Config) { c.BulkBytes = 0 },
		"run.sample_interval":  func(c *fabric.Config) { c.SampleInterval = 0 },
		"run.series_interval":  func(c *fabric.Config) { c.SeriesInterval = 0 },
		"buffer.packet_switch": func(c *fabric.Config) { c.PacketSwitchBuffer = 0 },
		"routing.mode":         func(c *fabric.Config) { c.Routing = "" },
		"transport.kind":       func(c *fabric.Config) { c.Transport = "" },
	}
	opts := []cmp.Option{cmpopts.IgnoreUnexported(fabric.Config{}),
		cmpopts.IgnoreFields(fabric.Config{}, "NewPolicy", "Flows", "Context")}
	all := cli
	for key, z := range zero {
		api := cli
		z(&api)
		z(&all)
		if err := api.Resolve(); err != nil {
			t.Fatalf("%s left zero: %v", key, err)
		}
		if diff := cmp.Diff(cli, api, opts...); diff != "" {
			t.Errorf("%s: its default (%q) is not Config's (-keys +Config):\n%s", key, defaultOf(key), diff)
		}
	}
	if err := all.Resolve(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cli, all, opts...); diff != "" {
		t.Errorf("every optional field zero (-keys +Config):\n%s", diff)
	}
	sc := tor.SwitchConfig{Ports: 4, Queues: 1, Buffer: 60000, MTU: 1500, Rates: []rotor.Rate{rotor.Gbps}}
	p1, err1 := all.NewPolicy(0)(&sc)
	p2, err2 := cli.NewPolicy(0)(&sc)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(p1, p2) {
		t.Errorf("buffer policy: Config %#v (%v), keys %#v (%v); want the same", p1, err1, p2, err2)
	}
}
