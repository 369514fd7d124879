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

// The optimum of a hand-solved case: two ports, B = 1, two packets to port
// 0 and one to port 1 in slot 0, nothing after. One packet fits; the best
// keeps either and sends 1 — plus nothing else: OPT = 1. With B = 2 both
// ports send in slot 0: OPT = 2, and port 0's second packet is lost.
func TestOptHand(t *testing.T) {
	seq := &Sequence{N: 2, Slots: [][]int32{{0, 0, 1}}}
	for b, want := range map[int64]int64{1: 1, 2: 2, 3: 3} {
		got, err := Opt(seq, b)
		if err != nil || got != want {
			t.Errorf("B=%d: OPT %d (%v), want %d", b, got, err, want)
		}
	}
}
