package emulated_test

import (
	"fmt"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
)

// A RotorNet-style schedule with 8 nodes and 4 switches that also plays the
// idle identity matching: every pair gets U/n = 1/2 of a link. A permutation
// demand can be served at half rate: half of it goes direct, the rest over
// two-hop detours.
func Example() {
	const n, u = 8, 4
	m := make([][][]int, u)
	for sw := range m {
		for t := 0; t < n/u; t++ {
			shift := t*u + sw // shifts 0..7; shift 0 is the idle self-slot
			row := make([]int, n)
			for i := range row {
				row[i] = (i + shift) % n
			}
			m[sw] = append(m[sw], row)
		}
	}
	s := &rotor.Schedule{Kind: "rotornet", Nodes: n, Switches: u, Period: n / u,
		Slot: 100 * rotor.Microsecond, Matchings: m}
	g, err := emulated.FromSchedule(s, 400*rotor.Gbps)
	if err != nil {
		panic(err)
	}
	fmt.Printf("capacity 0→1: %.3f links\n", g.Capacity(0, 1))

	r, err := emulated.Throughput(g, demand.Permutation(n), &emulated.Options{Gap: 1e-3})
	if err != nil {
		panic(err)
	}
	fmt.Printf("θ in [%.3f, %.3f]\n", r.Lower, r.Upper)
	fmt.Println("certificate ok:", emulated.Verify(g, r.Demand, r) == nil)
	d, _ := emulated.SingleHop(g, demand.Permutation(n), nil)
	fmt.Printf("single-hop θ = %.3f\n", d.Theta)
	// Output:
	// capacity 0→1: 0.500 links
	// θ in [0.500, 0.500]
	// certificate ok: true
	// single-hop θ = 0.125
}

// The design question for 16 ToRs with 2 uplinks of 400 Gb/s, 20 MB of
// buffer per ToR and a 850 µs delay budget, on switches that take 2 µs to
// reconfigure: which design, at which slot?
func ExampleRecommend() {
	ds, err := emulated.Recommend(emulated.DesignConfig{
		Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps,
		Buffer: 20 * rotor.MB, Delay: 850 * rotor.Microsecond, Reconf: 2 * rotor.Microsecond,
		Slots: []rotor.Time{5 * rotor.Microsecond, 20 * rotor.Microsecond, 100 * rotor.Microsecond},
		Gap:   1e-2, Seed: 1,
	})
	if err != nil {
		panic(err)
	}
	for _, d := range ds.Designs[1:4] { // [0] is static: no slot limits

		fmt.Printf("%-8s buffer allows Δ ≤ %v, delay Δ ≤ %v\n", d.Name, d.MaxSlotBuffer, d.MaxSlotDelay)
	}
	p, d, _ := ds.Recommended()
	fmt.Printf("recommended: %s at %v, θ ≥ %.2f\n", d.Name, p.Slot, p.Theta)
	// Output:
	// rotornet buffer allows Δ ≤ 25us, delay Δ ≤ 53.125us
	// opera    buffer allows Δ ≤ 25us, delay Δ ≤ 53.125us
	// mars-4   buffer allows Δ ≤ 100us, delay Δ ≤ 106.25us
	// recommended: rotornet at 20us, θ ≥ 0.45
}
