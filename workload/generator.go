package workload

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
)

// Generator streams the flows of a Config in order of Start. It keeps one
// pending arrival per host (and per querying host for incast) in a binary
// heap, so memory is O(hosts) however long the run, and Next allocates
// nothing.
type Generator struct {
	cfg   Config
	rng   *rand.Rand
	end   rotor.Time
	tors  int
	heap  []arrival
	gap   []float64   // mean background inter-arrival per ToR, ps (0: silent)
	cum   [][]float64 // "matrix": cumulative destination weights per ToR
	perm  []int       // "permutation": destination ToR of each ToR
	other Pattern     // a registered pattern
	qgap  float64     // mean query inter-arrival per host, ps
	kind  patternKind
	id    int
	query int
	// incast responses of the current query not yet returned
	pending []Flow
	next    int
	stamp   []uint32 // Floyd sampling of responders
	stampN  uint32
}

type patternKind int

const (
	allToAll patternKind = iota
	allToAllIntra
	permutation
	shift
	ring
	matrix
	registered
)

// arrival is a pending event: a background flow start of host id, or for
// id ≥ Hosts a query of host id−Hosts.
type arrival struct {
	t  rotor.Time
	id int
}

func (a arrival) less(b arrival) bool { return a.t < b.t || (a.t == b.t && a.id < b.id) }

// NewGenerator validates cfg and prepares the first arrival of every host.
// All randomness comes from rng, so the same seed gives the same flows.
func NewGenerator(cfg Config, rng *rand.Rand) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fieldErr("workload.rng", "is nil; pass a seeded *rand.Rand")
	}
	g := &Generator{cfg: cfg, rng: rng, end: cfg.Start + cfg.Duration, tors: cfg.ToRs()}
	n := cfg.Hosts
	g.heap = make([]arrival, 0, 2*n)
	if cfg.Load > 0 {
		if err := g.setupBackground(); err != nil {
			return nil, err
		}
		for h := 0; h < n; h++ {
			if gap := g.gap[h/cfg.HostsPerTor]; gap > 0 {
				g.schedule(arrival{t: cfg.Start, id: h}, gap)
			}
		}
	}
	if in := cfg.Incast; in != nil {
		g.qgap = 1e12 / in.Rate
		g.pending = make([]Flow, 0, in.Senders)
		g.stamp = make([]uint32, n-cfg.HostsPerTor)
		for h := 0; h < n; h++ {
			g.schedule(arrival{t: cfg.Start, id: n + h}, g.qgap)
		}
	}
	for i := len(g.heap)/2 - 1; i >= 0; i-- {
		g.down(i)
	}
	return g, nil
}

func (g *Generator) setupBackground() error {
	c := &g.cfg
	perBit := 8 * c.Sizes.Mean() * 1e12 / float64(c.HostRate) // ps to send the mean flow at line rate
	g.gap = make([]float64, g.tors)
	switch c.Pattern {
	case "", "all-to-all":
		g.kind = allToAll
		if c.AllowIntraRack {
			g.kind = allToAllIntra
		}
	case "permutation":
		g.kind = permutation
		g.perm = Derangement(g.tors, g.rng)
	case "shift":
		g.kind = shift
	case "ring":
		g.kind = ring
	case "matrix":
		g.kind = matrix
	default:
		g.kind = registered
		spec, _ := patternTable.Lookup(c.Pattern) // Validate checked it
		p, err := spec.New(g.tors, g.rng)
		if err != nil {
			return fieldErr("workload.pattern", "%s: %v", c.Pattern, err)
		}
		g.other = p
	}
	if g.kind != matrix {
		for t := range g.gap {
			g.gap[t] = perBit / c.Load
		}
		return nil
	}
	// Hose normalisation: the busiest row or column runs at Load.
	row := make([]float64, g.tors)
	col := make([]float64, g.tors)
	g.cum = make([][]float64, g.tors)
	for i, r := range c.Matrix {
		g.cum[i] = make([]float64, g.tors)
		s := 0.0
		for j, v := range r {
			if i != j {
				s += v
				col[j] += v
			}
			g.cum[i][j] = s
		}
		row[i] = s
	}
	peak := 0.0
	for i := range row {
		peak = math.Max(peak, math.Max(row[i], col[i]))
	}
	for i := range g.gap {
		if row[i] > 0 {
			g.gap[i] = perBit / (c.Load * row[i] / peak)
		}
	}
	return nil
}

// schedule pushes a's successor, one exponential gap (mean meanGap ps) after
// a.t, unless it falls at or after the end of the window.
func (g *Generator) schedule(a arrival, meanGap float64) bool {
	d := g.rng.ExpFloat64() * meanGap
	if !(d < float64(g.end-a.t)) {
		return false
	}
	a.t += rotor.Time(math.Round(d))
	if a.t >= g.end {
		return false
	}
	g.heap = append(g.heap, a)
	return true
}

