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

// TestWaitListSums: a waiting list's running sum and its head's and tail's
// ready times, kept by insert (at the tail or inside) and pop, equal a
// walk of its entries after every step, and present (which reads them)
// equals the walk's bytes ready by every time around the entries'.
func TestWaitListSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	var w waitList
	inside, tail := 0, 0
	for step := int32(0); step < 4000; step++ {
		if w.Len() > 0 && rng.IntN(3) == 0 {
			w.pop()
		} else {
			e := pulledPkt{idx: step, size: 64 + rng.Int32N(1437), ready: rotor.Time(rng.IntN(50))}
			if w.Len() > 0 && e.ready < w.At(w.Len()-1).ready {
				inside++
			} else {
				tail++
			}
			w.insert(e)
		}
		if err := w.check(); err != "" {
			t.Fatalf("step %d: the list %s", step, err)
		}
		for now := rotor.Time(-1); now <= 50; now++ {
			var want int64
			for i := 0; i < w.Len(); i++ {
				if e := w.At(i); e.ready <= now {
					want += int64(e.size)
				}
			}
			if got := w.present(now); got != want {
				t.Fatalf("step %d: present(%d) = %d B, its entries hold %d B ready by then", step, now, got, want)
			}
		}
	}
	if inside == 0 || tail == 0 {
		t.Fatalf("%d inserts inside, %d at the tail: both must be tested", inside, tail)
	}
}
