package des

// Ring is a growable ring buffer of T, used as a FIFO whose items carry
// more than an index (a packet with the time it is ready, say), so that a
// simulator can decide about the head without touching the item itself.
// It grows by doubling (to fewer than 2³¹ items); the zero value is empty.
type Ring[T any] struct {
	buf  []T
	head int32 // int32: 32 bytes in all, so no Ring straddles two cache lines
	n    int32
}

// Len is the number of items.
func (r *Ring[T]) Len() int { return int(r.n) }

// Push appends x at the tail.
func (r *Ring[T]) Push(x T) {
	h, n := int(r.head), int(r.n)
	if n == len(r.buf) { // full: double (here, not in a call, so that Push inlines)
		nb := make([]T, max(8, 2*n))
		for i := range n {
			nb[i] = r.buf[(h+i)&(n-1)]
		}
		r.buf, r.head, h = nb, 0, 0
	}
	r.buf[(h+n)&(len(r.buf)-1)] = x
	r.n++
}

// Head returns a pointer to the first item; the ring must not be empty.
func (r *Ring[T]) Head() *T { return &r.buf[r.head] }

// Pop removes and returns the first item; the ring must not be empty.
func (r *Ring[T]) Pop() T {
	x := r.buf[r.head]
	r.head = (r.head + 1) & int32(len(r.buf)-1)
	r.n--
	return x
}

// At returns a pointer to the i-th item from the head (0 ≤ i < Len).
func (r *Ring[T]) At(i int) *T { return &r.buf[(int(r.head)+i)&(len(r.buf)-1)] }

// PopTail removes and returns the last item; the ring must not be empty.
func (r *Ring[T]) PopTail() T {
	r.n--
	return r.buf[(int(r.head)+int(r.n))&(len(r.buf)-1)]
}
