package demand

import (
	"fmt"
	"math"
)

// HoseNormalize scales m into the hose model with its busiest node
// saturated: the diagonal is set to 0, then every entry is divided by the
// largest row or column sum and multiplied by nodeCapacity (U·c, the
// capacity of a node's uplinks). m is not modified. An all-zero matrix, a
// matrix Validate rejects or a capacity that is not positive and finite is
// an error.
func HoseNormalize(m Matrix, nodeCapacity float64) (Matrix, error) {
	if err := Validate(m); err != nil {
		return nil, err
	}
	if !(nodeCapacity > 0) || math.IsInf(nodeCapacity, 0) {
		return nil, fmt.Errorf("demand: node capacity %v must be positive and finite", nodeCapacity)
	}
	peak := m.MaxLineSum()
	if peak == 0 {
		return nil, fmt.Errorf("demand: cannot hose-normalise an all-zero matrix (diagonal ignored)")
	}
	out := New(m.N())
	for i, row := range m {
		for j, v := range row {
			if i != j {
				out[i][j] = v / peak * nodeCapacity
			}
		}
	}
	return out, nil
}

// Sinkhorn balances m into a doubly stochastic matrix (every row and column
// sums to 1, diagonal 0) by the Sinkhorn–Knopp iteration: alternately divide
// every row and every column by its sum. It stops when all row and column
// sums are within tol of 1 and returns an error if that takes more than
// maxIter rounds (the zero pattern of m may admit no doubly stochastic
// matrix, e.g. two rows that only send to the same node) or if a row or
// column is zero.
func Sinkhorn(m Matrix, tol float64, maxIter int) (Matrix, error) {
	if err := Validate(m); err != nil {
		return nil, err
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return nil, fmt.Errorf("demand: Sinkhorn tolerance %v must be positive and finite", tol)
	}
	if maxIter < 1 {
		return nil, fmt.Errorf("demand: Sinkhorn needs at least 1 iteration, got %d", maxIter)
	}
	n := m.N()
	out := New(n)
	for i, row := range m {
		for j, v := range row {
			if i != j {
				out[i][j] = v
			}
		}
	}
	for i := range n {
		if out.RowSum(i) == 0 {
			return nil, fmt.Errorf("demand: Sinkhorn: row %d is zero (diagonal ignored), so no scaling can make it sum to 1", i)
		}
		if out.ColSum(i) == 0 {
			return nil, fmt.Errorf("demand: Sinkhorn: column %d is zero (diagonal ignored), so no scaling can make it sum to 1", i)
		}
	}
	colSum := make([]float64, n)
	var dev float64
	for iter := 0; iter < maxIter; iter++ {
		// Rows: after this every row sums to 1.
		for i, row := range out {
			s := out.RowSum(i)
			for j := range row {
				row[j] /= s
			}
		}
		// Columns: after this every column sums to 1; the rows' deviation
		// measures convergence.
		clear(colSum)
		for _, row := range out {
			for j, v := range row {
				colSum[j] += v
			}
		}
		for _, row := range out {
			for j := range row {
				row[j] /= colSum[j]
			}
		}
		dev = 0
		for i := range out {
			dev = max(dev, math.Abs(out.RowSum(i)-1))
		}
		if dev <= tol {
			return out, nil
		}
	}
	return nil, fmt.Errorf("demand: Sinkhorn did not converge in %d iterations (row sums still off by %.3g > tol %g); the zero pattern may admit no doubly stochastic matrix", maxIter, dev, tol)
}
