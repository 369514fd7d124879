package schedules

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"

	"github.com/yourbasic/graph"

	"github.com/rdcn/rdcn/rotor"
)

// operaAttempts bounds how many factorisations Opera draws before it gives
// up on finding one whose every slice is connected.
const operaAttempts = 16

// Opera builds an Opera schedule: the n matchings of a random
// factorisation of K_n with loops (each node idle in exactly one matching;
// see loopyFactorization), in random order, dealt round-robin over U rotor
// switches (switch s plays matching t·U+s in slot t; period ⌈n/U⌉, idle
// remainder slots at the end). Rotor s's slot boundaries are offset by
// s·Δ/U, so reconfigurations are staggered and, with Δr ≤ Δ/U, at most one
// rotor is dark at any instant. Every slice — the circuits up during an
// interval in which no switch changes state — must be connected; a draw
// with a disconnected slice is discarded and the next seed-derived stream
// tried (rand.NewPCG(Seed, attempt)), up to 16 draws. The minimum and mean
// spectral gap of the sparsest slices (those during which some rotor is
// dark) are recorded in Meta.
func Opera(p Params) (*rotor.Schedule, error) {
	const kind = "opera"
	if err := checkSize(kind, p); err != nil {
		return nil, err
	}
	n, u := p.Nodes, p.Uplinks
	if u < 2 {
		return nil, paramError(kind, "uplinks", u, "must be at least 2: Opera keeps U−1 rotors up while one reconfigures")
	}
	if u > n {
		return nil, paramError(kind, "uplinks", u, "exceeds the %d matchings of K_%d with loops", n, n)
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	period := (n + u - 1) / u
	if err := checkCycle(kind, slot, period); err != nil {
		return nil, err
	}
	offsets := staggerOffsets(slot, u)
	var lastErr error
	for attempt := 0; attempt < operaAttempts; attempt++ {
		rng := rand.New(rand.NewPCG(p.Seed, uint64(attempt)))
		f, err := loopyFactorization(n, rng, 200*n*n+10000, p.Err)
		if cerr := p.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			lastErr = err
			continue
		}
		rng.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
		ms := emptyMatchings(u, period, n)
		for t := 0; t < period; t++ {
			for s := 0; s < u; s++ {
				if k := t*u + s; k < n {
					for v, w := range f[k] {
						if w != v {
							ms[s][t][v] = w
						}
					}
				}
			}
		}
		sched := &rotor.Schedule{
			Kind: kind, Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf,
			SwitchOffsets: offsets, Matchings: ms,
		}
		slices := sliceGraphs(sched)
		bad := -1
		for i, sl := range slices {
			if i%64 == 0 && p.Err() != nil {
				return nil, p.Err()
			}
			if !graph.Connected(sl.graph(sched)) {
				bad = i
				break
			}
		}
		if bad >= 0 {
			lastErr = fmt.Errorf("the slice at %v (%d rotors up) is disconnected", slices[bad].start, len(slices[bad].up))
			continue
		}
		gaps := spectralGaps(sparseGraphs(sched, slices), p.Err)
		if err := p.Err(); err != nil {
			return nil, err
		}
		gapMin, gapMean := 2.0, 0.0
		for _, g := range gaps {
			gapMin = min(gapMin, g)
			gapMean += g
		}
		gapMean /= float64(len(gaps))
		sched.Meta = map[string]any{
			"nodes": n, "uplinks": u, "seed": p.Seed, "attempt": attempt, "matchings": n,
			"remainder_idle_slots": u*period - n,
			"factorisation":        "random factorisation of K_n with loops (Dinitz-Stinson hill climbing), random order",
			"assignment":           "round-robin: switch s plays matching t*U+s in slot t; switch s offset by s*slot/U",
			"slices":               len(slices),
			"spectral_gap_min":     gapMin,
			"spectral_gap_mean":    gapMean,
			"spectral_gap":         "1 - lambda2 of D^-1/2 A D^-1/2 (normalised Laplacian lambda2) over the slices with a rotor reconfiguring",
		}
		return sched, nil
	}
	if idle := u*period - n; idle > 0 {
		return nil, paramError(kind, "uplinks", u, "no connected Opera schedule in %d draws (%v): %d ToRs leave %d idle slot(s) in the last round, which thins the slices around them; choose U dividing n", operaAttempts, lastErr, n, idle)
	}
	return nil, paramError(kind, "uplinks", u, "no connected Opera schedule in %d draws (%v); each slice holds only U−1 = %d matchings, try more uplinks", operaAttempts, lastErr, u-1)
}

