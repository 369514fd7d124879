package demand

import (
	"fmt"
	"math"
)

// Matrix is a square demand matrix: m[i][j] is the traffic from node i to
// node j. The diagonal is ignored everywhere (a node does not send to itself).
type Matrix [][]float64

// New returns an n×n zero matrix (n < 0 counts as 0).
func New(n int) Matrix {
	n = max(n, 0)
	m := make(Matrix, n)
	buf := make([]float64, n*n)
	for i := range m {
		m[i] = buf[i*n : (i+1)*n : (i+1)*n]
	}
	return m
}

// N is the number of nodes.
func (m Matrix) N() int { return len(m) }

// Clone returns a deep copy of m.
func (m Matrix) Clone() Matrix {
	c := New(len(m))
	for i, row := range m {
		copy(c[i], row)
	}
	return c
}

// RowSum is the traffic node i sends to other nodes (diagonal ignored).
func (m Matrix) RowSum(i int) float64 {
	var s float64
	for j, v := range m[i] {
		if j != i {
			s += v
		}
	}
	return s
}

// ColSum is the traffic node j receives from other nodes (diagonal ignored).
func (m Matrix) ColSum(j int) float64 {
	var s float64
	for i := range m {
		if i != j {
			s += m[i][j]
		}
	}
	return s
}

// MaxLineSum is the largest row or column sum (diagonal ignored): the load
// of the busiest node in the hose model.
func (m Matrix) MaxLineSum() float64 {
	var best float64
	for i := range m {
		best = max(best, m.RowSum(i), m.ColSum(i))
	}
	return best
}

// Total is the sum of all off-diagonal entries.
func (m Matrix) Total() float64 {
	var s float64
	for i := range m {
		s += m.RowSum(i)
	}
	return s
}

// EntryError reports a bad matrix entry.
type EntryError struct {
	Row, Col int
	Value    float64
	Problem  string
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("demand[%d][%d] = %v: %s", e.Row, e.Col, e.Value, e.Problem)
}

// Validate checks that m is a non-empty square matrix of finite,
// non-negative numbers (the diagonal too: files may hold small diagonal
// values, but not NaN or negative ones). Bad entries give an *EntryError.
func Validate(m Matrix) error {
	n := len(m)
	if n == 0 {
		return fmt.Errorf("demand: empty matrix")
	}
	for i, row := range m {
		if len(row) != n {
			return fmt.Errorf("demand: row %d has %d entries, want %d (the matrix must be square)", i, len(row), n)
		}
		for j, v := range row {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return &EntryError{Row: i, Col: j, Value: v, Problem: "not a finite number"}
			case v < 0:
				return &EntryError{Row: i, Col: j, Value: v, Problem: "negative demand"}
			}
		}
	}
	return nil
}
