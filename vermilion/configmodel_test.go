package vermilion

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func zeros(n int) [][]int {
	c := make([][]int, n)
	for i := range c {
		c[i] = make([]int, n)
	}
	return c
}

func TestConfigurationModelDegrees(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 0))
		n := 2 + rng.IntN(14)
		out, in := make([]int, n), make([]int, n)
		for range rng.IntN(6 * n) { // random edge multiset ⇒ consistent degrees
			out[rng.IntN(n)]++
			in[rng.IntN(n)]++
		}
		count := zeros(n)
		loops, err := ConfigurationModel(count, out, in, rng)
		if err != nil {
			t.Fatal(err)
		}
		gotOut, gotIn := make([]int, n), make([]int, n)
		self := 0
		for u := range n {
			for v := range n {
				gotOut[u] += count[u][v]
				gotIn[v] += count[u][v]
			}
			self += count[u][u]
		}
		if diff := cmp.Diff(out, gotOut); diff != "" {
			t.Fatalf("seed %d: out-degrees (-want +got):\n%s", seed, diff)
		}
		if diff := cmp.Diff(in, gotIn); diff != "" {
			t.Fatalf("seed %d: in-degrees (-want +got):\n%s", seed, diff)
		}
		if self != loops {
			t.Fatalf("seed %d: %d self-loops in the graph, reported %d", seed, self, loops)
		}
		// A self-loop may stay only if one node is an end of every stub pair.
		if loops > 0 {
			for u := range n {
				if count[u][u] == 0 {
					continue
				}
				for a := range n {
					for b := range n {
						if a != u && b != u && count[a][b] > 0 {
							t.Fatalf("seed %d: self-loop at %d kept although edge %d→%d could be swapped", seed, u, a, b)
						}
					}
				}
			}
		}
	}
}

func TestConfigurationModelUnavoidableSelfLoops(t *testing.T) {
	count := zeros(3)
	loops, err := ConfigurationModel(count, []int{3, 0, 1}, []int{3, 1, 0}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	// Node 0 needs 3 out and 3 in; only one out-stub (2) and one in-stub (1)
	// elsewhere, so at least 2 self-loops remain.
	want := [][]int{{2, 1, 0}, {0, 0, 0}, {1, 0, 0}}
	if diff := cmp.Diff(want, count); diff != "" || loops != 2 {
		t.Errorf("loops = %d, count (-want +got):\n%s", loops, diff)
	}
}

// With one stub per node on 3 nodes, the only loop-free results are the two
// cyclic shifts; stub matching at random must produce both about equally.
func TestConfigurationModelIsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	shift1 := 0
	const trials = 4000
	for range trials {
		count := zeros(3)
		if _, err := ConfigurationModel(count, []int{1, 1, 1}, []int{1, 1, 1}, rng); err != nil {
			t.Fatal(err)
		}
		switch {
		case count[0][1] == 1 && count[1][2] == 1 && count[2][0] == 1:
			shift1++
		case count[0][2] == 1 && count[2][1] == 1 && count[1][0] == 1:
		default:
			t.Fatalf("not a derangement: %v", count)
		}
	}
	if f := float64(shift1) / trials; f < 0.45 || f > 0.55 {
		t.Errorf("shift by one in %.3f of trials, want ≈ 0.5", f)
	}
}

func TestConfigurationModelErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	for _, tc := range []struct {
		name    string
		out, in []int
	}{
		{"length", []int{1}, []int{1, 0}},
		{"negative", []int{-1, 1}, []int{0, 0}},
		{"sums", []int{2, 0}, []int{0, 1}},
	} {
		if _, err := ConfigurationModel(zeros(2), tc.out, tc.in, rng); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
