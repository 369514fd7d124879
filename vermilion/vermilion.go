package vermilion

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rdcn/rdcn/bvn"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// Config parametrises (generalised) Vermilion.
type Config struct {
	Nodes   int        // n, ToRs
	Uplinks int        // U, circuit switches (uplinks per node)
	K       int        // k ≥ 1: the emulated graph has degree k·n (rounded up to a multiple of U)
	L       int        // ℓ, 1 ≤ ℓ ≤ k: oblivious edges per node pair; trust γ = k/ℓ
	Slot    rotor.Time // Δ, slot duration
	Reconf  rotor.Time // Δr, reconfiguration time at the end of each slot
	Seed    uint64     // seeds the configuration model (and the trust draw of Randomized)
}

// maxCells bounds degree × nodes (the size of the matchings) to keep a typo
// from allocating tens of gigabytes.
const maxCells = 1 << 28

// ConfigError names a parameter that Vermilion or the BvN baseline cannot use.
type ConfigError struct {
	Field   string // the Config field in CLI spelling: nodes, uplinks, k, l, slot, reconf, cycle, tol
	Value   any
	Problem string
}

func (e *ConfigError) Error() string { return fmt.Sprintf("%s: %v, %s", e.Field, e.Value, e.Problem) }

func bad(field string, value any, problem string, args ...any) error {
	return &ConfigError{Field: field, Value: value, Problem: fmt.Sprintf(problem, args...)}
}

// Validate reports the first parameter that Algorithm 7 cannot use, as a
// *ConfigError.
func (c Config) Validate() error {
	switch {
	case c.Nodes < 2:
		return bad("nodes", c.Nodes, "want at least 2")
	case c.Uplinks < 1:
		return bad("uplinks", c.Uplinks, "want at least 1")
	case c.K < 1:
		return bad("k", c.K, "want at least 1")
	case c.L < 1:
		return bad("l", c.L, "want at least 1")
	case c.L > c.K:
		return bad("l", c.L, "exceeds k = %d (trust γ = k/ℓ must be at least 1)", c.K)
	case c.Slot <= 0:
		return bad("slot", c.Slot, "want a positive duration")
	case c.Reconf < 0 || c.Reconf >= c.Slot:
		return bad("reconf", c.Reconf, "want 0 ≤ reconf < slot (%v)", c.Slot)
	}
	if d := float64(c.K) * float64(c.Nodes); d*float64(c.Nodes) > maxCells {
		return bad("k", c.K, "with %d nodes needs %g matching entries, more than %d", c.Nodes, d*float64(c.Nodes), maxCells)
	}
	// The degree is k·n rounded up to a multiple of U: many more uplinks
	// than k·n still need U matchings of n entries.
	if u := float64(c.Uplinks); u*float64(c.Nodes) > maxCells {
		return bad("uplinks", c.Uplinks, "with %d nodes needs %g matching entries, more than %d", c.Nodes, u*float64(c.Nodes), maxCells)
	}
	return nil
}

// Gamma is the trust factor γ = k/ℓ.
func (c Config) Gamma() float64 { return float64(c.K) / float64(c.L) }

// Degree is the degree D of the emulated multigraph: k·n rounded up to a
// multiple of U, so that its D perfect matchings fill all U switches for
// D/U slots with no idle slot.
func (c Config) Degree() int {
	kn := c.K * c.Nodes
	return (kn + c.Uplinks - 1) / c.Uplinks * c.Uplinks
}

// Period is the number of slots per cycle, D/U = ⌈k·n/U⌉.
func (c Config) Period() int { return c.Degree() / c.Uplinks }

// Graph is the emulated multigraph of Algorithm 7 before it is decomposed.
type Graph struct {
	Count     [][]int // Count[u][v]: number of u→v edges (circuits per cycle)
	Degree    int     // every row and column of Count sums to Degree
	Complete  bool    // γ < 2: the demand was ignored (complete graph)
	SelfLoops int     // u→u edges the configuration model could not avoid
}

