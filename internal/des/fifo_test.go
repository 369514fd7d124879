package des

import "testing"

// TestFIFOReleaseKeepsOrder checks Release against the FIFO's contract:
// a drained FIFO grown past keep gives its array back, a non-empty or
// small one keeps it, and items pushed afterwards come out in order.
func TestFIFOReleaseKeepsOrder(t *testing.T) {
	var f FIFO
	for i := int32(0); i < 100; i++ {
		f.Push(i)
	}
	f.Release(64)
	if f.Len() != 100 || cap(f.buf) != 128 {
		t.Fatalf("non-empty FIFO released: len %d cap %d, want 100 and 128", f.Len(), cap(f.buf))
	}
	for i := int32(0); i < 100; i++ {
		if x := f.Pop(); x != i {
			t.Fatalf("pop %d: got %d", i, x)
		}
	}
	f.Release(128)
	if cap(f.buf) != 128 {
		t.Fatalf("FIFO at keep released: cap %d, want 128", cap(f.buf))
	}
	f.Release(64)
	if f.buf != nil || f.head != 0 {
		t.Fatalf("drained FIFO of 128 kept its array (cap %d, head %d)", cap(f.buf), f.head)
	}
	for i := int32(0); i < 20; i++ {
		f.Push(i)
	}
	for i := int32(0); i < 20; i++ {
		if x := f.Pop(); x != i {
			t.Fatalf("after release, pop %d: got %d", i, x)
		}
	}
}

// TestFIFOArrayPoolReuses checks ReleaseTo and PushFrom: FIFOs that fill
// and drain in turn keep FIFO order with wrapped heads, a refill of the
// same size allocates nothing, and the pool holds exactly the arrays
// given back.
func TestFIFOArrayPoolReuses(t *testing.T) {
	var pool ArrayPool
	var a, b FIFO
	fillDrain := func(f *FIFO, n int32) {
		for i := int32(0); i < 5; i++ { // wrap the head first
			f.PushFrom(&pool, -1)
			f.Pop()
		}
		for i := int32(0); i < n; i++ {
			f.PushFrom(&pool, i)
		}
		for i := int32(0); i < n; i++ {
			if x := f.Pop(); x != i {
				t.Fatalf("pop %d of %d: got %d", i, n, x)
			}
		}
		f.ReleaseTo(&pool, 64)
	}
	fillDrain(&a, 200) // arrays 8, 16, 32, 64, 128 to the pool on growth, then 256 released
	if a.buf != nil || pool.Len() != 6 {
		t.Fatalf("after a's burst: a holds %d, pool holds %d arrays, want 0 and 6", cap(a.buf), pool.Len())
	}
	if n := testing.AllocsPerRun(20, func() { fillDrain(&b, 200) }); n != 0 {
		t.Fatalf("refill from the pool allocated %.1f times, want 0", n)
	}
	if pool.Len() != 6 {
		t.Fatalf("pool holds %d arrays after b's bursts, want 6", pool.Len())
	}
	fillDrain(&a, 30) // stays below keep: its 32 stays with it
	if cap(a.buf) != 32 || pool.Len() != 5 {
		t.Fatalf("small burst: a holds %d, pool %d arrays, want 32 and 5", cap(a.buf), pool.Len())
	}
}
