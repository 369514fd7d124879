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
	var a, b FIFO
	checkArraysReuse(t, &a, &b, func(i int) int32 { return int32(i) },
		func(f *FIFO) int { return cap(f.buf) }, 64, 30, 32)
}
