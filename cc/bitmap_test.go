package cc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestHugeFlowsAllocateNothingUpFront: a windowed flow of math.MaxInt64
// bytes used to panic in makeslice (size+mss−1 overflowed) and one of 1 PB
// to allocate an 83 GB bitmap. The sliding bitmaps cost only the span
// between the cumulative point and the highest segment seen.
func TestHugeFlowsAllocateNothingUpFront(t *testing.T) {
	for _, size := range []int64{math.MaxInt64, 1_000_000_000_000_000} {
		r := NewReceiver(size, 1500)
		s := NewSender(size, 1500, true, &Fixed{Bytes: 64 * 1500}, rotor.Millisecond)
		var a Feedback
		// 100 windows of 64 segments, each window delivered in reverse.
		for w := int64(0); w < 100; w++ {
			var seqs []int64
			for range 64 {
				seq, sz, _, ok := s.Next(rotor.Time(w))
				if !ok || sz != 1500 {
					t.Fatalf("size %d: Next = %d, %d, %v", size, seq, sz, ok)
				}
				seqs = append(seqs, seq)
			}
			for i := len(seqs) - 1; i >= 0; i-- {
				cum, done := r.OnData(seqs[i], 1500)
				if done {
					t.Fatal("a huge flow completed")
				}
				s.OnAck(rotor.Time(w)+1, cum, seqs[i], rotor.Time(w), false, &a)
			}
		}
		if want := int64(100 * 64 * 1500); s.Acked() != want || r.Received() != want {
			t.Errorf("size %d: acked %d, received %d, want %d", size, s.Acked(), r.Received(), want)
		}
		if n, m := r.got.span(), s.sacked.span(); n > 2 || m > 2 {
			t.Errorf("size %d: bitmaps hold %d and %d words after the window slid, want ≤ 2", size, n, m)
		}
	}
}

// TestReceiverMatchesReference: with duplicates and any arrival order, the
// sliding-bitmap receiver acknowledges exactly what a set of received
// segments says.
func TestReceiverMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	for trial := 0; trial < 300; trial++ {
		mss, size, segs := randomFlow(rng, 100, 500)
		var arrivals []int64
		for _, seq := range segs {
			arrivals = append(arrivals, seq)
			if rng.IntN(4) == 0 {
				arrivals = append(arrivals, seq) // a duplicate
			}
		}
		// Mostly in order, with local shuffles of up to 200 segments.
		for i := range arrivals {
			j := min(len(arrivals)-1, i+rng.IntN(200))
			arrivals[i], arrivals[j] = arrivals[j], arrivals[i]
		}
		r := NewReceiver(size, mss)
		seen := map[int64]bool{}
		var dups int64
		for _, seq := range arrivals {
			sz := int32(min(int64(mss), size-seq))
			cum, done := r.OnData(seq, sz)
			dup := seen[seq]
			if dup {
				dups++
			}
			seen[seq] = true
			want := int64(0)
			for want < size && seen[want] {
				want = min(size, want+int64(mss))
			}
			wantDone := !dup && int64(len(seen)) == (size+int64(mss)-1)/int64(mss)
			if cum != want || r.Duplicates != dups || done != wantDone {
				t.Fatalf("trial %d: seq %d: cum %d (want %d), duplicates %d (want %d), done %v (want %v)", trial, seq, cum, want, r.Duplicates, dups, done, wantDone)
			}
		}
		if r.Received() != size {
			t.Fatalf("trial %d: received %d of %d", trial, r.Received(), size)
		}
	}
}

// randomFlow draws a segment size up to maxMSS and a flow of up to maxSegs
// segments, and returns the segments' start bytes in order.
func randomFlow(rng *rand.Rand, maxMSS int, maxSegs int64) (mss int32, size int64, segs []int64) {
	mss = int32(1 + rng.IntN(maxMSS))
	size = 1 + rng.Int64N(maxSegs*int64(mss))
	for seq := int64(0); seq < size; seq += int64(mss) {
		segs = append(segs, seq)
	}
	return mss, size, segs
}

// TestSegBitsMatchesReference drives segBits with random sets, clears,
// advances and resets and compares every bit with a plain set of segments
// (below the cumulative point every segment counts as set).
func TestSegBitsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	for trial := 0; trial < 40; trial++ {
		var b segBits
		set := map[int64]bool{}
		var floor int64 // every segment below floor's word is set
		for op := 0; op < 1000; op++ {
			lo := floor &^ 63
			seg := lo + rng.Int64N(1+rng.Int64N(1500))
			switch r := rng.IntN(100); {
			case r < 60:
				b.set(seg)
				set[seg] = true
			case r < 75:
				b.clear(seg)
				delete(set, seg)
			case r < 99:
				// Advance to a point below which the reference is full.
				to := lo
				for to < lo+640 && (set[to] || to < floor) {
					to++
				}
				b.advance(to)
				floor = max(floor, to)
			default:
				to := lo + rng.Int64N(3000)
				b.reset(to)
				clear(set)
				floor = to &^ 63
			}
			for s := lo - 64; s < lo+1600; s++ {
				want := set[s] || s < floor&^63
				if got := b.get(s); got != want {
					t.Fatalf("trial %d op %d: segment %d is %v, want %v (floor %d)", trial, op, s, got, want, floor)
				}
			}
		}
	}
}

// TestSegBitsSlidingAllocatesOnce: a window of constant span sliding over
// a long flow reuses its array; the allocations do not grow with the
// segments covered (the old bitmap reallocated about once per 100).
func TestSegBitsSlidingAllocatesOnce(t *testing.T) {
	slide := func(segments int64) float64 {
		return testing.AllocsPerRun(5, func() {
			var b segBits
			for s := int64(0); s < segments; s++ {
				b.set(s + 200) // the window's head runs 200 segments ahead
				b.set(s)
				b.advance(s + 1)
			}
		})
	}
	short, long := slide(1_000), slide(100_000)
	if long != short || long > 3 {
		t.Errorf("%.0f allocations over 1,000 segments, %.0f over 100,000: want the same few", short, long)
	}
}
