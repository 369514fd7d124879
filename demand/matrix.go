package demand

// Matrix is a square demand matrix: m[i][j] is the traffic from node i to
// node j. The diagonal is ignored everywhere (a node does not send to itself).
type Matrix [][]float64

// New returns an n×n zero matrix.
func New(n int) Matrix {
	m := make(Matrix, n)
	buf := make([]float64, n*n)
	for i := range m {
		m[i] = buf[i*n : (i+1)*n : (i+1)*n]
	}
	return m
}

// N is the number of nodes.
func (m Matrix) N() int { return len(m) }
