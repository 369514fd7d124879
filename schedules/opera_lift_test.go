package schedules

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

func TestLiftSplit(t *testing.T) {
	for _, c := range []struct {
		n, a, b int
		ok      bool
	}{
		{8192, 64, 128, true}, {4096, 64, 64, true}, {2048, 32, 64, true}, {6000, 75, 80, true},
		{135, 9, 15, true}, {512, 16, 32, true},
		{8191, 1, 8191, false}, // prime
		{8186, 2, 4093, false}, // 2·4093: blocks of 2
		{48, 6, 8, false},      // blocks of 6 < operaLiftMinBlock
	} {
		a, b, ok := liftSplit(c.n)
		if ok != c.ok || ok && (a != c.a || b != c.b) || a*b != c.n {
			t.Errorf("liftSplit(%d) = %d, %d, %v; want %d, %d, %v", c.n, a, b, ok, c.a, c.b, c.ok)
		}
	}
}

// TestOperaSmallOutputUnchanged pins the schedules (matchings, timing and
// Meta as JSON) drawn below operaHillClimbMax to the hashes of main at
// 72a4ba7, before the lifted factorisation: they must stay byte-identical.
func TestOperaSmallOutputUnchanged(t *testing.T) {
	for _, c := range []struct {
		n, u int
		seed uint64
		hash string
	}{
		{64, 4, 1, "60c61d4633d288ff57b6e36d990e1edfc5d9981145a7fd6f7989b205cd5e336b"},
		{96, 6, 3, "f08eba582c907c9e71f22354a56f55b271c31053899e07029ee6fac2b35cf5a7"},
		{135, 5, 2, "425f2c5c7ae4b83d0baa5b446d182225ac025b00f0c7770d158b88a5db77333e"},
	} {
		s, err := Opera(Params{Nodes: c.n, Uplinks: c.u, Seed: c.seed})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != c.hash {
			t.Errorf("n=%d U=%d seed=%d: schedule hash %s, want %s", c.n, c.u, c.seed, got, c.hash)
		}
	}
}

// TestOperaLifted builds lifted schedules at sizes CI affords through the
// code path used above operaHillClimbMax (opera with the hill climbing
// limit set to 0) and checks Opera's properties against independent
// recomputations: the rotor validator accepts the schedule, every matching
// is a symmetric permutation (an involution) with each node idle exactly
// once per cycle, every ordered pair is connected exactly once per cycle,
// every window of the cycle (operaWindows, enumerated without
// sliceGraphs) is connected, and the gap of every window with a rotor dark,
// computed to convergence (dense below 129 nodes), is at least the
// threshold the generator certified.
func TestOperaLifted(t *testing.T) {
	for _, c := range []struct {
		n, u int
		seed uint64
	}{{512, 8, 1}, {135, 5, 3}, {256, 4, 1}} {
		t.Run(fmt.Sprintf("n=%d/U=%d/seed=%d", c.n, c.u, c.seed), func(t *testing.T) {
			s, err := opera(Params{Nodes: c.n, Uplinks: c.u, Seed: c.seed}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if f, _ := s.Meta["factorisation"].(string); !strings.Contains(f, "lifted") {
				t.Fatalf("factorisation %q, want the lifted one", f)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			checkCompleteOnce(t, s)
			idle := make([]int, c.n)
			for _, slots := range s.Matchings {
				for _, m := range slots {
					seen := make([]bool, c.n)
					for u, v := range m {
						if v == rotor.Idle {
							idle[u]++
							continue
						}
						if m[v] != u || seen[v] {
							t.Fatalf("not a symmetric permutation: %d→%d, %d→%d", u, v, v, m[v])
						}
						seen[v] = true
					}
				}
			}
			for u, k := range idle {
				if k != 1 {
					t.Fatalf("node %d idle in %d matchings, want 1", u, k)
				}
			}
			threshold := operaGapThreshold(c.u)
			if got := s.Meta["spectral_gap_threshold"]; got != threshold {
				t.Errorf("spectral_gap_threshold = %v, want %v", got, threshold)
			}
			worst := 2.0
			for k, up := range operaWindows(s) {
				if !bfsConnected(c.n, up) {
					t.Fatalf("window %d is disconnected", k)
				}
				if len(up) == c.u-1 {
					worst = min(worst, circuits{c.n, up}.spectralGap())
				}
			}
			if worst < threshold {
				t.Errorf("sparsest window's spectral gap %.4f < threshold %.4f", worst, threshold)
			}
			if b := s.Meta["spectral_gap_bound_min"].(float64); b > worst+1e-9 {
				t.Errorf("certified bound %.4f above the converged gap %.4f", b, worst)
			}
			t.Logf("min gap %.4f, certified bound %.4f, threshold %.4f", worst, s.Meta["spectral_gap_bound_min"], threshold)
		})
	}
}

// TestGapBoundBelowExactGap checks the certified bound against the dense
// eigendecomposition: never above the exact gap, close to it when Lanczos
// runs its full length, and 0 for a disconnected graph.
func TestGapBoundBelowExactGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	const n = 300
	match := func() []int {
		p := rng.Perm(n)
		m := make([]int, n)
		for i := 0; i < n; i += 2 {
			m[p[i]], m[p[i+1]] = p[i+1], p[i]
		}
		return m
	}
	var ws spectralWork
	for _, d := range []int{3, 5, 7} {
		var maps [][]int
		for range d {
			maps = append(maps, match())
		}
		g := circuits{n, maps}
		exact := 1 - ws.normalize(g).denseSecond()
		for _, threshold := range []float64{0.1, 2} { // 2: never reached, full length
			bound, estimate, steps := ws.gapBound(g, threshold)
			if bound > exact+1e-9 || estimate < exact-1e-9 {
				t.Errorf("d=%d threshold %v: bound %.6f, estimate %.6f, exact %.6f: want bound ≤ exact ≤ estimate", d, threshold, bound, estimate, exact)
			}
			if threshold == 2 && (steps != n-1 || exact-bound > 0.01) {
				t.Errorf("d=%d: %d steps, bound %.6f vs exact %.6f", d, steps, bound, exact)
			}
		}
	}
	// two disjoint 150-node halves, each a union of 4 matchings
	var maps [][]int
	for range 4 {
		m := make([]int, n)
		for h := 0; h < n; h += n / 2 {
			p := rng.Perm(n / 2)
			for i := 0; i < n/2; i += 2 {
				m[h+p[i]], m[h+p[i+1]] = h+p[i+1], h+p[i]
			}
		}
		maps = append(maps, m)
	}
	if bound, _, _ := ws.gapBound(circuits{n, maps}, 0.1); bound > 1e-9 {
		t.Errorf("disconnected graph: bound %v, want 0", bound)
	}
}