// Next returns the next flow in order of Start (ties broken by host index,
// background before incast), or false when the window is exhausted.
func (g *Generator) Next() (Flow, bool) {
	if g.next < len(g.pending) {
		f := g.pending[g.next]
		g.next++
		return f, true
	}
	for len(g.heap) > 0 {
		a := g.heap[0]
		var f Flow
		var ok bool
		if a.id < g.cfg.Hosts {
			f, ok = g.background(a), true
			g.reschedule(a, g.gap[a.id/g.cfg.HostsPerTor])
		} else {
			g.incast(a)
			g.reschedule(a, g.qgap)
			if len(g.pending) > 0 {
				f, ok = g.pending[0], true
				g.next = 1
			}
		}
		if ok {
			return f, true
		}
	}
	return Flow{}, false
}

// reschedule replaces the heap's root a by its successor or removes it.
func (g *Generator) reschedule(a arrival, meanGap float64) {
	d := g.rng.ExpFloat64() * meanGap
	last := len(g.heap) - 1
	if d < float64(g.end-a.t) {
		if t := a.t + rotor.Time(math.Round(d)); t < g.end {
			g.heap[0].t = t
			g.down(0)
			return
		}
	}
	g.heap[0] = g.heap[last]
	g.heap = g.heap[:last]
	if last > 0 {
		g.down(0)
	}
}

func (g *Generator) down(i int) {
	h := g.heap
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (g *Generator) background(a arrival) Flow {
	c := &g.cfg
	src := a.id
	hpt := c.HostsPerTor
	tor := src / hpt
	size := c.Sizes.Sample(g.rng)
	var dst int
	switch g.kind {
	case allToAll:
		dst = g.rng.IntN(c.Hosts - hpt)
		if dst >= tor*hpt {
			dst += hpt
		}
	case allToAllIntra:
		dst = g.rng.IntN(c.Hosts - 1)
		if dst >= src {
			dst++
		}
	case permutation:
		dst = g.perm[tor]*hpt + g.rng.IntN(hpt)
	case shift:
		dst = ((tor+g.tors/2)%g.tors)*hpt + g.rng.IntN(hpt)
	case ring:
		dst = ((tor+1)%g.tors)*hpt + g.rng.IntN(hpt)
	case registered:
		d := g.other.DstToR(tor, g.rng)
		if d < 0 || d >= g.tors || (d == tor && g.tors > 1) {
			panic(fmt.Sprintf("workload: pattern %s sent ToR %d to %d (want another of %d ToRs)", c.Pattern, tor, d, g.tors))
		}
		dst = d*hpt + g.rng.IntN(hpt)
	case matrix:
		cum := g.cum[tor]
		u := g.rng.Float64() * cum[len(cum)-1]
		lo, hi := 0, len(cum)-1
		for lo < hi { // first j with cum[j] > u
			mid := int(uint(lo+hi) >> 1)
			if cum[mid] > u {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		dst = lo*hpt + g.rng.IntN(hpt)
	}
	f := Flow{ID: g.id, Src: src, Dst: dst, Bytes: size, Start: a.t}
	g.id++
	return f
}

// Derangement draws a uniformly random permutation of 0…n−1 with no fixed
// point (no ToR sends to itself), n ≥ 2, by rejection: shuffle until no
// i maps to i, about e ≈ 2.72 shuffles on average.
func Derangement(n int, rng *rand.Rand) []int {
	p := make([]int, n)
	for {
		for i := range p {
			p[i] = i
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		fixed := false
		for i, v := range p {
			if i == v {
				fixed = true
				break
			}
		}
		if !fixed {
			return p
		}
	}
}

// incast fills g.pending with the responses of one query (Floyd's sampling
// of distinct responders among the hosts on other ToRs).
func (g *Generator) incast(a arrival) {
	c := &g.cfg
	in := c.Incast
	dst := a.id - c.Hosts
	hpt := c.HostsPerTor
	base := (dst / hpt) * hpt
	g.query++
	g.pending = g.pending[:0]
	g.next = 0
	g.stampN++
	if g.stampN == 0 { // wrapped: clear
		clear(g.stamp)
		g.stampN = 1
	}
	m := len(g.stamp)
	for j := m - in.Senders; j < m; j++ {
		k := g.rng.IntN(j + 1)
		if g.stamp[k] == g.stampN {
			k = j
		}
		g.stamp[k] = g.stampN
		src := k
		if src >= base {
			src += hpt
		}
		g.pending = append(g.pending, Flow{ID: g.id, Src: src, Dst: dst, Bytes: in.Bytes, Start: a.t, Query: g.query})
		g.id++
	}
}

// Generate returns all flows of cfg in order of Start.
func Generate(cfg Config, rng *rand.Rand) ([]Flow, error) {
	g, err := NewGenerator(cfg, rng)
	if err != nil {
		return nil, err
	}
	expect := float64(cfg.Hosts) * float64(cfg.Duration) / 1e12 * cfg.ArrivalRate()
	if cfg.Incast != nil {
		expect += float64(cfg.Hosts) * float64(cfg.Duration) / 1e12 * cfg.Incast.Rate * float64(cfg.Incast.Senders)
	}
	flows := make([]Flow, 0, int(math.Min(expect*1.05+16, 1<<20)))
	for {
		f, ok := g.Next()
		if !ok {
			return flows, nil
		}
		flows = append(flows, f)
	}
}
