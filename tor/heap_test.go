package tor

import (
	"math/rand/v2"
	"testing"
)

// TestMaxHeapLazy checks the lazy heap's Top against a scan (largest
// value, smallest index among equals) through random raises and
// decreases, with Top asked after some updates only.
func TestMaxHeapLazy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 80} {
		h := newMaxHeap(n)
		for step := 0; step < 20000; step++ {
			i := int32(rng.IntN(n))
			v := h.Get(i) + int64(rng.IntN(7)) - 3
			h.Set(i, max(v, 0))
			if rng.IntN(3) > 0 {
				continue
			}
			want := int32(0)
			for j := range int32(n) {
				if h.val[j] > h.val[want] {
					want = j
				}
			}
			if got := h.Top(); got != want {
				t.Fatalf("n=%d step %d: Top %d (value %d), scan %d (value %d)", n, step, got, h.val[got], want, h.val[want])
			}
		}
	}
}
