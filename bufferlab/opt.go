package bufferlab

import (
	"fmt"
	"slices"
)

// Offline optimum. Two independent methods:
//
//   - OptSearch: exhaustive search over buffer states, exact by
//     construction, for small instances (it is exponential in N);
//   - Opt: a slot-order greedy over (arrival, transmission) intervals,
//     proved optimal in doc.go, O(log) per packet; the tests check it
//     against OptSearch.

// counts returns a[i][t], the arrivals to port i in slot t.
func counts(seq *Sequence) [][]int32 {
	a := make([][]int32, seq.N)
	for i := range a {
		a[i] = make([]int32, len(seq.Slots))
	}
	for t, s := range seq.Slots {
		for _, p := range s {
			a[p][t]++
		}
	}
	return a
}

// OptSearch is the exact offline optimum: the most packets any algorithm
// (push-out allowed) transmits. It explores every reachable buffer state
// slot by slot, keeping only states no other state dominates: (q, sent)
// dominates (q', sent') if sent − sent' ≥ Σ_i max(0, q'_i − q_i) (one more
// buffered packet is worth at most one more transmission, and a surplus
// packet can always be dropped). maxStates bounds the work; it errors out
// beyond it.
func OptSearch(seq *Sequence, b int64, maxStates int) (int64, error) {
	if err := seq.Validate(); err != nil {
		return 0, err
	}
	a := counts(seq)
	n := seq.N
	type state struct {
		q    []int64
		sent int64
	}
	cur := []state{{q: make([]int64, n)}}
	for t := range seq.Slots {
		var next []state
		for _, s := range cur {
			// after arrivals, every way to keep min(B, Σ) packets (more is
			// never worse: surplus can be dropped later).
			hi := make([]int64, n)
			var tot int64
			for i := range hi {
				hi[i] = s.q[i] + int64(a[i][t])
				tot += hi[i]
			}
			keep := min(b, tot)
			x := make([]int64, n)
			var rec func(i int, left int64)
			rec = func(i int, left int64) {
				if i == n-1 {
					if left > hi[i] {
						return
					}
					x[i] = left
					q := make([]int64, n)
					var sent int64
					for k := range x {
						q[k] = x[k]
						if q[k] > 0 {
							q[k]--
							sent++
						}
					}
					next = append(next, state{q: q, sent: s.sent + sent})
					return
				}
				for v := min(hi[i], left); v >= 0; v-- {
					x[i] = v
					rec(i+1, left-v)
				}
			}
			rec(0, keep)
			if len(next) > maxStates {
				return 0, fmt.Errorf("opt search: more than %d states at slot %d", maxStates, t)
			}
		}
		cur = prune(next, func(s state) ([]int64, int64) { return s.q, s.sent })
	}
	best := int64(0)
	for _, s := range cur {
		var rest int64
		for _, v := range s.q {
			rest += v
		}
		best = max(best, s.sent+rest)
	}
	return best, nil
}

// prune drops dominated states (see OptSearch).
func prune[S any](xs []S, get func(S) ([]int64, int64)) []S {
	slices.SortFunc(xs, func(x, y S) int {
		_, a := get(x)
		_, b := get(y)
		return int(b - a) // more sent first
	})
	var out []S
	for _, x := range xs {
		qx, sx := get(x)
		dom := false
		for _, y := range out {
			qy, sy := get(y)
			var deficit int64
			for i := range qx {
				deficit += max(0, qx[i]-qy[i])
			}
			if sy-sx >= deficit {
				dom = true
				break
			}
		}
		if !dom {
			out = append(out, x)
		}
	}
	return out
}

// rangeTree is a segment tree over slots with range add and range max.
type rangeTree struct {
	n        int
	max, add []int64
}

func newRangeTree(n int) *rangeTree {
	size := 1
	for size < n {
		size *= 2
	}
	return &rangeTree{n: size, max: make([]int64, 2*size), add: make([]int64, 2*size)}
}

// Max is the largest value on [lo, hi].
func (r *rangeTree) Max(lo, hi int) int64 { return r.query(1, 0, r.n-1, lo, hi) }

// Add adds v on [lo, hi].
func (r *rangeTree) Add(lo, hi int, v int64) { r.update(1, 0, r.n-1, lo, hi, v) }

func (r *rangeTree) query(node, l, h, lo, hi int) int64 {
	if hi < l || h < lo {
		return -1 << 62
	}
	if lo <= l && h <= hi {
		return r.max[node]
	}
	m := (l + h) / 2
	return r.add[node] + max(r.query(2*node, l, m, lo, hi), r.query(2*node+1, m+1, h, lo, hi))
}

func (r *rangeTree) update(node, l, h, lo, hi int, v int64) {
	if hi < l || h < lo {
		return
	}
	if lo <= l && h <= hi {
		r.max[node] += v
		r.add[node] += v
		return
	}
	m := (l + h) / 2
	r.update(2*node, l, m, lo, hi, v)
	r.update(2*node+1, m+1, h, lo, hi, v)
	r.max[node] = r.add[node] + max(r.max[2*node], r.max[2*node+1])
}

// Opt is the exact offline optimum by the slot-order greedy that doc.go
// proves optimal: a packet transmitted in slot s after arriving in slot u
// occupies the buffer in slots u..s (after the arrivals of each). For
// s = 0, 1, …, every port offers its latest unused arrival u ≤ s; the
// offers are taken latest u first, each iff the occupancy stays ≤ B over
// u..s. An offer that does not fit never will (its range only grows, and
// earlier arrivals cover more), so the port's unused arrivals are
// discarded. O((T + P)·N·log(T + P)) for T slots and P packets.
func Opt(seq *Sequence, b int64) (int64, error) {
	if err := seq.Validate(); err != nil {
		return 0, err
	}
	if b < 1 {
		return 0, fmt.Errorf("buffer %d: must be at least 1", b)
	}
	a := counts(seq)
	T := len(seq.Slots)
	occ := newRangeTree(T + seq.Packets() + 1)
	unused := make([][]int32, seq.N) // per port: unused arrival slots, latest last
	type offer struct{ port, u int }
	offers := make([]offer, 0, seq.N)
	var sent int64
	left := 0 // unused arrivals
	for s := 0; s < T || left > 0; s++ {
		if s < T {
			for i := range unused {
				for k := int32(0); k < a[i][s]; k++ {
					unused[i] = append(unused[i], int32(s))
					left++
				}
			}
		}
		offers = offers[:0]
		for i, st := range unused {
			if n := len(st); n > 0 {
				offers = append(offers, offer{i, int(st[n-1])})
			}
		}
		slices.SortStableFunc(offers, func(x, y offer) int { return y.u - x.u })
		for _, o := range offers {
			if occ.Max(o.u, s) < b {
				occ.Add(o.u, s, 1)
				unused[o.port] = unused[o.port][:len(unused[o.port])-1]
				left--
				sent++
			} else {
				left -= len(unused[o.port])
				unused[o.port] = unused[o.port][:0]
			}
		}
	}
	return sent, nil
}
