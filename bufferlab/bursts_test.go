package bufferlab

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPlaceBurstHand: a burst of 5 packets to port 1 from slot 0 and one
// to port 2 from slot 1, on 4 ports and 4 slots, worked by hand:
// 2 packets a slot gives slot 0 [1 1], slot 1 [1 1 2 2], slot 2 [1 2 2],
// slot 3 [2]; whole bursts (5 a slot) give slot 0 [1×5], slot 1 [2×5].
// Started in slot 3, the 2-a-slot burst keeps only 2 packets.
func TestPlaceBurstHand(t *testing.T) {
	for _, tc := range []struct {
		perSlot int
		want    [][]int32
	}{
		{2, [][]int32{{1, 1}, {1, 1, 2, 2}, {1, 2, 2}, {2}}},
		{5, [][]int32{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}, nil, nil}},
	} {
		seq := &Sequence{N: 4, Slots: make([][]int32, 4)}
		placeBurst(seq, 0, 1, 5, tc.perSlot)
		placeBurst(seq, 1, 2, 5, tc.perSlot)
		if !slices.EqualFunc(seq.Slots, tc.want, slices.Equal) {
			t.Errorf("%d a slot: %v, want %v", tc.perSlot, seq.Slots, tc.want)
		}
	}
	seq := &Sequence{N: 4, Slots: make([][]int32, 4)}
	placeBurst(seq, 3, 0, 5, 2)
	if got := len(seq.Slots[3]); got != 2 {
		t.Errorf("burst cut at the end: %d packets, want 2", got)
	}
}

// TestBurstsPacedOneSlot: with the same seed, one-slot bursts and bursts
// paced N a slot start at the same slots on the same ports. One-slot: every
// (slot, port) holds a multiple of B arrivals, B per burst start, none lost
// (conservation); paced: the same packets per port, except the tails cut by
// the end of the sequence, and never more than N a slot from one burst.
// The number of bursts is Poisson(λ·slots).
func TestBurstsPacedOneSlot(t *testing.T) {
	const n, b, slots, lambda = 16, 64, 200000, 0.002
	whole, err := BurstsPaced(n, b, b, slots, lambda, rand.New(rand.NewPCG(5, 0)))
	if err != nil {
		t.Fatal(err)
	}
	paced, err := Bursts(n, b, slots, lambda, rand.New(rand.NewPCG(5, 0)))
	if err != nil {
		t.Fatal(err)
	}
	perPortWhole := make([]int, n)
	perPortPaced := make([]int, n)
	starts := 0
	for t0, s := range whole.Slots {
		counts := make([]int, n)
		for _, p := range s {
			counts[p]++
			perPortWhole[p]++
		}
		for p, c := range counts {
			if c%b != 0 {
				t.Fatalf("slot %d port %d: %d arrivals, not a multiple of B = %d", t0, p, c, b)
			}
			starts += c / b
		}
	}
	for _, s := range paced.Slots {
		for _, p := range s {
			perPortPaced[p]++
		}
	}
	lost := 0
	for p := range n {
		if d := perPortWhole[p] - perPortPaced[p]; d < 0 || d >= b {
			t.Errorf("port %d: %d packets whole, %d paced: the paced bursts should lose only a cut tail", p, perPortWhole[p], perPortPaced[p])
		} else {
			lost += d
		}
	}
	if lost >= b {
		t.Errorf("paced bursts lost %d packets, more than one tail", lost)
	}
	// Poisson: mean and variance λ·slots = 400; 5 standard deviations.
	if mean := lambda * slots; math.Abs(float64(starts)-mean) > 5*math.Sqrt(mean) {
		t.Errorf("%d bursts, want Poisson(%v)", starts, mean)
	}
	if _, err := BurstsPaced(n, b, 0, slots, lambda, rand.New(rand.NewPCG(5, 0))); err == nil {
		t.Error("0 packets a slot: no error")
	}
}

// TestFig14OneSlotClosedForm: on isolated whole-buffer bursts LQD keeps the
// whole burst, DT (α = 0.5) αB/(1+α) = B/3, and Credence B/N under the
// safeguard plus the share 1 − p of the rest whose "accept" is not
// flipped: LQD/Credence = 1/(1/N + (1−p)(1−1/N)) (2.909 at p = 0.7, N = 16)
// and LQD/DT = 3. At 0.2 % load bursts rarely meet; tolerance 3 %.
func TestFig14OneSlotClosedForm(t *testing.T) {
	su, err := LookupFig14Setup("one-slot")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fig14(su.Config(2, []float64{0, 0.3, 0.7}, 0.5), rand.New(rand.NewPCG(3, 0)))
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range res.Points {
		want := 1 / (1/float64(su.N) + (1-pt.Flip)*(1-1/float64(su.N)))
		t.Logf("p = %v: LQD/Credence %.4f (closed form %.4f), LQD/DT %.4f, OPT/LQD %.4f", pt.Flip, pt.LQDOverCredence, want, pt.LQDOverDT, pt.OptOverLQD)
		if math.Abs(pt.LQDOverCredence/want-1) > 0.03 {
			t.Errorf("p = %v: LQD/Credence %v, closed form %v", pt.Flip, pt.LQDOverCredence, want)
		}
		if math.Abs(pt.LQDOverDT/3-1) > 0.03 {
			t.Errorf("LQD/DT %v, closed form 3", pt.LQDOverDT)
		}
	}
}
