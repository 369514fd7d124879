package des

import (
	stdcmp "cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

// TestQueueOrder compares the heap against sorting by (time, insertion order).
func TestQueueOrder(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 17, 1000} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		var q Queue
		var want []Event
		for i := 0; i < n; i++ {
			at := rotor.Time(rng.IntN(20)) // many ties
			q.Schedule(at, uint8(i%7), int32(i), int32(-i))
			want = append(want, Event{At: at, Seq: uint64(i + 1), Kind: uint8(i % 7), Target: int32(i), Arg: int32(-i)})
		}
		sort.SliceStable(want, func(a, b int) bool { return want[a].At < want[b].At })
		var got []Event
		for {
			e, ok := q.Pop()
			if !ok {
				break
			}
			got = append(got, e)
		}
		if diff := cmp.Diff(want, got); n > 0 && diff != "" {
			t.Fatalf("n=%d: pop order differs (-want +got):\n%s", n, diff)
		}
		if q.Processed() != uint64(n) {
			t.Errorf("n=%d: processed %d", n, q.Processed())
		}
	}
}

// TestQueueInterleaved schedules while popping, as a simulation does, and
// checks time never decreases and equal times pop in insertion order.
func TestQueueInterleaved(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var q Queue
	for i := 0; i < 50; i++ {
		q.Schedule(rotor.Time(rng.IntN(100)), 0, int32(i), 0)
	}
	var last Event
	for k := 0; k < 5000; k++ {
		e, ok := q.Pop()
		if !ok {
			break
		}
		if e.At < last.At || (e.At == last.At && e.Seq < last.Seq) {
			t.Fatalf("event %+v popped after %+v", e, last)
		}
		last = e
		if k < 4000 {
			q.Schedule(e.At+rotor.Time(rng.IntN(3)), 0, 0, 0)
		}
	}
	if q.Now() != last.At {
		t.Errorf("Now = %d, want %d", q.Now(), last.At)
	}
}

func TestPool(t *testing.T) {
	var p Pool[[4]int64]
	var idx []int32
	for i := 0; i < 3*chunkSize+5; i++ {
		j := p.Alloc()
		p.At(j)[0] = int64(i)
		idx = append(idx, j)
	}
	first := p.At(idx[0])
	if p.Live() != len(idx) {
		t.Fatalf("Live = %d, want %d", p.Live(), len(idx))
	}
	p.Free(idx[10])
	j := p.Alloc()
	if j != idx[10] || p.At(j)[0] != 0 {
		t.Errorf("reused index %d (want %d), value %d (want zeroed)", j, idx[10], p.At(j)[0])
	}
	if first != p.At(idx[0]) || first[0] != 0 {
		t.Errorf("pointer to item 0 moved while the pool grew")
	}
}

// TestPoolSlabs grows a pool past smallChunks, where it allocates slabs
// of slabChunks chunks (advised to huge pages): every item keeps its
// value and its address, items do not overlap, and the capacity grows a
// chunk at a time up to smallChunks, then a slab at a time.
func TestPoolSlabs(t *testing.T) {
	var p Pool[[8]int64] // 64 bytes, as a packet
	n := (smallChunks+2*slabChunks)*chunkSize + 3
	ptrs := make([]*[8]int64, n)
	for i := range n {
		j := p.Alloc()
		if int(j) != i {
			t.Fatalf("alloc %d returned index %d", i, j)
		}
		ptrs[i] = p.At(j)
		for k := range ptrs[i] {
			ptrs[i][k] = int64(i)
		}
		switch c := p.Capacity() / chunkSize; {
		case i < smallChunks*chunkSize && c != i/chunkSize+1:
			t.Fatalf("after %d items: %d chunks, want %d", i+1, c, i/chunkSize+1)
		case i >= smallChunks*chunkSize && (c-smallChunks)%slabChunks != 0:
			t.Fatalf("after %d items: %d chunks, not %d plus whole slabs of %d", i+1, c, smallChunks, slabChunks)
		}
	}
	for i := range n {
		if ptrs[i] != p.At(int32(i)) {
			t.Fatalf("item %d moved", i)
		}
		for k, x := range ptrs[i] {
			if x != int64(i) {
				t.Fatalf("item %d word %d holds %d: items overlap", i, k, x)
			}
		}
	}
}

