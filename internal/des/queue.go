package des

import (
	"math/bits"
	"slices"

	"github.com/rdcn/rdcn/rotor"
)

// Event is one scheduled occurrence: at time At, do Kind to Target with Arg.
// What Kind, Target and Arg mean is up to the simulator.
type Event struct {
	At     rotor.Time
	Seq    uint64 // insertion order, breaks ties between equal times (0 for ScheduleFirst events; see Schedule)
	Target int32
	Arg    int32
	Kind   uint8
}

// item is an Event as the queue's heaps store it: 24 bytes. The key is
// 46 bits: ordinary events have 1<<45 | seq<<8 | kind (seq < 2^37);
// ScheduleFirst events kind<<40 | target<<8 | kind, so they sort before
// ordinary ones and among themselves by kind and target, and the kind is
// the low byte of every key.
type item struct {
	at     rotor.Time
	key    uint64
	target int32
	arg    int32
}

func (e *item) before(f *item) bool {
	return e.at < f.at || (e.at == f.at && e.key < f.key)
}

func (e *item) kind() uint8 { return uint8(e.key) }

func (e item) event() Event {
	var seq uint64
	if e.key&ordinaryBit != 0 {
		seq = e.key &^ ordinaryBit >> 8
	}
	return Event{At: e.at, Seq: seq, Kind: e.kind(), Target: e.target, Arg: e.arg}
}

// Calendar geometry: buckets of 2^bucketShift ps (262 ns; the offset in a
// bucket and the 46-bit key fill a slot's 64-bit sort key), a ring of
// ringSize buckets (1.07 ms ahead, past a circuit day). The width changes
// no pop order (that is (At, key)), only the cost: 262 ns against the
// 33 ns before cut the default leaf-spine run's CPU by 13 % (fewer,
// fuller buckets: it had 5.5 events per bucket) and left the rotor runs
// within 2 % (docs/perf-history.md). ScheduleFirst keys hold the kind in
// bits 40–44, below ordinaryBit: kinds are < 32.
const (
	bucketShift = 18
	bucketMask  = 1<<bucketShift - 1
	ringSize    = 4096
	ringMask    = ringSize - 1
)

// slot is an event in a ring bucket, 16 bytes: its time's offset in the
// bucket and its item key in one word, offset<<49 | key, so that one
// comparison orders a bucket.
type slot struct {
	sk     uint64
	target int32
	arg    int32
}

const (
	offsetShift = 64 - bucketShift
	ordinaryBit = 1 << (offsetShift - 1) // in an item key: ordinary event
	keyMask     = 1<<offsetShift - 1
	seqBits     = offsetShift - 1 - 8
)

// MaxFirstKind bounds the kinds of ScheduleFirst events and attached
// timers: their keys hold the kind in bits 40 up to ordinaryBit.
const MaxFirstKind = ordinaryBit >> 40

// maxSeq is the largest Seq a key holds (2^37 − 1); a variable so that
// tests can make renumbering happen.
var maxSeq uint64 = 1<<seqBits - 1

// Queue is the event queue: events come out ordered by (At, Seq), except
// that at equal times events scheduled with ScheduleFirst come before the
// others, ordered by (Kind, Target). The zero value is ready to use.
//
// It is a calendar queue: time is cut into buckets of 262 ns. Events of
// the next 4095 buckets are appended, unsorted, to a ring of buckets as
// 16-byte slots whose first word (offset in the bucket, then the key)
// orders them; a bucket is sorted on that word when it becomes current
// and popped in order (a dense bucket by a counting pass over sixteenths
// of the bucket, then insertion sort; a sparse one by peeling its sorted
// runs). Events scheduled into the current bucket after that are filed
// into its sorted pending slots (insertNear); the few that cannot be
// (clamped into the past, after a pending second piece) go to a small
// 4-ary heap merged on pop; events beyond the ring wait in another heap
// and move to the ring as time advances. A simulation's events are mostly
// a few packet times ahead, so scheduling is O(1) and a pop is O(1) plus
// the share of one sort of a bucket.
type Queue struct {
	near []slot // the current bucket's events, sorted; near[head:] pending
	head int
	then []slot     // the current bucket's events after near's (a view of buf), or nil
	buf  []slot     // the sorted bucket's array
	tmp  []slot     // sortSlots' scratch
	base rotor.Time // start of the current bucket: cur << bucketShift
	late []item     // 4-ary heap: events filed into buckets ≤ cur after it was sorted
	// lateNot is ^ the sort key late[0] would have as a slot of the
	// current bucket (0 if it is before base), or 0 when late is empty:
	// PopUntil's fast path pops near[head] while its key is below ^lateNot.
	lateNot   uint64
	ring      [][]slot
	slab      [][]slot              // each ring bucket's own small slab piece
	spare     [][]slot              // grown bucket arrays not in use (capacity > slabPiece)
	full      [ringSize / 64]uint64 // non-empty ring buckets
	far       []item                // 4-ary heap: buckets ≥ cur+ringSize
	cur       int64                 // current bucket number (time >> bucketShift)
	pushed    uint64                // events scheduled so far; Len is pushed - processed
	seq       uint64
	now       rotor.Time
	processed uint64
	timers    *Timers // attached timers, or nil
	tkey      uint64  // their key, ScheduleFirst's with target 0
	fired     uint64  // timers popped
}

