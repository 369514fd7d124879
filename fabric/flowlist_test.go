package fabric

import (
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/internal/des"
)

// TestFlowListMatchesFIFO drives a flowList (linked through the flows)
// and a des.FIFO, the pull lists' former type, with the same random
// pushes, pops and round-robin turns (pop, push back) over many lists
// sharing one flow table, and compares heads, lengths and popped flows.
func TestFlowListMatchesFIFO(t *testing.T) {
	const lists, nflows = 8, 400
	rng := rand.New(rand.NewPCG(26, 8))
	flows := make([]flowState, nflows)
	got := make([]flowList, lists)
	want := make([]des.FIFO, lists)
	next := int32(0) // flows are pushed once each, as addPulled does
	for step := 0; step < 20000; step++ {
		k := rng.IntN(lists)
		l, f := &got[k], &want[k]
		switch r := rng.IntN(10); {
		case r < 3 && next < nflows:
			l.push(flows, next)
			f.Push(next)
			next++
		case r < 7 && f.Len() > 0: // a turn: the head goes to the tail
			a, b := l.pop(flows), f.Pop()
			if a != b {
				t.Fatalf("step %d list %d: turn popped %d, want %d", step, k, a, b)
			}
			l.push(flows, a)
			f.Push(b)
		case f.Len() > 0:
			if a, b := l.pop(flows), f.Pop(); a != b {
				t.Fatalf("step %d list %d: popped %d, want %d", step, k, a, b)
			}
		}
		if n := l.count(flows); n != f.Len() || l.empty() != (n == 0) {
			t.Fatalf("step %d list %d: %d flows (empty %v), want %d", step, k, n, l.empty(), f.Len())
		}
		if f.Len() > 0 && l.head() != f.Head() {
			t.Fatalf("step %d list %d: head %d, want %d", step, k, l.head(), f.Head())
		}
	}
	if next < nflows/2 {
		t.Fatalf("only %d flows pushed", next)
	}
}
