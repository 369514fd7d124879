package fabric_test

import (
	"fmt"
	"strings"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/workload"
)

// fourToRRotor is a 4-ToR rotor with one switch: in slot k (of 3, 10 µs
// each with a 1 µs night) ToR t reaches ToR t+k+1 mod 4.
func fourToRRotor() *rotor.Schedule {
	shift := func(k int) []int { return []int{k % 4, (1 + k) % 4, (2 + k) % 4, (3 + k) % 4} }
	return &rotor.Schedule{Nodes: 4, Switches: 1, Period: 3, Slot: 10 * rotor.Microsecond,
		Reconf: rotor.Microsecond, Matchings: [][][]int{{shift(1), shift(2), shift(3)}}}
}

// One 3000-byte flow on a 4-ToR rotor whose circuit 0→2 is up in slot 1
// ([10 µs, 19 µs)): the packets wait in the VOQ for it.
func Example() {
	sc := fourToRRotor()
	r, err := fabric.Run(fabric.Config{
		Schedule: sc, HostsPerToR: 1,
		HostLink: 10 * rotor.Gbps, CircuitLink: 10 * rotor.Gbps,
		HostDelay: 100 * rotor.Nanosecond, LinkDelay: 100 * rotor.Nanosecond,
		Buffer: 1_000_000, Routing: fabric.Direct, Transport: fabric.Windowed,
		Flows:   &fabric.SliceSource{Flows: []workload.Flow{{Src: 0, Dst: 2, Bytes: 3000}}},
		SimTime: rotor.Millisecond, Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := r.Flows[0]
	fmt.Println("FCT", f.FCT, "ideal", f.Ideal, "hops", f.MaxHops)
	// Output:
	// FCT 13.8us ideal 5.1us hops 1
}

// An incast query on the same rotor: hosts 0 and 1 answer host 2 at
// t = 0. Host 1's packet crosses the live circuit 1→2 at once; host 0's
// two packets wait for 0→2. The query completes with its last response.
// (Host 1's FCT is 3.9 µs plus its send jitter, Config.SendJitter.)
func ExampleResult_Queries() {
	sc := fourToRRotor()
	r, err := fabric.Run(fabric.Config{
		Schedule: sc, HostsPerToR: 1,
		HostLink: 10 * rotor.Gbps, CircuitLink: 10 * rotor.Gbps,
		HostDelay: 100 * rotor.Nanosecond, LinkDelay: 100 * rotor.Nanosecond,
		Buffer: 1_000_000, Routing: fabric.Direct, Transport: fabric.LineRate,
		Flows: &fabric.SliceSource{Flows: []workload.Flow{
			{ID: 0, Src: 0, Dst: 2, Bytes: 3000, Query: 1},
			{ID: 1, Src: 1, Dst: 2, Bytes: 1500, Query: 1},
		}},
		SimTime: rotor.Millisecond, Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	started, completed, qct := r.Queries()
	fmt.Println("responses", r.Flows[0].FCT, r.Flows[1].FCT)
	fmt.Println("queries", started, "completed", completed, "QCT µs", qct)
	// Output:
	// responses 13.8us 4.356354us
	// queries 1 completed 1 QCT µs [13.8]
}

// Each schedule runs by default with the routing and transport it was
// designed for: RotorNet's and Opera's by kind; a static graph, where some
// ToR pairs never meet directly, multi-hop earliest-arrival paths.
func ExampleDesignedFor() {
	for _, kind := range []string{"rotornet", "opera", "static", "mars"} {
		p := schedules.Params{Nodes: 8, Uplinks: 4, Seed: 1}
		if kind == "mars" {
			p.Degree = 4 // deBruijn d = 4 < n
		}
		sc, err := schedules.Build(kind, p)
		if err != nil {
			panic(err)
		}
		d := fabric.DesignedFor(sc)
		fmt.Printf("%-8s %-8s %s\n", kind, d.Routing, d.Transport)
	}
	fmt.Println(strings.Join(fabric.Routers().Names(), " "))
	// Output:
	// rotornet rotorlb  pull
	// opera    paths    pull
	// static   earliest window
	// mars     vlb-slice ndp
	// direct vlb rotorlb paths hybrid hybrid-voq earliest vlb-paths vlb-slice ecmp
}

// Priority flow control on a leaf-spine: 8 hosts of leaf 0 send 200 kB
// each at line rate to one host of leaf 1 through 1 MB buffers. With the
// data class (queue 1) lossless, the switches pause their upstreams
// instead of dropping: nothing is lost and the last byte arrives when the
// bottleneck link, busy throughout, has carried the 1.6 MB (1280 µs at
// 10 Gb/s) plus the path's 5.8 µs and the last packet's send jitter
// (Config.SendJitter: under 0.12 µs).
func ExampleConfig_lossless() {
	var flows []workload.Flow
	for i := 0; i < 8; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 8, Bytes: 200_000})
	}
	cfg := fabric.Config{
		LeafSpine: &fabric.LeafSpine{Leaves: 2, Spines: 2, LinksPerPair: 1, FabricLink: 40 * rotor.Gbps,
			FabricDelay: rotor.Microsecond, Classes: 2},
		HostsPerToR: 8, HostLink: 10 * rotor.Gbps, HostDelay: rotor.Microsecond,
		Buffer: 1_000_000, Transport: fabric.LineRate, NewPolicy: fabric.NamedPolicy("reverie", nil, nil, 1),
		SimTime: 10 * rotor.Millisecond, Check: true,
	}
	for _, lossless := range []uint8{0, 1 << 1} {
		cfg.Lossless = lossless
		cfg.Flows = &fabric.SliceSource{Flows: flows} // a source is read once
		r, err := fabric.Run(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		var last rotor.Time
		for _, f := range r.Flows {
			last = max(last, f.Start+f.FCT)
		}
		if r.PFC == nil {
			fmt.Println("without PFC: dropped", r.DroppedPackets, "packets")
			continue
		}
		fmt.Println("with PFC: dropped", r.DroppedPackets, "packets, pauses sent", r.PFC.PauseFrames > 0, "last byte at", last)
	}
	// Output:
	// without PFC: dropped 302 packets
	// with PFC: dropped 0 packets, pauses sent true last byte at 1.285888268ms
}
