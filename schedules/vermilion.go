package schedules

import (
	"errors"
	"math"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/vermilion"
)

// DefaultVermilionK is Vermilion's k when Params.K and Params.Gamma are 0
// (the thesis' default: throughput ≥ 2/3).
const DefaultVermilionK = 3

// trust resolves k and ℓ from p: K and L as given (L defaults to 1), or
// Gamma = k/ℓ (with K given, ℓ = K/Gamma must be an integer; without, the
// smallest ℓ).
func trust(kind string, p Params) (k, l int, err error) {
	k, l = p.K, p.L
	if p.Gamma != 0 {
		if l != 0 {
			return 0, 0, paramError(kind, "l", l, "give either l or gamma, not both")
		}
		if k == 0 {
			if k, l, err = vermilion.TrustRatio(p.Gamma, 100); err != nil {
				return 0, 0, paramError(kind, "gamma", p.Gamma, "must be k/ℓ ≥ 1 with ℓ ≤ 100")
			}
			return k, l, nil
		}
		x := float64(k) / p.Gamma
		if math.IsNaN(x) || x < 1 || math.Abs(x-math.Round(x)) > 1e-9 {
			return 0, 0, paramError(kind, "gamma", p.Gamma, "needs ℓ = k/γ = %d/%v to be a positive integer", k, p.Gamma)
		}
		return k, int(math.Round(x)), nil
	}
	if k == 0 {
		k = DefaultVermilionK
	}
	if l == 0 {
		l = 1
	}
	return k, l, nil
}

// Vermilion builds generalised Vermilion (or, with Randomized, randomised
// Vermilion with γ = k) from p.Demand; see package vermilion.
func Vermilion(p Params) (*rotor.Schedule, error) {
	const kind = "vermilion"
	if err := checkSize(kind, p); err != nil {
		return nil, err
	}
	if err := checkDesignDemand(kind, p.Demand); err != nil {
		return nil, err
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	k, l, err := trust(kind, p)
	if err != nil {
		return nil, err
	}
	if p.Randomized && l != 1 {
		return nil, paramError(kind, "l", l, "randomised Vermilion has ℓ = 1 (γ = k)")
	}
	c := vermilion.Config{Nodes: p.Nodes, Uplinks: p.Uplinks, K: k, L: l, Slot: slot, Reconf: reconf, Seed: p.Seed}
	if err := c.Validate(); err != nil {
		return nil, vermilionError(kind, err)
	}
	if err := checkCycle(kind, slot, c.Period()); err != nil {
		return nil, err
	}
	if p.Randomized {
		s, _, err := vermilion.Randomized(p.Demand, c, nil)
		return s, vermilionError(kind, err)
	}
	s, err := vermilion.Schedule(p.Demand, c)
	return s, vermilionError(kind, err)
}

// BvN builds the Birkhoff–von Neumann baseline from p.Demand. Its cycle lasts
// as long as a Vermilion cycle with the same k (⌈k·n/U⌉ slots of Δ, k = 3 by
// default), so the two pay for reconfiguration over the same time.
func BvN(p Params) (*rotor.Schedule, error) {
	const kind = "bvn"
	if err := checkSize(kind, p); err != nil {
		return nil, err
	}
	if err := checkDesignDemand(kind, p.Demand); err != nil {
		return nil, err
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	k := p.K
	if k == 0 {
		k = DefaultVermilionK
	}
	if k < 1 {
		return nil, paramError(kind, "k", k, "must be at least 1")
	}
	period := vermilion.Config{Nodes: p.Nodes, Uplinks: p.Uplinks, K: k, L: 1}.Period()
	if err := checkCycle(kind, slot, period); err != nil {
		return nil, err
	}
	s, err := vermilion.BvN(p.Demand, vermilion.BvNConfig{Nodes: p.Nodes, Uplinks: p.Uplinks,
		Cycle: rotor.Time(period) * slot, Slot: slot, Reconf: reconf})
	return s, vermilionError(kind, err)
}

// checkDesignDemand refuses a missing or all-zero (predicted) demand: the
// demand-aware kinds would design from nothing, and silently return the
// oblivious part alone.
func checkDesignDemand(kind string, d demand.Matrix) error {
	if d == nil {
		return paramError(kind, "demand", "none", "%s designs from a (predicted) demand matrix", kind)
	}
	for _, row := range d {
		for _, x := range row {
			if x != 0 {
				return nil
			}
		}
	}
	return paramError(kind, "demand", "all zero", "%s designs from a (predicted) demand matrix with some traffic", kind)
}

// vermilionError turns a *vermilion.ConfigError into a *ParamError; any
// other error is about the demand matrix.
func vermilionError(kind string, err error) error {
	if err == nil {
		return nil
	}
	var ce *vermilion.ConfigError
	if errors.As(err, &ce) {
		return &ParamError{Kind: kind, Field: ce.Field, Value: ce.Value, Problem: ce.Problem}
	}
	return &ParamError{Kind: kind, Field: "demand", Value: "matrix", Problem: err.Error()}
}
