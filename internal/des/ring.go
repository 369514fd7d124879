package des

import "unsafe"

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

// PrefetchHead starts loading the first item into the CPU cache (a no-op
// on an empty ring or off amd64).
func (r *Ring[T]) PrefetchHead() {
	if r.n > 0 {
		prefetch(unsafe.Pointer(&r.buf[r.head]))
	}
}

// PrefetchTail starts loading the slot the next Push writes, when the
// ring has room for it (a no-op off amd64).
func (r *Ring[T]) PrefetchTail() {
	if int(r.n) < len(r.buf) {
		prefetch(unsafe.Pointer(&r.buf[(int(r.head)+int(r.n))&(len(r.buf)-1)]))
	}
}

// PushFrom is Push that grows from pool's arrays before allocating, and
// gives the array it outgrew to pool.
func (r *Ring[T]) PushFrom(pool *Arrays[T], x T) {
	if int(r.n) == len(r.buf) {
		r.growFrom(pool)
	}
	r.buf[(int(r.head)+int(r.n))&(len(r.buf)-1)] = x
	r.n++
}

func (r *Ring[T]) growFrom(pool *Arrays[T]) {
	size := max(8, 2*len(r.buf))
	nb := pool.take(size)
	if nb == nil {
		nb = make([]T, size)
	}
	for i := range int(r.n) {
		nb[i] = r.buf[(int(r.head)+i)&(len(r.buf)-1)]
	}
	if len(r.buf) > 0 {
		pool.put(r.buf)
	}
	r.buf, r.head = nb, 0
}

// ReleaseTo hands the array of an empty ring that has grown past keep
// items to pool, from which PushFrom takes it again (FIFO.ReleaseTo for
// rings): rings that fill and drain in turn share their arrays.
func (r *Ring[T]) ReleaseTo(pool *Arrays[T], keep int) {
	if r.n == 0 && len(r.buf) > keep {
		pool.put(r.buf)
		r.buf, r.head = nil, 0
	}
}

// Arrays holds the arrays rings (and FIFOs: ArrayPool) gave back
// (ReleaseTo), by size (powers of two), for the next one that grows. The
// zero value is an empty pool.
type Arrays[T any] struct {
	free [32][][]T // [log2 len]
}

func (p *Arrays[T]) put(b []T) {
	k := log2(len(b))
	p.free[k] = append(p.free[k], b)
}

// take returns a free array of size items (a power of two), or nil.
func (p *Arrays[T]) take(size int) []T {
	k := log2(size)
	l := p.free[k]
	if len(l) == 0 {
		return nil
	}
	b := l[len(l)-1]
	l[len(l)-1] = nil
	p.free[k] = l[:len(l)-1]
	return b
}

// Len is the number of arrays the pool holds.
func (p *Arrays[T]) Len() int {
	n := 0
	for _, l := range p.free {
		n += len(l)
	}
	return n
}
