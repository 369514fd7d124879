package schedules

import (
	"errors"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

// Mars is the registry's adapter to mars.Design: the deBruijn digraph of
// degree p.Degree, or, when p.Degree is 0, of the degree Theorems 18 and 19
// choose from p.Delay and p.Buffer (with p.Link). With none of the three
// it is refused: unconstrained, Theorem 17's optimum is the complete graph,
// which is RotorNet, not a design a user asking for Mars means. Timing
// defaults are DefaultSlot and DefaultReconf.
func Mars(p Params) (*rotor.Schedule, error) {
	const kind = "mars"
	if err := checkSize(kind, p); err != nil {
		return nil, err
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	if p.Degree == 0 && p.Buffer == 0 && p.Delay == 0 {
		return nil, paramError(kind, "degree", "none",
			"give degree d, or buffer (with link) and/or delay to choose d by Theorems 18–19; unconstrained Mars is the complete graph (rotornet)")
	}
	s, _, err := mars.Design(mars.Spec{
		Limits: mars.Limits{Nodes: p.Nodes, Uplinks: p.Uplinks, Link: p.Link, Slot: slot, Buffer: p.Buffer, Delay: p.Delay},
		Degree: p.Degree, Reconf: reconf, Seed: p.Seed,
	})
	var pe *mars.ParamError
	if errors.As(err, &pe) {
		return nil, paramError(kind, pe.Field, pe.Value, "%s", pe.Problem)
	}
	return s, err
}
