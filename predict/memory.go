package predict

import (
	"runtime"
	"slices"

	"github.com/rdcn/rdcn/vermilion"
)

// MemoryEstimate is the memory Run needs for s, in bytes, from the sizes
// alone, so a front end can refuse a study the machine cannot hold before
// it starts. With D = 8·n² bytes, one dense n×n matrix of float64:
//
//   - held for the whole run: the true matrices and every noisy prediction
//     (one per matrix, noise kind, non-zero factor and sample: Run draws
//     them all before the first evaluation), D each;
//   - per concurrent evaluation (min(Workers, evaluations) of them): the
//     emulated graph, the single-hop and any-routing solvers' arrays, about
//     8·D, plus the k·n matchings of a Vermilion schedule of the largest k
//     (k·n² ints, k·D);
//   - with the pooled reading, one pool (n² int64, D) per row whose
//     samples are partly judged: rows of at most Workers + 1 (matrix,
//     noise kind, factor) groups, since jobs are fed in that order;
//   - all of that twice: Go's collector lets the heap grow to twice the
//     live data (GOGC = 100).
//
// Measured peak RSS for the ring, BvN, one sample (estimate in brackets):
// n = 2048: 0.40 GB (0.60 GB); n = 4096: 2.2 GB (2.4 GB); n = 8192 is
// estimated at 9.7 GB. A BvN schedule's size depends on how many
// permutations the decomposition finds (up to (n−1)²+1), which the
// sizes do not tell; the estimate does not count it.
func (s Study) MemoryEstimate() int64 {
	n := float64(s.Nodes)
	dense := 8 * n * n
	noisy := 0
	for _, f := range s.Factors {
		if f > 0 {
			noisy++
		}
	}
	held := float64(len(s.Matrices)) * (1 + float64(len(s.Noises)*noisy*s.Samples)) * dense

	kmax, perFactor := 0, 0
	for _, a := range s.Algorithms {
		if a == BvN {
			perFactor++
			continue
		}
		perFactor += len(s.Gammas)
		for _, g := range s.Gammas {
			k := int(g) // randomised: k = γ, ℓ = 1
			if a == Deterministic {
				k, _, _ = vermilion.TrustRatio(g, maxL)
			}
			kmax = max(kmax, k)
		}
	}
	jobs := len(s.Matrices) * len(s.Noises) * len(s.Factors) * perFactor * s.Samples
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, jobs), 1)
	if len(s.Readings) == 0 || slices.Contains(s.Readings, Pooled) {
		groups := len(s.Matrices) * len(s.Noises) * len(s.Factors)
		held += float64(perFactor*min(workers+1, groups)) * dense
	}
	perJob := (8 + float64(kmax)) * dense
	return int64(2 * (held + float64(workers)*perJob))
}