// Now is the time of the last event popped.
func (q *Queue) Now() rotor.Time { return q.now }

// Len is the number of pending events (set timers included).
func (q *Queue) Len() int {
	n := int(q.pushed - q.processed)
	if q.timers != nil {
		n += q.timers.Len()
	}
	return n
}

// Processed is the number of events popped so far (fired timers included).
func (q *Queue) Processed() uint64 { return q.processed + q.fired }

// AttachTimers makes t's timers events of the queue: timer i set to at
// fires from PopUntil (and Pop, Peek) as the event ScheduleFirst(at, kind,
// i, 0) would, and Len, Processed and Pending count it; Hint does not
// report timers. Moving a timer costs no event, where rescheduling would
// leave a stale one to pop. Do not use kind with ScheduleFirst as well,
// nor set a timer before Now (it would fire at once, at Now). A queue
// takes one Timers.
func (q *Queue) AttachTimers(t *Timers, kind uint8) {
	q.timers = t
	q.tkey = uint64(kind)<<40 | uint64(kind)
}

// Schedule adds an event. Scheduling in the past (before Now) is a bug in
// the caller; the event is clamped to Now so time never runs backwards.
// Seq counts Schedule calls; after 2^37 − 1 of them the pending events
// are renumbered 1, 2, … in their order (same order, smaller numbers).
func (q *Queue) Schedule(at rotor.Time, kind uint8, target, arg int32) {
	q.seq++ // past maxSeq: push renumbers
	q.push(at, ordinaryBit|q.seq<<8|uint64(kind), target, arg)
}

// ScheduleFirst adds an event that, at its time, comes before every event
// added with Schedule; among themselves such events are ordered by (kind,
// target), not by when they were scheduled (their Seq is 0), and at most
// one per (time, kind, target) may be pending. A simulator uses it for
// "link free" events: at equal times departures free buffer space before
// arrivals take it, and the result does not depend on whether the event
// was scheduled at the departure or later, when it turned out to be
// needed. Its kind must be below MaxFirstKind.
func (q *Queue) ScheduleFirst(at rotor.Time, kind uint8, target, arg int32) {
	q.push(at, uint64(kind)<<40|uint64(uint32(target))<<8|uint64(kind), target, arg)
}

func (q *Queue) push(at rotor.Time, key uint64, target, arg int32) {
	if q.seq > maxSeq && key&ordinaryBit != 0 { // Seq ran out of bits
		q.renumber()
		q.seq++
		key = ordinaryBit | q.seq<<8 | uint64(uint8(key))
	}
	at = max(at, q.now)
	q.pushed++
	// Fast path: a ring bucket with room.
	if d := int64(at>>bucketShift) - q.cur; d > 0 && d < ringSize && q.ring != nil {
		i := int(at>>bucketShift) & ringMask
		if bk := q.ring[i]; len(bk) < cap(bk) {
			q.ring[i] = append(bk, slot{sk: uint64(at&bucketMask)<<offsetShift | key, target: target, arg: arg})
			q.full[i>>6] |= 1 << (i & 63)
			return
		}
	}
	q.place(item{at: at, key: key, target: target, arg: arg})
}

