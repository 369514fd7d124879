package des

// Index maps keys in [0, n) to dense slots 0, 1, 2, … in the order the
// keys were first added, so that state kept per key can live in a slice
// that grows with the keys in use instead of one of n entries. Up to
// IndexDirect keys it is a table of n entries; above, an open-addressing
// hash table (linear probing, Fibonacci hashing) kept at most half full.
// Lookups allocate nothing; Add allocates only when the table grows. The
// slots depend only on the order of Add calls: nothing iterates a Go map.
type Index struct {
	direct []int32 // n ≤ IndexDirect: slot+1 per key, 0: none
	keys   []int32 // hash table: key+1, 0: empty slot of the table
	vals   []int32
	shift  uint8 // 32 − log2(len(keys))
	n      int32 // keys added
}

// IndexDirect is the largest key range an Index keeps as a plain table
// (4 bytes a key).
const IndexDirect = 1024

// NewIndex is an empty Index of keys in [0, n).
func NewIndex(n int) Index {
	if n <= IndexDirect {
		return Index{direct: make([]int32, n)}
	}
	return Index{keys: make([]int32, 8), vals: make([]int32, 8), shift: 32 - 3}
}

// Len is the number of keys added.
func (x *Index) Len() int { return int(x.n) }

// Get is key k's slot, −1 if k was never added.
func (x *Index) Get(k int32) int32 {
	if x.direct != nil { // inlined
		return x.direct[k] - 1
	}
	return x.getHashed(k)
}

func (x *Index) getHashed(k int32) int32 {
	mask := uint32(len(x.keys) - 1)
	for i := uint32(k) * 0x9E3779B9 >> x.shift; ; i = (i + 1) & mask {
		switch x.keys[i] {
		case k + 1:
			return x.vals[i]
		case 0:
			return -1
		}
	}
}

// Add is key k's slot, the next one (Len before the call) if k is new.
func (x *Index) Add(k int32) (slot int32, added bool) {
	if x.direct != nil {
		if s := x.direct[k]; s != 0 {
			return s - 1, false
		}
		x.direct[k] = x.n + 1
		x.n++
		return x.n - 1, true
	}
	if s := x.Get(k); s >= 0 {
		return s, false
	}
	if 2*int(x.n+1) > len(x.keys) {
		x.grow()
	}
	x.put(k, x.n)
	x.n++
	return x.n - 1, true
}

func (x *Index) put(k, slot int32) {
	mask := uint32(len(x.keys) - 1)
	i := uint32(k) * 0x9E3779B9 >> x.shift
	for x.keys[i] != 0 {
		i = (i + 1) & mask
	}
	x.keys[i], x.vals[i] = k+1, slot
}

func (x *Index) grow() {
	keys, vals := x.keys, x.vals
	x.keys, x.vals = make([]int32, 2*len(keys)), make([]int32, 2*len(keys))
	x.shift--
	for i, k := range keys {
		if k != 0 {
			x.put(k-1, vals[i])
		}
	}
}
