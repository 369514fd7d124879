package tor

import "github.com/rdcn/rdcn/rotor"

// maxHeap is an indexed binary max-heap of n keys: Top is the index with
// the largest value, the smallest index among equals, so that two
// heaps fed the same values agree on it.
//
// It is lazy, since Top is asked for only when a buffer overflows while
// values change on every arrival and departure: Set only records the value
// (O(1)), marking a raised index; Top first sifts the raised indices up
// (O(log n) each), then fixes stale keys from the root down until the
// root's key is its value. The heap is ordered by key[i], and after the
// raises key[i] ≥ val[i] for all i, so the root's value is the largest
// (every other val[j] ≤ key[j] ≤ key[root] = val[root]), and among equals
// the smallest index (an equal j would have key[j] = val[j] and be ordered
// before the root).
type maxHeap struct {
	val    []int64
	key    []int64 // heap order; key[i] ≥ val[i] unless i is raised
	heap   []int32 // heap order → index
	pos    []int32 // index → heap position
	raised []int32 // indices whose value may exceed their key
	isUp   []bool  // [index]: in raised
}

func newMaxHeap(n int) *maxHeap {
	h := &maxHeap{val: make([]int64, n), key: make([]int64, n), heap: make([]int32, n), pos: make([]int32, n),
		raised: make([]int32, 0, n), isUp: make([]bool, n)}
	for i := range h.heap {
		h.heap[i], h.pos[i] = int32(i), int32(i)
	}
	return h
}

func (h *maxHeap) less(a, b int32) bool { // a above b
	ka, kb := h.key[a], h.key[b]
	return ka > kb || ka == kb && a < b
}

func (h *maxHeap) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.pos[h.heap[i]], h.pos[h.heap[j]] = int32(i), int32(j)
}

// Top is the index with the largest value.
func (h *maxHeap) Top() int32 {
	for _, i := range h.raised {
		h.isUp[i] = false
		if v := h.val[i]; v > h.key[i] {
			h.key[i] = v
			h.up(int(h.pos[i]))
		}
	}
	h.raised = h.raised[:0]
	for {
		t := h.heap[0]
		if h.key[t] == h.val[t] {
			return t
		}
		h.key[t] = h.val[t]
		h.down(0)
	}
}

// Get is index i's value.
func (h *maxHeap) Get(i int32) int64 { return h.val[i] }

// Set sets index i's value.
func (h *maxHeap) Set(i int32, v int64) {
	h.val[i] = v
	if v > h.key[i] && !h.isUp[i] {
		h.isUp[i] = true
		h.raised = append(h.raised, i)
	}
}

// up sifts heap position k up.
func (h *maxHeap) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !h.less(h.heap[k], h.heap[p]) {
			break
		}
		h.swap(k, p)
		k = p
	}
}

// down sifts heap position k down.
func (h *maxHeap) down(k int) {
	n := len(h.heap)
	for {
		l, best := 2*k+1, k
		if l < n && h.less(h.heap[l], h.heap[best]) {
			best = l
		}
		if r := l + 1; r < n && h.less(h.heap[r], h.heap[best]) {
			best = r
		}
		if best == k {
			return
		}
		h.swap(k, best)
		k = best
	}
}

// longest tracks the longest queue of a switch through the hooks.
type longest struct{ h *maxHeap }

func (l longest) Enqueued(_ rotor.Time, _ *Arrival, q int32, s *State) {
	l.h.Set(q, s.Queues[q].Bytes)
}

func (l longest) Dequeued(_ rotor.Time, _ int32, q int32, s *State) {
	l.h.Set(q, s.Queues[q].Bytes)
}

func (l longest) Moved(_ rotor.Time, _ int32, from, to int32, s *State) {
	l.h.Set(from, s.Queues[from].Bytes)
	l.h.Set(to, s.Queues[to].Bytes)
}

func (l longest) Dropped(_ rotor.Time, _ *Arrival, _ int32, q int32, pushed bool, s *State) {
	if pushed {
		l.h.Set(q, s.Queues[q].Bytes)
	}
}

