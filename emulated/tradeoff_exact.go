package emulated

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

type exactResult struct{ any, upper, vlb float64 }

// exactDegree builds the design of degree d as a schedule and measures its
// emulated graph with the engine. d = n is RotorNet with the idle
// self-matching (the thesis' complete graph: n matchings, ⌈n/U⌉ slots; its
// emulated graph equals Mars's B(n, n) minus self-loops when U divides n);
// other degrees are Mars schedules. d = U plays one matching per switch
// forever, so it is built without reconfiguration time (the thesis' static
// topology, footnote 7).
func (c TradeoffConfig) exactDegree(d int) (exactResult, error) {
	var s *rotor.Schedule
	var err error
	switch {
	case d == c.Nodes:
		s, err = schedules.Build("rotornet", schedules.Params{Nodes: c.Nodes, Uplinks: c.Uplinks, Slot: c.Slot, Reconf: c.Reconf, SelfSlot: true})
	case d < 2:
		return exactResult{}, nil // B(n,1): only self-loops, nothing is routable
	default:
		reconf := c.Reconf
		if d == c.Uplinks {
			reconf = 0
		}
		s, err = mars.Schedule(mars.Config{Nodes: c.Nodes, Uplinks: c.Uplinks, Degree: d, Slot: c.Slot, Reconf: reconf},
			rand.New(rand.NewPCG(c.Seed, 0)))
	}
	if err != nil {
		return exactResult{}, fmt.Errorf("degree %d: %w", d, err)
	}
	g, err := FromSchedule(s, c.Link)
	if err != nil {
		return exactResult{}, fmt.Errorf("degree %d: %w", d, err)
	}
	worst, err := WorstCaseDemand(g)
	if err != nil {
		return exactResult{}, fmt.Errorf("degree %d: %w", d, err)
	}
	anyR, err := Throughput(g, worst, &Options{Gap: c.Gap})
	if err != nil {
		return exactResult{}, fmt.Errorf("degree %d: %w", d, err)
	}
	vlb, err := VLB(g, worst, nil)
	if err != nil {
		return exactResult{}, fmt.Errorf("degree %d: %w", d, err)
	}
	return exactResult{any: anyR.Lower, upper: anyR.Upper, vlb: vlb.Theta}, nil
}
