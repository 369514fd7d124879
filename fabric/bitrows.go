package fabric

import "math/bits"

// bitRows is a set of ToRs per ToR (row t, members x < n) with a summary
// word per 64 words of a row: bit k of the summary is set iff word k of
// the row is not zero. next finds the first member at or after a ToR in
// O(1 + n/4096) words, so a scan over a sparse row costs what the row
// holds, not n/64 (pickPulled's relay scan: at 1,024 ToRs a row holds a
// few destinations and the plain bitmap scan read 12 of its 16 words per
// pick, docs/perf-history.md, issue 26).
type bitRows struct {
	n, words, sumWords int
	bits               []uint64 // [t·words+…]
	sum                []uint64 // [t·sumWords+…]
}

func newBitRows(rows, n int) bitRows {
	words := (n + 63) / 64
	sumWords := (words + 63) / 64
	return bitRows{n: n, words: words, sumWords: sumWords,
		bits: make([]uint64, rows*words), sum: make([]uint64, rows*sumWords)}
}

// set adds x to row t.
func (b *bitRows) set(t, x int) {
	w := x >> 6
	b.bits[t*b.words+w] |= 1 << (x & 63)
	b.sum[t*b.sumWords+w>>6] |= 1 << (w & 63)
}

// clear removes x from row t.
func (b *bitRows) clear(t, x int) {
	w := x >> 6
	i := t*b.words + w
	if b.bits[i] &^= 1 << (x & 63); b.bits[i] == 0 {
		b.sum[t*b.sumWords+w>>6] &^= 1 << (w & 63)
	}
}

// has reports whether x is in row t.
func (b *bitRows) has(t, x int) bool { return b.bits[t*b.words+x>>6]>>(x&63)&1 != 0 }

// any reports whether row t has a member.
func (b *bitRows) any(t int) bool {
	for _, m := range b.sum[t*b.sumWords : (t+1)*b.sumWords] {
		if m != 0 {
			return true
		}
	}
	return false
}

// next returns the smallest member of row t that is ≥ from (0 ≤ from), or
// −1 if there is none.
func (b *bitRows) next(t, from int) int {
	if from >= b.n {
		return -1
	}
	w := from >> 6
	row := b.bits[t*b.words : (t+1)*b.words]
	if m := row[w] & (^uint64(0) << (from & 63)); m != 0 {
		return w<<6 + bits.TrailingZeros64(m)
	}
	// The first non-zero word after w, from the summary.
	w++
	if w >= b.words {
		return -1
	}
	sum := b.sum[t*b.sumWords : (t+1)*b.sumWords]
	k := w >> 6
	m := sum[k] & (^uint64(0) << (w & 63))
	for m == 0 {
		if k++; k >= len(sum) {
			return -1
		}
		m = sum[k]
	}
	w = k<<6 + bits.TrailingZeros64(m)
	return w<<6 + bits.TrailingZeros64(row[w])
}
