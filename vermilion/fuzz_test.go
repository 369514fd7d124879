package vermilion_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/vermilion"
)

// FuzzTopology feeds arbitrary matrices (including huge, tiny and denormal
// entries) and parameters: the result must be an error or an exactly
// D-regular multigraph with ≥ ℓ edges on every pair.
func FuzzTopology(f *testing.F) {
	f.Add(uint8(4), uint8(2), uint8(3), uint8(1), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(uint8(7), uint8(3), uint8(5), uint8(2), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f})
	f.Add(uint8(2), uint8(1), uint8(1), uint8(1), []byte{})
	f.Fuzz(func(t *testing.T, n, u, k, l uint8, raw []byte) {
		c := vermilion.Config{Nodes: int(n%12) + 2, Uplinks: int(u%5) + 1, K: int(k%6) + 1, L: int(l%3) + 1, Slot: 1000}
		d := demand.New(c.Nodes)
		for i := 0; i+8 <= len(raw) && i/8 < c.Nodes*c.Nodes; i += 8 {
			x := math.Abs(math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
			if math.IsNaN(x) || math.IsInf(x, 0) {
				x = 1
			}
			d[(i/8)/c.Nodes][(i/8)%c.Nodes] = x
		}
		g, err := vermilion.Topology(d, c, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			if c.L <= c.K {
				t.Fatalf("%+v: %v", c, err)
			}
			return
		}
		for a := range c.Nodes {
			row, col := 0, 0
			for b := range c.Nodes {
				row += g.Count[a][b]
				col += g.Count[b][a]
				if a != b && g.Count[a][b] < c.L {
					t.Fatalf("%+v: pair %d→%d has %d edges", c, a, b, g.Count[a][b])
				}
			}
			if row != g.Degree || col != g.Degree {
				t.Fatalf("%+v: node %d out %d in %d, degree %d", c, a, row, col, g.Degree)
			}
		}
	})
}

func ExampleUniformConsistency() {
	for _, g := range []int{1, 2, 3, 5, 10} {
		fmt.Printf("γ=%-2d deterministic %.3f/%.3f  randomised %.3f/%.3f\n", g,
			vermilion.Consistency(float64(g)), vermilion.Robustness(float64(g)),
			vermilion.UniformConsistency(g), vermilion.UniformRobustness(g))
	}
	// Output:
	// γ=1  deterministic 0.500/0.500  randomised 0.500/0.500
	// γ=2  deterministic 0.500/0.250  randomised 0.500/0.375
	// γ=3  deterministic 0.667/0.167  randomised 0.556/0.306
	// γ=5  deterministic 0.800/0.100  randomised 0.643/0.228
	// γ=10 deterministic 0.900/0.050  randomised 0.757/0.146
}
