package des

import "unsafe"

// Pool hands out items of type T by int32 index and recycles freed indices.
// Items live in fixed-size chunks, so a pointer returned by At stays valid
// while the pool grows. Alloc returns a zeroed item.
type Pool[T any] struct {
	chunks []*[chunkSize]T // fixed-size arrays: At needs one bounds check, not two
	free   []int32
	n      int32 // indices handed out so far (high-water mark)
	live   int
}

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// Alloc returns the index of a zeroed item.
func (p *Pool[T]) Alloc() int32 {
	p.live++
	if k := len(p.free); k > 0 {
		i := p.free[k-1]
		p.free = p.free[:k-1]
		var zero T
		*p.At(i) = zero
		return i
	}
	i := p.n
	if int(i>>chunkBits) == len(p.chunks) {
		p.grow()
	}
	p.n++
	return i
}

// At returns the item with index i. The pointer stays valid until Free(i).
func (p *Pool[T]) At(i int32) *T { return &p.chunks[i>>chunkBits][i&chunkMask] }

// Prefetch starts loading item i into the CPU cache without waiting for
// it, so that a later At(i) does not stall (a no-op off amd64).
func (p *Pool[T]) Prefetch(i int32) { prefetch(unsafe.Pointer(p.At(i))) }

// Prefetch starts loading the cache line that holds *x without waiting
// for it (a no-op off amd64): a caller that knows several addresses it
// will read asks for them together, so their misses overlap.
func Prefetch[T any](x *T) { prefetch(unsafe.Pointer(x)) }

// slabChunks: a pool that has that many chunks grows by as many at once,
// in one allocation the kernel is asked to back with transparent huge
// pages (2 MiB on amd64; hugePages). A large run's packets are touched at
// random, and with 4 KiB pages most first touches also missed the TLB: on
// the NDP Opera run (64 ToRs, a pool of about 20 MB) huge pages measured
// 1.4 % less CPU (docs/perf-history.md). A pool of fewer than
// smallChunks chunks (2 MiB of 64-byte packets) grows a chunk at a time,
// as before.
const (
	slabChunks  = 16
	smallChunks = 8
)

func (p *Pool[T]) grow() {
	if len(p.chunks) < smallChunks {
		p.chunks = append(p.chunks, new([chunkSize]T))
		return
	}
	slab := make([][chunkSize]T, slabChunks)
	hugePages(unsafe.Pointer(&slab[0]), uintptr(len(slab))*unsafe.Sizeof(slab[0]))
	for k := range slab {
		p.chunks = append(p.chunks, &slab[k])
	}
}

// Free returns index i to the pool.
func (p *Pool[T]) Free(i int32) {
	p.live--
	p.free = append(p.free, i)
}

// Live is the number of allocated, not yet freed items.
func (p *Pool[T]) Live() int { return p.live }

// Capacity is the number of item slots the pool holds in memory.
func (p *Pool[T]) Capacity() int { return len(p.chunks) * chunkSize }

// HugePages asks the kernel to back the items of s with transparent huge
// pages (a hint; see hugePages).
func HugePages[T any](s []T) {
	if len(s) > 0 {
		hugePages(unsafe.Pointer(&s[0]), uintptr(len(s))*unsafe.Sizeof(s[0]))
	}
}
