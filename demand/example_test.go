package demand_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rdcn/rdcn/demand"
)

func ExampleParse() {
	m, err := demand.Parse("skew:0.5", 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	demand.Write(os.Stdout, m)
	fmt.Println("busiest node:", m.MaxLineSum())
	// Output:
	// 0 0.16666666666666666 0.6666666666666666 0.16666666666666666
	// 0.16666666666666666 0 0.16666666666666666 0.6666666666666666
	// 0.6666666666666666 0.16666666666666666 0 0.16666666666666666
	// 0.16666666666666666 0.6666666666666666 0.16666666666666666 0
	// busiest node: 1
}

func ExampleRead() {
	in := `# a 3-node matrix in bits per second
0    4e9  1e9
2e9  0    0
0    3e9  0
`
	m, err := demand.Read(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	// Node 1 receives 7 Gbit/s: it is the busiest. Saturate it at 100 Gbit/s.
	h, _ := demand.HoseNormalize(m, 100e9)
	demand.WriteCSV(os.Stdout, h)

	_, err = demand.Read(strings.NewReader("0 1\n-2 0\n"))
	fmt.Println(err)
	// Output:
	// 0,5.714285714285714e+10,1.4285714285714285e+10
	// 2.857142857142857e+10,0,0
	// 0,4.285714285714285e+10,0
	// demand: line 2, column 1: "-2" is negative
}

// With a zero diagonal, a 3×3 doubly stochastic matrix is [[0, a, 1−a], …]
// and scaling keeps the cycle ratio m01·m12·m20 / (m02·m21·m10) = 1/15, so
// (a/(1−a))³ = 1/15 and a = 0.2885.
func ExampleSinkhorn() {
	m := demand.Matrix{
		{0, 1, 3},
		{2, 0, 2},
		{1, 5, 0},
	}
	d, err := demand.Sinkhorn(m, 1e-9, 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range d {
		fmt.Printf("row %d: %.4f %.4f %.4f (sum %.4f, column sum %.4f)\n", i, d[i][0], d[i][1], d[i][2], d.RowSum(i), d.ColSum(i))
	}
	// Output:
	// row 0: 0.0000 0.2885 0.7115 (sum 1.0000, column sum 1.0000)
	// row 1: 0.7115 0.0000 0.2885 (sum 1.0000, column sum 1.0000)
	// row 2: 0.2885 0.7115 0.0000 (sum 1.0000, column sum 1.0000)
}
