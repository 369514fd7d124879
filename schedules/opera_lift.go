package schedules

import (
	"math/rand/v2"
	"slices"
)

// operaHillClimbMax is the largest n whose factorisation Opera draws by
// hill climbing over all of K_n (about 5n² steps at memory latency: 6.8 s
// at n = 2048, minutes at 8192). A larger n that splits as n = a·b with
// operaLiftMinBlock ≤ a ≤ b ≤ operaHillClimbMax gets the lifted
// factorisation (liftedFactorization) instead; one that does not (n prime,
// or 2·p) keeps the full hill climbing.
const operaHillClimbMax = 2048

// operaLiftMinBlock is the smallest block size a of a lifted
// factorisation: the slices are a-fold lifts of the quotient's slices,
// and a lift of 2 or 4 leaves the quotient's cuts nearly unchanged.
const operaLiftMinBlock = 8

// liftSplit returns the split n = a·b with a ≤ b and b the smallest
// divisor of n not below √n, if operaLiftMinBlock ≤ a and b ≤
// operaHillClimbMax; ok is false otherwise.
func liftSplit(n int) (a, b int, ok bool) {
	for b = 1; b*b < n; b++ {
	}
	for ; b <= n && n%b != 0; b++ {
	}
	a = n / b
	return a, b, a >= operaLiftMinBlock && b <= operaHillClimbMax
}

// liftedFactorization draws a factorisation of K_n with loops, n = a·b,
// into n involutions in O(n²) time and O(n·√n) memory besides its output,
// and writes them through put(k, u, v) (k the matching, v the partner of u,
// or u if u is idle; put is called once for every k and u).
//
// Node (x, y), x ∈ [a] its place in block y ∈ [b], is relabelled by a
// random permutation of [n]. A random factorisation Q of K_b with loops
// (the quotient) pairs up blocks: colour (c, q), c ∈ [a], q ∈ [b], joins
// blocks y and y' = Q[q][y]. Between two distinct blocks y < y' it is the
// perfect matching x ↔ x' with σ(x) + τ(x') ≡ c (mod a), σ and τ random
// permutations drawn for that pair of blocks, so the a colours of the pair
// partition the a² edges between the blocks (a Latin square). Within a
// block that Q leaves idle in q, colour (c, q) is matching c of the
// block's own random factorisation of K_a with loops. So every edge and
// every loop has exactly one colour, each colour is an involution, and
// each node is idle in exactly one colour.
//
// The union of any set of colours is an a-fold lift of the union of their
// quotient matchings with independent random bijections between blocks;
// random lifts of an expander are expanders with high probability, so a
// slice's spectral gap is about the smaller of its quotient's and a random
// (U−1)-regular graph's. Opera checks every slice's gap either way.
func liftedFactorization(a, b, window int, rng *rand.Rand, canceled func() error, put func(k, u, v int)) error {
	n := a * b
	quotient, err := loopyFactorization(b, rng, 200*b*b+10000, canceled)
	if err != nil {
		return err
	}
	// The blocks that Q leaves idle somewhere get their own factorisation
	// of K_a with loops: every block is idle in exactly one colour of Q.
	inner := make([][][]int, b)
	for y := range inner {
		if inner[y], err = loopyFactorization(a, rng, 200*a*a+10000, canceled); err != nil {
			return err
		}
	}
	// σ and τ⁻¹ of each pair of blocks y < y', at (y·b + y')·a.
	sigma := make([]int32, b*b*a)
	tauInv := make([]int32, b*b*a)
	for y := 0; y < b; y++ {
		for y2 := y + 1; y2 < b; y2++ {
			at := (y*b + y2) * a
			randPerm(rng, sigma[at:at+a])
			randPerm(rng, tauInv[at:at+a])
		}
	}
	label := rng.Perm(n)
	rounds := liftOrder(a, b, window, rng)
	for k := 0; k < n; k++ {
		if k%64 == 0 {
			if err := canceled(); err != nil {
				return err
			}
		}
		q, c := rounds.colour(k)
		for y, y2 := range quotient[q] {
			switch {
			case y2 == y:
				m := inner[y][c]
				for x, x2 := range m {
					put(k, label[y*a+x], label[y*a+x2])
				}
			case y < y2:
				at := (y*b + y2) * a
				sg, ti := sigma[at:at+a], tauInv[at:at+a]
				for x := 0; x < a; x++ {
					x2 := int(ti[(c-int(sg[x])+a)%a])
					u, v := label[y*a+x], label[y2*a+x2]
					put(k, u, v)
					put(k, v, u)
				}
			}
		}
	}
	return nil
}

// randPerm fills p with a uniformly random permutation of 0…len(p)−1.
func randPerm(rng *rand.Rand, p []int32) {
	for i := range p {
		p[i] = int32(i)
	}
	rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
}

// operaMatchings deals the n matchings drawn by attempt's stream over u
// switches round-robin (switch s plays matching t·U+s in slot t) into a
// fresh [switch][slot][node] array, by the lifted factorisation when
// liftSplit allows it for n > hillClimbMax and by the hill-climbed one
// (loopyFactorization, then shuffled) otherwise. It names the
// factorisation used.
func operaMatchings(n, u, period, hillClimbMax int, rng *rand.Rand, canceled func() error) ([][][]int, string, error) {
	ms := emptyMatchings(u, period, n)
	if a, b, ok := liftSplit(n); ok && n > hillClimbMax {
		err := liftedFactorization(a, b, u, rng, canceled, func(k, v, w int) {
			if w != v {
				ms[k%u][k/u][v] = w
			}
		})
		return ms, "lifted", err
	}
	f, err := loopyFactorization(n, rng, 200*n*n+10000, canceled)
	if err != nil {
		return nil, "", err
	}
	rng.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
	for k, m := range f {
		for v, w := range m {
			if w != v {
				ms[k%u][k/u][v] = w
			}
		}
	}
	return ms, "hill-climbing", nil
}

// liftOrdering orders the n = a·b colours (c, q) of a lifted
// factorisation in a rounds of b: round r plays every quotient colour q
// once, in the random order perm[r], each with its own random c = inner[q][r].
type liftOrdering struct {
	a, b        int
	perm, inner [][]int
}

// liftOrder draws the ordering. When b ≥ 2·window, a round's order is
// redrawn until its first window colours avoid the previous round's last
// window ones (the last round's last ones also the first round's first:
// the cycle wraps), so any window consecutive matchings have distinct quotient
// colours: the quotient of a slice then has U−1 distinct matchings, not a
// repeated one (which lowers its spectral gap).
func liftOrder(a, b, window int, rng *rand.Rand) liftOrdering {
	o := liftOrdering{a: a, b: b, perm: make([][]int, a), inner: make([][]int, b)}
	for q := range o.inner {
		o.inner[q] = rng.Perm(a)
	}
	for r := range o.perm {
		for {
			o.perm[r] = rng.Perm(b)
			if r == 0 || b < 2*window || disjoint(o.perm[r-1][b-window:], o.perm[r][:window]) &&
				(r < a-1 || disjoint(o.perm[r][b-window:], o.perm[0][:window])) {
				break
			}
		}
	}
	return o
}

// colour is matching k's quotient colour q and block colour c.
func (o liftOrdering) colour(k int) (q, c int) {
	r, i := k/o.b, k%o.b
	q = o.perm[r][i]
	return q, o.inner[q][r]
}

func disjoint(x, y []int) bool {
	for _, v := range x {
		if slices.Contains(y, v) {
			return false
		}
	}
	return true
}
