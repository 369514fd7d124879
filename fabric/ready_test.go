package fabric

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// TestInsertByReady checks the waiting-list order against a stable sort:
// by ready time, equal times in insertion order, also after pops.
func TestInsertByReady(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	var r des.Ring[pulledPkt]
	var model []pulledPkt
	for step := int32(0); step < 4000; step++ {
		if r.Len() > 0 && rng.IntN(3) == 0 {
			if got := r.Pop(); got != model[0] {
				t.Fatalf("step %d: Pop = %+v, want %+v", step, got, model[0])
			}
			model = model[1:]
			continue
		}
		e := pulledPkt{idx: step, ready: rotor.Time(rng.IntN(50))}
		insertByReady(&r, e)
		model = append(model, e)
		sort.SliceStable(model, func(i, j int) bool { return model[i].ready < model[j].ready })
		for i := range model {
			if *r.At(i) != model[i] {
				t.Fatalf("step %d: At(%d) = %+v, want %+v", step, i, *r.At(i), model[i])
			}
		}
	}
}
