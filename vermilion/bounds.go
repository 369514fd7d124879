package vermilion

import (
	"fmt"
	"math"
)

// The guarantees below are competitive ratios: fractions of the best
// achievable throughput 1 − Δr/Δ. Multiply by a schedule's duty cycle
// (rotor.Schedule.DutyCycle) to get a throughput.

// LowerBound is Theorem 22 (and the single-hop half of Theorem 24): with
// perfect predictions, Vermilion with k ≥ 2ℓ serves (k−ℓ)/k of any hose
// demand over direct circuits only. For ℓ = 1 this is (k−1)/k. It returns 0
// when γ = k/ℓ < 2, where Algorithm 7 builds a complete graph that needs
// multi-hop routing to reach its 1/2.
func LowerBound(k, l int) float64 {
	if l < 1 || k < 2*l {
		return 0
	}
	return float64(k-l) / float64(k)
}

// Consistency is Theorem 24: the competitive ratio of deterministic
// Vermilion with trust γ ≥ 1 under perfect predictions, max(1/2, (γ−1)/γ).
func Consistency(gamma float64) float64 {
	return math.Max(0.5, (gamma-1)/gamma)
}

// Robustness is the competitive ratio of deterministic Vermilion with trust γ
// under arbitrary prediction errors. Theorem 25 proves 1/(2γ); for γ < 2
// Algorithm 7 outputs the complete graph, whose guarantee is 1/2, so this
// returns max(1/(2γ), 1/2 if γ < 2).
func Robustness(gamma float64) float64 {
	if gamma < 2 {
		return 0.5
	}
	return 1 / (2 * gamma)
}

// PMF is a probability mass function over trust factors: PMF[r−1] = Pr(R = r)
// for r = 1..len(PMF). Entries are non-negative and sum to 1.
type PMF []float64

// UniformPMF is Pr(R = r) = 1/γ for r = 1..γ, the distribution of Corollary 2.
func UniformPMF(gamma int) PMF {
	if gamma < 1 {
		return nil
	}
	p := make(PMF, gamma)
	for i := range p {
		p[i] = 1 / float64(gamma)
	}
	return p
}

// Validate reports a PMF that is empty, has a negative or non-finite entry, or
// does not sum to 1 (within 1e-9).
func (p PMF) Validate() error {
	if len(p) == 0 {
		return fmt.Errorf("pmf: is empty, want Pr(R=r) for r = 1..γ")
	}
	sum := 0.0
	for i, x := range p {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("pmf[%d]: Pr(R=%d) = %v, want a finite non-negative probability", i, i+1, x)
		}
		sum += x
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("pmf: probabilities sum to %v, want 1", sum)
	}
	return nil
}

// RandomizedConsistency is Theorem 26: Σ_r Pr(R=r)·max(1/2, (r−1)/r).
func (p PMF) RandomizedConsistency() float64 {
	s := 0.0
	for i, pr := range p {
		s += pr * Consistency(float64(i+1))
	}
	return s
}

// RandomizedRobustness is Theorem 27: (1/2)·Σ_r Pr(R=r)/r.
func (p PMF) RandomizedRobustness() float64 {
	s := 0.0
	for i, pr := range p {
		s += pr / float64(i+1)
	}
	return s / 2
}

// Harmonic is the γ-th harmonic number H_γ = 1 + 1/2 + … + 1/γ.
func Harmonic(gamma int) float64 {
	h := 0.0
	for r := gamma; r >= 1; r-- { // small terms first
		h += 1 / float64(r)
	}
	return h
}

// UniformConsistency is Corollary 2 (perfect predictions) for the uniform PMF:
// 1 + 1/(2γ) − H_γ/γ.
func UniformConsistency(gamma int) float64 {
	g := float64(gamma)
	return 1 + 1/(2*g) - Harmonic(gamma)/g
}

// UniformRobustness is Corollary 2 (large prediction error) for the uniform
// PMF: H_γ/(2γ).
func UniformRobustness(gamma int) float64 {
	return Harmonic(gamma) / (2 * float64(gamma))
}

// TrustRatio writes γ as k/ℓ with the smallest ℓ ≤ maxL (γ = 2.5 → 5/2,
// γ = 3 → 3/1). It fails for γ < 1, non-finite γ, or when no ℓ ≤ maxL
// matches γ within 1e-9.
func TrustRatio(gamma float64, maxL int) (k, l int, err error) {
	if math.IsNaN(gamma) || math.IsInf(gamma, 0) || gamma < 1 {
		return 0, 0, fmt.Errorf("gamma: %v, want a trust factor γ = k/ℓ ≥ 1", gamma)
	}
	if gamma*float64(maxL) > 1<<20 {
		return 0, 0, fmt.Errorf("gamma: %v is too large", gamma)
	}
	for l := 1; l <= maxL; l++ {
		k := math.Round(gamma * float64(l))
		if math.Abs(k/float64(l)-gamma) <= 1e-9 {
			return int(k), l, nil
		}
	}
	return 0, 0, fmt.Errorf("gamma: %v is not k/ℓ for any integer ℓ ≤ %d", gamma, maxL)
}
