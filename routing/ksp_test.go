package routing

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func allSimplePaths(adj [][]bool, u, d int) [][]int {
	var out [][]int
	on := make([]bool, len(adj))
	var walk func(p []int)
	walk = func(p []int) {
		x := p[len(p)-1]
		if x == d {
			out = append(out, slices.Clone(p))
			return
		}
		for v := range adj[x] {
			if adj[x][v] && !on[v] {
				on[v] = true
				walk(append(p, v))
				on[v] = false
			}
		}
	}
	on[u] = true
	walk([]int{u})
	slices.SortFunc(out, func(a, b []int) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	return out
}

func randomDigraph(n int, density float64, rng *rand.Rand) ([][]bool, *digraph) {
	adj := make([][]bool, n)
	var edges [][2]int32
	for u := range adj {
		adj[u] = make([]bool, n)
		for v := range adj[u] {
			if u != v && rng.Float64() < density {
				adj[u][v] = true
				edges = append(edges, [2]int32{int32(u), int32(v)})
			}
		}
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	return adj, newDigraph(n, edges)
}

func yenPaths(y *yen, g *digraph, u, d, k int) [][]int {
	nodes, ends := y.paths(g, nil, int32(u), int32(d), k, nil, nil)
	var out [][]int
	start := 0
	for _, e := range ends {
		var p []int
		for _, v := range nodes[start:e] {
			p = append(p, int(v))
		}
		out = append(out, p)
		start = int(e)
	}
	return out
}

func TestYenAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	var y yen
	unequal := 0
	for _, tc := range []struct {
		n       int
		density float64
		graphs  int
	}{{2, 0.9, 5}, {4, 0.5, 40}, {6, 0.3, 40}, {7, 0.5, 30}, {8, 0.25, 30}, {8, 0.6, 10}} {
		for gi := 0; gi < tc.graphs; gi++ {
			adj, g := randomDigraph(tc.n, tc.density, rng)
			for u := 0; u < tc.n; u++ {
				for d := 0; d < tc.n; d++ {
					if u == d {
						continue
					}
					all := allSimplePaths(adj, u, d)
					for _, k := range []int{1, 2, 3, 5, 8} {
						want := all[:min(k, len(all))]
						if len(want) == 0 {
							want = nil
						}
						y.bfs = true
						if diff := cmp.Diff(want, yenPaths(&y, g, u, d, k)); diff != "" {
							t.Fatalf("n=%d graph %d %d→%d k=%d (-brute force +yen, breadth-first spurs):\n%s", tc.n, gi, u, d, k, diff)
						}
						y.bfs, y.budget = false, 1 // guided, mostly giving up at once
						if diff := cmp.Diff(want, yenPaths(&y, g, u, d, k)); diff != "" {
							t.Fatalf("n=%d graph %d %d→%d k=%d (-brute force +yen, guided spurs, budget 1):\n%s", tc.n, gi, u, d, k, diff)
						}
						y.budget = 0
						got := yenPaths(&y, g, u, d, k)
						if diff := cmp.Diff(want, got); diff != "" {
							t.Fatalf("n=%d graph %d %d→%d k=%d (-brute force +yen, guided spurs):\n%s", tc.n, gi, u, d, k, diff)
						}
						for _, p := range got {
							if p[0] != u || p[len(p)-1] != d {
								t.Fatalf("path %v is not %d→%d", p, u, d)
							}
							for i := 1; i < len(p); i++ {
								if !adj[p[i-1]][p[i]] {
									t.Fatalf("path %v uses missing edge %d→%d", p, p[i-1], p[i])
								}
							}
						}
						if len(got) > 1 && len(got[len(got)-1]) > len(got[0]) {
							unequal++
						}
					}
				}
			}
		}
	}
	if unequal == 0 {
		t.Error("no pair with paths of unequal length: test too weak")
	}
}

func TestYenAgainstGonum(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 32, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	const k = 6
	kt := newKSPTable(sc, k)
	var y yen
	for e := 0; e < len(kt.Bounds); e += 7 {
		g := kt.graphs[e]
		gg := simple.NewDirectedGraph()
		for u := 0; u < g.n; u++ {
			gg.AddNode(simple.Node(u))
		}
		for u := int32(0); u < int32(g.n); u++ {
			for _, v := range g.succ(u) {
				gg.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
			}
		}
		for u := 0; u < g.n; u += 5 {
			for d := 0; d < g.n; d += 3 {
				if u == d {
					continue
				}
				var want []int
				for _, p := range path.YenKShortestPaths(gg, k, math.Inf(1), simple.Node(u), simple.Node(d)) {
					want = append(want, len(p))
				}
				var got []int
				ours := yenPaths(&y, g, u, d, k)
				for _, p := range ours {
					got = append(got, len(p))
				}
				y.bfs = true
				if diff := cmp.Diff(ours, yenPaths(&y, g, u, d, k)); diff != "" {
					t.Fatalf("epoch %d %d→%d: guided vs breadth-first spurs:\n%s", e, u, d, diff)
				}
				y.bfs = false
				slices.Sort(want)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("epoch %d %d→%d: path lengths (-gonum +ours):\n%s", e, u, d, diff)
				}
			}
		}
	}
}

