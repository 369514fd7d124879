package mars

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeBruijnRegular checks the claim that B(n, d) is d-regular (in and out,
// counting parallel arcs) for every n, not only for n = dᵏ.
func TestDeBruijnRegular(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for d := 1; d <= 45; d++ {
			m, err := DeBruijn{n, d}.Matrix()
			if err != nil {
				t.Fatal(err)
			}
			for u := 0; u < n; u++ {
				row, col := 0, 0
				for v := 0; v < n; v++ {
					row += m[u][v]
					col += m[v][u]
				}
				if row != d || col != d {
					t.Fatalf("B(%d,%d): node %d has out-degree %d, in-degree %d; want %d", n, d, u, row, col, d)
				}
			}
		}
	}
}

func TestDeBruijnSmall(t *testing.T) {
	tests := []struct {
		n, d   int
		matrix [][]int
		stats  Stats
	}{
		// Binary deBruijn on 4 nodes: 0→{0,1} 1→{2,3} 2→{0,1} 3→{2,3}.
		// Distances by hand: from 0: 1,2,2; from 1: 2,1,1; from 2: 1,1,2;
		// from 3: 2,2,1 → total 18 over 12 ordered pairs = 1.5.
		{4, 2, [][]int{{1, 1, 0, 0}, {0, 0, 1, 1}, {1, 1, 0, 0}, {0, 0, 1, 1}},
			Stats{SelfLoops: 2, Diameter: 2, AvgDistance: 1.5, LogBound: 2}},
		// n = 3 is not a power of 2: 0→{0,1} 1→{2,0} 2→{1,2}; still 2-regular.
		// Distances: 0→1:1, 0→2:2, 1→2:1, 1→0:1, 2→1:1, 2→0:2 → 8/6.
		{3, 2, [][]int{{1, 1, 0}, {1, 0, 1}, {0, 1, 1}},
			Stats{SelfLoops: 2, Diameter: 2, AvgDistance: 8.0 / 6, LogBound: 2}},
		// d > n: parallel arcs. B(2,3): 0→{0,1,0} 1→{1,0,1}.
		{2, 3, [][]int{{2, 1}, {1, 2}},
			Stats{SelfLoops: 4, ParallelArcs: 2, Diameter: 1, AvgDistance: 1, LogBound: 1}},
		// B(n, n) is the complete graph with one self-loop per node.
		{3, 3, [][]int{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
			Stats{SelfLoops: 3, Diameter: 1, AvgDistance: 1, LogBound: 1}},
		// d = 1 is n self-loops: not strongly connected.
		{3, 1, [][]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
			Stats{SelfLoops: 3, Diameter: -1, AvgDistance: math.NaN(), LogBound: -1}},
	}
	for _, tc := range tests {
		g := DeBruijn{tc.n, tc.d}
		m, err := g.Matrix()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.matrix, m); diff != "" {
			t.Errorf("B(%d,%d) matrix (-want +got):\n%s", tc.n, tc.d, diff)
		}
		st, err := g.Analyze()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.stats, st, cmp.Comparer(func(a, b float64) bool {
			return a == b || math.Abs(a-b) < 1e-12 || (math.IsNaN(a) && math.IsNaN(b))
		})); diff != "" {
			t.Errorf("B(%d,%d) stats (-want +got):\n%s", tc.n, tc.d, diff)
		}
	}
}

// TestDeBruijnPowers: for n = dᵏ the graph is the classical deBruijn graph
// B(d, k): diameter exactly k and exactly d self-loops (the constant words).
func TestDeBruijnPowers(t *testing.T) {
	for _, tc := range []struct{ d, k int }{{2, 1}, {2, 4}, {2, 8}, {3, 3}, {4, 2}, {4, 4}, {8, 2}, {16, 2}} {
		n := int(math.Pow(float64(tc.d), float64(tc.k)))
		st, err := DeBruijn{n, tc.d}.Analyze()
		if err != nil {
			t.Fatal(err)
		}
		if st.Diameter != tc.k || st.SelfLoops != tc.d || st.ParallelArcs != 0 || st.LogBound != tc.k {
			t.Errorf("B(%d,%d): %+v, want diameter %d, %d self-loops, no parallel arcs", n, tc.d, st, tc.k, tc.d)
		}
	}
}

// TestDeBruijnDistancesAgainstFloydWarshall compares the BFS statistics
// with an all-pairs Floyd–Warshall on the multiplicity matrix, and checks
// the diameter between the Moore bound and Imase–Itoh's ⌈log_d n⌉.
func TestDeBruijnDistancesAgainstFloydWarshall(t *testing.T) {
	for n := 2; n <= 30; n++ {
		for d := 2; d <= n; d++ {
			g := DeBruijn{n, d}
			m, _ := g.Matrix()
			const inf = 1 << 30
			dist := make([][]int, n)
			for u := range dist {
				dist[u] = make([]int, n)
				for v := range dist[u] {
					switch {
					case u == v:
						dist[u][v] = 0
					case m[u][v] > 0:
						dist[u][v] = 1
					default:
						dist[u][v] = inf
					}
				}
			}
			for k := 0; k < n; k++ {
				for u := 0; u < n; u++ {
					for v := 0; v < n; v++ {
						if dist[u][k]+dist[k][v] < dist[u][v] {
							dist[u][v] = dist[u][k] + dist[k][v]
						}
					}
				}
			}
			diam, total := 0, 0
			for u := 0; u < n; u++ {
				for v := 0; v < n; v++ {
					total += dist[u][v]
					diam = max(diam, dist[u][v])
				}
			}
			st, err := g.Analyze()
			if err != nil {
				t.Fatal(err)
			}
			if st.Diameter != diam || math.Abs(st.AvgDistance-float64(total)/float64(n*(n-1))) > 1e-12 {
				t.Fatalf("B(%d,%d): BFS says diameter %d, avg %g; Floyd–Warshall %d, %g",
					n, d, st.Diameter, st.AvgDistance, diam, float64(total)/float64(n*(n-1)))
			}
			// Moore bound: 1 + d + … + d^D ≥ n.
			moore, reach, p := 0, 1, 1
			for reach < n {
				p *= d
				reach += p
				moore++
			}
			if diam > st.LogBound || diam < moore {
				t.Fatalf("B(%d,%d): diameter %d outside [Moore %d, ⌈log_d n⌉ %d]", n, d, diam, moore, st.LogBound)
			}
		}
	}
}

func TestDeBruijnBadSize(t *testing.T) {
	for _, g := range []DeBruijn{{0, 2}, {-3, 2}, {4, 0}, {4, -1}, {1 << 20, 1 << 12}} {
		if _, err := g.Matrix(); err == nil {
			t.Errorf("%+v: want an error", g)
		}
		if _, err := g.Analyze(); err == nil {
			t.Errorf("%+v: Analyze wants an error", g)
		}
	}
}
