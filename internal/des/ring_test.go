package des

import (
	"math/rand/v2"
	"testing"
)

// TestRing checks Ring against a slice model through growth and
// wrap-around, including writes through At and Head.
func TestRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	var r Ring[int]
	var model []int
	for step := 0; step < 5000; step++ {
		switch {
		case r.Len() > 0 && rng.IntN(3) == 0:
			got, want := r.Pop(), model[0]
			model = model[1:]
			if got != want {
				t.Fatalf("step %d: Pop = %d, want %d", step, got, want)
			}
		case r.Len() > 0 && rng.IntN(4) == 0:
			i := rng.IntN(r.Len())
			*r.At(i) = -step
			model[i] = -step
		default:
			r.Push(step)
			model = append(model, step)
		}
		if r.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", step, r.Len(), len(model))
		}
		for i := range model {
			if *r.At(i) != model[i] {
				t.Fatalf("step %d: At(%d) = %d, want %d", step, i, *r.At(i), model[i])
			}
		}
		if r.Len() > 0 && *r.Head() != model[0] {
			t.Fatalf("step %d: Head = %d, want %d", step, *r.Head(), model[0])
		}
	}
}

// TestRingArraysReuses is TestFIFOArrayPoolReuses for rings of a wider
// item: FIFO order with wrapped heads, a refill of the same size
// allocates nothing, and the pool holds exactly the arrays given back.
func TestRingArraysReuses(t *testing.T) {
	type item struct{ a, b int64 }
	var pool Arrays[item]
	var a, b Ring[item]
	fillDrain := func(r *Ring[item], n int64) {
		for i := int64(0); i < 5; i++ { // wrap the head first
			r.PushFrom(&pool, item{-1, -1})
			r.Pop()
		}
		for i := int64(0); i < n; i++ {
			r.PushFrom(&pool, item{i, -i})
		}
		for i := int64(0); i < n; i++ {
			if x := r.Pop(); x != (item{i, -i}) {
				t.Fatalf("pop %d of %d: got %v", i, n, x)
			}
		}
		r.ReleaseTo(&pool, 8)
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
	fillDrain(&a, 7) // stays within keep: its 8 stays with it
	if cap(a.buf) != 8 || pool.Len() != 5 {
		t.Fatalf("small burst: a holds %d, pool %d arrays, want 8 and 5", cap(a.buf), pool.Len())
	}
}
