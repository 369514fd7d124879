package cc

// segBits is a sliding bitmap of segment indices: one bit per segment from
// word base on (segment s is bit s&63 of arr[lo+s>>6−base]). Segments below
// 64·base count as set — both users drop words only behind their cumulative
// point, where every segment is done — and words past the end are clear
// until set grows the span. Memory is thus proportional to the span between
// the cumulative point and the highest segment set (about a window plus
// reordering), not to the flow's size: a terabyte flow costs nothing up
// front. The array is kept and reused as the window slides, so a flow
// allocates only when its span grows past every span it had before.
type segBits struct {
	base int64    // the word index of arr[lo]
	lo   int      // arr[lo:] are the live words
	arr  []uint64 // words past len(arr) are clear
}

func (b *segBits) get(seg int64) bool {
	w := seg>>6 - b.base
	if w < 0 {
		return true
	}
	i := int64(b.lo) + w
	return i < int64(len(b.arr)) && b.arr[i]&(1<<(seg&63)) != 0
}

func (b *segBits) set(seg int64) {
	w := seg>>6 - b.base
	if w < 0 {
		return
	}
	i := int64(b.lo) + w
	if i >= int64(len(b.arr)) {
		i = b.grow(w + 1)
	}
	b.arr[i] |= 1 << (seg & 63)
}

// grow makes the live span n words long and returns the index of its last
// word. It slides the live words to the array's start when only the room
// behind them is missing, and allocates (doubling) when the span outgrows
// the array.
func (b *segBits) grow(n int64) int64 {
	b.arr, b.lo = growLive(b.arr, b.lo, n, 4)
	return int64(b.lo) + n - 1
}

// growLive makes the live part arr[lo:] n elements long (the new ones
// zero) and returns the array and its new lo: it slides the live part to
// the array's start when only the room behind it is missing, and
// allocates (doubling, at least `least` elements) when the span outgrows the array.
func growLive[T any](arr []T, lo int, n int64, least int64) ([]T, int) {
	live := len(arr) - lo
	switch {
	case n > int64(cap(arr)):
		a := make([]T, n, max(2*n, least))
		copy(a, arr[lo:])
		return a, 0
	case int64(lo)+n > int64(cap(arr)):
		copy(arr, arr[lo:])
		arr, lo = arr[:live], 0
		fallthrough
	default:
		end := len(arr)
		arr = arr[:lo+int(n)]
		clear(arr[end:])
		return arr, lo
	}
}

// span is the number of live words.
func (b *segBits) span() int { return len(b.arr) - b.lo }

// advance forgets the words wholly below segment seg (every segment below it
// is done).
func (b *segBits) advance(seg int64) {
	k := min(seg>>6-b.base, int64(b.span()))
	if k <= 0 {
		return
	}
	b.lo += int(k)
	b.base += k
	if b.lo == len(b.arr) {
		b.arr, b.lo = b.arr[:0], 0
	}
}

// clear clears segment seg's bit (a no-op below base or past the end).
func (b *segBits) clear(seg int64) {
	if w := seg>>6 - b.base; w >= 0 && w < int64(b.span()) {
		b.arr[int64(b.lo)+w] &^= 1 << (seg & 63)
	}
}

// reset clears every bit and moves the window's base to segment seg's
// word, keeping the array.
func (b *segBits) reset(seg int64) {
	b.arr, b.lo = b.arr[:0], 0
	b.base = seg >> 6
}
