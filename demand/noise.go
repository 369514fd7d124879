package demand

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// NoiseKind selects how AddNoise perturbs a matrix.
type NoiseKind string

// Noise kinds of the thesis §9.6.
const (
	// Additive adds N(0, σ) to every off-diagonal entry, σ = δ/10 · the
	// largest entry, and clips at 0. It changes the sparsity pattern: zero
	// pairs get demand.
	Additive NoiseKind = "additive"
	// Multiplicative multiplies every off-diagonal entry by a factor drawn
	// from N(1, δ/10) and clipped to [0.1, 2]. Zero pairs stay zero.
	Multiplicative NoiseKind = "multiplicative"
)

// ParseNoiseKind accepts "additive" or "multiplicative".
func ParseNoiseKind(s string) (NoiseKind, error) {
	switch k := NoiseKind(s); k {
	case Additive, Multiplicative:
		return k, nil
	}
	return "", fmt.Errorf("noise kind %q: want additive or multiplicative", s)
}

// Clipping range of the multiplicative factor.
const (
	MinNoiseFactor = 0.1
	MaxNoiseFactor = 2.0
)

// AddNoise returns a noisy copy of m, a "prediction" of m with error δ,
// drawing from rng (the same seed gives the same matrix). δ is the thesis's
// noise factor (§9.6, "from 0 (no error) to 10 (maximum demand)"): the
// noise's standard deviation on a scale where 10 stands for the largest
// demand. So for Additive the standard deviation is δ/10 times the largest
// off-diagonal entry of m, and for Multiplicative it is δ/10 relative to each
// entry. δ = 0 returns an exact copy. The diagonal is copied unchanged. m is
// not modified.
//
// The result is always finite: an additive noise whose standard deviation
// δ/10·max overflows is an error about δ, and an entry that the noise pushes
// past the largest float64 (one within a factor of about 2 of it) gives an
// *EntryError naming that entry of m.
func AddNoise(m Matrix, kind NoiseKind, delta float64, rng *rand.Rand) (Matrix, error) {
	if err := Validate(m); err != nil {
		return nil, err
	}
	if !(delta >= 0) || math.IsInf(delta, 0) {
		return nil, fmt.Errorf("noise factor %v must be finite and non-negative", delta)
	}
	if rng == nil {
		return nil, fmt.Errorf("noise needs a seeded *rand.Rand, got nil")
	}
	out := m.Clone()
	if delta == 0 {
		return out, nil
	}
	sigma := delta / 10
	switch kind {
	case Additive:
		var peak float64
		for i, row := range m {
			for j, v := range row {
				if i != j {
					peak = max(peak, v)
				}
			}
		}
		if math.IsInf(sigma*peak, 0) {
			return nil, fmt.Errorf("noise factor %v: the standard deviation δ/10 × the largest entry %v overflows float64", delta, peak)
		}
		normal := distuv.Normal{Mu: 0, Sigma: sigma * peak, Src: rng}
		for i, row := range out {
			for j := range row {
				if i != j {
					row[j] = max(0, row[j]+normal.Rand())
				}
			}
		}
	case Multiplicative:
		normal := distuv.Normal{Mu: 1, Sigma: sigma, Src: rng}
		for i, row := range out {
			for j := range row {
				if i != j {
					row[j] *= min(MaxNoiseFactor, max(MinNoiseFactor, normal.Rand()))
				}
			}
		}
	default:
		return nil, fmt.Errorf("noise kind %q: want additive or multiplicative", kind)
	}
	for i, row := range out {
		for j, v := range row {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, &EntryError{Row: i, Col: j, Value: m[i][j],
					Problem: fmt.Sprintf("%s noise with delta %v takes it to %v; scale the matrix down", kind, delta, v)}
			}
		}
	}
	return out, nil
}
