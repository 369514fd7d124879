package emulated

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rdcn/rdcn/demand"
)

// An interrupted solve returns a certificate that Verify accepts and whose
// interval contains the closed form θ* (true rotor, n = 16, U = 5, shift
// permutation: θ* = 16/30), whether the context is done before the start
// or stops the solver after its k-th iteration.
func TestThroughputInterrupted(t *testing.T) {
	const want = 16.0 / 30
	g := mustGraph(t, rotorSchedule(16, 5, false))
	d := permutationDemand(16)
	for _, stopAfter := range []int{0, 1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		if stopAfter == 0 {
			cancel()
		}
		var seen []Progress
		opt := &Options{Gap: 1e-12, Context: ctx, Progress: func(p Progress) {
			seen = append(seen, p)
			if len(seen) == stopAfter {
				cancel()
			}
		}}
		r, err := Throughput(g, d, opt)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !r.Interrupted {
			t.Errorf("stop after %d: not marked interrupted (gap %v)", stopAfter, r.Gap)
		}
		if !within(r, want) {
			t.Errorf("stop after %d: θ* = %v not in [%v, %v]", stopAfter, want, r.Lower, r.Upper)
		}
		if err := Verify(g, r.Demand, r); err != nil {
			t.Errorf("stop after %d: %v", stopAfter, err)
		}
		if len(seen) != stopAfter {
			t.Errorf("stop after %d: %d progress reports", stopAfter, len(seen))
		}
		for i, p := range seen {
			if !(p.Lower <= want*(1+1e-9) && want <= p.Upper*(1+1e-9)) || p.Iteration != i+1 {
				t.Errorf("progress %d: %+v does not bracket θ* = %v", i, p, want)
			}
		}
		if stopAfter > 0 && (r.Lower < seen[len(seen)-1].Lower*(1-1e-12) || r.Upper > seen[len(seen)-1].Upper) {
			t.Errorf("stop after %d: result [%v, %v] worse than the last report %+v", stopAfter, r.Lower, r.Upper, seen[len(seen)-1])
		}
	}
}

// Without a context the solve reaches its gap and is not interrupted.
func TestThroughputNotInterrupted(t *testing.T) {
	g := mustGraph(t, rotorSchedule(16, 5, false))
	r, err := Throughput(g, permutationDemand(16), &Options{Context: context.Background()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Interrupted || r.Gap > DefaultGap {
		t.Errorf("interrupted %v, gap %v", r.Interrupted, r.Gap)
	}
}

// SourceFlow is sparse and sorted; At agrees with its entries and is 0
// elsewhere, and the flow of a source leaves it at Lower·Σ_t D_st.
func TestSourceFlowAt(t *testing.T) {
	const n = 8
	g := mustGraph(t, rotorSchedule(n, 4, true))
	r, err := Throughput(g, permutationDemand(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	for s, f := range r.Flow {
		out := 0.0
		for a := 0; a < n*n; a++ {
			x := f.At(a)
			if a/n == s {
				out += x
			}
			if a%n == s && x != 0 {
				t.Errorf("source %d: flow %v re-enters it on %d→%d", s, x, a/n, s)
			}
		}
		for i := 1; i < len(f.Arcs); i++ {
			if f.Arcs[i] <= f.Arcs[i-1] {
				t.Fatalf("source %d: arcs not increasing: %v", s, f.Arcs)
			}
		}
		want := 0.0
		for _, x := range r.Demand[s] {
			want += r.Lower * x
		}
		if diff := out - want; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("source %d sends %v, want %v", s, out, want)
		}
	}
}

// Trees grown on several goroutines give the same solve, bit for bit, as
// trees grown one after another (K_128 permutation and uniform, a random
// sparse schedule).
func TestParallelTreesDeterministic(t *testing.T) {
	for _, c := range []struct {
		name string
		g    *Graph
		d    func(int) demand.Matrix
	}{
		{"K128/permutation", completeGraph(128, 1), permutationDemand},
		{"K128/chessboard", completeGraph(128, 1), chessboardDemand},
		{"random64U2/permutation", mustGraph(t, randomSchedule(64, 2, 4, rand.New(rand.NewPCG(7, 0)))), permutationDemand},
	} {
		type outcome struct {
			lower, upper float64
			iters, paths int
		}
		var res [2]outcome
		for j, workers := range []int{1, 3} {
			dn, err := prepare(c.g, c.d(c.g.N), false)
			if err != nil {
				t.Fatal(err)
			}
			s := newPathSolver(c.g, dn)
			s.workers = workers
			flows, lam, _, upper, iters, _ := s.solve(1e-3, 10)
			res[j] = outcome{1 / lam, upper, iters, len(flows)}
			if len(flows) == 0 {
				t.Fatalf("%s: no flow", c.name)
			}
		}
		if res[0] != res[1] {
			t.Errorf("%s: 1 worker %+v, 3 workers %+v", c.name, res[0], res[1])
		}
	}
}

// A parallel pass stopped by the context ends cleanly (the race detector
// runs this in CI) and the interval still brackets θ* = 64/127 (K_128,
// unit capacities, shift permutation).
func TestParallelTreesInterrupted(t *testing.T) {
	g := completeGraph(128, 1)
	dn, err := prepare(g, permutationDemand(128), false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newPathSolver(g, dn)
	s.workers, s.ctx = 3, ctx
	// A timer, not Progress: the stop should land inside a pass or a
	// sweep, wherever it falls.
	time.AfterFunc(30*time.Millisecond, cancel)
	_, lam, _, upper, iters, stopped := s.solve(1e-12, 100000)
	const want = 64.0 / 127
	if !stopped || 1/lam > want*(1+1e-9) || upper < want*(1-1e-9) {
		t.Errorf("stopped %v after %d iterations, [%v, %v], want θ* = %v inside", stopped, iters, 1/lam, upper, want)
	}
}
