package des

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

func (f *FIFO) grow() {
	size := 2 * len(f.buf)
	if size == 0 {
		size = 8
	}
	nb := make([]int32, size)
	for i := 0; i < int(f.n); i++ {
		nb[i] = f.buf[(int(f.head)+i)&(len(f.buf)-1)]
	}
	f.buf = nb
	f.head = 0
}
