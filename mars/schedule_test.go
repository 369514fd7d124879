package mars

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

func TestScheduleEmulatesDeBruijn(t *testing.T) {
	tests := []struct{ n, u, d int }{
		{16, 2, 4}, {16, 2, 2}, {16, 2, 16}, {16, 1, 3}, {12, 2, 4}, {10, 3, 6},
		{64, 4, 8}, {100, 5, 10}, {7, 7, 7}, {2, 1, 2}, {1000, 2, 32},
	}
	for _, tc := range tests {
		c := Config{Nodes: tc.n, Uplinks: tc.u, Degree: tc.d, Slot: 100 * us, Reconf: 10 * us}
		s, err := Schedule(c, rand.New(rand.NewPCG(7, 0)))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("%+v: invalid schedule: %v", c, err)
		}
		if s.Switches != tc.u || s.Period != tc.d/tc.u || s.Kind != "mars" {
			t.Fatalf("%+v: %d switches, period %d, kind %q", c, s.Switches, s.Period, s.Kind)
		}
		// Count the (switch, slot) pairs connecting u→v, and check every
		// matching is a permutation once self-loops (Idle) are restored.
		count := make([][]int, tc.n)
		for u := range count {
			count[u] = make([]int, tc.n)
		}
		idle := 0
		for sw, slots := range s.Matchings {
			if len(slots) != tc.d/tc.u {
				t.Fatalf("switch %d holds %d matchings, want d/U = %d", sw, len(slots), tc.d/tc.u)
			}
			for _, m := range slots {
				hit := make([]bool, tc.n)
				for u, v := range m {
					if v == rotor.Idle {
						v = u
						idle++
					}
					if hit[v] {
						t.Fatalf("%+v: a matching is not a permutation", c)
					}
					hit[v] = true
					count[u][v]++
				}
			}
		}
		want, _ := DeBruijn{tc.n, tc.d}.Matrix()
		for u := range want {
			for v := range want[u] {
				if want[u][v] != count[u][v] {
					t.Fatalf("%+v: %d (switch, slot) pairs connect %d→%d, B(n,d) has %d arcs", c, count[u][v], u, v, want[u][v])
				}
			}
		}
		loops, _, _ := DeBruijn{tc.n, tc.d}.Counts()
		if idle != loops || s.Meta["self_loops"] != loops {
			t.Fatalf("%+v: %d idle ports, meta %v, B(n,d) has %d self-loops", c, idle, s.Meta["self_loops"], loops)
		}
	}
}

func TestScheduleDeterministic(t *testing.T) {
	c := Config{Nodes: 64, Uplinks: 4, Degree: 16, Slot: 100 * us, Reconf: 10 * us}
	a, _ := Schedule(c, rand.New(rand.NewPCG(42, 0)))
	b, _ := Schedule(c, rand.New(rand.NewPCG(42, 0)))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different schedules:\n%s", diff)
	}
	o, _ := Schedule(c, rand.New(rand.NewPCG(43, 0)))
	if cmp.Equal(a.Matchings, o.Matchings) {
		t.Fatalf("seeds 42 and 43 give the same order of 16 matchings")
	}
	n1, _ := Schedule(c, nil)
	n2, _ := Schedule(c, nil)
	if !cmp.Equal(n1, n2) {
		t.Fatalf("nil rng is not deterministic")
	}
}

func TestScheduleBadConfig(t *testing.T) {
	ok := Config{Nodes: 16, Uplinks: 2, Degree: 4, Slot: 100 * us, Reconf: 10 * us}
	tests := []struct {
		name string
		f    func(*Config)
		want string
	}{
		{"nodes", func(c *Config) { c.Nodes = 0 }, "nodes"},
		{"uplinks", func(c *Config) { c.Uplinks = 0 }, "uplinks"},
		{"degree below uplinks", func(c *Config) { c.Degree = 1 }, "degree = 1: is below the 2 uplinks"},
		{"degree above nodes", func(c *Config) { c.Degree = 18 }, "exceeds the 16 nodes"},
		{"degree not multiple", func(c *Config) { c.Degree = 5 }, "not a multiple"},
		{"degree one", func(c *Config) { c.Uplinks = 1; c.Degree = 1 }, "connects nothing"},
		{"slot", func(c *Config) { c.Slot = 0 }, "slot"},
		{"reconf", func(c *Config) { c.Reconf = c.Slot }, "reconf"},
		{"negative reconf", func(c *Config) { c.Reconf = -1 }, "reconf"},
	}
	for _, tc := range tests {
		c := ok
		tc.f(&c)
		if _, err := Schedule(c, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkSchedule4096x64 is the large case of docs/mars.md: n = 4096,
// d = 64 (64 matchings of 4096 nodes, 4 switches × 16 slots).
func BenchmarkSchedule4096x64(b *testing.B) {
	c := Config{Nodes: 4096, Uplinks: 4, Degree: 64, Slot: 100 * us, Reconf: 10 * us}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Schedule(c, rand.New(rand.NewPCG(1, 0))); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDesign(t *testing.T) {
	base := Limits{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 100 * us}
	tests := []struct {
		name   string
		spec   Spec
		degree int
		bound  string
		err    string
	}{
		{"table 7.1", Spec{Limits: Limits{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 100 * us, Buffer: 20_000_000, Delay: 850 * us}, Reconf: 10 * us, Seed: 3}, 4, "delay", ""},
		{"given degree", Spec{Limits: base, Degree: 8, Reconf: 10 * us}, 8, "given", ""},
		{"no limits: complete", Spec{Limits: base, Reconf: 10 * us}, 16, "nodes", ""},
		{"negative degree", Spec{Limits: base, Degree: -2}, 0, "", "degree = -2"},
		{"odd degree", Spec{Limits: base, Degree: 3}, 0, "", "degree = 3: is not a multiple"},
		{"tiny buffer", Spec{Limits: Limits{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 100 * us, Buffer: 1000}}, 0, "", "buffer = 1KB: allows degree 0"},
	}
	for _, tc := range tests {
		s, ch, err := Design(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ch.Degree != tc.degree || ch.Bound != tc.bound || s.Meta["degree"] != tc.degree || s.Meta["degree_bound"] != tc.bound {
			t.Errorf("%s: degree %d bound %q meta %v", tc.name, ch.Degree, ch.Bound, s.Meta)
		}
		if tc.name == "table 7.1" && (s.Meta["diameter"] != 2 || s.Meta["avg_distance"] != 1.75) {
			// B(16,4), 2-digit base-4 words: diameter 2. The 12 nodes without a
			// self-loop reach 4 nodes in 1 hop and 11 in 2 (26 hops); the 4
			// with one reach 3 in 1 hop and 12 in 2 (27). Mean:
			// (12·26 + 4·27) / (16·15) = 420/240 = 1.75.
			t.Errorf("%s: diameter %v, mean distance %v", tc.name, s.Meta["diameter"], s.Meta["avg_distance"])
		}
		if s.Meta["seed"] != tc.spec.Seed || s.Reconf != tc.spec.Reconf {
			t.Errorf("%s: meta seed %v, reconf %v", tc.name, s.Meta["seed"], s.Reconf)
		}
	}
}
