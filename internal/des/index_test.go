package des

import (
	"math/rand/v2"
	"testing"
)

// TestIndexMatchesMap checks both forms of Index against a Go map: the
// slots are the order of first addition, and absent keys answer −1.
func TestIndexMatchesMap(t *testing.T) {
	for _, n := range []int{5, IndexDirect, IndexDirect + 1, 100000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		x := NewIndex(n)
		want := map[int32]int32{}
		for range 3 * min(n, 5000) {
			k := int32(rng.IntN(n))
			s, added := x.Add(k)
			w, had := want[k]
			if !had {
				w = int32(len(want))
				want[k] = w
			}
			if s != w || added == had {
				t.Fatalf("n=%d: Add(%d) = %d, %v; want %d, %v", n, k, s, added, w, !had)
			}
		}
		if x.Len() != len(want) {
			t.Fatalf("n=%d: Len %d, want %d", n, x.Len(), len(want))
		}
		for k := int32(0); k < int32(min(n, 20000)); k++ {
			w, had := want[k]
			if !had {
				w = -1
			}
			if g := x.Get(k); g != w {
				t.Fatalf("n=%d: Get(%d) = %d, want %d", n, k, g, w)
			}
		}
	}
}
