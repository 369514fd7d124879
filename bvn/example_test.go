package bvn_test

import (
	"fmt"

	"github.com/rdcn/rdcn/bvn"
)

// A doubly stochastic matrix is a convex combination of permutation matrices.
func ExampleDecompose() {
	a := [][]float64{
		{0.5, 0.3, 0.2},
		{0.2, 0.5, 0.3},
		{0.3, 0.2, 0.5},
	}
	terms, err := bvn.Decompose(a, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range terms {
		fmt.Printf("%.1f × %v\n", t.Weight, t.Perm)
	}
	e, _ := bvn.ReconstructionError(a, terms)
	fmt.Println("reconstruction error below 1e-12:", e < 1e-12)
	// Output:
	// 0.5 × [0 1 2]
	// 0.2 × [2 0 1]
	// 0.3 × [1 2 0]
	// reconstruction error below 1e-12: true
}

// A 2-regular bipartite multigraph (every row and column sums to 2) is the
// union of two perfect matchings.
func ExampleFactorize() {
	a := [][]int{
		{1, 1, 0, 0},
		{0, 1, 1, 0},
		{0, 0, 1, 1},
		{1, 0, 0, 1},
	}
	perms, err := bvn.Factorize(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range perms {
		fmt.Println(p)
	}
	// Output:
	// [0 1 2 3]
	// [1 2 3 0]
}

// Rounding each entry to the nearest integer would give rows summing to 0,
// 0 and 1; matrix rounding keeps every row and column sum (here exactly 1)
// while still rounding each entry down or up.
func ExampleRound() {
	a := [][]float64{
		{0.4, 0.4, 0.2},
		{0.4, 0.4, 0.2},
		{0.2, 0.2, 0.6},
	}
	r, err := bvn.Round(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r {
		fmt.Println(row)
	}
	// Output:
	// [1 0 0]
	// [0 1 0]
	// [0 0 1]
}
