package vermilion

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// SampleTrust draws r ∈ {1..len(p)} with Pr(R = r) = p[r−1].
func (p PMF) SampleTrust(rng *rand.Rand) int {
	x := rng.Float64()
	acc := 0.0
	last := 1
	for i, pr := range p {
		if pr > 0 {
			last = i + 1
		}
		acc += pr
		if x < acc {
			return i + 1
		}
	}
	return last // x fell into the rounding gap at the top of the sum
}

// Randomized runs randomised Vermilion (Algorithm 8) with γ = c.K: it draws
// the trust factor r from p (nil means uniform over 1..γ) and builds
// Algorithm 7 with k = r, ℓ = 1, so r = 1 gives the complete graph. c.L is
// ignored. The draw and the configuration model both come from c.Seed, so the
// same seed gives the same schedule. The drawn r is returned and recorded in
// the schedule's Meta ("trust_drawn").
//
// Algorithm 8 writes its loop as "for i = 1 to k·n", but the graph
// emulatedTopology(M, r, 1) is r·n-regular, so the schedule has ⌈r·n/U⌉
// slots: the period varies with the draw.
func Randomized(d demand.Matrix, c Config, p PMF) (*rotor.Schedule, int, error) {
	c.L = 1
	if err := c.Validate(); err != nil {
		return nil, 0, err
	}
	if p == nil {
		p = UniformPMF(c.K)
	}
	if len(p) != c.K {
		return nil, 0, fmt.Errorf("pmf: has %d entries, want γ = k = %d", len(p), c.K)
	}
	if err := p.Validate(); err != nil {
		return nil, 0, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0))
	r := p.SampleTrust(rng)
	gamma := c.K
	c.K = r
	s, err := build(d, c, rng, map[string]any{"randomized": true, "gamma_max": gamma, "trust_drawn": r})
	if err != nil {
		return nil, 0, err
	}
	return s, r, nil
}
