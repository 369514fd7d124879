package vermilion

import (
	"fmt"
	"math"
	"slices"

	"github.com/rdcn/rdcn/bvn"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// BvNConfig parametrises the Birkhoff–von Neumann demand-aware baseline.
type BvNConfig struct {
	Nodes   int
	Uplinks int
	Cycle   rotor.Time // length of one period (all slots together)
	Slot    rotor.Time // nominal Δ recorded in Schedule.Slot (0: Cycle/terms); SlotDurations rule
	Reconf  rotor.Time // Δr, paid at the end of every slot
	Tol     float64    // decomposition tolerance; 0 means 1e-9
}

// BvN builds the Eclipse/Helios-style baseline of thesis §9.3 for demand d
// (usually a prediction):
//
//  1. hose-normalise d (diagonal ignored) so the busiest row or column sums to 1;
//  2. complete it to a doubly stochastic matrix by adding the row and column
//     deficits greedily to off-diagonal cells (the diagonal only when nothing
//     else is left). Unlike Sinkhorn scaling this keeps every demand entry as
//     it is, so the schedule dominates the normalised demand entry by entry;
//  3. decompose it (bvn.Decompose) into terms λ_i·P_i with Σλ_i = 1;
//  4. play P_i on all U switches at once for a slot of Δr + λ_i·(Cycle − m·Δr),
//     m = number of terms, so the slot's usable "day" is proportional to λ_i.
//
// Under a perfect prediction every pair gets at least its demand times
// 1 − m·Δr/Cycle, the schedule's duty cycle. Days are integer picoseconds
// (largest remainder); a term whose day would round to 0 ps is dropped.
// Fixed points of P_i are written as rotor.Idle.
func BvN(d demand.Matrix, c BvNConfig) (*rotor.Schedule, error) {
	switch {
	case c.Nodes < 2:
		return nil, bad("nodes", c.Nodes, "want at least 2")
	case c.Uplinks < 1:
		return nil, bad("uplinks", c.Uplinks, "want at least 1")
	case c.Reconf < 0:
		return nil, bad("reconf", c.Reconf, "want a non-negative duration")
	case c.Cycle <= c.Reconf:
		return nil, bad("cycle", c.Cycle, "want longer than reconf (%v)", c.Reconf)
	case math.IsNaN(c.Tol) || c.Tol < 0 || c.Tol >= 1:
		return nil, bad("tol", c.Tol, "want 0 ≤ tol < 1")
	}
	if d.N() != c.Nodes {
		return nil, fmt.Errorf("demand: %d×%d matrix for %d nodes", d.N(), d.N(), c.Nodes)
	}
	if err := demand.Validate(d); err != nil {
		return nil, err
	}
	tol := c.Tol
	if tol == 0 {
		tol = 1e-9
	}
	ds := doublyStochastic(d)
	terms, err := bvn.Decompose(ds, tol)
	if err != nil {
		return nil, fmt.Errorf("bvn: decomposing the predicted demand: %w", err)
	}
	days, terms, err := splitCycle(terms, c.Cycle, c.Reconf)
	if err != nil {
		return nil, err
	}
	m := len(terms)
	if c.Slot <= 0 {
		c.Slot = c.Cycle / rotor.Time(m)
	}
	s := &rotor.Schedule{
		Kind:          "bvn",
		Nodes:         c.Nodes,
		Switches:      c.Uplinks,
		Period:        m,
		Slot:          c.Slot,
		Reconf:        c.Reconf,
		SlotDurations: make([]rotor.Time, m),
		Matchings:     make([][][]int, c.Uplinks),
		Meta:          map[string]any{"terms": m, "cycle_ps": int64(c.Cycle), "tol": tol},
	}
	for i, day := range days {
		s.SlotDurations[i] = c.Reconf + day
	}
	for sw := range s.Matchings {
		s.Matchings[sw] = make([][]int, m)
	}
	for i, t := range terms {
		if len(t.Perm) != c.Nodes {
			return nil, fmt.Errorf("bvn: term %d has a permutation of %d nodes, want %d", i, len(t.Perm), c.Nodes)
		}
		p := make([]int, c.Nodes)
		for u, v := range t.Perm {
			if u == v {
				v = rotor.Idle
			}
			p[u] = v
		}
		for sw := range s.Matchings {
			s.Matchings[sw][i] = p // read-only, shared by the switches
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("bvn: built an invalid schedule: %w", err)
	}
	return s, nil
}

// doublyStochastic returns d with its diagonal cleared, divided by its
// largest row or column sum, plus the smallest greedy completion that makes
// every row and column sum to 1. An all-zero d becomes the identity, which
// carries nothing.
func doublyStochastic(d demand.Matrix) [][]float64 {
	n := d.N()
	a := make([][]float64, n)
	row, col := make([]float64, n), make([]float64, n)
	big := largestEntry(d) // divide by it first so sums of huge entries cannot overflow
	for u := range n {
		a[u] = make([]float64, n)
		for v, x := range d[u] {
			if u != v && big > 0 {
				x /= big
				a[u][v] = x
				row[u] += x
				col[v] += x
			}
		}
	}
	top := math.Max(slices.Max(row), slices.Max(col))
	if top > 0 {
		for u := range n {
			for v := range n {
				a[u][v] /= top
			}
			row[u] /= top
			col[u] /= top
		}
	}
	const eps = 1e-12
	var rows, cols []int
	for u := range n {
		row[u] = 1 - row[u]
		col[u] = 1 - col[u]
		if row[u] > eps {
			rows = append(rows, u)
		}
		if col[u] > eps {
			cols = append(cols, u)
		}
	}
	for len(rows) > 0 && len(cols) > 0 {
		u := rows[0]
		j := 0
		for j < len(cols) && cols[j] == u {
			j++
		}
		if j == len(cols) {
			j = 0 // only u's own column is left
		}
		v := cols[j]
		x := math.Min(row[u], col[v])
		a[u][v] += x
		row[u] -= x
		col[v] -= x
		if row[u] <= eps {
			rows = rows[1:]
		}
		if col[v] <= eps {
			cols = slices.Delete(cols, j, j+1)
		}
	}
	return a
}

// splitCycle gives term i a day of λ_i/Σλ · (cycle − m·reconf) picoseconds,
// rounded by largest remainder so the days fill the budget exactly, dropping
// terms whose day would be 0 ps.
func splitCycle(terms []bvn.Term, cycle, reconf rotor.Time) ([]rotor.Time, []bvn.Term, error) {
	for {
		m := len(terms)
		if m == 0 {
			return nil, nil, fmt.Errorf("bvn: the decomposition has no terms")
		}
		budget := cycle - rotor.Time(m)*reconf
		if budget < rotor.Time(m) {
			return nil, nil, bad("cycle", cycle, "too short for %d BvN terms that each pay reconf %v", m, reconf)
		}
		total := 0.0
		for _, t := range terms {
			total += t.Weight
		}
		days := make([]rotor.Time, m)
		rem := make([]float64, m)
		used := rotor.Time(0)
		for i, t := range terms {
			x := t.Weight / total * float64(budget)
			days[i] = rotor.Time(math.Floor(x))
			rem[i] = x - math.Floor(x)
			used += days[i]
		}
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case rem[a] > rem[b]:
				return -1
			case rem[a] < rem[b]:
				return 1
			}
			return 0
		})
		for i := 0; used < budget; i = (i + 1) % m {
			days[order[i]]++
			used++
		}
		kept := terms[:0:0]
		for i, t := range terms {
			if days[i] > 0 {
				kept = append(kept, t)
			}
		}
		if len(kept) == m {
			return days, terms, nil
		}
		terms = kept
	}
}