func TestFIFO(t *testing.T) {
	var f FIFO
	var model []int32
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 10000; i++ {
		switch {
		case rng.IntN(3) > 0 || len(model) == 0:
			f.Push(int32(i))
			model = append(model, int32(i))
		case rng.IntN(2) == 0:
			if got := f.Pop(); got != model[0] {
				t.Fatalf("Pop = %d, want %d", got, model[0])
			}
			model = model[1:]
		default:
			if got := f.PopTail(); got != model[len(model)-1] {
				t.Fatalf("PopTail = %d, want %d", got, model[len(model)-1])
			}
			model = model[:len(model)-1]
		}
		if f.Len() != len(model) {
			t.Fatalf("Len = %d, want %d", f.Len(), len(model))
		}
		if len(model) > 0 && (f.Head() != model[0] || f.At(len(model)-1) != model[len(model)-1]) {
			t.Fatalf("Head/At disagree with model")
		}
	}
}

// BenchmarkQueue measures a hold model: a queue of 10 000 pending events,
// each pop schedules one new event. Reports events/s; 0 allocs/op.
func BenchmarkQueue(b *testing.B) {
	for _, size := range []int{1000, 100000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			var q Queue
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < size; i++ {
				q.Schedule(rotor.Time(rng.IntN(1_000_000)), 0, 0, 0)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e, _ := q.Pop()
				q.Schedule(e.At+rotor.Time(rng.IntN(1_000_000)), 1, int32(i), 0)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkQueueFabric mimics a packet simulation's event mix: 256 links
// in lock step (circuit days every 100 µs start them at one instant), each
// sending back-to-back packets: a ScheduleFirst "link free" event 1.2 µs
// ahead and an ordinary arrival 1.7 µs ahead, and every fourth arrival an
// acknowledgement 0.5–2 µs later. Equal times are the rule, as in the
// fabric emulator, not the exception as in BenchmarkQueue. The "link
// free" events are scheduled (schedule) or attached Timers (timers).
func BenchmarkQueueFabric(b *testing.B) {
	b.Run("schedule", func(b *testing.B) { benchQueueFabric(b, false) })
	b.Run("timers", func(b *testing.B) { benchQueueFabric(b, true) })
}

// benchQueueFabric is BenchmarkQueueFabric, with the "link free" events
// as attached Timers if timers is set.
func benchQueueFabric(b *testing.B, timers bool) {
	const (
		links             = 256
		kindFree, kindArr = 1, 2
		ser               = 1200 * rotor.Nanosecond
		prop              = 500 * rotor.Nanosecond
		day               = 100 * rotor.Microsecond
		night             = rotor.Microsecond
	)
	rng := rand.New(rand.NewPCG(1, 3))
	var q Queue
	var tm *Timers
	if timers {
		tm = NewTimers(links)
		q.AttachTimers(tm, kindFree)
	}
	free := func(at rotor.Time, l int32) {
		if timers {
			tm.Set(int(l), at)
		} else {
			q.ScheduleFirst(at, kindFree, l, 0)
		}
	}
	for l := int32(0); l < links; l++ {
		free(0, l)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		kind, l, _, _ := q.PopUntil(1 << 62)
		now := q.Now()
		switch kind {
		case kindFree:
			q.Schedule(now+ser+prop, kindArr, l, int32(i))
			next := now + ser
			if start := next / day * day; next+ser > start+day-night { // no room before the night
				next = start + day
			}
			free(next, l)
		case kindArr:
			if i%4 == 0 {
				q.Schedule(now+prop+rotor.Time(rng.IntN(4))*prop, kindArr+1, l, 0)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkPoolFIFO(b *testing.B) {
	var p Pool[[8]int64]
	var f FIFO
	for i := 0; i < 1000; i++ {
		f.Push(p.Alloc())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Free(f.Pop())
		f.Push(p.Alloc())
	}
}

// TestQueueSpread schedules, while popping, events from a few ps to
// seconds ahead (same bucket, the calendar ring, the far heap and back) and
// compares the pop order with a sorted model.
func TestQueueSpread(t *testing.T) {
	for _, horizon := range []rotor.Time{100, rotor.Microsecond, rotor.Millisecond, 3 * rotor.Second} {
		rng := rand.New(rand.NewPCG(uint64(horizon), 9))
		var q Queue
		var model []Event
		var seq uint64
		add := func(at rotor.Time, first bool, target int32) {
			if first {
				q.ScheduleFirst(at, 3, target, 0)
				model = append(model, Event{At: at, Kind: 3, Target: target})
				return
			}
			seq++
			q.Schedule(at, 1, target, 0)
			model = append(model, Event{At: at, Seq: seq, Kind: 1, Target: target})
		}
		for i := 0; i < 200; i++ {
			add(rotor.Time(rng.Int64N(int64(horizon))), false, int32(i))
		}
		for k := 0; k < 20000; k++ {
			sort.Slice(model, func(a, b int) bool {
				x, y := model[a], model[b]
				if x.At != y.At {
					return x.At < y.At
				}
				if (x.Seq == 0) != (y.Seq == 0) {
					return x.Seq == 0
				}
				if x.Seq == 0 {
					return x.Target < y.Target
				}
				return x.Seq < y.Seq
			})
			if len(model) == 0 {
				break
			}
			e, ok := q.Pop()
			if !ok || e != model[0] {
				t.Fatalf("horizon %v, pop %d: got %+v (ok=%v), want %+v", horizon, k, e, ok, model[0])
			}
			model = model[1:]
			if q.Len() != len(model) {
				t.Fatalf("Len = %d, want %d", q.Len(), len(model))
			}
			if k < 15000 {
				now := q.Now()
				add(now+rotor.Time(rng.Int64N(int64(horizon))), false, int32(k))
				if rng.IntN(4) == 0 {
					add(now+rotor.Time(rng.Int64N(int64(horizon))), true, int32(k))
				}
			}
		}
	}
}

// TestScheduleFirst: at equal times, ScheduleFirst events come before
// Schedule events whatever the insertion order, ordered by (kind, target)
// among themselves; times still dominate.
func TestScheduleFirst(t *testing.T) {
	var q Queue
	q.Schedule(5, 1, 1, 0)
	q.Schedule(5, 2, 2, 0)
	q.ScheduleFirst(5, 3, 6, 0)
	q.ScheduleFirst(4, 4, 4, 0)
	q.Schedule(4, 5, 5, 0)
	q.ScheduleFirst(5, 3, 3, 0)
	var got []int32
	for {
		e, ok := q.Pop()
		if !ok {
			break
		}
		got = append(got, e.Target)
	}
	want := []int32{4, 5, 3, 6, 1, 2} // (5, kind 3) targets 3 then 6
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pop order (-want +got):\n%s", diff)
	}
}

// TestQueueMemoryBounded schedules a burst of 400 events at one instant
// every 100 µs (a day start: every uplink starts at once) for 20 ring
// revolutions, over a steady trickle. The bursts land in ever different
// ring buckets; the memory the buckets hold must stay within a few bursts'
// worth instead of every bucket keeping its own peak.
func TestQueueMemoryBounded(t *testing.T) {
	var q Queue
	const burst = 400
	step := 100 * rotor.Microsecond
	for k := 0; k < 20*ringSize*int(1<<bucketShift)/int(step); k++ {
		at := q.Now() + step + rotor.Time(k%7)*rotor.Nanosecond
		for j := 0; j < burst; j++ {
			q.Schedule(at, 0, int32(j), 0)
		}
		for j := 0; j < 50; j++ {
			q.Schedule(q.Now()+rotor.Time(j+1)*rotor.Microsecond, 1, 0, 0)
		}
		for q.Len() > 0 {
			if _, ok := q.Pop(); !ok {
				t.Fatal("queue ran dry")
			}
		}
	}
	held := 0
	for i := range q.ring {
		if cap(q.ring[i]) > slabPiece {
			held += cap(q.ring[i])
		}
	}
	for _, s := range q.spare {
		held += cap(s)
	}
	if limit := 8 * burst; held > limit {
		t.Errorf("ring buckets and spares hold %d events of capacity, want ≤ %d", held, limit)
	}
}

// TestQueueScrambledBucket: a bucket of thousands of events filed in
// reverse time order (insertion sort gives up and pdqsort finishes) and
// one nearly in order (insertion sort does it) both pop sorted.
func TestQueueScrambledBucket(t *testing.T) {
	for _, c := range []struct {
		name string
		at   func(i int) rotor.Time
	}{
		{"reverse", func(i int) rotor.Time { return rotor.Time(1<<bucketShift + 5000 - i) }},
		{"nearly", func(i int) rotor.Time { return rotor.Time(1<<bucketShift + i + 7*(i%3)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var q Queue
			var want []rotor.Time
			for i := 0; i < 5000; i++ {
				q.Schedule(c.at(i), 0, int32(i), 0)
				want = append(want, c.at(i))
			}
			slices.Sort(want)
			var got []rotor.Time
			for q.Len() > 0 {
				e, _ := q.Pop()
				got = append(got, e.At)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("pop order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPopUntil checks PopUntil against PeekTime + Pop on two identical
// queues: same events in the same order, none past end, the rest left.
func TestPopUntil(t *testing.T) {
	for _, end := range []rotor.Time{-1, 0, 3 * rotor.Microsecond, rotor.Millisecond, 10 * rotor.Second} {
		rng := rand.New(rand.NewPCG(uint64(end+2), 7))
		var a, b Queue
		for i := 0; i < 2000; i++ {
			at := rotor.Time(rng.Int64N(int64(2 * rotor.Millisecond)))
			if i%10 == 0 { // ScheduleFirst events too: kind decoded from the other key layout
				a.ScheduleFirst(at, uint8(i%7), int32(i), 1)
				b.ScheduleFirst(at, uint8(i%7), int32(i), 1)
				continue
			}
			a.Schedule(at, uint8(i%5), int32(i), 0)
			b.Schedule(at, uint8(i%5), int32(i), 0)
		}
		type kta struct {
			At          rotor.Time
			Kind        uint8
			Target, Arg int32
		}
		var got, want []kta
		for {
			k, tg, arg, ok := a.PopUntil(end)
			if !ok {
				break
			}
			got = append(got, kta{a.Now(), k, tg, arg})
		}
		for {
			if at, ok := b.PeekTime(); !ok || at > end {
				break
			}
			e, _ := b.Pop()
			want = append(want, kta{e.At, e.Kind, e.Target, e.Arg})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("end %v: PopUntil differs from PeekTime+Pop (-want +got):\n%s", end, diff)
		}
		if a.Len() != b.Len() || a.Len()+len(got) != 2000 {
			t.Fatalf("end %v: %d left after PopUntil, %d after Pop, %d popped", end, a.Len(), b.Len(), len(got))
		}
	}
}

// TestHint checks that Hint(k) names the k-th next event while no event
// was filed into the current bucket after it was sorted, and reports
// nothing past the bucket.
func TestHint(t *testing.T) {
	var q Queue
	// Bucket 1, not the current bucket 0: events filed into the current
	// bucket go to the late heap, which Hint does not see.
	bucket := rotor.Time(1) << bucketShift
	for i := 0; i < 50; i++ {
		q.Schedule(bucket+rotor.Time(i%7)*rotor.Nanosecond, uint8(i%3), int32(i), int32(100+i))
	}
	q.ScheduleFirst(bucket+3*rotor.Nanosecond, 9, 1, 0)
	q.Schedule(3*bucket, 1, 2, 3) // a later bucket
	if _, _, _, ok := q.Hint(0); ok {
		t.Fatal("Hint(0) ok before any bucket is current")
	}
	q.Peek() // makes bucket 1 current
	if _, _, _, ok := q.Hint(0); !ok {
		t.Fatal("Hint(0) not ok on a sorted, non-empty current bucket")
	}
	if _, _, _, ok := q.Hint(51); ok {
		t.Fatal("Hint(51) ok: the 52nd event is past the current bucket")
	}
	hinted := 0
	for q.Len() > 0 {
		kind, target, arg, ok := q.Hint(0)
		e, _ := q.Pop()
		if !ok {
			continue
		}
		hinted++
		if kind != e.Kind || target != e.Target || arg != e.Arg {
			t.Fatalf("Hint(0) = kind %d target %d arg %d, Pop = %+v", kind, target, arg, e)
		}
	}
	if hinted == 0 {
		t.Fatal("Hint(0) never ok")
	}
	if _, _, _, ok := q.Hint(0); ok {
		t.Fatal("Hint(0) ok on an empty queue")
	}
}

// TestIntroSort checks the bucket sort's fallback against sort.Slice on
// random, sorted, reversed and equal-time inputs, with depth limits that
// force the heapsort path too.
func TestIntroSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := map[string]func(i, n int) rotor.Time{
		"random":   func(i, n int) rotor.Time { return rotor.Time(rng.Int64N(1000)) },
		"sorted":   func(i, n int) rotor.Time { return rotor.Time(i) },
		"reversed": func(i, n int) rotor.Time { return rotor.Time(n - i) },
		"equal":    func(i, n int) rotor.Time { return 7 },
	}
	for _, name := range []string{"random", "sorted", "reversed", "equal"} {
		for _, n := range []int{0, 1, 2, 17, 100, 1000} {
			for _, depth := range []int{0, 3, 64} {
				a := make([]slot, n)
				for i := range a {
					a[i] = slot{sk: uint64(gen[name](i, n))<<offsetShift | uint64(rng.Uint32())<<12 | uint64(i), target: int32(i)}
				}
				want := slices.Clone(a)
				sort.Slice(want, func(i, j int) bool { return want[i].sk < want[j].sk })
				introSort(a, depth)
				if !slices.Equal(a, want) {
					t.Fatalf("%s n=%d depth=%d: introSort order differs from sort.Slice", name, n, depth)
				}
			}
		}
	}
}

// TestSortSlots checks the bucket sort (sortSlots, and sortBucket, which
// may leave two pieces) against sort.Slice on inputs shaped like real
// buckets (sorted runs, a run then a scrambled tail, outliers in front)
// and on random and reversed ones, at every depth, so both the
// run-peeling and the introSort fallback are exercised.
func TestSortSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := map[string]func(i, n int) uint64{
		"random":   func(i, n int) uint64 { return rng.Uint64N(1000) },
		"sorted":   func(i, n int) uint64 { return uint64(i) },
		"reversed": func(i, n int) uint64 { return uint64(n - i) },
		"two-runs": func(i, n int) uint64 { return uint64(i % (n/2 + 1)) },
		"tail": func(i, n int) uint64 { // a sorted run, then a scrambled quarter
			if i < n*3/4 {
				return uint64(i)
			}
			return rng.Uint64N(uint64(n))
		},
		"outlier": func(i, n int) uint64 { // a late event filed first
			if i == 0 {
				return uint64(n)
			}
			return uint64(i % 3)
		},
		"three-way": func(i, n int) uint64 { return uint64(i%3) * 7 },
	}
	for _, name := range []string{"random", "sorted", "reversed", "two-runs", "tail", "outlier", "three-way"} {
		for _, n := range []int{0, 1, 2, 3, 17, 100, 1000} {
			for depth := 0; depth < 4; depth++ {
				a := make([]slot, n)
				for i := range a {
					// Unique keys, as in a bucket: the low bits are the index.
					a[i] = slot{sk: gen[name](i, n)<<20 | uint64(rng.IntN(1<<8))<<12 | uint64(i), target: int32(i)}
				}
				src := slices.Clone(a)
				want := slices.Clone(a)
				sort.Slice(want, func(i, j int) bool { return want[i].sk < want[j].sk })
				sortSlots(a, make([]slot, 0, (depth+1)*n), depth)
				if !slices.Equal(a, want) {
					t.Fatalf("%s n=%d depth=%d: sortSlots order differs from sort.Slice", name, n, depth)
				}
				// sortBucket: the two pieces, one after the other.
				first, then := sortBucket(make([]slot, n), src, make([]slot, 0, sortDepth*n))
				if got := append(slices.Clone(first), then...); !slices.Equal(got, want) {
					t.Fatalf("%s n=%d: sortBucket order differs from sort.Slice", name, n)
				}
			}
		}
	}
}

// TestSpreadSort checks the dense buckets' sort (sortBucket from
// spreadMin events on) against sort.Slice, on buckets whose times span
// the whole width: interleaved ascending runs (events filed a few fixed
// delays ahead as time moves on), bursts at one instant (a part of more
// than 32 events), times in one part only, and random times.
func TestSpreadSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const width = uint64(1) << bucketShift
	gen := map[string]func(i, n int) uint64{
		"runs": func(i, n int) uint64 { // k delays, time moving on
			k := uint64(i % 5)
			return min(width-1, uint64(i)*width/uint64(2*n)+k*width/8)
		},
		"bursts":   func(i, n int) uint64 { return uint64(i%3) * (width / 3) },
		"one-part": func(i, n int) uint64 { return width/2 + uint64(n-i) },
		"random":   func(i, n int) uint64 { return rng.Uint64N(width) },
		"reversed": func(i, n int) uint64 { return width - 1 - uint64(i)*width/uint64(n) },
	}
	for _, name := range []string{"runs", "bursts", "one-part", "random", "reversed"} {
		for _, n := range []int{spreadMin, spreadMin + 1, 124, 1000} {
			src := make([]slot, n)
			for i := range src {
				key := ordinaryBit | uint64(i)<<8 | uint64(rng.IntN(3))
				if rng.IntN(4) == 0 { // a ScheduleFirst key
					key = uint64(rng.IntN(3))<<40 | uint64(rng.IntN(1<<20))<<8 | uint64(i&0xff)
				}
				src[i] = slot{sk: gen[name](i, n)<<offsetShift | key, target: int32(i)}
			}
			want := slices.Clone(src)
			sort.Slice(want, func(i, j int) bool { return want[i].sk < want[j].sk })
			first, then := sortBucket(make([]slot, n), slices.Clone(src), make([]slot, 0, sortDepth*2*n))
			if got := append(slices.Clone(first), then...); !slices.Equal(got, want) {
				t.Fatalf("%s n=%d: sortBucket order differs from sort.Slice", name, n)
			}
		}
	}
}

// TestQueueModel drives the queue with a random mix like a simulation's —
// bursts of events at one instant, ScheduleFirst ties, events a few ps,
// a bucket, the ring or seconds ahead, scheduling after a Peek has moved
// to the next bucket, PopUntil with ends before, at and after the next
// event, Seq running past its limit (seeds ≥ 3: renumbering) — and checks
// every pop, Len and Hint, and at the end Pending and Pop, against a
// sorted model.
func TestQueueModel(t *testing.T) {
	defer func(m uint64) { maxSeq = m }(maxSeq)
	type key struct {
		at     rotor.Time
		kind   uint8
		target int32
	}
	bucket := rotor.Time(1) << bucketShift
	deltas := []func(rng *rand.Rand) rotor.Time{
		func(rng *rand.Rand) rotor.Time { return 0 },
		func(rng *rand.Rand) rotor.Time { return rotor.Time(rng.IntN(3)) },
		func(rng *rand.Rand) rotor.Time { return rotor.Time(rng.Int64N(int64(bucket))) },
		func(rng *rand.Rand) rotor.Time {
			return 1200*rotor.Nanosecond + rotor.Time(rng.IntN(4))*500*rotor.Nanosecond
		},
		func(rng *rand.Rand) rotor.Time { return rotor.Time(rng.Int64N(int64(ringSize) * int64(bucket))) },
		func(rng *rand.Rand) rotor.Time { return rotor.Time(rng.Int64N(3 * int64(ringSize) * int64(bucket))) },
		func(rng *rand.Rand) rotor.Time { return rotor.Time(rng.Int64N(int64(rotor.Second))) },
	}
	for seed := uint64(0); seed < 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		maxSeq = 1<<seqBits - 1
		if seed >= 3 {
			maxSeq = 10000
		}
		renumbered := 0
		var q Queue
		var model []Event // sorted
		var seq uint64
		firsts := map[key]bool{}
		insert := func(e Event) {
			i, _ := slices.BinarySearchFunc(model, e, queueOrder)
			model = slices.Insert(model, i, e)
		}
		add := func(at rotor.Time) {
			at = max(at, q.Now())
			kind, target, arg := uint8(rng.IntN(3)), int32(rng.IntN(40)), int32(rng.IntN(100))
			if rng.IntN(3) == 0 && !firsts[key{at, kind, target}] {
				firsts[key{at, kind, target}] = true
				q.ScheduleFirst(at, kind, target, arg)
				insert(Event{At: at, Kind: kind, Target: target, Arg: arg})
				return
			}
			if seq >= maxSeq { // the queue renumbers: 1, 2, … in order
				seq = 0
				for i := range model {
					if model[i].Seq != 0 {
						seq++
						model[i].Seq = seq
					}
				}
				renumbered++
			}
			seq++
			q.Schedule(at, kind, target, arg)
			insert(Event{At: at, Seq: seq, Kind: kind, Target: target, Arg: arg})
		}
		pops, hinted := 0, 0
		for step := 0; step < 20000; step++ {
			switch r := rng.IntN(10); {
			case r < 2: // a burst at one instant, or a single event
				at := q.Now() + deltas[rng.IntN(len(deltas))](rng)
				for k := rng.IntN(3) * rng.IntN(20); k >= 0; k-- {
					add(at)
				}
			case r < 3: // Peek moves to the next bucket; then schedule before it
				if _, ok := q.Peek(); ok {
					add(q.Now() + rotor.Time(rng.IntN(5)))
				}
			default:
				if len(q.late) == 0 {
					for k := 0; k < 3; k++ {
						kind, target, arg, ok := q.Hint(k)
						if !ok {
							continue
						}
						hinted++
						if k >= len(model) {
							t.Fatalf("seed %d step %d: Hint(%d) ok with %d pending", seed, step, k, len(model))
						}
						if kind != model[k].Kind || target != model[k].Target || arg != model[k].Arg {
							t.Fatalf("seed %d step %d: Hint(%d) = %d %d %d, want %+v", seed, step, k, kind, target, arg, model[k])
						}
					}
				}
				var end rotor.Time
				switch {
				case len(model) == 0:
					end = q.Now() + rotor.Time(rng.IntN(10))
				case rng.IntN(4) == 0:
					end = model[0].At - 1 // nothing due
				case rng.IntN(2) == 0:
					end = model[0].At
				default:
					end = model[0].At + rotor.Time(rng.Int64N(int64(bucket)))
				}
				for k := rng.IntN(8); k >= 0; k-- {
					kind, target, arg, ok := q.PopUntil(end)
					if due := len(model) > 0 && model[0].At <= end; ok != due {
						t.Fatalf("seed %d step %d: PopUntil(%d) ok = %v, want %v", seed, step, end, ok, due)
					}
					if !ok {
						break
					}
					e := model[0]
					if kind != e.Kind || target != e.Target || arg != e.Arg || q.Now() != e.At {
						t.Fatalf("seed %d step %d: PopUntil = %d %d %d at %d, want %+v", seed, step, kind, target, arg, q.Now(), e)
					}
					if e.Seq == 0 {
						delete(firsts, key{e.At, e.Kind, e.Target})
					}
					model = model[1:]
					pops++
				}
			}
			if q.Len() != len(model) {
				t.Fatalf("seed %d step %d: Len = %d, want %d", seed, step, q.Len(), len(model))
			}
			if want := lateKeyOf(&q); q.lateNot != want {
				t.Fatalf("seed %d step %d: lateNot = %#x, want %#x (late head %+v, base %d)", seed, step, q.lateNot, want, q.late, q.base)
			}
		}
		pending := q.Pending()
		slices.SortFunc(pending, queueOrder)
		if diff := cmp.Diff(model, pending); diff != "" {
			t.Fatalf("seed %d: Pending differs from the model (-want +got):\n%s", seed, diff)
		}
		for i, want := range model { // Pop reports Seq too
			got, ok := q.Pop()
			if !ok || got != want {
				t.Fatalf("seed %d: drain pop %d = %+v (ok %v), want %+v", seed, i, got, ok, want)
			}
		}
		if pops < 10000 || hinted == 0 || len(model) < 100 || (seed >= 3) != (renumbered >= 3) {
			t.Fatalf("seed %d: %d pops, %d hints, %d left at the end, renumbered %d times; the test mix is off", seed, pops, hinted, len(model), renumbered)
		}
		if testing.Verbose() {
			t.Logf("seed %d: %d pops, %d hints, %d left, renumbered %d", seed, pops, hinted, len(model), renumbered)
		}
	}
}

// lateKeyOf recomputes PopUntil's bound on the fast path from late[0]:
// 0 without late events, else ^ the slot key late[0] would have in the
// current bucket (0 when it is before the bucket, so nothing passes it).
// A stale bound would only slow PopUntil, so TestQueueModel checks it
// against this after every step.
func lateKeyOf(q *Queue) uint64 {
	if len(q.late) == 0 {
		return 0
	}
	l := q.late[0]
	if l.at < q.base {
		return ^uint64(0)
	}
	return ^(uint64(l.at-q.base)<<offsetShift | l.key)
}

// queueOrder is the order the queue pops events in: by time; at equal
// times ScheduleFirst events (Seq 0) first, by kind and target; then the
// others by Seq.
func queueOrder(x, y Event) int {
	switch {
	case x.At != y.At:
		return stdcmp.Compare(x.At, y.At)
	case (x.Seq == 0) != (y.Seq == 0):
		if x.Seq == 0 {
			return -1
		}
		return 1
	case x.Seq == 0 && x.Kind != y.Kind:
		return stdcmp.Compare(x.Kind, y.Kind)
	case x.Seq == 0:
		return stdcmp.Compare(x.Target, y.Target)
	}
	return stdcmp.Compare(x.Seq, y.Seq)
}

// TestKeyLayout checks that the largest ScheduleFirst key (kind
// MaxFirstKind−1, target −1) sorts below every ordinary key and that a
// slot's offset and key do not overlap: the bucket width leaves the key
// fewer bits.
func TestKeyLayout(t *testing.T) {
	first := uint64(MaxFirstKind-1)<<40 | uint64(uint32(0xffffffff))<<8 | uint64(MaxFirstKind-1)
	if first >= ordinaryBit {
		t.Fatalf("ScheduleFirst key %#x reaches ordinaryBit %#x", first, uint64(ordinaryBit))
	}
	ordinary := uint64(ordinaryBit) | maxSeq<<8 | 0xff
	if ordinary > keyMask {
		t.Fatalf("ordinary key %#x exceeds the key mask %#x", ordinary, uint64(keyMask))
	}
	if uint64(bucketMask)<<offsetShift>>offsetShift != bucketMask {
		t.Fatal("a bucket offset does not fit the slot's top bits")
	}
}