// LQD is Longest Queue Drop, a push-out policy: it admits every packet
// and, while the buffer lacks room, drops the tail packet of the longest
// queue (the smallest index among equally long ones); when that queue is
// the arrival's own, the arrival is dropped instead (same lengths after).
type LQD struct {
	longest
	rec    func(a *Arrival, f *Features)
	feats  *featureTracker
	buffer Features
}

func (LQD) Name() string { return "lqd" }

// RecordFeatures makes LQD report Credence's features of every arrival,
// before its decision, to fn (the training traces of Credence's model).
// rtt is the averaging time of the moving averages.
func (l *LQD) RecordFeatures(fn func(a *Arrival, f *Features), rtt rotor.Time) {
	l.rec = fn
	l.feats = newFeatureTracker(len(l.h.val), rtt)
}

func (l *LQD) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	if l.rec != nil {
		l.feats.fill(&l.buffer, q, s)
		l.rec(a, &l.buffer)
	}
	return true
}

func (l *LQD) Dequeued(now rotor.Time, size int32, q int32, s *State) {
	l.longest.Dequeued(now, size, q, s)
	if l.feats != nil {
		l.feats.departed(now, q, s)
	}
}

func (l *LQD) Moved(now rotor.Time, size int32, from, to int32, s *State) {
	l.longest.Moved(now, size, from, to, s)
	if l.feats != nil {
		l.feats.departed(now, from, s)
	}
}

func (l *LQD) Victim(_ rotor.Time, _ *Arrival, q int32, _ *State) int32 {
	v := l.h.Top()
	if v == q || l.h.Get(v) == 0 {
		return -1
	}
	return v
}

// virtualLQD is FollowLQD's thresholds: the queue lengths LQD would have
// on the same arrivals. Arrival of size bytes to queue i: while the sum Γ
// of thresholds plus size exceeds B, the largest threshold gives up what
// is missing (LQD pushing out of its longest queue); then T_i += size.
// Departure: T_i −= size, floored at 0.
type virtualLQD struct {
	t     *maxHeap
	sum   int64
	reset bool // a queue that empties resets its threshold to 0
}

func (v *virtualLQD) arrive(q int32, size int64, b int64) {
	for v.sum+size > b {
		j := v.t.Top()
		tj := v.t.Get(j)
		if tj == 0 {
			break
		}
		d := min(tj, v.sum+size-b)
		v.t.Set(j, tj-d)
		v.sum -= d
	}
	v.t.Set(q, v.t.Get(q)+size)
	v.sum += size
}

func (v *virtualLQD) depart(q int32, size int64, empty bool) {
	tq := v.t.Get(q)
	d := min(tq, size)
	if empty && v.reset {
		d = tq
	}
	v.t.Set(q, tq-d)
	v.sum -= d
}

// Moved moves what queue from holds of a moved packet's bytes in the
// virtual LQD to queue to: the buffer's total is unchanged, so nothing is
// pushed out.
func (v *virtualLQD) Moved(_ rotor.Time, size int32, from, to int32, s *State) {
	tf := v.t.Get(from)
	d := min(tf, int64(size))
	if s.Queues[from].Packets == 0 && v.reset {
		d = tf
	}
	v.t.Set(from, tf-d)
	v.t.Set(to, v.t.Get(to)+d)
}

// Threshold is queue q's threshold T_q (LQD's virtual queue length).
func (v *virtualLQD) Threshold(q int32) int64 { return v.t.Get(q) }

// IdleSlot drains queue q's virtual LQD queue by one packet in a time slot
// where the real queue sent nothing (the buffer lab calls it for every
// empty port; LQD's own queue would still have sent).
func (v *virtualLQD) IdleSlot(q int32, size int64) { v.depart(q, size, false) }

// FollowLQD is the drop-tail algorithm that follows a virtual LQD: admit
// iff q + size ≤ T_q (thresholds updated before the test).
type FollowLQD struct{ virtualLQD }

func (FollowLQD) Name() string { return "followlqd" }

func (f *FollowLQD) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	f.arrive(q, int64(a.Size), s.B)
	return s.Queues[q].Bytes+int64(a.Size) <= f.Threshold(q)
}

func (f *FollowLQD) Dequeued(_ rotor.Time, size int32, q int32, s *State) {
	f.depart(q, int64(size), s.Queues[q].Packets == 0)
}

