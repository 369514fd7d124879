package mars_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

// The example of thesis §7.4.4 (Table 7.1 ④): 16 ToRs with 2 uplinks of
// 400 Gbps, 100 µs slots, 20 MB of buffer per ToR and an 850 µs delay target.
func Example() {
	ch, err := mars.ChooseDegree(mars.Limits{
		Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 100 * rotor.Microsecond,
		Buffer: 20_000_000, Delay: 850 * rotor.Microsecond,
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("delay allows d ≤ %.2f, buffer allows d ≤ %d: degree %d\n", ch.DelayDegree, ch.BufferDegree, ch.Degree)

	s, err := mars.Schedule(mars.Config{
		Nodes: 16, Uplinks: 2, Degree: ch.Degree,
		Slot: 100 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond,
	}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d switches × %d matchings, %d idle self-loop ports\n", s.Switches, s.Period, s.Meta["self_loops"])

	st, _ := mars.DeBruijn{Nodes: 16, Degree: ch.Degree}.Analyze()
	fmt.Printf("diameter %d, mean distance %.3f\n", st.Diameter, st.AvgDistance)
	fmt.Printf("VLB throughput ≈ %.2f, delay %.0f µs\n", 1/mars.VLBRouteLength(16, ch.Degree),
		mars.VLBDelay(16, 2, ch.Degree, 100*rotor.Microsecond)/float64(rotor.Microsecond))
	// Output:
	// delay allows d ≤ 4.82, buffer allows d ≤ 4: degree 4
	// 2 switches × 2 matchings, 4 idle self-loop ports
	// diameter 2, mean distance 1.750
	// VLB throughput ≈ 0.25, delay 800 µs
}
