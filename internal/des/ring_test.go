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
// item.
func TestRingArraysReuses(t *testing.T) {
	type item struct{ a, b int64 }
	var a, b Ring[item]
	checkArraysReuse(t, &a, &b, func(i int) item { return item{int64(i), -int64(i)} },
		func(r *Ring[item]) int { return cap(r.buf) }, 8, 7, 8)
}

// pooledQueue is a queue that grows from and gives back to an Arrays
// pool (Ring, FIFO).
type pooledQueue[T any] interface {
	PushFrom(pool *Arrays[T], x T)
	Pop() T
	ReleaseTo(pool *Arrays[T], keep int)
}

// checkArraysReuse fills and drains a and b in turn through one pool:
// FIFO order with wrapped heads (val(i) is the i-th item, val(-1) a
// filler), the arrays given back on growth and release (8 … 256 for a
// burst of 200), a refill of the same size without allocation, and a
// burst of small items within keep that keeps its smallCap array.
func checkArraysReuse[T comparable, Q pooledQueue[T]](t *testing.T, a, b Q, val func(int) T, capOf func(Q) int, keep, small, smallCap int) {
	t.Helper()
	var pool Arrays[T]
	fillDrain := func(q Q, n int) {
		for i := 0; i < 5; i++ { // wrap the head first
			q.PushFrom(&pool, val(-1))
			q.Pop()
		}
		for i := 0; i < n; i++ {
			q.PushFrom(&pool, val(i))
		}
		for i := 0; i < n; i++ {
			if x := q.Pop(); x != val(i) {
				t.Fatalf("pop %d of %d: got %v", i, n, x)
			}
		}
		q.ReleaseTo(&pool, keep)
	}
	fillDrain(a, 200) // arrays 8, 16, 32, 64, 128 to the pool on growth, then 256 released
	if capOf(a) != 0 || pool.Len() != 6 {
		t.Fatalf("after a's burst: a holds %d, pool holds %d arrays, want 0 and 6", capOf(a), pool.Len())
	}
	if n := testing.AllocsPerRun(20, func() { fillDrain(b, 200) }); n != 0 {
		t.Fatalf("refill from the pool allocated %.1f times, want 0", n)
	}
	if pool.Len() != 6 {
		t.Fatalf("pool holds %d arrays after b's bursts, want 6", pool.Len())
	}
	fillDrain(a, small) // stays within keep: its array stays with it
	if capOf(a) != smallCap || pool.Len() != 5 {
		t.Fatalf("small burst: a holds %d, pool %d arrays, want %d and 5", capOf(a), pool.Len(), smallCap)
	}
}
