package bvn

import (
	"fmt"
	"math"
)

// IntegralTol is how close to an integer a value must be to count as that
// integer: Round treats an entry, a row sum, a column sum or the total within
// IntegralTol of an integer as exactly that integer.
const IntegralTol = 1e-9

// cancelTol snaps values this close to 0 or 1 while cycles are cancelled, so
// that floating-point residue does not leave near-integral entries behind.
const cancelTol = 1e-12

// maxRoundCells keeps twice the number of entries within the int32
// indices Round uses.
const maxRoundCells = 1 << 30

// maxRound bounds the magnitude of the entries Round accepts, so that the
// result fits an int with room for the row and column sums.
const maxRound = 1 << 52

// Round rounds every entry of the matrix a to its floor or its ceiling such
// that every row sum, every column sum and the total of the result are the
// floor or the ceiling of the corresponding sum of a (Bacharach's matrix
// rounding). Integral entries and integral sums stay exactly as they are; in
// particular zeros stay zero. a may be rectangular; every row must have the
// same length. Entries may be negative; NaN and ±Inf are errors.
//
// The method is a flow rounding done by cycle cancelling. Write f for the
// fractional parts. Add a slack column holding ⌈r_i⌉ − r_i for each row sum
// r_i of f, a slack row holding ⌈c_j⌉ − c_j for each column sum, and the
// corner r − ⌊r⌋ for the total r, so that every row and column of the
// augmented matrix sums to an integer. In the bipartite graph of its
// fractional entries every vertex then has degree 0 or at least 2, so there
// is a cycle; adding ±δ alternately around it keeps all sums and makes at
// least one more entry integral. A single walk that cancels each cycle it
// closes and backs up to the first edge that became integral finds them all.
// When no fractional entry is left, each original row sum is ⌈r_i⌉ minus a
// slack of 0 or 1, and likewise for columns and the total.
func Round(a [][]float64) ([][]int, error) {
	m := len(a)
	if m == 0 {
		return [][]int{}, nil
	}
	p := len(a[0])
	for i, row := range a {
		if len(row) != p {
			return nil, fmt.Errorf("bvn: row %d has %d entries, row 0 has %d (matrix must be rectangular)", i, len(row), p)
		}
		for j, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("bvn: entry [%d][%d] = %v is not a finite number", i, j, x)
			}
			if math.Abs(x) > maxRound {
				return nil, fmt.Errorf("bvn: entry [%d][%d] = %g exceeds %d in magnitude", i, j, x, int64(maxRound))
			}
		}
	}
	if (int64(m)+1)*(int64(p)+1) > maxRoundCells {
		return nil, fmt.Errorf("bvn: matrix of %d×%d entries exceeds %d entries", m, p, int64(maxRoundCells))
	}
	r := newRounder(a)
	r.cancelCycles()
	return r.result(a), nil
}

// rounder is the augmented (m+1)×(p+1) matrix of fractional parts and the
// lists of its fractional entries, by row and by column. Graph vertices are
// numbered rows 0..m, then columns m+1..m+p+1.
type rounder struct {
	m, p int   // size of the original matrix
	w    int   // p+1, the row stride of val
	base []int // floor of each original entry, after snapping
	val  []float64

	// adjacency of fractional entries: the neighbours of vertex x are
	// list[beg[x]:end[x]]; entries that became integral are removed lazily.
	list     []int32
	beg, end []int32
}

func newRounder(a [][]float64) *rounder {
	m, p := len(a), len(a[0])
	w := p + 1
	r := &rounder{m: m, p: p, w: w, base: make([]int, m*p), val: make([]float64, (m+1)*w)}
	colSum := make([]float64, p)
	var total float64
	for i, row := range a {
		var rowSum float64
		for j, x := range row {
			b := math.Floor(x)
			f := x - b
			if f <= IntegralTol {
				f = 0
			} else if f >= 1-IntegralTol {
				f, b = 0, b+1
			}
			r.base[i*p+j] = int(b)
			r.val[i*w+j] = f
			rowSum += f
			colSum[j] += f
		}
		r.val[i*w+p] = slack(rowSum)
		total += rowSum
	}
	for j, c := range colSum {
		r.val[m*w+j] = slack(c)
	}
	if f := total - math.Floor(total); f > IntegralTol && f < 1-IntegralTol {
		r.val[m*w+p] = f
	}

	// Adjacency lists of the fractional entries.
	nodes := m + 1 + w
	r.beg = make([]int32, nodes)
	r.end = make([]int32, nodes)
	deg := r.end // count degrees in end, then turn them into offsets
	fractional := 0
	for i := 0; i <= m; i++ {
		for j := 0; j <= p; j++ {
			if isFractional(r.val[i*w+j]) {
				deg[i]++
				deg[m+1+j]++
				fractional++
			}
		}
	}
	r.list = make([]int32, 2*fractional)
	var off int32
	for x := range nodes {
		r.beg[x] = off
		off += deg[x]
		deg[x] = r.beg[x]
	}
	for i := 0; i <= m; i++ {
		for j := 0; j <= p; j++ {
			if isFractional(r.val[i*w+j]) {
				c := int32(m + 1 + j)
				r.list[r.end[i]] = c
				r.end[i]++
				r.list[r.end[c]] = int32(i)
				r.end[c]++
			}
		}
	}
	return r
}

