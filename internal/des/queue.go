package des

import "github.com/rdcn/rdcn/rotor"

// Event is one scheduled occurrence: at time At, do Kind to Target with Arg.
// What Kind, Target and Arg mean is up to the simulator.
type Event struct {
	At     rotor.Time
	Seq    uint64 // insertion order, breaks ties between equal times
	Target int32
	Arg    int32
	Kind   uint8
}

// item is an Event as the heap stores it: 24 bytes. Ordinary events have
// key 1<<63 | seq<<8 | kind; ScheduleFirst events kind<<32 | target, so
// they sort before ordinary ones and among themselves by kind and target.
type item struct {
	at     rotor.Time
	key    uint64
	target int32
	arg    int32
}

func (e *item) before(f *item) bool {
	return e.at < f.at || (e.at == f.at && e.key < f.key)
}

func (e *item) event() Event {
	if e.key>>63 == 0 {
		return Event{At: e.at, Kind: uint8(e.key >> 32), Target: e.target, Arg: e.arg}
	}
	return Event{At: e.at, Seq: e.key << 1 >> 9, Kind: uint8(e.key), Target: e.target, Arg: e.arg}
}

// Queue is a 4-ary min-heap of events ordered by (At, Seq), except that at
// equal times events scheduled with ScheduleFirst come before the others,
// ordered by (Kind, Target). The zero value is ready to use.
type Queue struct {
	h         []item
	seq       uint64
	now       rotor.Time
	processed uint64
}

// Now is the time of the last event popped.
func (q *Queue) Now() rotor.Time { return q.now }

// Len is the number of pending events.
func (q *Queue) Len() int { return len(q.h) }

// Processed is the number of events popped so far.
func (q *Queue) Processed() uint64 { return q.processed }

// Schedule adds an event. Scheduling in the past (before Now) is a bug in
// the caller; the event is clamped to Now so time never runs backwards.
func (q *Queue) Schedule(at rotor.Time, kind uint8, target, arg int32) {
	q.seq++
	q.push(at, 1<<63|q.seq<<8|uint64(kind), target, arg)
}

// ScheduleFirst adds an event that, at its time, comes before every event
// added with Schedule; among themselves such events are ordered by (kind,
// target), not by when they were scheduled (their Seq is 0), and at most
// one per (time, kind, target) may be pending. A simulator uses it for
// "link free" events: at equal times departures free buffer space before
// arrivals take it, and the result does not depend on whether the event
// was scheduled at the departure or later, when it turned out to be
// needed.
func (q *Queue) ScheduleFirst(at rotor.Time, kind uint8, target, arg int32) {
	q.push(at, uint64(kind)<<32|uint64(uint32(target)), target, arg)
}

func (q *Queue) push(at rotor.Time, key uint64, target, arg int32) {
	if at < q.now {
		at = q.now
	}
	q.h = append(q.h, item{at: at, key: key, target: target, arg: arg})
	q.up(len(q.h) - 1)
}

// PeekTime returns the time of the earliest pending event.
func (q *Queue) PeekTime() (rotor.Time, bool) {
	if len(q.h) == 0 {
		return 0, false
	}
	return q.h[0].at, true
}

// Peek returns the earliest pending event without removing it.
func (q *Queue) Peek() (Event, bool) {
	if len(q.h) == 0 {
		return Event{}, false
	}
	return q.h[0].event(), true
}

// Pop removes and returns the earliest event and advances Now to its time.
func (q *Queue) Pop() (Event, bool) {
	n := len(q.h)
	if n == 0 {
		return Event{}, false
	}
	top := q.h[0]
	last := n - 1
	q.h[0] = q.h[last]
	q.h = q.h[:last]
	if last > 0 {
		q.down(0)
	}
	q.now = top.at
	q.processed++
	return top.event(), true
}

func (q *Queue) up(i int) {
	h := q.h
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

func (q *Queue) down(i int) {
	h := q.h
	n := len(h)
	e := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := c + 4
		if end > n {
			end = n
		}
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

// Pending returns a copy of the pending events in heap order (not sorted).
// It allocates; it is meant for invariant checks.
func (q *Queue) Pending() []Event {
	out := make([]Event, len(q.h))
	for i := range q.h {
		out[i] = q.h[i].event()
	}
	return out
}
