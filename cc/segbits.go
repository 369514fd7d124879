package cc

// segBits is a sliding bitmap of segment indices: one bit per segment from
// word base on (segment s is bit s&63 of words[s>>6−base]). Segments below
// 64·base count as set — both users drop words only behind their cumulative
// point, where every segment is done — and words past the end are clear
// until set grows the slice. Memory is thus proportional to the span between
// the cumulative point and the highest segment set (about a window plus
// reordering), not to the flow's size: a terabyte flow costs nothing up
// front.
type segBits struct {
	base  int64
	words []uint64
}

func (b *segBits) get(seg int64) bool {
	w := seg>>6 - b.base
	if w < 0 {
		return true
	}
	return w < int64(len(b.words)) && b.words[w]&(1<<(seg&63)) != 0
}

func (b *segBits) set(seg int64) {
	w := seg>>6 - b.base
	if w < 0 {
		return
	}
	if n := w + 1 - int64(len(b.words)); n > 0 {
		b.words = append(b.words, make([]uint64, n)...)
	}
	b.words[w] |= 1 << (seg & 63)
}

// advance forgets the words wholly below segment seg (every segment below it
// is done). Re-slicing from the front lets append reallocate a fresh array
// holding only the live words once the old one fills up.
func (b *segBits) advance(seg int64) {
	k := min(seg>>6-b.base, int64(len(b.words)))
	if k <= 0 {
		return
	}
	b.words = b.words[k:]
	b.base += k
	if len(b.words) == 0 {
		b.words = nil // start afresh rather than keep the old array's tail
	}
}

// clear clears segment seg's bit (a no-op below base or past the end).
func (b *segBits) clear(seg int64) {
	if w := seg>>6 - b.base; w >= 0 && w < int64(len(b.words)) {
		b.words[w] &^= 1 << (seg & 63)
	}
}

// reset clears every bit and moves the window's base to segment seg's
// word, keeping the array.
func (b *segBits) reset(seg int64) {
	clear(b.words)
	b.words = b.words[:0]
	b.base = seg >> 6
}