// slack returns ⌈s⌉ − s, or 0 when s is within IntegralTol of an integer.
func slack(s float64) float64 {
	f := math.Ceil(s) - s
	if f <= IntegralTol || f >= 1-IntegralTol {
		return 0
	}
	return f
}

func isFractional(f float64) bool { return f > 0 && f < 1 }

// cell returns the index in val of the entry between vertices x and y (one a
// row, the other a column).
func (r *rounder) cell(x, y int32) int {
	if int(x) > r.m {
		x, y = y, x
	}
	return int(x)*r.w + int(y) - (r.m + 1)
}

// pick returns a neighbour of x across a fractional entry other than
// exclude, or -1, dropping integral entries from x's list as it goes.
func (r *rounder) pick(x, exclude int32) int32 {
	list := r.list
	for q := r.beg[x]; q < r.end[x]; {
		y := list[q]
		if !isFractional(r.val[r.cell(x, y)]) {
			r.end[x]--
			list[q] = list[r.end[x]]
			continue
		}
		if y != exclude {
			return y
		}
		q++
	}
	return -1
}

// cancelCycles makes every entry of val integral without changing any row or
// column sum.
func (r *rounder) cancelCycles() {
	nodes := len(r.beg)
	pos := make([]int32, nodes) // position on the stack, or -1
	for x := range pos {
		pos[x] = -1
	}
	var stack []int32
	var cells []int // scratch: the cells of the current cycle

	for s := int32(0); s <= int32(r.m); s++ {
		for r.pick(s, -1) >= 0 {
			stack = append(stack[:0], s)
			pos[s] = 0
			for len(stack) > 0 {
				top := len(stack) - 1
				x := stack[top]
				prev := int32(-1)
				if top > 0 {
					prev = stack[top-1]
				}
				y := r.pick(x, prev)
				if y < 0 {
					// x has no fractional entry besides the one to prev. With
					// exact arithmetic this cannot happen (x's sum is
					// integral); with floating point that entry is integral up
					// to rounding residue, so snap it.
					if prev >= 0 {
						c := r.cell(prev, x)
						r.val[c] = math.Round(r.val[c])
					}
					pos[x] = -1
					stack = stack[:top]
					continue
				}
				if pos[y] < 0 {
					pos[y] = int32(len(stack))
					stack = append(stack, y)
					continue
				}
				// Cycle stack[pos[y]:] closed by the entry x–y.
				cyc := stack[pos[y]:]
				cells = cells[:0]
				for t := range cyc {
					cells = append(cells, r.cell(cyc[t], cyc[(t+1)%len(cyc)]))
				}
				first := r.cancel(cells)
				keep := int(pos[y]) + first + 1
				for _, z := range stack[keep:] {
					pos[z] = -1
				}
				stack = stack[:keep]
			}
		}
	}
}

// cancel shifts the even-indexed cells of a cycle by +δ and the odd ones by
// −δ, or the reverse, whichever step is smaller, with δ the largest step
// that keeps all of them in [0, 1]. It returns the index of the first cell
// that became integral.
func (r *rounder) cancel(cells []int) int {
	val := r.val
	// up: even cells rise, odd cells fall; down: the reverse.
	up, down := math.Inf(1), math.Inf(1)
	upAt, downAt := 0, 0
	for t, c := range cells {
		rise, fall := 1-val[c], val[c]
		if t%2 == 1 {
			rise, fall = fall, rise
		}
		if rise < up {
			up, upAt = rise, t
		}
		if fall < down {
			down, downAt = fall, t
		}
	}
	delta, at := up, upAt
	if down < up {
		delta, at = -down, downAt
	}
	first := len(cells)
	for t, c := range cells {
		step := delta
		if t%2 == 1 {
			step = -step
		}
		f := val[c] + step
		switch {
		case t == at:
			// The cell that limited δ lands exactly on 0 or 1.
			f = math.Round(f)
		case f <= cancelTol:
			f = 0
		case f >= 1-cancelTol:
			f = 1
		}
		val[c] = f
		if first == len(cells) && !isFractional(f) {
			first = t
		}
	}
	return first
}

// result adds the rounded fractional parts to the floors.
func (r *rounder) result(a [][]float64) [][]int {
	out := make([][]int, r.m)
	flat := make([]int, r.m*r.p)
	for i := range out {
		out[i] = flat[i*r.p : (i+1)*r.p : (i+1)*r.p]
		for j := range out[i] {
			out[i][j] = r.base[i*r.p+j] + int(math.Round(r.val[i*r.w+j]))
		}
	}
	return out
}
