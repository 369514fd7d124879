package fabric

import (
	"math/rand/v2"
	"testing"
)

// TestBitRowsMatchScan drives bitRows and a plain []bool per row with the
// same random adds and removes and compares next (from every start), has
// and any with a scan of the []bool after each step. Sizes cover one
// word, a partial last word, one summary word and several (n > 4,096). It
// fails when clear leaves a summary bit set for an empty word, when set
// does not mark the summary, or when next skips a word the summary names.
func TestBitRowsMatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 10))
	for _, n := range []int{1, 5, 64, 65, 200, 1024, 4097, 8192} {
		const rows = 3
		b := newBitRows(rows, n)
		ref := make([][]bool, rows)
		for r := range ref {
			ref[r] = make([]bool, n)
		}
		scan := func(r, from int) int {
			for x := from; x < n; x++ {
				if ref[r][x] {
					return x
				}
			}
			return -1
		}
		// Few members (sparse rows, as a ToR's pending destinations) and,
		// on some rows, a dense run of one word, so words empty and fill.
		for step := 0; step < 400; step++ {
			r := rng.IntN(rows)
			x := rng.IntN(n)
			if step%7 == 0 && n > 64 {
				x = 64 + rng.IntN(min(64, n-64)) // the second word
			}
			if rng.IntN(3) == 0 {
				b.set(r, x)
				ref[r][x] = true
			} else {
				b.clear(r, x)
				ref[r][x] = false
			}
			for r := range rows {
				anyRef := scan(r, 0) >= 0
				if got := b.any(r); got != anyRef {
					t.Fatalf("n=%d step %d row %d: any %v, scan %v", n, step, r, got, anyRef)
				}
				froms := []int{0, n - 1, n, x, x + 1, rng.IntN(n)}
				if n <= 256 || step%50 == 0 {
					froms = froms[:0]
					for f := 0; f <= n; f++ {
						froms = append(froms, f)
					}
				}
				for _, f := range froms {
					if got, want := b.next(r, f), scan(r, f); got != want {
						t.Fatalf("n=%d step %d row %d: next(%d) = %d, scan %d", n, step, r, f, got, want)
					}
				}
				if got := b.has(r, x); got != ref[r][x] {
					t.Fatalf("n=%d step %d row %d: has(%d) %v, want %v", n, step, r, x, got, ref[r][x])
				}
			}
		}
	}
}
