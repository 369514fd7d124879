package scenario_test

import (
	"fmt"
	"log"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/scenario"
)

// Build a small RotorNet run from keys, as rdcn simulate --set does, and
// run it: the routing and transport left empty resolve to the schedule's
// design.
func Example() {
	spec, err := scenario.With("topology.tors=4", "topology.hosts_per_tor=2", "topology.uplinks=1",
		"workload.sizes=10KB", "workload.load=0.1", "run.sim_time=1ms")
	if err != nil {
		log.Fatal(err)
	}
	setup, err := spec.Build()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("routing:", spec.Get("routing.mode"), "transport:", spec.Get("transport.kind"))
	fmt.Println("window:", setup.Config.Window, "B =", spec.Get("transport.window"))
	r, err := fabric.Run(setup.Config)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("flows:", len(setup.Flows) > 0, "delivered:", r.DeliveredData > 0)
	// Output:
	// routing: rotorlb transport: pull
	// window: 30000 B = 20pkt
	// flows: true delivered: true
}

// A bad value is one error naming its key.
func ExampleSpec_Set() {
	spec := scenario.NewSpec()
	fmt.Println(spec.Set("transport.windw", "10pkt"))
	if err := spec.Set("transport.window", "0"); err != nil {
		log.Fatal(err)
	}
	_, err := spec.Build()
	fmt.Println(err)
	// Output:
	// "transport.windw": unknown key (transport has transport.kind, transport.pull_depth, transport.ndp_window, transport.ndp_header_queue, transport.ndp_dark, transport.ndp_pull_pacing, transport.ndp_nic, transport.ndp_bulk_nic, transport.ndp_header, transport.ndp_pulls, transport.ndp_returned, transport.ndp_timeout, transport.ndp_ports, transport.cc, transport.cc_params, transport.window, transport.dupthresh, transport.sack, transport.min_rto, transport.max_rto, transport.rto_clock, transport.acks, transport.ack_size, transport.delayed_ack, transport.delayed_ack_timeout, transport.int, transport.mss, transport.incast_mss, transport.init_window, transport.incast_init_window, transport.handshake, transport.incast_handshake, transport.syn_timeout, transport.syn_tries, transport.send_jitter)
	// transport.window: "0": must be positive
}
