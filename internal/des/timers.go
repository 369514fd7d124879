package des

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Never is the time of a timer that is not set.
const Never = rotor.MaxTime

// Timers is a fixed set of one-shot timers numbered 0 … n−1, each set or
// not, ordered by (time, number). Setting a timer that is already set
// moves it, so a timer brought forward leaves no stale event behind.
//
// It is a winner tree over the timers padded to a power of two: a set,
// stop or pop replays one leaf-to-root path, log2 n steps of one
// branch-free comparison. Attached to a Queue (Queue.AttachTimers), the
// timers fire from the queue's PopUntil as events of one kind scheduled
// with ScheduleFirst would; a fired timer's path is replayed by the next
// call, once for both if that call sets the same timer again (a link that
// sent a packet waking when it is sent).
type Timers struct {
	at  []rotor.Time // [i]: timer i's time, Never: not set; len m, a power of two
	win []int32      // win[p]: the earliest timer under node p (root 1, children 2p, 2p+1); leaves win[m+i] = i
	set int          // timers set
	min int32        // the earliest timer, win[1]
	// minAt is its time, at[min]; Never: none set
	minAt rotor.Time
	// fired is a timer a Queue popped (take) whose path is not replayed
	// yet, or −1: Set of it replays once, anything else settles first.
	fired int32
}

// NewTimers returns n timers, none set.
func NewTimers(n int) *Timers {
	m := 1
	for m < n {
		m *= 2
	}
	t := &Timers{at: make([]rotor.Time, m), win: make([]int32, 2*m), minAt: Never, fired: -1}
	for i := range t.at {
		t.at[i] = Never
		t.win[m+i] = int32(i)
	}
	for p := m - 1; p >= 1; p-- {
		t.win[p] = t.win[2*p]
	}
	return t
}

// Len is the number of timers set.
func (t *Timers) Len() int { return t.set }

// When returns timer i's time, or Never if it is not set.
func (t *Timers) When(i int) rotor.Time { return t.at[i] }

// Set sets timer i (0 ≤ i < n) to at, moving it if it is set. Times are clamped to
// (MinInt64, Never).
func (t *Timers) Set(i int, at rotor.Time) {
	at = min(max(at, math.MinInt64+1), Never-1)
	if t.fired != int32(i) {
		t.settle()
	}
	t.fired = -1
	if t.at[i] == Never {
		t.set++
	}
	t.fix(i, at)
}

// Stop unsets timer i, if it is set.
func (t *Timers) Stop(i int) {
	t.settle()
	if t.at[i] != Never {
		t.set--
		t.fix(i, Never)
	}
}

// Min returns the earliest timer (the smallest number among equal times);
// ok is false if none is set.
func (t *Timers) Min() (i int, at rotor.Time, ok bool) {
	t.settle()
	return int(t.min), t.minAt, t.minAt != Never
}

// Pop unsets and returns the earliest timer. On timers attached to a
// Queue, let the queue pop them.
func (t *Timers) Pop() (i int, at rotor.Time, ok bool) {
	i, at, ok = t.Min()
	if ok {
		t.Stop(i)
	}
	return i, at, ok
}

// take unsets the earliest timer for a Queue that fires it, leaving its
// path to Set of the same timer or else to settle.
func (t *Timers) take() (int32, rotor.Time) {
	i, at := t.min, t.minAt
	t.at[i] = Never
	t.set--
	t.fired = i
	return i, at
}

// settle replays the path of a timer taken and not set again.
func (t *Timers) settle() {
	if i := t.fired; i >= 0 {
		t.fired = -1
		t.fix(int(i), Never)
	}
}

// fix sets timer i's time and replays the path from its leaf to the root.
// The sibling's winner beats the climbing one if it is earlier, or as
// early and on the left (smaller numbers): as ≤ ac there, which is
// as−1 < ac for the odd (right) child p.
func (t *Timers) fix(i int, at rotor.Time) {
	ats, win := t.at, t.win
	ats[i] = at
	c, ac := int32(i), at
	// Both lengths are powers of two, so masking the indices (a no-op
	// for valid ones) lets the compiler drop the bounds checks.
	am, wm := len(ats)-1, len(win)-1
	_ = win[1] // len(win) = 2·len(ats) ≥ 2: wm is a mask
	for p := len(ats) + i; p > 1; p >>= 1 {
		s := win[(p^1)&wm]
		as := ats[int(s)&am]
		if as-rotor.Time(p&1) < ac {
			c, ac = s, as
		}
		win[(p>>1)&wm] = c
	}
	t.min, t.minAt = c, ac
}
