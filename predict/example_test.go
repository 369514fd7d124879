package predict_test

import (
	"context"
	"fmt"

	"github.com/rdcn/rdcn/predict"
)

func ExampleRun() {
	s := predict.Defaults() // 8 nodes, 4 uplinks, duty cycle 0.99
	s.Matrices = []string{"ring"}
	s.Noises = []string{"multiplicative"}
	s.Factors = []float64{0}
	s.Gammas = []float64{3}
	s.Algorithms = []predict.Algorithm{predict.Deterministic, predict.BvN}
	s.Samples = 1
	rows, err := predict.Run(context.Background(), s, nil)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("%-9s single-hop θ %.4f", r.Algorithm, r.SingleHop.Mean)
		if r.Consistency != nil {
			fmt.Printf("  consistency ≥ %.4f  robustness ≥ %.4f", *r.Consistency, *r.Robustness)
		}
		fmt.Println()
	}
	// Output:
	// vermilion single-hop θ 0.7013  consistency ≥ 0.6600  robustness ≥ 0.1650
	// bvn       single-hop θ 0.9983
}
