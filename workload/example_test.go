package workload_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

func ExampleSizes() {
	for _, spec := range []string{"websearch", "datamining", "hadoop", "64KB"} {
		d, err := workload.Sizes(spec)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-10s mean %.1f B\n", spec, d.Mean())
	}
	// Output:
	// websearch  mean 1711222.5 B
	// datamining mean 5036535.2 B
	// hadoop     mean 3423728.4 B
	// 64KB       mean 64000.0 B
}

func ExampleParseCDF() {
	// Half the flows are exactly 1000 B; the rest uniform on [1000, 3000] B.
	c, err := workload.ParseCDF(strings.NewReader("1000 0.5\n3000 1\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Mean(), c.Quantile(0.75))
	// Output: 1500 2000
}

func ExampleGenerator() {
	cfg := workload.Config{
		Hosts: 8, HostsPerTor: 2, HostRate: 10 * rotor.Gbps, Load: 0.5,
		Sizes:   workload.Constant(125_000), // 100 µs at 10 Gb/s
		Pattern: "ring", Duration: rotor.Millisecond,
	}
	g, err := workload.NewGenerator(cfg, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		fmt.Println(err)
		return
	}
	n := 0
	for f, ok := g.Next(); ok; f, ok = g.Next() {
		if f.Dst/2 != (f.Src/2+1)%4 {
			fmt.Println("not a ring flow:", f)
		}
		n++
	}
	// λ = 0.5·10e9/(8·125000) = 5000 flows/s per host → 40 expected in 1 ms.
	fmt.Println(cfg.ArrivalRate(), n > 20 && n < 60)
	// Output: 5000 true
}

func ExampleWriteFlows() {
	flows := []workload.Flow{
		{Src: 0, Dst: 5, Bytes: 1500, Start: 2 * rotor.Microsecond},
		{Src: 3, Dst: 1, Bytes: 64000, Start: 2500 * rotor.Picosecond},
	}
	if err := workload.WriteFlows(os.Stdout, flows); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 0 5 1500 2000
	// 3 1 64000 2.5
}

func ExampleConfig_Validate() {
	cfg := workload.Config{Hosts: 8, HostsPerTor: 2, HostRate: rotor.Gbps, Load: 1.5,
		Sizes: workload.Constant(1500), Duration: rotor.Millisecond}
	fmt.Println(cfg.Validate())
	// Output: workload.load: must be in (0,1], got 1.5
}

// A registered distribution (example_register_test.go's bimodal) is
// found by name, case-insensitively, as the built-in ones are.
func ExampleRegisterSizes() {
	d, err := workload.Sizes("bimodal")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Mean())
	// Output: 500500
}
