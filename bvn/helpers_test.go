package bvn

import (
	"fmt"
	"math/rand/v2"
)

// randomRegular returns the n×n sum of k uniformly random permutation
// matrices: a k-regular bipartite multigraph.
func randomRegular(n, k int, rng *rand.Rand) [][]int {
	a := intMatrix(n, n)
	for range k {
		for u, v := range rng.Perm(n) {
			a[u][v]++
		}
	}
	return a
}

func intMatrix(r, c int) [][]int {
	a := make([][]int, r)
	for i := range a {
		a[i] = make([]int, c)
	}
	return a
}

// checkPermutation reports whether p is a permutation of 0..n-1.
func checkPermutation(p []int, n int) error {
	if len(p) != n {
		return fmt.Errorf("length %d, want %d", len(p), n)
	}
	seen := make([]bool, n)
	for u, v := range p {
		if v < 0 || v >= n {
			return fmt.Errorf("perm[%d] = %d out of range", u, v)
		}
		if seen[v] {
			return fmt.Errorf("perm[%d] = %d repeats a column", u, v)
		}
		seen[v] = true
	}
	return nil
}

// sumMatchings adds up the permutation matrices of perms.
func sumMatchings(perms [][]int, n int) [][]int {
	s := intMatrix(n, n)
	for _, p := range perms {
		for u, v := range p {
			s[u][v]++
		}
	}
	return s
}