// Features are Credence's four prediction features, as fractions of B:
// the queue's length, the shared occupancy, and their moving averages over
// one base RTT.
type Features [4]float64

// Feature names, in order.
var FeatureNames = [4]string{"queue", "queue_avg", "shared", "shared_avg"}

// Oracle predicts whether LQD, on the same arrivals, drops (or pushes out)
// packet a. Credence asks only for packets that passed its threshold.
type Oracle interface {
	Drop(a *Arrival, f *Features) bool
}

// Credence is FollowLQD with a safeguard and an oracle: if the longest
// queue holds less than B/N (N ports) the packet is admitted; otherwise it
// is dropped unless q + size ≤ T_q, and then the oracle decides.
type Credence struct {
	virtualLQD
	oracle    Oracle
	guard     int64 // B/N; 0 disables the safeguard
	over      int32 // queues holding at least guard bytes: the longest is below guard iff none
	feats     *featureTracker
	feat      Features
	Consulted int64 // packets that reached the oracle
}

func (Credence) Name() string { return "credence" }

func (c *Credence) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	size := int64(a.Size)
	c.arrive(q, size, s.B)
	if c.guard > 0 && c.over == 0 {
		return true
	}
	if s.Queues[q].Bytes+size > c.Threshold(q) || s.Used+size > s.B {
		return false
	}
	c.Consulted++
	c.feats.fill(&c.feat, q, s)
	return !c.oracle.Drop(a, &c.feat) // a field: a local would escape through the interface
}

func (c *Credence) Dequeued(now rotor.Time, size int32, q int32, s *State) {
	c.depart(q, int64(size), s.Queues[q].Packets == 0)
	b := s.Queues[q].Bytes
	if b < c.guard && b+int64(size) >= c.guard {
		c.over--
	}
	c.feats.departed(now, q, s)
}

func (c *Credence) Moved(now rotor.Time, size int32, from, to int32, s *State) {
	c.virtualLQD.Moved(now, size, from, to, s)
	if b := s.Queues[from].Bytes; b < c.guard && b+int64(size) >= c.guard {
		c.over--
	}
	if b := s.Queues[to].Bytes; b >= c.guard && b-int64(size) < c.guard {
		c.over++
	}
	c.feats.departed(now, from, s)
}

func (c *Credence) Enqueued(_ rotor.Time, a *Arrival, q int32, s *State) {
	b := s.Queues[q].Bytes
	if b >= c.guard && b-int64(a.Size) < c.guard {
		c.over++
	}
}

// featureTracker keeps the moving averages of Credence's features.
type featureTracker struct {
	tau   float64
	inv   float64   // 1/tau
	avgQ  []float64 // per queue, EWMA of its length
	lastQ []rotor.Time
	avgS  float64 // EWMA of the shared occupancy
	lastS rotor.Time
}

func newFeatureTracker(queues int, rtt rotor.Time) *featureTracker {
	inv := 0.0
	if rtt > 0 {
		inv = 1 / float64(rtt)
	}
	return &featureTracker{tau: float64(rtt), inv: inv, avgQ: make([]float64, queues), lastQ: make([]rotor.Time, queues)}
}

// departed updates the averages after a departure from queue q.
func (t *featureTracker) departed(now rotor.Time, q int32, s *State) {
	t.avgQ[q] = t.ewma(now, t.lastQ[q], t.avgQ[q], float64(s.Queues[q].Bytes))
	t.lastQ[q] = now
	t.avgS = t.ewma(now, t.lastS, t.avgS, float64(s.Used))
	t.lastS = now
}

// fill writes queue q's features, as fractions of B.
func (t *featureTracker) fill(f *Features, q int32, s *State) {
	b := float64(s.B)
	*f = Features{float64(s.Queues[q].Bytes) / b, t.avgQ[q] / b, float64(s.Used) / b, t.avgS / b}
}

// ewma is the artifact's time-weighted average: weight min(Δt, τ)/τ on
// the new sample (τ = one base RTT; τ = 0 keeps the instantaneous value).
func (t *featureTracker) ewma(now, last rotor.Time, avg, x float64) float64 {
	if t.tau <= 0 {
		return x
	}
	w := min(float64(now-last), t.tau) * t.inv
	return avg + w*(x-avg)
}
