// Package predict runs the prediction study of thesis §9.6: how much
// throughput a demand-aware schedule keeps when it is designed from a
// predicted demand matrix and then carries the true one.
//
// For every true matrix (ring, uniform, chessboard, skew-α, random, files),
// noise kind (additive or multiplicative, demand.AddNoise), noise factor and
// trust factor γ, Run draws Samples noisy predictions, builds deterministic
// Vermilion (γ = k/ℓ), randomised Vermilion (uniform over 1..γ) and the BvN
// baseline from each prediction, and measures the true matrix on the
// schedule's emulated graph: the single-hop throughput (direct circuits
// only) and the certified any-routing throughput (emulated.Throughput).
// A point's samples are read two ways (Reading): PerDraw averages the
// samples' certified θ; Pooled certifies θ of one schedule that plays all
// the samples' schedules back to back (emulated.Pool), the reading that
// gives §9.6's 0.91 for randomised Vermilion on the ring.
// Every Row also carries the guarantees the theory promises for that
// schedule — consistency (Theorem 24 / 26) and robustness (Theorem 25 / 27,
// Corollary 2) — so a table or a plot (Plot) shows measured θ against them.
//
// The study is a pure function of Study (including Seed), and each row is a
// function of its own keys alone: a sample's noise comes from a PCG stream
// keyed by (Seed, matrix spec, noise kind, sample), shared by every noise
// factor, algorithm and γ (common random numbers), and each design is seeded
// by those keys plus the algorithm and γ. So γ = 5 run alone gives the same
// bytes as γ = 5 inside a list, and evaluations may run in parallel without
// changing the result.
package predict
