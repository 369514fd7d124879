package emulated

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Pool builds the emulated graph of schedules played back to back: one
// schedule whose period is every added schedule's period in turn. Its arc
// u→v has capacity Σ_i busy_i(u,v) / Σ_i cycle_i, with busy_i(u,v) the time
// per cycle that schedule i offers u→v circuits (Corollary 1 applied to the
// concatenation). That is the cycle-weighted mean of the schedules'
// emulated graphs, so by concavity of the max concurrent flow in the
// capacities, θ(pool) ≥ Σ_i w_i·θ(graph_i) with w_i = cycle_i / Σ_j cycle_j.
//
// Sums are integer picoseconds, so the graph does not depend on the order
// in which schedules are added.
type Pool struct {
	nodes, switches int
	reconf          rotor.Time
	busy            []rotor.Time // Σ_i u→v circuit time per cycle of schedule i, [u*n+v]
	cycle           rotor.Time   // Σ_i cycle_i
	period          int          // Σ_i period_i
	count           int
}

// Add appends s to the pooled schedule. Every schedule of a pool must have
// the same nodes, switches and reconfiguration time, and the cycles must
// sum to at most rotor.MaxCycle.
func (p *Pool) Add(s *rotor.Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if p.count == 0 {
		p.nodes, p.switches, p.reconf = s.Nodes, s.Switches, s.Reconf
		p.busy = make([]rotor.Time, s.Nodes*s.Nodes)
	}
	switch {
	case s.Nodes != p.nodes:
		return fmt.Errorf("pool: schedule %d has %d nodes, the pool %d", p.count, s.Nodes, p.nodes)
	case s.Switches != p.switches:
		return fmt.Errorf("pool: schedule %d has %d switches, the pool %d", p.count, s.Switches, p.switches)
	case s.Reconf != p.reconf:
		return fmt.Errorf("pool: schedule %d reconfigures in %v, the pool in %v", p.count, s.Reconf, p.reconf)
	}
	cycle := s.CycleDuration()
	if cycle > rotor.MaxCycle-p.cycle {
		return fmt.Errorf("pool: cycles sum beyond %v", rotor.MaxCycle)
	}
	n := p.nodes
	for _, slots := range s.Matchings {
		for t, m := range slots {
			day := s.SlotDuration(t) - s.Reconf
			for u, v := range m {
				if v == rotor.Idle || v == u {
					continue
				}
				p.busy[u*n+v] += day
			}
		}
	}
	p.cycle += cycle
	p.period += s.Period
	p.count++
	return nil
}

// Len is the number of schedules added.
func (p *Pool) Len() int { return p.count }

// Graph is the emulated graph of the pooled schedule (see FromSchedule for
// the units); link may be 0 when only relative figures are needed.
func (p *Pool) Graph(link rotor.Rate) (*Graph, error) {
	if p.count == 0 {
		return nil, fmt.Errorf("pool: no schedule added")
	}
	if link < 0 {
		return nil, fmt.Errorf("link rate: must not be negative, got %d", link)
	}
	capm := make([]float64, len(p.busy))
	for i, b := range p.busy {
		capm[i] = float64(b) / float64(p.cycle)
	}
	g := newGraph(p.nodes, capm)
	g.NodeCapacity = float64(p.switches)
	g.Rate = link
	g.Period = p.period
	g.Cycle = p.cycle
	g.Slot = p.cycle / rotor.Time(p.period)
	g.Reconf = p.reconf
	return g, nil
}
