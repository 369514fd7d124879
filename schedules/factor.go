package schedules

import (
	"fmt"
	"math/rand/v2"
)

// loopyFactorization draws a random factorisation of the complete graph K_n
// with a loop at every node into n involutions: f[c][u] = v ≠ u means the
// edge {u, v} has colour c, f[c][u] = u means u's loop does. Every edge and
// every loop gets exactly one colour, so each f[c] is a symmetric matching
// and every node is a fixed point (idle) in exactly one f[c] — a symmetric
// Latin square of order n.
//
// For odd n it is a random 1-factorisation of K_{n+1} with the extra node
// deleted: n near-perfect matchings, each with one idle node. For even n
// it is a random 1-factorisation of K_n (n−1 perfect matchings) plus a
// random perfect matching R whose edges are moved out of their colours
// into the n-th colour: R becomes a perfect matching and the idle slots,
// instead of forming one all-idle identity matching, are spread two per
// edge of R over about n/2 of the other matchings. Every slice of an Opera
// schedule therefore keeps U−1 nearly perfect matchings.
func loopyFactorization(n int, rng *rand.Rand, maxSteps int, canceled func() error) ([][]int, error) {
	if n%2 == 1 {
		f, err := oneFactorization(n+1, rng, maxSteps, canceled)
		if err != nil {
			return nil, err
		}
		for c := range f {
			m := f[c][:n]
			m[f[c][n]] = f[c][n]
			f[c] = m
		}
		return f, nil
	}
	f, err := oneFactorization(n, rng, maxSteps, canceled)
	if err != nil {
		return nil, err
	}
	r := make([]int, n)
	perm := rng.Perm(n)
	for i := 0; i < n; i += 2 {
		a, b := perm[i], perm[i+1]
		r[a], r[b] = b, a
		for _, m := range f {
			if m[a] == b {
				m[a], m[b] = a, b
				break
			}
		}
	}
	return append(f, r), nil
}

// oneFactorization draws a random 1-factorisation of K_n, n even: n−1
// perfect matchings that together hold every edge once. It runs the
// hill-climbing algorithm of Dinitz and Stinson (1987): pick a random
// colour c and node u that c does not cover yet and a random uncoloured
// edge {u, v}; if c does not cover v either, colour {u, v} with c,
// otherwise move v's c-edge {v, w} to {u, v}, which leaves w uncovered in
// c. Every step keeps a proper partial colouring, none is ever blocked, and
// the walk ends when every colour class is perfect — in practice after a
// small multiple of n² steps. The walk can circle without finishing (see
// the kick below), so after 8n steps without a new low in the number of
// uncovered (colour, node) pairs it uncolours one random edge. maxSteps
// bounds the whole walk; a non-nil canceled() ends it early with that error.
func oneFactorization(n int, rng *rand.Rand, maxSteps int, canceled func() error) ([][]int, error) {
	h := newHillClimb(n)
	best, stall := len(h.deficient), 0
	for steps := 0; len(h.deficient) > 0; steps++ {
		if steps >= maxSteps {
			return nil, fmt.Errorf("1-factorisation of K_%d did not complete in %d hill-climbing steps", n, maxSteps)
		}
		if steps%checkEvery == 0 {
			if err := canceled(); err != nil {
				return nil, err
			}
		}
		x := int(h.deficient[rng.IntN(len(h.deficient))])
		c, u := x/n, x%n
		if stall > 8*n {
			// Kick: uncolour a random coloured edge at u. The walk
			// preserves how the uncoloured edges pair up the deficient
			// (colour, node) pairs, so it can circle in a class of states
			// without a completing move; a kick leaves that class.
			if v := rng.IntN(n); v != u && h.colourOf(u, v) >= 0 {
				h.unlink(h.colourOf(u, v), u, v)
				best, stall = len(h.deficient), 0
			}
			continue
		}
		v := int(h.unc[u*n+rng.IntN(int(h.uncLen[u]))])
		if w := int(h.mate[c*n+v]); w >= 0 {
			h.unlink(c, v, w)
		}
		h.link(c, u, v)
		if len(h.deficient) < best {
			best, stall = len(h.deficient), 0
		} else {
			stall++
		}
	}
	colours := n - 1
	f := make([][]int, colours)
	buf := make([]int, colours*n)
	for c := range f {
		f[c] = buf[c*n : (c+1)*n : (c+1)*n]
		for u := range f[c] {
			f[c][u] = int(h.mate[c*n+u])
		}
	}
	return f, nil
}

// hillClimb is the state of the Dinitz–Stinson walk: a proper partial
// colouring with O(1) updates.
type hillClimb struct {
	n         int
	mate      []int32 // mate[c*n+u]: u's partner in colour c, or −1
	deficient []int32 // the pairs c*n+u with mate −1
	dpos      []int32 // index of c*n+u in deficient, or −1
	unc       []int32 // unc[u*n : u*n+uncLen[u]]: nodes v with {u,v} uncoloured
	uncLen    []int32
	upos      []int32 // upos[u*n+v]: index of v in u's unc list
}

func newHillClimb(n int) *hillClimb {
	colours := n - 1
	h := &hillClimb{
		n: n, mate: make([]int32, colours*n), dpos: make([]int32, colours*n),
		unc: make([]int32, n*n), uncLen: make([]int32, n), upos: make([]int32, n*n),
	}
	for i := range h.mate {
		h.mate[i] = -1
		h.dpos[i] = -1
	}
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if v != u {
				h.addUnc(u, v)
			}
		}
	}
	h.deficient = make([]int32, 0, colours*n)
	for x := range h.mate {
		h.addDeficient(x)
	}
	return h
}

func (h *hillClimb) addDeficient(x int) {
	h.dpos[x] = int32(len(h.deficient))
	h.deficient = append(h.deficient, int32(x))
}

func (h *hillClimb) removeDeficient(x int) {
	i := h.dpos[x]
	last := h.deficient[len(h.deficient)-1]
	h.deficient[i] = last
	h.dpos[last] = i
	h.deficient = h.deficient[:len(h.deficient)-1]
	h.dpos[x] = -1
}

func (h *hillClimb) addUnc(u, v int) {
	h.upos[u*h.n+v] = h.uncLen[u]
	h.unc[u*h.n+int(h.uncLen[u])] = int32(v)
	h.uncLen[u]++
}

func (h *hillClimb) removeUnc(u, v int) {
	n := h.n
	i := h.upos[u*n+v]
	h.uncLen[u]--
	last := h.unc[u*n+int(h.uncLen[u])]
	h.unc[u*n+int(i)] = last
	h.upos[u*n+int(last)] = i
}

// link colours the uncoloured edge {u, v} with c; neither end is covered
// by c.
func (h *hillClimb) link(c, u, v int) {
	n := h.n
	h.mate[c*n+u], h.mate[c*n+v] = int32(v), int32(u)
	h.removeDeficient(c*n + u)
	h.removeDeficient(c*n + v)
	h.removeUnc(u, v)
	h.removeUnc(v, u)
}

// colourOf is the colour of edge {u, v}, or −1 (linear in the colours;
// used only by kicks).
func (h *hillClimb) colourOf(u, v int) int {
	for c := 0; c < h.n-1; c++ {
		if int(h.mate[c*h.n+u]) == v {
			return c
		}
	}
	return -1
}

// unlink uncolours the c-edge {v, w}.
func (h *hillClimb) unlink(c, v, w int) {
	n := h.n
	h.mate[c*n+v], h.mate[c*n+w] = -1, -1
	h.addDeficient(c*n + v)
	h.addDeficient(c*n + w)
	h.addUnc(v, w)
	h.addUnc(w, v)
}
