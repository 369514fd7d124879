// Package bvn converts between matrices and matchings.
//
// A perfect matching of n nodes is a permutation perm with perm[u] = v; as a
// matrix it is the permutation matrix with a 1 at [u][perm[u]]. Three classic
// results connect matrices to sums of such matchings, and bvn implements one
// function for each:
//
//   - Decompose (Birkhoff–von Neumann): a non-negative matrix whose rows and
//     columns all sum to s is a weighted sum of at most n² − 2n + 2
//     permutation matrices with positive weights adding up to s. The proof
//     is the algorithm: the support always holds a perfect matching (Hall's
//     condition follows from the equal sums), so take one, subtract it with
//     the weight of its smallest entry, and repeat. Reconstruct and
//     ReconstructionError check a decomposition.
//
//   - Factorize (König's 1-factorisation): a non-negative integer matrix
//     whose rows and columns all sum to k is a k-regular bipartite
//     multigraph, and it is the sum of exactly k permutation matrices. This
//     is the integral version of Decompose, with all weights 1; it is how an
//     integer "number of circuits per node pair" matrix becomes the k slots
//     of a periodic schedule.
//
//   - Round (Bacharach's matrix rounding): any real matrix can be rounded
//     entry by entry to floor or ceiling so that every row sum, column sum
//     and the total also end up at their floor or ceiling. A matrix whose
//     rows and columns sum to the same integer k rounds to an integer matrix
//     with the same sums, ready for Factorize.
//
// Together: scale a non-negative matrix so that its rows and columns sum to
// an integer k, Round it, and Factorize the result into k matchings; or keep
// the real weights and Decompose.
//
// Matchings are computed with Hopcroft–Karp; Factorize splits even degrees
// by Euler partitions (O(E log k) for E non-zero entries), Round cancels
// cycles of fractional entries. All three are deterministic: the same input
// gives the same output, in the same order. Bad input (ragged or non-square
// matrices, NaN, negative entries where they are not allowed, unequal sums)
// is reported as an error naming the row, column or entry and its value.
//
// bvn works on plain [][]float64 and [][]int matrices and knows nothing about
// networks; callers give it demand or schedule matrices.
package bvn