// place files e by its bucket.
func (q *Queue) place(e item) {
	b := int64(e.at >> bucketShift)
	switch {
	case b <= q.cur:
		if !q.insertNear(&e) {
			heapPush(&q.late, e)
			q.setLate()
		}
	case b < q.cur+ringSize:
		if q.ring == nil {
			q.ring = make([][]slot, ringSize)
			q.slab = make([][]slot, ringSize)
			slab := make([]slot, ringSize*slabPiece)
			for k := range q.ring {
				q.slab[k] = slab[k*slabPiece : k*slabPiece : (k+1)*slabPiece]
				q.ring[k] = q.slab[k]
			}
		}
		i := int(b & ringMask)
		bk := q.ring[i]
		if len(bk) == cap(bk) {
			bk = q.grow(bk)
		}
		q.ring[i] = append(bk, slot{sk: uint64(e.at&bucketMask)<<offsetShift | e.key, target: e.target, arg: e.arg})
		q.full[i>>6] |= 1 << (i & 63)
	default:
		heapPush(&q.far, e)
	}
}

// insertNear files e, due in the current bucket after it was sorted,
// into near[head:] in order, moving the pending events on one side of
// its place by one slot (into the popped slot before head, or into spare
// capacity after the end; the side its key's half of near[head:] names). It reports false, for the late heap, when e is before
// the bucket, when the bucket's second piece (then) is pending and e
// does not sort before near's last event, or when neither side has room.
// A late event is mostly a few tens of nanoseconds ahead, near head:
// moving a few slots is cheaper than the heap's push and pop, and
// near[head] stays the earliest calendar event, popped on the fast path.
func (q *Queue) insertNear(e *item) bool {
	if e.at < q.base {
		return false
	}
	sk := uint64(e.at-q.base)<<offsetShift | e.key
	near, head := q.near, q.head
	n := len(near)
	if q.then != nil && (head == n || near[n-1].sk < sk) {
		return false // it may sort after then[0]
	}
	// One comparison with the middle pending slot picks the side to move;
	// the slots are then moved one by one while looking for the place
	// (a late event is mostly a few slots from head: no search, no call).
	s := slot{sk: sk, target: e.target, arg: e.arg}
	headSide := head > 0 && (head == n || sk < near[int(uint(head+n)>>1)].sk)
	switch {
	case headSide || head > 0 && n == cap(near):
		i := head
		for ; i < n && near[i].sk < sk; i++ {
			near[i-1] = near[i]
		}
		near[i-1] = s
		q.head = head - 1
	case n < cap(near):
		near = near[:n+1]
		i := n
		for ; i > head && near[i-1].sk > sk; i-- {
			near[i] = near[i-1]
		}
		near[i] = s
		q.near = near
	default:
		return false
	}
	return true
}

// setLate sets lateNot from late[0].
func (q *Queue) setLate() {
	if len(q.late) == 0 {
		q.lateNot = 0
		return
	}
	l := &q.late[0]
	var sk uint64 // before base: before every slot
	if l.at >= q.base {
		sk = uint64(l.at-q.base)<<offsetShift | l.key
	}
	q.lateNot = ^sk
}

// advance makes the next non-empty bucket current. It reports false if
// the queue is empty.
func (q *Queue) advance() bool {
	if q.pushed == q.processed {
		return false
	}
	next := int64(-1)
	if b, ok := q.nextFull(); ok {
		next = b
	}
	if len(q.far) > 0 {
		if b := int64(q.far[0].at >> bucketShift); next < 0 || b < next {
			next = b
		}
	}
	q.cur = next
	q.base = rotor.Time(next) << bucketShift
	q.near, q.head, q.then = nil, 0, nil
	i := int(next & ringMask)
	if q.ring != nil && q.full[i>>6]&(1<<(i&63)) != 0 {
		bk := q.ring[i]
		if cap(q.buf) < len(bk) {
			q.buf = make([]slot, 0, 2*len(bk))
			q.tmp = make([]slot, 0, sortDepth*2*len(bk))
		}
		q.near, q.then = sortBucket(q.buf[:len(bk)], bk, q.tmp)
		q.ring[i] = q.slab[i]
		if cap(bk) > slabPiece {
			q.spare = append(q.spare, bk[:0])
		}
		q.full[i>>6] &^= 1 << (i & 63)
	}
	for len(q.far) > 0 && int64(q.far[0].at>>bucketShift) < q.cur+ringSize {
		q.place(heapPop(&q.far))
	}
	return true
}

// sortDepth is how many levels of runs sortSlots peels off before it
// hands the rest to introSort.
const sortDepth = 3

