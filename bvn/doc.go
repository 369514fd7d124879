// Package bvn converts between matrices and matchings.
//
// A perfect matching of n nodes is a permutation perm with perm[u] = v; as a
// matrix it is the permutation matrix with a 1 at [u][perm[u]]. Three classic
// results connect matrices to sums of such matchings, and bvn implements one
// function for each:
//
//   - Factorize (1-factorisation, König's theorem): a non-negative integer
//     matrix whose rows and columns all sum to k is the adjacency matrix of a
//     k-regular bipartite multigraph, and it is the sum of exactly k
//     permutation matrices.
//   - Round (Bacharach's matrix rounding): any real matrix can be rounded
//     entry by entry to floor or ceiling so that every row sum, column sum
//     and the total also end up at their floor or ceiling. A matrix whose
//     rows and columns sum to the same integer k rounds to an integer matrix
//     with the same sums, ready for Factorize.
//
// bvn works on plain [][]float64 and [][]int matrices and knows nothing about
// networks; callers give it demand or schedule matrices.
package bvn
