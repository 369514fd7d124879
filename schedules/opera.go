package schedules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"

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
// dark) are recorded in Meta. Above operaHillClimbMax ToRs, when n splits
// into blocks (liftSplit), the factorisation is the lifted one
// (liftedFactorization) and every sparse slice's gap must moreover be
// certified ≥ operaGapThreshold(U) (gapBound), or the draw is discarded.
func Opera(p Params) (*rotor.Schedule, error) {
	return opera(p, operaHillClimbMax)
}

// opera is Opera with the hill climbing used up to n = hillClimbMax.
func opera(p Params, hillClimbMax int) (*rotor.Schedule, error) {
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
		ms, factorisation, err := operaMatchings(n, u, period, hillClimbMax, rng, p.Err)
		if cerr := p.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			lastErr = err
			continue
		}
		sched := &rotor.Schedule{
			Kind: kind, Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf,
			SwitchOffsets: offsets, Matchings: ms,
		}
		pieces := sliceGraphs(sched)
		if bad := firstDisconnected(sched, pieces, p.Err); bad >= 0 {
			lastErr = fmt.Errorf("the slice at %v (%d rotors up) is disconnected", pieces[bad].start, len(pieces[bad].up))
			continue
		}
		if err := p.Err(); err != nil {
			return nil, err
		}
		sparse := sparseGraphs(sched, pieces)
		var gaps, bounds []float64
		var steps []int
		threshold := operaGapThreshold(u)
		if factorisation == "lifted" {
			bounds, gaps, steps = gapBounds(sparse, threshold, p.Err)
		} else {
			gaps = spectralGaps(sparse, p.Err)
		}
		if err := p.Err(); err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(bounds, func(b float64) bool { return b < threshold }); i >= 0 {
			lastErr = fmt.Errorf("a slice's spectral gap is not certified ≥ %.3f (bound %.3f, estimate %.3f)", threshold, bounds[i], gaps[i])
			continue
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
			"slices":               len(pieces),
			"spectral_gap_min":     gapMin,
			"spectral_gap_mean":    gapMean,
			"spectral_gap":         "1 - lambda2 of D^-1/2 A D^-1/2 (normalised Laplacian lambda2) over the slices with a rotor reconfiguring",
		}
		if factorisation == "lifted" {
			a, b, _ := liftSplit(n)
			sched.Meta["factorisation"] = fmt.Sprintf("random factorisation of K_n with loops lifted from one of K_%d (blocks of %d, random Latin squares between blocks), in %d rounds each playing every quotient colour once in random order", b, a, a)
			sched.Meta["spectral_gap"] = "1 - lambda2 of D^-1/2 A D^-1/2 over the slices with a rotor reconfiguring: min and mean of the Lanczos estimates (from above) when the certified bound (from below, failure probability 1e-9 per slice) cleared the threshold"
			sched.Meta["spectral_gap_threshold"] = threshold
			sched.Meta["spectral_gap_bound_min"] = slices.Min(bounds)
			total := 0
			for _, k := range steps {
				total += k
			}
			sched.Meta["spectral_lanczos_steps_mean"] = float64(total) / float64(len(steps))
		}
		return sched, nil
	}
	if idle := u*period - n; idle > 0 {
		return nil, paramError(kind, "uplinks", u, "no connected Opera schedule in %d draws (%v): %d ToRs leave %d idle slot(s) in the last round, which thins the slices around them; choose U dividing n", operaAttempts, lastErr, n, idle)
	}
	return nil, paramError(kind, "uplinks", u, "no connected Opera schedule in %d draws (%v); each slice holds only U−1 = %d matchings, try more uplinks", operaAttempts, lastErr, u-1)
}

// operaGapThreshold is the spectral gap every sparse slice of a lifted
// Opera schedule must be certified to reach: half the gap of a Ramanujan
// graph of degree d = U−1, (1 − 2√(d−1)/d)/2 (0.150 at U = 8). A random
// d-regular graph comes close to the Ramanujan gap (Friedman's theorem),
// so a slice below half of it is far from random; d ≤ 2 (a cycle at best)
// gives 0, i.e. connectivity only.
func operaGapThreshold(u int) float64 {
	d := float64(u - 1)
	if d <= 2 {
		return 0
	}
	return (1 - 2*math.Sqrt(d-1)/d) / 2
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
// error, between graphs); see eachGraph.
func spectralGaps(gs []circuits, canceled func() error) []float64 {
	out := make([]float64, len(gs))
	eachGraph(len(gs), canceled, func(ws *spectralWork, i int) { out[i] = ws.gap(gs[i]) })
	return out
}

// gapBounds computes gapBound(threshold) of every graph: the certified
// bounds, the Lanczos estimates and the steps taken.
func gapBounds(gs []circuits, threshold float64, canceled func() error) (bounds, estimates []float64, steps []int) {
	bounds, estimates, steps = make([]float64, len(gs)), make([]float64, len(gs)), make([]int, len(gs))
	eachGraph(len(gs), canceled, func(ws *spectralWork, i int) {
		bounds[i], estimates[i], steps[i] = ws.gapBound(gs[i], threshold)
	})
	return bounds, estimates, steps
}

// eachGraph calls do(ws, i) for i = 0…k−1 (until canceled returns an
// error, between calls) on GOMAXPROCS workers, each with its own reused
// buffers ws; do must write only its own index's results, so the output
// does not depend on scheduling.
func eachGraph(k int, canceled func() error, do func(ws *spectralWork, i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), k); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws spectralWork
			for i := range next {
				do(&ws, i)
			}
		}()
	}
	for i := 0; i < k; i++ {
		if canceled() != nil {
			break // the caller returns the error; the results are not used
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

// firstDisconnected returns the index of the first disconnected slice, or
// −1 (also when canceled, which the caller checks). Only the minimal
// slices are searched at first: every slice contains the circuits of a
// minimal one (follow strict-subset neighbours down), so all are connected
// iff the minimal ones are; the full scan runs only to name the first
// disconnected slice.
func firstDisconnected(s *rotor.Schedule, slices []slice, canceled func() error) int {
	var uf unionFind
	connected := func(sl slice) bool { return uf.connected(sl.graph(s)) }
	ok := true
	for i, sl := range slices {
		if i%64 == 0 && canceled() != nil {
			return -1
		}
		if sl.minimal(slices, i) && !connected(sl) {
			ok = false
			break
		}
	}
	if ok {
		return -1
	}
	for i, sl := range slices {
		if !connected(sl) {
			return i
		}
	}
	return -1
}

// unionFind decides whether a union of matchings is connected, reusing
// its parent array from one graph to the next.
type unionFind struct{ parent []int32 }

func (f *unionFind) connected(g circuits) bool {
	p := resize(f.parent, g.n)
	f.parent = p
	for i := range p {
		p[i] = int32(i)
	}
	find := func(x int32) int32 {
		for p[x] != x {
			p[x] = p[p[x]]
			x = p[x]
		}
		return x
	}
	parts := g.n
	for _, m := range g.maps {
		for u, v := range m {
			if v < 0 || v == u {
				continue
			}
			if ru, rv := find(int32(u)), find(int32(v)); ru != rv {
				p[ru] = rv
				parts--
			}
		}
	}
	return parts == 1
}