// staggerOffsets are the switch offsets ⌊s·slot/U⌋, s = 0…U−1, that spread
// the U switches' reconfigurations evenly over a slot (Opera's stagger).
func staggerOffsets(slot rotor.Time, u int) []rotor.Time {
	offsets := make([]rotor.Time, u)
	for s := range offsets {
		// ⌊slot·s/U⌋ without forming slot·s, which overflows for a slot
		// near MaxCycle: slot = q·U + r gives q·s + ⌊r·s/U⌋ (r·s < U²).
		q, r := slot/rotor.Time(u), slot%rotor.Time(u)
		offsets[s] = q*rotor.Time(s) + r*rotor.Time(s)/rotor.Time(u)
	}
	return offsets
}

// sparseGraphs lists the graphs of the minimal slices, in time order.
func sparseGraphs(s *rotor.Schedule, slices []slice) []circuits {
	var out []circuits
	for i, sl := range slices {
		if sl.minimal(slices, i) {
			out = append(out, sl.graph(s))
		}
	}
	return out
}

// slice is a maximal interval of a cycle during which no switch changes
// state; up lists the (switch, slot) circuits that are in their day.
type slice struct {
	start rotor.Time
	up    [][2]int
}

func (sl slice) graph(s *rotor.Schedule) circuits {
	maps := make([][]int, len(sl.up))
	for i, st := range sl.up {
		maps[i] = s.Matchings[st[0]][st[1]]
	}
	return circuits{n: s.Nodes, maps: maps}
}

// minimal reports whether no neighbouring slice's circuits are a strict
// subset of this one's: the sparse slices during which some rotor is dark.
func (sl slice) minimal(all []slice, i int) bool {
	k := len(all)
	for _, j := range []int{(i + k - 1) % k, (i + 1) % k} {
		if j != i && len(all[j].up) < len(sl.up) && subset(all[j].up, sl.up) {
			return false
		}
	}
	return true
}

func subset(a, b [][2]int) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sliceGraphs splits one cycle of s at every slot boundary and every start
// of a night, on every switch, and lists the circuits up in each piece.
// Switch k is in slot ⌊(τ − SwitchOffsets[k]) / Δ⌋ mod Γ at time τ (equal
// slots), in its day for the first Δ − Δr of it.
func sliceGraphs(s *rotor.Schedule) []slice {
	cycle := s.CycleDuration()
	offset := func(k int) rotor.Time {
		if s.SwitchOffsets == nil {
			return 0
		}
		return s.SwitchOffsets[k]
	}
	mod := func(x rotor.Time) rotor.Time { return ((x % cycle) + cycle) % cycle }
	var events []rotor.Time
	for k := 0; k < s.Switches; k++ {
		for t := 0; t < s.Period; t++ {
			b := offset(k) + rotor.Time(t)*s.Slot
			events = append(events, mod(b), mod(b+s.Slot-s.Reconf))
		}
	}
	sort.Slice(events, func(i, j int) bool { return events[i] < events[j] })
	var out []slice
	for i, e := range events {
		if i > 0 && e == events[i-1] {
			continue
		}
		sl := slice{start: e}
		for k := 0; k < s.Switches; k++ {
			x := mod(e - offset(k))
			t := int(x / s.Slot)
			if x-rotor.Time(t)*s.Slot < s.Slot-s.Reconf {
				sl.up = append(sl.up, [2]int{k, t})
			}
		}
		out = append(out, sl)
	}
	return out
}

// spectralGaps computes the gap of every graph (until canceled returns an
// error, between graphs), spread over GOMAXPROCS workers, each with its own reused buffers; each result lands at its own
// index and depends only on its graph, so the output does not depend on
// scheduling.
func spectralGaps(gs []circuits, canceled func() error) []float64 {
	out := make([]float64, len(gs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(gs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws spectralWork
			for i := range next {
				out[i] = ws.gap(gs[i])
			}
		}()
	}
	for i := range gs {
		if canceled() != nil {
			break // the caller returns the error; the gaps are not used
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
