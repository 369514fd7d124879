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
