package workload_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// Flow-size distributions and traffic patterns register themselves in
// init functions: "bimodal" draws 1 KB or 1 MB with equal probability, and
// "neighbour" sends every ToR's flows to the next ToR but one (t → t+2).
// workload.sizes and workload.pattern then accept the names.
func init() {
	workload.RegisterSizes(workload.SizeSpec{
		Name: "bimodal",
		Doc:  "1 KB or 1 MB, equally likely",
		New:  func() (workload.SizeDist, error) { return bimodal{}, nil },
	})
	workload.RegisterPattern(workload.PatternSpec{
		Name: "neighbour",
		Doc:  "ToR t → t+2 (mod T)",
		New: func(tors int, _ *rand.Rand) (workload.Pattern, error) {
			if tors < 3 {
				return nil, fmt.Errorf("needs at least 3 ToRs, got %d", tors)
			}
			return neighbour(tors), nil
		},
	})
}

type bimodal struct{}

func (bimodal) Sample(rng *rand.Rand) int64 {
	if rng.IntN(2) == 0 {
		return 1_000
	}
	return 1_000_000
}
func (bimodal) Mean() float64 { return 500_500 }

type neighbour int

func (n neighbour) DstToR(src int, _ *rand.Rand) int { return (src + 2) % int(n) }

func ExampleRegisterPattern() {
	sizes, err := workload.Sizes("Bimodal")
	if err != nil {
		fmt.Println(err)
		return
	}
	flows, err := workload.Generate(workload.Config{Hosts: 8, HostsPerTor: 2, HostRate: 10 * rotor.Gbps, Load: 0.5,
		Sizes: sizes, Pattern: "neighbour", Duration: 2 * rotor.Millisecond}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	ok := true
	for _, f := range flows {
		ok = ok && f.Dst/2 == (f.Src/2+2)%4 && (f.Bytes == 1_000 || f.Bytes == 1_000_000)
	}
	fmt.Println(len(flows) > 0, ok)
	fmt.Println(workload.SizeNames(), workload.Patterns())
	// Output:
	// true true
	// [websearch datamining hadoop bimodal] [all-to-all permutation shift ring matrix neighbour]
}
