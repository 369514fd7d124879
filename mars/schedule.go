package mars

import (
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/bvn"
	"github.com/rdcn/rdcn/rotor"
)

// Kind is the rotor.Schedule.Kind of Mars schedules.
const Kind = "mars"

// Config describes a Mars schedule. Degree must be a multiple of Uplinks in
// [Uplinks, Nodes]; ChooseDegree finds one from a buffer and delay.
type Config struct {
	Nodes   int        // n, ToRs
	Uplinks int        // U, circuit switches
	Degree  int        // d, degree of the emulated deBruijn graph
	Slot    rotor.Time // Δ
	Reconf  rotor.Time // Δr
}

func (c Config) validate() error {
	switch {
	case c.Nodes < 1:
		return bad("nodes", c.Nodes, "must be at least 1")
	case c.Uplinks < 1:
		return bad("uplinks", c.Uplinks, "must be at least 1")
	case c.Degree < c.Uplinks:
		return bad("degree", c.Degree, "is below the %d uplinks (every switch needs at least one matching)", c.Uplinks)
	case c.Degree > c.Nodes:
		return bad("degree", c.Degree, "exceeds the %d nodes (deBruijn arcs would repeat; d = n is already the complete graph)", c.Nodes)
	case c.Degree < 2 && c.Nodes > 1:
		return bad("degree", c.Degree, "B(n,1) has only self-loops and connects nothing; use at least 2")
	case c.Degree%c.Uplinks != 0:
		return bad("degree", c.Degree, "is not a multiple of the %d uplinks (each switch holds d/U matchings)", c.Uplinks)
	case c.Slot <= 0:
		return bad("slot", c.Slot, "must be positive")
	case c.Reconf < 0 || c.Reconf >= c.Slot:
		return bad("reconf", c.Reconf, "must be in [0, slot = %v)", c.Slot)
	}
	return nil
}

// Schedule builds the Mars schedule: the deBruijn digraph B(n, d) factorised
// into d perfect matchings (bvn.Factorize), shuffled with rng, and dealt
// d/U consecutive matchings to each of the U switches, so the period is d/U
// slots. Its emulated graph is B(n, d) minus its self-loops with capacity
// c·(1 − Δr/Δ)·m(u,v)/Γ on arc u→v of multiplicity m.
//
// A self-loop u → u in a matching is written as rotor.Idle: ToR u's uplink
// on that switch has no circuit during that slot (the thesis counts the slot
// but, as everywhere in rdcn, a self-map carries nothing). A nil rng keeps
// the factorisation's deterministic order.
func Schedule(c Config, rng *rand.Rand) (*rotor.Schedule, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	g := DeBruijn{c.Nodes, c.Degree}
	a, err := g.Matrix()
	if err != nil {
		return nil, err
	}
	perms, err := bvn.Factorize(a)
	if err != nil {
		return nil, fmt.Errorf("mars: factorising B(%d,%d): %w", c.Nodes, c.Degree, err)
	}
	if len(perms) != c.Degree {
		return nil, fmt.Errorf("mars: factorising B(%d,%d) gave %d matchings, want %d", c.Nodes, c.Degree, len(perms), c.Degree)
	}
	if rng != nil {
		rng.Shuffle(len(perms), func(i, j int) { perms[i], perms[j] = perms[j], perms[i] })
	}
	selfLoops := 0
	for _, p := range perms {
		for u, v := range p {
			if v == u {
				p[u] = rotor.Idle
				selfLoops++
			}
		}
	}
	period := c.Degree / c.Uplinks
	m := make([][][]int, c.Uplinks)
	for s := range m {
		m[s] = perms[s*period : (s+1)*period : (s+1)*period]
	}
	return &rotor.Schedule{
		Kind:      Kind,
		Nodes:     c.Nodes,
		Switches:  c.Uplinks,
		Period:    period,
		Slot:      c.Slot,
		Reconf:    c.Reconf,
		Matchings: m,
		Meta: map[string]any{
			"degree":     c.Degree,
			"graph":      "debruijn",
			"self_loops": selfLoops,
			"log_bound":  ceilLog(c.Nodes, c.Degree),
		},
	}, nil
}

// Spec is a complete Mars design request: a fixed Degree, or Degree 0 and
// the limits (buffer, delay) ChooseDegree turns into one.
type Spec struct {
	Limits            // nodes, uplinks, link, slot, buffer, delay
	Degree int        // d; 0 chooses it from Limits
	Reconf rotor.Time // Δr
	Seed   uint64     // seeds the shuffle of the matchings
}

// Design chooses the degree (unless s.Degree is set) and builds the
// schedule, shuffling with rand.New(rand.NewPCG(s.Seed, 0)). Meta records
// the seed and where the degree came from ("given", "delay", "buffer" or
// "nodes", with Theorem 18's and 19's bounds when they were computed).
func Design(s Spec) (*rotor.Schedule, Choice, error) {
	ch := Choice{Degree: s.Degree, Bound: "given"}
	if s.Degree == 0 {
		var err error
		if ch, err = ChooseDegree(s.Limits); err != nil {
			return nil, Choice{}, err
		}
	} else if s.Degree < 0 {
		return nil, Choice{}, bad("degree", s.Degree, "must be positive (or 0 to choose it from buffer and delay)")
	}
	sched, err := Schedule(Config{
		Nodes: s.Nodes, Uplinks: s.Uplinks, Degree: ch.Degree, Slot: s.Slot, Reconf: s.Reconf,
	}, rand.New(rand.NewPCG(s.Seed, 0)))
	if err != nil {
		return nil, Choice{}, err
	}
	sched.Meta["seed"] = s.Seed
	// The graph's diameter and mean distance cost one BFS per node,
	// O(n²·d); record them when that is cheap (≤ 5·10⁷ arc visits).
	if n, d := int64(s.Nodes), int64(ch.Degree); n*n*d <= 5e7 {
		if st, err := (DeBruijn{s.Nodes, ch.Degree}).Analyze(); err == nil && st.Diameter >= 0 {
			sched.Meta["diameter"] = st.Diameter
			sched.Meta["avg_distance"] = st.AvgDistance
		}
	}
	sched.Meta["degree_bound"] = ch.Bound
	if s.Degree == 0 && s.Delay > 0 {
		sched.Meta["delay_degree"] = ch.DelayDegree
		sched.Meta["delay_ps"] = int64(s.Delay)
	}
	if s.Degree == 0 && s.Buffer > 0 {
		sched.Meta["buffer_degree"] = ch.BufferDegree
		sched.Meta["buffer_bytes"] = int64(s.Buffer)
		sched.Meta["link_bps"] = int64(s.Link)
	}
	return sched, ch, nil
}
