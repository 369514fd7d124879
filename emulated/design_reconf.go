package emulated

import "github.com/rdcn/rdcn/rotor"

// markInfeasible says, for each design not yet marked, why no swept slot
// suits it (θ does not matter for that), and returns the others.
func (ds *DesignSpace) markInfeasible() (feasible []int) {
	c := ds.Config
	for i := range ds.Designs {
		d := &ds.Designs[i]
		if d.Infeasible != "" {
			continue
		}
		whys := map[string]bool{}
		for _, s := range c.Slots {
			p := c.point(i, d, s)
			if p.Feasible {
				feasible = append(feasible, i)
				whys = nil
				break
			}
			whys[p.Why] = true
		}
		if whys != nil {
			d.Infeasible = c.infeasibleReason(d, whys)
		}
	}
	return feasible
}

// evaluate fills Points (every design at every slot) and Best from the
// designs' certified θ.
func (ds *DesignSpace) evaluate() {
	c := ds.Config
	ds.Points, ds.Best = nil, -1
	for i := range ds.Designs {
		d := &ds.Designs[i]
		for _, s := range c.Slots {
			p := c.point(i, d, s)
			if d.Infeasible != "" && p.Feasible {
				p.Feasible, p.Why = false, "design"
			}
			if d.Status == Uncertified && p.Feasible {
				p.Feasible, p.Why = false, Uncertified
			}
			ds.Points = append(ds.Points, p)
			if p.Feasible && (ds.Best < 0 || better(p, ds.Points[ds.Best])) {
				ds.Best = len(ds.Points) - 1
			}
		}
	}
}

// WithReconf is the answer under a fixed reconfiguration time Δr at every
// slot (ReconfFraction 0), from the θ already certified: θ scales with
// the duty cycle, and Δr changes no design's buffer or delay limit, so a
// design feasible at some slot under it is feasible at that slot here
// and has its θ. It gives what Recommend with Reconf = Δr gives, without
// certifying again, and leaves ds unchanged. Without RefineAll this holds
// for the times in ReconfAlternatives (the designs that could win under
// them were refined); under another Δr the answer is the best of the
// certified intervals, where a design stopped as CannotWin may be less
// refined than Recommend with that Δr would leave it.
func (ds *DesignSpace) WithReconf(reconf rotor.Time) *DesignSpace {
	c := ds.Config
	c.Reconf, c.ReconfFraction, c.Progress, c.Context = reconf, 0, nil, nil
	out := &DesignSpace{Config: c, Designs: append([]Design(nil), ds.Designs...)}
	was := map[int]bool{}
	for i, d := range out.Designs {
		was[i] = d.Infeasible == ""
	}
	keep := map[int]bool{}
	for _, i := range out.markInfeasible() {
		keep[i] = true
	}
	for i := range out.Designs {
		if was[i] && !keep[i] { // Recommend under Δr would not have certified it
			out.Designs[i].Theta0, out.Designs[i].Upper0 = 0, 0
		}
	}
	out.evaluate()
	return out
}