// slabPiece is the capacity every ring bucket starts with.
const slabPiece = 8

// grow returns a bucket array with bk's events and room for more: a spare
// one if the most recently returned is large enough, else a new one of
// twice the size. Full buckets hand their grown arrays back to the spares
// when they are drained, so memory stays bounded by the busiest stretch of
// the ring instead of growing with every bucket's own peak.
func (q *Queue) grow(bk []slot) []slot {
	var next []slot
	if k := len(q.spare) - 1; k >= 0 && cap(q.spare[k]) > len(bk) {
		next = append(q.spare[k], bk...)
		q.spare[k] = nil
		q.spare = q.spare[:k]
	} else {
		next = make([]slot, len(bk), 2*cap(bk))
		copy(next, bk)
	}
	if cap(bk) > slabPiece {
		q.spare = append(q.spare, bk[:0])
	}
	return next
}

// nextFull returns the first non-empty ring bucket after cur.
func (q *Queue) nextFull() (int64, bool) {
	start := int((q.cur + 1) & ringMask)
	for k := 0; k <= ringSize/64; k++ {
		w := (start>>6 + k) % (ringSize / 64)
		word := q.full[w]
		if k == 0 {
			word &= ^uint64(0) << (start & 63)
		}
		if word != 0 {
			i := w<<6 + bits.TrailingZeros64(word)
			d := int64((i - start + ringSize) & ringMask)
			return q.cur + 1 + d, true
		}
	}
	return 0, false
}

// sortSlots sorts a bucket by sort key, using tmp as scratch space. A
// bucket is mostly a few sorted runs: at one instant, ordinary events in
// the order they were filed, then ScheduleFirst events mostly by target
// with a few filed later, and a few events at other times. One pass keeps
// the ascending run in place and moves the rest aside; the rest is sorted
// the same way (up to depth levels, then by introSort) and merged back
// from the end. A bucket that looks scrambled rather than made of runs
// (random times) goes to introSort at once. Keys are unique, so the order
// is the same whatever the algorithm.
func sortSlots(a, tmp []slot, depth int) { sortInto(a, a, tmp, depth) }

// sortInto is sortSlots reading from src (len(src) == len(a); src may be a).
func sortInto(a, src, tmp []slot, depth int) {
	w, side := sortRuns(a, src, tmp, depth)
	switch {
	case len(side) == 0:
	case side[len(side)-1].sk < a[0].sk:
		// Common: everything moved aside sorts before the run
		// (ScheduleFirst events filed after ordinary ones at the same
		// instant), and two block copies merge.
		copy(a[len(side):], a[:w])
		copy(a, side)
	default:
		merge(a, w, side)
	}
}

// sortBucket is sortInto at the top level, except that when everything
// moved aside sorts before the run it returns the two pieces, to be popped
// one after the other, instead of copying them together.
func sortBucket(a, src, tmp []slot) (first, then []slot) {
	if len(src) >= spreadMin {
		spreadSort(a, src, tmp)
		return a, nil
	}
	w, side := sortRuns(a, src, tmp, sortDepth-1)
	switch {
	case len(side) == 0:
		return a, nil
	case side[len(side)-1].sk < a[0].sk:
		return side, a[:w]
	}
	merge(a, w, side)
	return a, nil
}

// A bucket of at least spreadMin events is spread over spreadParts
// parts by the top bits of its offset (stable), and each part sorted.
const (
	spreadMin   = 48
	spreadBits  = 4
	spreadParts = 1 << spreadBits
)

// spreadSort sorts src into a (len(a) = len(src)), using tmp as scratch:
// a counting pass files each event by its time's sixteenth of the bucket
// (16 ns), keeping the order it was filed in, which is mostly a few
// interleaved ascending runs; insertion sort then puts each part's few
// events in order (a part of more than 32, a burst at one instant, is
// sorted by sortInto). A dense bucket (the NDP Opera comparison's hold
// ~120 events) costs two passes and a few moves per event, where
// peeling runs moved each event through up to three side arrays.
func spreadSort(a, src, tmp []slot) {
	var end [spreadParts]int32
	for i := range src {
		end[src[i].sk>>(64-spreadBits)]++
	}
	var at [spreadParts]int32
	sum := int32(0)
	for k := range end {
		at[k] = sum
		sum += end[k]
		end[k] = sum
	}
	for i := range src {
		k := src[i].sk >> (64 - spreadBits)
		a[at[k]] = src[i]
		at[k]++
	}
	lo := int32(0)
	for k := range end {
		hi := end[k]
		part := a[lo:hi]
		lo = hi
		if len(part) > 32 {
			sortInto(part, part, tmp, sortDepth-1)
			continue
		}
		insertionSort(part)
	}
}

