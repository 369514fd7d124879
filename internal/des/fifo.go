package des

import "math/bits"

// FIFO is a growable ring buffer of int32 (packet indices), of fewer than
// 2³¹ items. It grows by doubling, so pushes are amortised O(1) and
// allocation-free once it has reached its working size. The zero value is
// an empty FIFO.
type FIFO struct {
	buf  []int32
	head int32 // int32: 32 bytes in all, so no FIFO straddles two cache lines
	n    int32
}

// Len is the number of items.
func (f *FIFO) Len() int { return int(f.n) }

// Push appends x at the tail.
func (f *FIFO) Push(x int32) {
	if int(f.n) == len(f.buf) {
		f.grow()
	}
	f.buf[(int(f.head)+int(f.n))&(len(f.buf)-1)] = x
	f.n++
}

// Head returns the first item; the FIFO must not be empty.
func (f *FIFO) Head() int32 { return f.buf[f.head] }

// Pop removes and returns the first item; the FIFO must not be empty.
func (f *FIFO) Pop() int32 {
	x := f.buf[f.head]
	f.head = (f.head + 1) & int32(len(f.buf)-1)
	f.n--
	return x
}

// PopTail removes and returns the last item (push-out); the FIFO must not
// be empty.
func (f *FIFO) PopTail() int32 {
	f.n--
	return f.buf[(int(f.head)+int(f.n))&(len(f.buf)-1)]
}

// At returns the i-th item from the head (0 ≤ i < Len).
func (f *FIFO) At(i int) int32 { return f.buf[(int(f.head)+i)&(len(f.buf)-1)] }

// Set replaces the i-th item from the head (0 ≤ i < Len), e.g. to keep
// the FIFO sorted by inserting from the tail.
func (f *FIFO) Set(i int, x int32) { f.buf[(int(f.head)+i)&(len(f.buf)-1)] = x }

// Release drops the backing array of an empty FIFO that has grown past
// keep items, so that a FIFO drained after a burst holds no memory; the
// next Push allocates again. A non-empty FIFO is left as it is.
func (f *FIFO) Release(keep int) {
	if f.n == 0 && len(f.buf) > keep {
		f.buf, f.head = nil, 0
	}
}

// ReleaseTo is Release that hands the dropped array to pool, from which
// PushFrom takes it again: FIFOs that fill and drain in turn share their
// arrays, so together they hold their peak at any one time, not the sum of
// each one's peak, and refilling allocates nothing once the pool holds
// arrays of the sizes in use.
func (f *FIFO) ReleaseTo(pool *ArrayPool, keep int) {
	if f.n == 0 && len(f.buf) > keep {
		pool.put(f.buf)
		f.buf, f.head = nil, 0
	}
}

// PushFrom is Push that grows from pool's arrays before allocating.
func (f *FIFO) PushFrom(pool *ArrayPool, x int32) {
	if int(f.n) == len(f.buf) {
		f.growFrom(pool)
	}
	f.buf[(int(f.head)+int(f.n))&(len(f.buf)-1)] = x
	f.n++
}

// ArrayPool holds the arrays FIFOs gave back (ReleaseTo), by size
// (powers of two). The zero value is an empty pool.
type ArrayPool = Arrays[int32]

func log2(n int) int { return bits.Len(uint(n)) - 1 }

func (f *FIFO) grow() { f.growFrom(nil) }

func (f *FIFO) growFrom(pool *ArrayPool) {
	size := 2 * len(f.buf)
	if size == 0 {
		size = 8
	}
	var nb []int32
	if pool != nil {
		nb = pool.take(size)
	}
	if nb == nil {
		nb = make([]int32, size)
	}
	for i := 0; i < int(f.n); i++ {
		nb[i] = f.buf[(int(f.head)+i)&(len(f.buf)-1)]
	}
	if pool != nil && len(f.buf) > 0 {
		pool.put(f.buf)
	}
	f.buf = nb
	f.head = 0
}