func TestKSPTableCache(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 24, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	big, small := newKSPTable(sc, 4), newKSPTable(sc, 4)
	small.slots, small.shift = small.slots[:64], 32-6
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 20000; i++ {
		at := rotor.Time(rng.Int64N(int64(big.Cycle)))
		u, d, f := rng.IntN(24), rng.IntN(24), rng.Int32()
		if u == d {
			continue
		}
		r1, n1 := big.Choose(at, u, d, f)
		r2, n2 := small.Choose(at, u, d, f)
		if r1 != r2 || n1 != n2 {
			t.Fatalf("choose(%v, %d, %d, %d): big cache %d/%d, small %d/%d", at, u, d, f, r1, n1, r2, n2)
		}
		p1 := slices.Clone(big.entry(int(r1)/4/24/24, u, d).path(int(r1) % 4))
		p2 := small.entry(int(r2)/4/24/24, u, d).path(int(r2) % 4)
		if !slices.Equal(p1, p2) {
			t.Fatalf("path %d: %v vs %v", r1, p1, p2)
		}
	}
	if small.computed <= big.computed {
		t.Errorf("small cache computed %d entries, big %d: evictions not exercised", small.computed, big.computed)
	}
}

func benchKSP(b *testing.B, k int) *kspTable {
	b.Helper()
	kt := newKSPTable(benchOpera(b, 108, 6, 600), k)
	if kt == nil {
		b.Fatal("no table")
	}
	return kt
}

func benchOpera(b *testing.B, n, u int, slot rotor.Time) *rotor.Schedule {
	b.Helper()
	sc, err := schedules.Build("opera", schedules.Params{Nodes: n, Uplinks: u, Slot: slot * rotor.Microsecond, Reconf: 10 * rotor.Microsecond, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

func BenchmarkYen(b *testing.B) {
	kt := benchKSP(b, 4)
	n := kt.n
	b.Run("own", func(b *testing.B) {
		var y yen
		var nodes []int16
		var ends []uint16
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			u, d := i%n, (i/n+1+i%n)%n
			e := i % len(kt.graphs)
			nodes, ends = y.paths(kt.graphs[e], kt.distTo(e, d), int32(u), int32(d), 4, nodes[:0], ends[:0])
		}
	})
	b.Run("gonum", func(b *testing.B) {
		var gs []*simple.DirectedGraph
		for _, g := range kt.graphs {
			gg := simple.NewDirectedGraph()
			for u := 0; u < n; u++ {
				gg.AddNode(simple.Node(u))
			}
			for u := int32(0); u < int32(n); u++ {
				for _, v := range g.succ(u) {
					gg.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
				}
			}
			gs = append(gs, gg)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			u, d := i%n, (i/n+1+i%n)%n
			path.YenKShortestPaths(gs[i%len(gs)], 4, math.Inf(1), simple.Node(u), simple.Node(d))
		}
	})
}

func BenchmarkKSPTable(b *testing.B) {
	for _, tc := range []struct {
		name string
		n, u int
		slot rotor.Time
	}{{"build-a", 64, 4, 400}, {"build-b", 108, 6, 600}} {
		b.Run(tc.name, func(b *testing.B) {
			sc := benchOpera(b, tc.n, tc.u, tc.slot)
			b.ReportAllocs()
			for b.Loop() {
				newKSPTable(sc, 4)
			}
		})
	}
	b.Run("hop", func(b *testing.B) {
		kt := benchKSP(b, 4)
		at := kt.Bounds[5] + 1
		ref, _ := kt.Choose(at, 3, 70, 11)
		p := kt.entry(int(ref)/4/108/108, 3, 70).path(int(ref) % 4)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, ok, _ := kt.Follow(at, ref, int(p[i%(len(p)-1)])); !ok {
				b.Fatal("not on path")
			}
		}
	})
}

func TestKSPFollowAcrossEpochs(t *testing.T) {
	us := rotor.Microsecond
	idle := rotor.Idle
	sc := &rotor.Schedule{Kind: "static", Nodes: 5, Switches: 2, Period: 2, Slot: 100 * us, Reconf: us,
		Matchings: [][][]int{
			{{1, 2, 0, 4, 3}, {1, 2, 0, 4, 3}},
			{{3, idle, 4, 0, 2}, {idle, idle, idle, idle, idle}},
		}}
	kt := newKSPTable(sc, 2)
	slot0, slot1 := 50*us, 150*us
	var ref [2]int32
	var paths [2][]int16
	for f := int32(0); paths[0] == nil || paths[1] == nil; f++ {
		r, _ := kt.Choose(slot0, 0, 2, f)
		ref[r%2], paths[r%2] = r, slices.Clone(kt.entry(kt.Index(slot0), 0, 2).path(int(r%2)))
	}
	if diff := cmp.Diff([2][]int16{{0, 1, 2}, {0, 3, 4, 2}}, paths); diff != "" {
		t.Fatalf("paths 0→2 (-want +got):\n%s", diff)
	}
	short, long := ref[0], ref[1]
	for _, tc := range []struct {
		at   rotor.Time
		ref  int32
		tor  int
		next int32
		ok   bool
	}{
		{slot0, long, 0, 3, true},
		{slot0, long, 4, 2, true},
		{slot1, short, 1, 2, true},  // A's 1→2 is still up
		{slot1, long, 3, 4, true},   // A's 3→4 is still up
		{slot1, long, 0, -1, false}, // B's 0→3 is down
		{slot1, long, 4, -1, false}, // B's 4→2 is down
		{slot0, long, 2, -1, false}, // the end of the path
	} {
		next, ok, lost := kt.Follow(tc.at, tc.ref, tc.tor)
		if next != tc.next || ok != tc.ok || lost {
			t.Errorf("follow(%v, path %d, ToR %d) = %d, %v, lost %v; want %d, %v", tc.at, tc.ref, tc.tor, next, ok, lost, tc.next, tc.ok)
		}
	}
	if _, ok, lost := kt.Follow(slot0, long, 1); ok || !lost {
		t.Errorf("ToR 1 is not on path 0→3→4→2: ok %v, lost %v", ok, lost)
	}
}