// sortRuns leaves src's ascending run in a[:w] and the rest, sorted, in
// side (in tmp); or, for a scrambled src, all of it sorted in a (side
// empty).
func sortRuns(a, src, tmp []slot, depth int) (w int, side []slot) {
	if len(src) == 0 {
		return 0, nil
	}
	// A scrambled bucket (random times) goes to introSort at once; a
	// bucket of runs shows few descents in its first events.
	descents := 0
	for i := 1; i < min(len(src), 16); i++ {
		if src[i].sk < src[i-1].sk {
			descents++
		}
	}
	if descents >= 4 {
		copy(a, src)
		introSort(a, 2*bits.Len(uint(len(a))))
		return len(a), nil
	}
	a[0] = src[0]
	w = 1
	last := src[0].sk
	side = tmp[:0]
	for i := 1; i < len(src); i++ {
		if src[i].sk > last {
			last = src[i].sk
			a[w] = src[i]
			w++
		} else {
			side = append(side, src[i])
		}
	}
	switch {
	case len(side) == 0:
	case depth == 0:
		introSort(side, 2*bits.Len(uint(len(side))))
	default:
		sortSlots(side, tmp[len(side):cap(tmp)], depth-1)
	}
	return w, side
}

// merge merges a[:w] and side, both sorted, into a (len(a) = w+len(side)),
// from the end.
func merge(a []slot, w int, side []slot) {
	i, j := w-1, len(side)-1
	for k := len(a) - 1; j >= 0; k-- {
		if i >= 0 && a[i].sk > side[j].sk {
			a[k] = a[i]
			i--
		} else {
			a[k] = side[j]
			j--
		}
	}
}

// introSort sorts a scrambled bucket: quicksort (median of three),
// insertion sort up to 32 items (16, 48 and 64 measured slower with the
// old 24-byte items), heapsort past depth levels (O(n log n) whatever the
// input). The comparison is inlined: slices.SortFunc's, through a
// function value, made large day-start buckets cost ~10 % of a (b)-scale
// run.
func introSort(a []slot, depth int) {
	for len(a) > 32 {
		if depth == 0 {
			heapSortSlots(a)
			return
		}
		depth--
		m := len(a) / 2
		// Median of three to a[0], then partition around it.
		if a[m].sk < a[0].sk {
			a[0], a[m] = a[m], a[0]
		}
		if a[len(a)-1].sk < a[0].sk {
			a[0], a[len(a)-1] = a[len(a)-1], a[0]
		}
		if a[len(a)-1].sk < a[m].sk {
			a[m], a[len(a)-1] = a[len(a)-1], a[m]
		}
		a[0], a[m] = a[m], a[0] // pivot (the median) at a[0]
		p := a[0].sk
		i, j := 1, len(a)-1
		for {
			for i <= j && a[i].sk < p {
				i++
			}
			for i <= j && p < a[j].sk {
				j--
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
			i++
			j--
		}
		a[0], a[j] = a[j], a[0]
		// Recurse into the smaller side, loop on the larger.
		if j < len(a)-1-j {
			introSort(a[:j], depth)
			a = a[j+1:]
		} else {
			introSort(a[j+1:], depth)
			a = a[:j]
		}
	}
	insertionSort(a)
}

// insertionSort sorts a few slots, or slots that are nearly in order.
func insertionSort(a []slot) {
	for i := 1; i < len(a); i++ {
		e := a[i]
		j := i
		for j > 0 && e.sk < a[j-1].sk {
			a[j] = a[j-1]
			j--
		}
		a[j] = e
	}
}

func heapSortSlots(a []slot) {
	n := len(a)
	sift := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && a[c].sk < a[c+1].sk {
				c++
			}
			if a[i].sk >= a[c].sk {
				return
			}
			a[i], a[c] = a[c], a[i]
			i = c
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		sift(i, n)
	}
	for k := n - 1; k > 0; k-- {
		a[0], a[k] = a[k], a[0]
		sift(0, k)
	}
}