// Topology builds the emulated multigraph of Algorithm 7 (procedure
// emulatedTopology) for demand d:
//
//  1. hose-normalise d (diagonal ignored) so the busiest row or column sums to 1;
//  2. scale by the demand-aware budget B = D − ℓ·n (= (k−ℓ)·n when U divides k·n)
//     and round to an integer matrix R keeping row and column sums (bvn.Round);
//  3. add ℓ edges for every ordered pair u ≠ v (the oblivious complete graph);
//  4. top every node's in- and out-degree up to D with the configuration model.
//
// If γ = k/ℓ < 2 the demand is ignored (Algorithm 7, line 3): steps 1–2 are
// skipped and step 3 adds k edges per pair, the complete graph. The result is
// D-regular; rng drives the configuration model.
func Topology(d demand.Matrix, c Config, rng *rand.Rand) (*Graph, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n := c.Nodes
	if d.N() != n {
		return nil, fmt.Errorf("demand: %d×%d matrix for %d nodes", d.N(), d.N(), n)
	}
	if err := demand.Validate(d); err != nil {
		return nil, err
	}
	g := &Graph{Count: make([][]int, n), Degree: c.Degree(), Complete: c.K < 2*c.L}
	oblivious := c.L
	if g.Complete {
		oblivious = c.K
	} else {
		budget := g.Degree - c.L*n
		r, err := roundDemand(d, budget)
		if err != nil {
			return nil, err
		}
		copy(g.Count, r)
	}
	for u := range n {
		if g.Count[u] == nil {
			g.Count[u] = make([]int, n)
		}
		for v := range n {
			if u != v {
				g.Count[u][v] += oblivious
			}
		}
	}
	out, in := make([]int, n), make([]int, n)
	for u := range n {
		out[u] = g.Degree
		in[u] = g.Degree
	}
	for u := range n {
		for v, e := range g.Count[u] {
			out[u] -= e
			in[v] -= e
		}
	}
	loops, err := ConfigurationModel(g.Count, out, in, rng)
	if err != nil {
		return nil, fmt.Errorf("vermilion: %w", err)
	}
	g.SelfLoops = loops
	return g, nil
}

// roundDemand returns the matrix rounding of budget·d̂, where d̂ is d with its
// diagonal cleared, divided by its largest row or column sum. Entries within
// 1e-9 of an integer are snapped to it first, so integral demands (e.g. a
// permutation) are kept exactly. Every row and column of the result sums to
// at most budget and every entry is the floor or ceiling of budget·d̂.
func roundDemand(d demand.Matrix, budget int) ([][]int, error) {
	n := d.N()
	s := make([][]float64, n)
	top := largestEntry(d) // divide by it first so sums of huge entries cannot overflow
	maxSum := 0.0
	col := make([]float64, n)
	for u := range n {
		s[u] = make([]float64, n)
		row := 0.0
		for v, x := range d[u] {
			if u != v && top > 0 {
				s[u][v] = x / top
				row += s[u][v]
				col[v] += s[u][v]
			}
		}
		maxSum = math.Max(maxSum, row)
	}
	for _, x := range col {
		maxSum = math.Max(maxSum, x)
	}
	if maxSum == 0 || budget == 0 {
		// No demand predicted: the budget goes to the configuration model.
		r := make([][]int, n)
		for u := range r {
			r[u] = make([]int, n)
		}
		return r, nil
	}
	scale := float64(budget) / maxSum
	for u := range n {
		for v := range n {
			x := s[u][v] * scale
			if rx := math.Round(x); math.Abs(x-rx) <= 1e-9 {
				x = rx
			}
			s[u][v] = x
		}
	}
	// Floating point may push a full row to budget·(1+ε), which would let the
	// rounding use budget+1; shrink just enough to keep every sum ≤ budget.
	over := 0.0
	clear(col)
	for u := range n {
		row := 0.0
		for v, x := range s[u] {
			row += x
			col[v] += x
		}
		over = math.Max(over, row)
	}
	for _, x := range col {
		over = math.Max(over, x)
	}
	if over > float64(budget) {
		f := float64(budget) / over
		for u := range n {
			for v := range n {
				s[u][v] *= f
			}
		}
	}
	r, err := bvn.Round(s)
	if err != nil {
		return nil, fmt.Errorf("vermilion: matrix rounding: %w", err)
	}
	clear(col)
	rowMax, colMax := 0, 0
	colI := make([]int, n)
	for u := range n {
		row := 0
		for v, x := range r[u] {
			if u == v && x != 0 || math.Abs(float64(x)-s[u][v]) >= 1 {
				return nil, fmt.Errorf("vermilion: matrix rounding moved entry (%d,%d) from %g to %d", u, v, s[u][v], x)
			}
			row += x
			colI[v] += x
		}
		rowMax = max(rowMax, row)
	}
	for _, x := range colI {
		colMax = max(colMax, x)
	}
	if rowMax > budget || colMax > budget {
		return nil, fmt.Errorf("vermilion: matrix rounding exceeded the budget %d (row %d, column %d)", budget, rowMax, colMax)
	}
	return r, nil
}

