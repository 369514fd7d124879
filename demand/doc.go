// Package demand holds traffic demand matrices: their text and CSV formats,
// pattern generators, hose-model normalisation, prediction noise and
// Sinkhorn–Knopp balancing.
//
// A Matrix m is square; m[i][j] is the traffic node i sends to node j. The
// diagonal is ignored everywhere: a node does not send to itself, and files
// may hold small diagonal values.
//
// # Patterns
//
// Uniform (all-to-all), Permutation (i → i+n/2), Ring (i → i+1),
// Chessboard (alternating 1.5 and 0.5, thesis §9.6), Skew (α of the way
// from all-to-all to the permutation, thesis §8.3.2), SkewRing (α of the way
// from ring to permutation, thesis §9.6) and Random. Parse turns the
// command-line spellings ("skew:0.5", "random:7", a file path) into
// matrices.
//
// # The hose model
//
// Throughput is measured against demand in the hose model: no node sends or
// receives more than its capacity. HoseNormalize scales a matrix so that its
// busiest node (largest row or column sum) carries exactly the node
// capacity U·c; a throughput θ then means that θ·D is routable. Sinkhorn
// instead balances every row and column to 1 (a doubly stochastic matrix,
// the input of a Birkhoff–von Neumann decomposition).
//
// # Predictions
//
// AddNoise turns a true matrix into a noisy "prediction" with the additive
// and multiplicative error models of the thesis §9.6; its factor δ is the
// thesis's noise factor (10 = a standard deviation of the largest demand).
//
// Every random choice takes a seeded *rand.Rand (math/rand/v2), so the same
// seed gives the same matrix.
package demand
