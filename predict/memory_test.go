package predict

import "testing"

// TestMemoryEstimate checks the accounting of MemoryEstimate by hand:
// D = 8·n² bytes, 2·(held matrices·D + workers·(8 + k_max)·D).
func TestMemoryEstimate(t *testing.T) {
	const n = 1000
	const d = 8 * n * n
	base := Study{Nodes: n, Uplinks: 4, Matrices: []string{"ring"}, Noises: []string{"additive"},
		Factors: []float64{0}, Gammas: []float64{1}, Algorithms: []Algorithm{BvN}, Samples: 1, Workers: 4,
		Readings: []Reading{PerDraw}}
	tests := []struct {
		name string
		edit func(*Study)
		want int64
	}{
		// One evaluation: one worker busy, the truth held, no Vermilion.
		{"bvn, no noise", func(*Study) {}, 2 * (1 + 8) * d},
		// Factor 2 with 3 samples: 3 predictions held; 6 evaluations, 4 workers.
		{"noisy samples", func(s *Study) { s.Factors = []float64{0, 2}; s.Samples = 3 }, 2 * (4 + 4*8) * d},
		// γ = 2.5 is k/ℓ = 5/2: five matchings of n entries per node pair round.
		{"vermilion γ 2.5", func(s *Study) { s.Algorithms = []Algorithm{Deterministic}; s.Gammas = []float64{2.5} }, 2 * (1 + 8 + 5) * d},
		// Randomised γ = 3: k = 3; two matrices, both held.
		{"randomized", func(s *Study) {
			s.Algorithms = []Algorithm{Randomized}
			s.Gammas = []float64{3}
			s.Matrices = []string{"ring", "uniform"}
		}, 2 * (2 + 2*(8+3)) * d},
		// Pooled (the default readings): one pool per row of each of the
		// two (matrix, noise, factor) groups, fewer than workers + 1 = 5.
		{"pooled", func(s *Study) { s.Readings = nil; s.Factors = []float64{0, 2}; s.Samples = 3 }, 2 * (4 + 2 + 4*8) * d},
	}
	for _, tc := range tests {
		s := base
		tc.edit(&s)
		if got := s.MemoryEstimate(); got != tc.want {
			t.Errorf("%s: %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}
