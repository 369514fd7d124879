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

func (e *Event) before(f *Event) bool {
	return e.At < f.At || (e.At == f.At && e.Seq < f.Seq)
}

// Queue is a 4-ary min-heap of events ordered by (At, Seq). The zero value
// is ready to use.
type Queue struct {
	h         []Event
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
	if at < q.now {
		at = q.now
	}
	q.seq++
	q.h = append(q.h, Event{At: at, Seq: q.seq, Kind: kind, Target: target, Arg: arg})
	q.up(len(q.h) - 1)
}

// Peek returns the earliest pending event without removing it.
func (q *Queue) Peek() (Event, bool) {
	if len(q.h) == 0 {
		return Event{}, false
	}
	return q.h[0], true
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
	q.now = top.At
	q.processed++
	return top, true
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

// Pending returns the pending events in heap order (not sorted). The slice
// is the queue's own storage: read it, don't keep or modify it.
func (q *Queue) Pending() []Event { return q.h }