// at is the time of the current bucket's slot s.
func (q *Queue) at(s *slot) rotor.Time { return q.base + rotor.Time(s.sk>>offsetShift) }

// Where the earliest pending event is (top).
const (
	srcNone  = iota
	srcNear  // near[head]
	srcLate  // late[0]
	srcTimer // the earliest timer
)

// top reports where the earliest pending event is, making the next bucket
// current when the current one is used up, unless a timer comes before
// the next bucket.
func (q *Queue) top() int {
	if q.head == len(q.near) && q.then != nil {
		q.near, q.head, q.then = q.then, 0, nil
	}
	tAt, tKey := Never, uint64(0)
	if t := q.timers; t != nil {
		if t.fired >= 0 {
			t.settle()
		}
		tAt, tKey = t.minAt, q.tkey|uint64(t.min)<<8
	}
	if q.head == len(q.near) && len(q.late) == 0 {
		// Every calendar event is in a later bucket.
		if tAt < q.base+bucketMask+1 {
			return srcTimer
		}
		if !q.advance() {
			if tAt != Never {
				return srcTimer
			}
			return srcNone
		}
	}
	src := srcNear
	var at rotor.Time
	var key uint64
	if q.head < len(q.near) {
		s := &q.near[q.head]
		at, key = q.at(s), s.sk&keyMask
	}
	if len(q.late) > 0 {
		if l := &q.late[0]; q.head == len(q.near) || l.at < at || (l.at == at && l.key < key) {
			src, at, key = srcLate, l.at, l.key
		}
	}
	if tAt < at || (tAt == at && tKey < key) {
		return srcTimer
	}
	return src
}

// first returns a copy of the earliest pending event.
func (q *Queue) first() (item, bool) {
	switch q.top() {
	case srcNone:
		return item{}, false
	case srcLate:
		return q.late[0], true
	case srcTimer:
		t := q.timers
		return item{at: t.minAt, key: q.tkey | uint64(t.min)<<8, target: t.min}, true
	}
	s := &q.near[q.head]
	return item{at: q.at(s), key: s.sk & keyMask, target: s.target, arg: s.arg}, true
}

// PeekTime returns the time of the earliest pending event.
func (q *Queue) PeekTime() (rotor.Time, bool) {
	e, ok := q.first()
	return e.at, ok
}

// Peek returns the earliest pending event without removing it.
func (q *Queue) Peek() (Event, bool) {
	e, ok := q.first()
	if !ok {
		return Event{}, false
	}
	return e.event(), true
}

// Pop removes and returns the earliest event and advances Now to its time.
func (q *Queue) Pop() (Event, bool) {
	e, ok := q.first()
	if !ok {
		return Event{}, false
	}
	q.PopUntil(e.at)
	return e.event(), true
}

// PopUntil removes the earliest event if its time is at most end,
// advances Now to it and returns its kind, target and arg; otherwise it
// leaves the queue as it is and reports false. It is PeekTime followed by
// Pop with one lookup, and returns scalars: building an Event on the
// stack and copying it out stalled on store forwarding (~10 % of a run).
func (q *Queue) PopUntil(end rotor.Time) (kind uint8, target, arg int32, ok bool) {
	if q.head < len(q.near) { // fast path: near[head] before late[0], or a timer before it
		s := &q.near[q.head]
		if s.sk >= ^q.lateNot { // late[0] first (lateNot is 0 when late is empty)
			return q.popSlow(end)
		}
		at := q.base + rotor.Time(s.sk>>offsetShift)
		t := q.timers
		if t == nil || t.fired < 0 && (at < t.minAt || at == t.minAt && s.sk&keyMask < q.tkey|uint64(t.min)<<8) {
			if at > end {
				return 0, 0, 0, false
			}
			return q.takeNear(s, at)
		}
		if t.fired < 0 { // the timer first
			return q.fire(end)
		}
	}
	return q.popSlow(end)
}

// fire pops the earliest timer if its time is at most end.
func (q *Queue) fire(end rotor.Time) (kind uint8, target, arg int32, ok bool) {
	t := q.timers
	if t.minAt > end {
		return 0, 0, 0, false
	}
	i, at := t.take()
	q.now = max(q.now, at)
	q.fired++
	return uint8(q.tkey), i, 0, true
}

