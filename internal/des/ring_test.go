package des

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestRingInsertSorted checks InsertSorted against a stable sort of the
// same items, through growth and wrap-around.
func TestRingInsertSorted(t *testing.T) {
	type item struct{ key, order int }
	rng := rand.New(rand.NewPCG(7, 0))
	var r Ring[item]
	var model []item
	less := func(a, b item) bool { return a.key < b.key }
	for step := 0; step < 5000; step++ {
		if r.Len() > 0 && rng.IntN(3) == 0 {
			got, want := r.Pop(), model[0]
			model = model[1:]
			if got != want {
				t.Fatalf("step %d: Pop = %v, want %v", step, got, want)
			}
			continue
		}
		x := item{key: rng.IntN(20), order: step}
		r.InsertSorted(x, less)
		model = append(model, x)
		sort.SliceStable(model, func(i, j int) bool { return model[i].key < model[j].key })
		if r.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", step, r.Len(), len(model))
		}
		for i := range model {
			if *r.At(i) != model[i] {
				t.Fatalf("step %d: At(%d) = %v, want %v", step, i, *r.At(i), model[i])
			}
		}
	}
}
