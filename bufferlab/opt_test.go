package bufferlab

import (
	"math/rand/v2"
	"testing"
)

func randomSeq(rng *rand.Rand, n, slots, maxPerSlot int) *Sequence {
	s := &Sequence{N: n, Slots: make([][]int32, slots)}
	for t := range s.Slots {
		k := rng.IntN(maxPerSlot + 1)
		for j := 0; j < k; j++ {
			s.Slots[t] = append(s.Slots[t], int32(rng.IntN(n)))
		}
	}
	return s
}

// The slot-order greedy matches the exhaustive search on random small
// instances.
func TestOptMethodsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	bad := 0
	for k := 0; k < 5000; k++ {
		n := 1 + rng.IntN(4)
		b := int64(1 + rng.IntN(8))
		seq := randomSeq(rng, n, 1+rng.IntN(14), 2*n)
		exact, err := OptSearch(seq, b, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := Opt(seq, b)
		if got != exact {
			bad++
			if bad < 5 {
				t.Errorf("N=%d B=%d %v: greedy %d, exhaustive %d", n, b, seq.Slots, got, exact)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 5000 instances disagree", bad)
	}
}