// largestEntry is the largest off-diagonal entry of d.
func largestEntry(d demand.Matrix) float64 {
	top := 0.0
	for u, row := range d {
		for v, x := range row {
			if u != v {
				top = math.Max(top, x)
			}
		}
	}
	return top
}

// Schedule runs generalised Vermilion (Algorithm 7) on demand d (usually a
// prediction): it builds the D-regular emulated multigraph (Topology), splits
// it into D perfect matchings (bvn.Factorize) and plays matching i on switch
// i mod U in slot ⌊i/U⌋, so the period is D/U = ⌈k·n/U⌉ slots. Circuits u→u
// are written as rotor.Idle. The configuration model is seeded by c.Seed.
func Schedule(d demand.Matrix, c Config) (*rotor.Schedule, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 0))
	return build(d, c, rng, nil)
}

func build(d demand.Matrix, c Config, rng *rand.Rand, extra map[string]any) (*rotor.Schedule, error) {
	g, err := Topology(d, c, rng)
	if err != nil {
		return nil, err
	}
	perms, err := bvn.Factorize(g.Count)
	if err != nil {
		return nil, fmt.Errorf("vermilion: decomposing the %d-regular multigraph: %w", g.Degree, err)
	}
	if len(perms) != g.Degree {
		return nil, fmt.Errorf("vermilion: factorisation returned %d matchings, want %d", len(perms), g.Degree)
	}
	s := &rotor.Schedule{
		Kind:      "vermilion",
		Nodes:     c.Nodes,
		Switches:  c.Uplinks,
		Period:    c.Period(),
		Slot:      c.Slot,
		Reconf:    c.Reconf,
		Matchings: make([][][]int, c.Uplinks),
		Meta: map[string]any{
			"k":          c.K,
			"l":          c.L,
			"gamma":      c.Gamma(),
			"degree":     g.Degree,
			"complete":   g.Complete,
			"self_loops": g.SelfLoops,
			"seed":       c.Seed,
		},
	}
	for k, v := range extra {
		s.Meta[k] = v
	}
	for sw := range s.Matchings {
		s.Matchings[sw] = make([][]int, s.Period)
	}
	for i, p := range perms {
		if len(p) != c.Nodes {
			return nil, fmt.Errorf("vermilion: factorisation returned a matching of %d nodes, want %d", len(p), c.Nodes)
		}
		m := make([]int, c.Nodes)
		for u, v := range p {
			if u == v {
				v = rotor.Idle
			}
			m[u] = v
		}
		s.Matchings[i%c.Uplinks][i/c.Uplinks] = m
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("vermilion: built an invalid schedule: %w", err)
	}
	return s, nil
}

// Guarantees are the competitive ratios that the schedule built from c
// guarantees, exactly as Theorems 24 and 25 argue but for the actual degree
// D (so they equal Consistency(γ) and Robustness(γ) when U divides k·n).
// Multiply by the duty cycle 1 − Δr/Δ for throughput. Consistency holds for
// a perfect prediction (single-hop when γ ≥ 2), robustness for any.
func (c Config) Guarantees() (consistency, robustness float64) {
	d, n := float64(c.Degree()), float64(c.Nodes)
	if c.K < 2*c.L { // complete graph with k edges per pair
		r := float64(c.K) * n / (2 * d)
		return r, r
	}
	l := float64(c.L) * n
	robustness = l / (2 * d)
	return math.Max((d-l)/d, robustness), robustness
}
