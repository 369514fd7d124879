// Package vermilion designs demand-aware periodic circuit schedules:
// Vermilion (thesis ch. 8, Algorithm 6), its generalisation with a trust
// factor γ = k/ℓ for predicted demand (ch. 9, Algorithm 7), the randomised
// variant (Algorithm 8), and a Birkhoff–von Neumann (BvN) baseline of the
// Eclipse/Helios kind (§9.3).
//
// # The idea
//
// A periodic schedule of Γ slots on U switches emulates a static multigraph
// in which each circuit u→v of one slot is an edge of capacity c/Γ
// (Corollary 1). Vermilion picks that multigraph from the demand first and
// then cuts it into perfect matchings. With n nodes it builds a D = k·n
// regular multigraph (k·n rounded up to a multiple of U):
//
//   - the hose-normalised demand, scaled by (k−ℓ)·n and matrix-rounded,
//     gives the demand-aware edges: a pair with demand share x gets ⌊x⌋ or
//     ⌈x⌉ edges;
//   - ℓ edges for every ordered pair u ≠ v form an oblivious complete graph
//     that carries the rounding residue and whatever the prediction missed;
//   - a directed configuration model tops every node up to degree D.
//
// The D matchings are played round-robin on the U switches: period D/U.
// With a perfect prediction every pair gets at least (k−ℓ)/k of its demand
// over its own circuits (Theorem 22/24, single-hop); whatever the prediction,
// the complete part alone routes 1/(2γ) of any demand over two hops
// (Theorem 25). For γ < 2 the demand-aware share would be below the complete
// graph's 1/2, so Algorithm 7 ignores the demand and outputs the complete graph.
// The bounds are functions here (LowerBound, Consistency, Robustness,
// PMF.RandomizedConsistency, PMF.RandomizedRobustness, UniformConsistency,
// UniformRobustness), so a study can print them next to measured throughput.
//
// The BvN baseline instead decomposes the predicted demand into weighted
// permutations and holds each for a time proportional to its weight. It is
// optimal for an exact prediction but has no oblivious part: a prediction
// that misses a pair leaves that pair with no path at all (Theorem 23).
//
// # Choices the thesis leaves open
//
// The "+ℓ per node pair" excludes the diagonal: a u→u circuit carries
// nothing, so those ℓ·n edges are left to the configuration model instead.
// The configuration model rewires self-loops with degree-preserving swaps.
// When U does not divide k·n the degree is rounded up to D = U·⌈k·n/U⌉ and
// the extra D − k·n edges per node join the demand-aware budget D − ℓ·n; no
// slot is idle, consistency only improves ((D−ℓn)/D ≥ (k−ℓ)/k) and the
// oblivious share becomes ℓ·n/D. Randomized reads Algorithm 8's draw r as
// Algorithm 7 with k = r, ℓ = 1 (period ⌈r·n/U⌉, not k·n/U), which is what
// Theorems 26–27 assume; its expected throughput is the PMF-weighted mean of
// the deterministic ones (the per-draw reading). Playing every draw's
// schedule back to back instead (the pooled reading, emulated.Pool) gives
// the 0.91 quoted in §9.6; docs/vermilion.md has the full list and both.
package vermilion