// popSlow is PopUntil when the current bucket is used up, late events are
// pending or a timer may come first.
func (q *Queue) popSlow(end rotor.Time) (kind uint8, target, arg int32, ok bool) {
	switch q.top() {
	case srcNone:
		return 0, 0, 0, false
	case srcLate:
		if q.late[0].at > end {
			return 0, 0, 0, false
		}
		e := heapPop(&q.late)
		q.setLate()
		q.now = e.at
		q.processed++
		return e.kind(), e.target, e.arg, true
	case srcTimer:
		return q.fire(end)
	}
	s := &q.near[q.head]
	at := q.at(s)
	if at > end {
		return 0, 0, 0, false
	}
	return q.takeNear(s, at)
}

// takeNear pops s, the current bucket's head, due at at.
func (q *Queue) takeNear(s *slot, at rotor.Time) (kind uint8, target, arg int32, ok bool) {
	q.head++
	q.now = at
	q.processed++
	return uint8(s.sk), s.target, s.arg, true
}

// Hint returns the event likely popped k-th from now (k = 0: next) — the
// current bucket's, ignoring events filed since it was sorted and timers —
// without moving anything; ok is false if there is no such event.
// Simulators use it to start loading an event's data before it is
// handled.
func (q *Queue) Hint(k int) (kind uint8, target, arg int32, ok bool) {
	if q.head+k >= len(q.near) {
		return 0, 0, 0, false
	}
	s := &q.near[q.head+k]
	return uint8(s.sk), s.target, s.arg, true
}

// Pending returns a copy of the pending events, unsorted. It allocates; it
// is meant for invariant checks.
func (q *Queue) Pending() []Event {
	items := q.items()
	out := make([]Event, len(items), q.Len())
	for i := range items {
		out[i] = items[i].event()
	}
	if t := q.timers; t != nil {
		for i, at := range t.at {
			if at != Never {
				out = append(out, Event{At: at, Kind: uint8(q.tkey), Target: int32(i)})
			}
		}
	}
	return out
}

// items returns the pending events, unsorted.
func (q *Queue) items() []item {
	out := make([]item, 0, q.Len())
	for i := q.head; i < len(q.near); i++ {
		s := &q.near[i]
		out = append(out, item{at: q.at(s), key: s.sk & keyMask, target: s.target, arg: s.arg})
	}
	for i := range q.then {
		s := &q.then[i]
		out = append(out, item{at: q.at(s), key: s.sk & keyMask, target: s.target, arg: s.arg})
	}
	out = append(out, q.late...)
	for i, bk := range q.ring {
		// The ring holds buckets cur+1 … cur+ringSize-1; bucket i is the one ≡ i.
		b := q.cur + 1 + int64((i-int(q.cur+1))&ringMask)
		for j := range bk {
			s := &bk[j]
			at := rotor.Time(b)<<bucketShift + rotor.Time(s.sk>>offsetShift)
			out = append(out, item{at: at, key: s.sk & keyMask, target: s.target, arg: s.arg})
		}
	}
	return append(out, q.far...)
}

// renumber gives the pending ordinary events Seq 1, 2, … in their order
// and refiles everything, so that Seq fits its bits again. It runs once
// per 2^37 − 1 Schedule calls.
func (q *Queue) renumber() {
	items := q.items()
	slices.SortFunc(items, func(a, b item) int {
		if a.before(&b) {
			return -1
		}
		return 1
	})
	now, processed := q.now, q.processed
	*q = Queue{now: now, processed: processed, pushed: processed, timers: q.timers, tkey: q.tkey, fired: q.fired}
	q.cur = int64(now>>bucketShift) - 1 // nothing is current: every event is filed in the ring or beyond
	q.base = rotor.Time(q.cur) << bucketShift
	for _, e := range items {
		if e.key&ordinaryBit != 0 {
			q.seq++
			e.key = ordinaryBit | q.seq<<8 | uint64(e.kind())
		}
		q.pushed++
		q.place(e)
	}
}

// 4-ary min-heap on a slice.

func heapPush(h *[]item, e item) {
	*h = append(*h, e)
	up(*h, len(*h)-1)
}

func heapPop(h *[]item) item {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	if last > 0 {
		down(s, 0)
	}
	*h = s
	return top
}

func up(h []item, i int) {
	e := h[i]
	for i > 0 {
		p := (i - 1) >> 2
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func down(h []item, i int) {
	n := len(h)
	e := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if h[k].before(&h[m]) {
				m = k
			}
		}
		if !h[m].before(&e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}
